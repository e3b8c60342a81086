/*
 * reduce_scatter ring
 *
 * Source:   Open MPI ompi_coll_base_reduce_scatter_intra_ring (ompi/mca/coll/base/coll_base_reduce_scatter.c,
 *           4.1).  The input is copied into an accumulation buffer of the whole vector.  A receive from the
 *           left is posted, then block rank-1 goes to the right (blocking send); at step k = 2..P-1 the
 *           next receive is posted into the other of two incoming buffers, the previous one is waited for,
 *           reduced into block rank-k and that block is sent on; the last block to arrive is this rank's
 *           own, reduced and copied to the receive buffer.  Blocks of 0 elements still travel (empty
 *           messages), as there.  Open MPI posts each receive for the largest block; here each receive has
 *           the size of the block that arrives (the bytes moved are the same).
 * Restrict: commutative operation (blocks are reduced in ring order, not rank order).
 * Cost:     (P-1)*(alpha + beta*m/P + gamma*m/P).
 *
 *   P = 4 (k: block sent by rank r; it receives block r-k-1 from the left and reduces it):
 *            rank0  rank1  rank2  rank3
 *   first    b3     b0     b1     b2
 *   k = 2    b2     b3     b0     b1
 *   k = 3    b1     b2     b3     b0       -> then rank r receives and reduces block r itself
 */
#include "blocks.h"
#include "cost.h"

/* Block b (mod P) of the accumulation buffer, and incoming buffer i sized for block b. */
static pact_slice blk(size_t n, int p, int b)
{
    b = (b + p) % p;
    return pact_sl(PACT_BUF_TMP0, rs_off(n, p, b), rs_len(n, p, b));
}

static pact_slice in_slice(size_t n, int p, int i, int b)
{
    return pact_sl(PACT_BUF_TMP1, (size_t)i * rs_len(n, p, 0), rs_len(n, p, (b + p) % p));
}

static int pact_reduce_scatter_ring_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0) /* MPI_Reduce_scatter returns at once when every recvcount is 0 */
        return PACT_OK;
    if (p == 1) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
        return PACT_OK;
    }
    /* TMP0: the accumulation buffer; TMP1: the incoming buffers, each of the first (longest) block's size */
    pact_need(s, PACT_BUF_TMP0, n);
    pact_need(s, PACT_BUF_TMP1, (p > 2 ? 2 : 1) * rs_len(n, p, 0));
    const int right = (rank + 1) % p, left = (rank + p - 1) % p;

    int c = pact_copy(s, pact_sl(PACT_BUF_TMP0, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    int inbi = 0, r = pact_recv(s, left, in_slice(n, p, 0, rank - 2));
    pact_after(s, c);
    int x = pact_send(s, right, blk(n, p, rank - 1));
    pact_after(s, c);
    for (int k = 2; k < p; k++) {
        const int prevblock = rank - k;
        inbi ^= 1;
        int rn = pact_recv(s, left, in_slice(n, p, inbi, rank - k - 1));
        pact_after(s, x);
        int red = pact_reduce(s, blk(n, p, prevblock), in_slice(n, p, inbi ^ 1, prevblock));
        pact_after(s, r);
        pact_after(s, x);
        x = pact_send(s, right, blk(n, p, prevblock));
        pact_after(s, red);
        r = rn;
    }
    int red = pact_reduce(s, blk(n, p, rank), in_slice(n, p, inbi, rank));
    pact_after(s, r);
    pact_after(s, x);
    pact_copy(s, pact_sl(PACT_BUF_RECV, 0, rs_len(n, p, rank)), blk(n, p, rank));
    pact_after(s, red);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const double b = pact_cost_big_block(m, P);
    *src = "Thakur 2005; PG 2007: (P-1)(alpha + (beta + gamma) m/P), blocks of ceil(count/P) elements";
    pact_cost_set(t, P - 1.0, (P - 1.0) * b, (P - 1.0) * b);
    return 1;
}

const pact_alg pact_alg_reduce_scatter_ring = {
    .coll = PACT_COLL_REDUCE_SCATTER,
    .name = "ring",
    .build = pact_reduce_scatter_ring_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 3,
    .mpich = NULL,
    .smpi = "ompi_ring",
    .source = "Open MPI ompi_coll_base_reduce_scatter_intra_ring (coll_base_reduce_scatter.c, 4.1)",
    .cost = "(P-1)*(alpha + beta*m/P + gamma*m/P)",
    .terms = terms,
    .rotates = rs_rotates, /* equal blocks: rank r's ring is rank 0's turned */
};
