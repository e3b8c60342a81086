/*
 * reduce_scatter mpich_recursive_doubling
 *
 * Source:   MPICH 4.0 MPIR_Reduce_scatter_intra_recursive_doubling (src/mpi/coll/reduce_scatter/
 *           reduce_scatter_intra_recursive_doubling.c); SimGrid's reduce_scatter mpich_rdb
 *           (src/smpi/colls/reduce_scatter/reduce_scatter-mpich.cpp) is the same schedule.  The input is
 *           copied into a result vector.  At step i (mask = 2^i) rank r and r ^ mask exchange everything
 *           outside their own subtree's blocks [tree_root, tree_root + mask): one message of two pieces
 *           (MPICH's indexed datatype; here packed into scratch and sent whole) received into a scratch
 *           vector.  Where r ^ mask >= P, the subtree that had no partner gets the data from ranks of its
 *           own subtree that did, by recursive halving (MPICH's non-power-of-two fix-up); then the received
 *           pieces are reduced into the result (for an operation that does not commute, in rank order: the
 *           lower subtree's data on the left, then copied back).  Last, the rank's own block is copied out.
 * Restrict: none.
 * Cost:     ceil(log2 P)*alpha + sum over steps i of (P - 2^i)/P*m*(beta + gamma): step i moves every block
 *           outside a subtree of 2^i ((log2(P) - (P-1)/P)*m for P a power of two, about twice recursive
 *           halving's); the non-power-of-two fix-up's messages left out.
 *
 *   P = 4, rank 0:  step 1: <-> 1 all blocks but b0 (theirs: all but b1);  step 2: <-> 2 b2 b3 (b0 b1 back)
 */
#include "blocks.h"
#include "cost.h"

/* First element of block b, the end of the vector for b >= P. */
static size_t boff(size_t n, int p, int b)
{
    return b >= p ? n : rs_off(n, p, b);
}

static int pact_reduce_scatter_mpich_recursive_doubling_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0) /* MPI_Reduce_scatter returns at once when every recvcount is 0 */
        return PACT_OK;
    /* TMP0: the result vector [0, n) and the packed outgoing message [n, 2n); TMP1: the incoming one */
    const uint32_t res = PACT_BUF_TMP0, in = PACT_BUF_TMP1;
    pact_need(s, res, 2 * n);
    pact_need(s, in, n);
    int dep[2] = {pact_copy(s, pact_sl(res, 0, n), pact_sl(a->inplace ? PACT_BUF_RECV : PACT_BUF_SEND, 0, n)), -1};

    for (int mask = 1, i = 0; mask < p; mask <<= 1, i++) {
        const int dst = rank ^ mask, dtr = (dst >> i) << i, mtr = (rank >> i) << i;
        /* the two pieces sent (outside my subtree) and received (outside the partner's subtree) */
        const size_t s0 = boff(n, p, mtr), s1 = boff(n, p, mtr + mask);
        const size_t r0 = boff(n, p, dtr), r1 = boff(n, p, dtr + mask);
        const size_t slen = s0 + (n - s1), rlen = r0 + (n - r1);
        int received = 0;
        if (dst < p) {
            int c0 = -1, c1 = -1;
            if (s0 > 0) {
                c0 = pact_copy(s, pact_sl(res, n, s0), pact_sl(res, 0, s0));
                pact_after2(s, dep);
            }
            if (n > s1) {
                c1 = pact_copy(s, pact_sl(res, n + s0, n - s1), pact_sl(res, s1, n - s1));
                pact_after2(s, dep);
            }
            int r = pact_recv(s, dst, pact_sl(in, 0, rlen)); /* MPIC_Sendrecv: the receive posted first */
            pact_after2(s, dep);
            int x = pact_send(s, dst, pact_sl(res, n, slen));
            pact_after2(s, dep);
            pact_after(s, c0);
            pact_after(s, c1);
            dep[0] = r;
            dep[1] = x;
            received = 1;
        }
        if (dtr + mask > p) { /* the part of my subtree that had no partner gets the data by halving */
            const int done = p - mtr - mask;
            int k = 0;
            for (int j = mask; j; j >>= 1)
                k++;
            k--;
            for (int tm = mask >> 1; tm; tm >>= 1, k--) {
                const int d = rank ^ tm, root = (rank >> k) << k;
                if (d > rank && rank < root + done && d >= root + done) {
                    int x = pact_send(s, d, pact_sl(in, 0, rlen));
                    pact_after2(s, dep);
                    dep[0] = x;
                    dep[1] = -1;
                } else if (d < rank && d < root + done && rank >= root + done) {
                    int r = pact_recv(s, d, pact_sl(in, 0, rlen));
                    pact_after2(s, dep);
                    dep[0] = r;
                    dep[1] = -1;
                    received = 1;
                }
            }
        }
        if (received) {
            const pact_slice ia = pact_sl(in, 0, r0), ib = pact_sl(in, r0, n - r1);
            const pact_slice ra = pact_sl(res, 0, r0), rb = pact_sl(res, r1, n - r1);
            int e[2] = {-1, -1};
            if (a->commutative || dtr < mtr) { /* res = in (op) res */
                if (r0 > 0) {
                    e[0] = pact_reduce(s, ra, ia);
                    pact_after2(s, dep);
                }
                if (n > r1) {
                    e[1] = pact_reduce(s, rb, ib);
                    pact_after2(s, dep);
                }
            } else { /* in = res (op) in, then copied back into res */
                int f0 = -1, f1 = -1;
                if (r0 > 0) {
                    f0 = pact_reduce(s, ia, ra);
                    pact_after2(s, dep);
                    e[0] = pact_copy(s, ra, ia);
                    pact_after(s, f0);
                }
                if (n > r1) {
                    f1 = pact_reduce(s, ib, rb);
                    pact_after2(s, dep);
                    e[1] = pact_copy(s, rb, ib);
                    pact_after(s, f1);
                }
            }
            if (e[0] >= 0 || e[1] >= 0) {
                dep[0] = e[0];
                dep[1] = e[1];
            }
        }
    }
    const size_t mine = rs_len(n, p, rank);
    if (mine > 0) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, mine), pact_sl(res, rs_off(n, p, rank), mine));
        pact_after2(s, dep);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_clog2(P);
    double moved = 0;
    for (int i = 0; i < L; i++)
        moved += (double)(P - (1 << i)) / P;
    *src = "Thakur 2005 (recursive doubling reduce-scatter): step i moves the blocks outside a subtree of "
           "2^i, (P - 2^i)/P m; the non-power-of-two fix-up left out";
    pact_cost_set(t, L, moved * m, moved * m);
    return 1;
}

const pact_alg pact_alg_reduce_scatter_mpich_recursive_doubling = {
    .coll = PACT_COLL_REDUCE_SCATTER,
    .name = "mpich_recursive_doubling",
    .build = pact_reduce_scatter_mpich_recursive_doubling_build,
    .restrictions = 0,
    .ompi_id = 0,
    .mpich = "recursive_doubling",
    .smpi = "mpich_rdb",
    .source = "MPICH 4.0 MPIR_Reduce_scatter_intra_recursive_doubling (src/mpi/coll/reduce_scatter/"
              "reduce_scatter_intra_recursive_doubling.c)",
    .cost = "ceil(log2 P)*alpha + sum_i (P - 2^i)/P*m*(beta + gamma)",
    .terms = terms,
};
