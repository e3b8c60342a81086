/*
 * reduce_scatter recursive_halving
 *
 * Source:   Open MPI ompi_coll_base_reduce_scatter_intra_basic_recursivehalving (coll_base_reduce_scatter.c
 *           in ompi/mca/coll/base, 4.1; MPICH's recursive halving, which it copies).  The input is copied
 *           into a result buffer.  P not a power of two: among the first 2r ranks the even ones send their
 *           whole vector to rank + 1 and sit out, the odd ones reduce it into theirs (blocks.h).  Then, with
 *           mask from pof2/2 down to 1, each virtual rank exchanges half of the virtual blocks it still holds
 *           with virtual rank ^ mask (the lower rank keeps the lower half): a receive posted first, a
 *           blocking send, the wait, the reduction of the half kept.  Its own block is copied out; last, each
 *           odd rank of the first 2r sends the even one its block.  Messages of 0 elements are skipped, as
 *           there.
 * Restrict: commutative operation (the received half is the left operand whatever the peer's rank).
 * Cost:     log2(P)*alpha + (P-1)/P*m*(beta + gamma) for P a power of two; otherwise the fold adds
 *           alpha + m*(beta + gamma) and the last send alpha + beta*m/P.
 *
 *   P = 4, blocks b0..b3 (each rank holds all four; after the steps rank r holds b_r reduced):
 *   mask 2:  0 <-> 2: 0 keeps b0 b1, 2 keeps b2 b3     1 <-> 3: 1 keeps b0 b1, 3 keeps b2 b3
 *   mask 1:  0 <-> 1: 0 keeps b0, 1 keeps b1           2 <-> 3: 2 keeps b2, 3 keeps b3
 */
#include "blocks.h"
#include "cost.h"

static int pact_reduce_scatter_recursive_halving_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, pof2 = pact_pof2_floor(p), rem = p - pof2;
    if (n == 0) /* MPI_Reduce_scatter returns at once when every recvcount is 0 */
        return PACT_OK;
    const uint32_t res = PACT_BUF_TMP0, in = PACT_BUF_TMP1;
    pact_need(s, res, n);
    pact_need(s, in, n);
    const size_t mine = rs_len(n, p, rank);

    int vrank, last = rs_fold(s, rank, rem, n, res, in, &vrank);

    if (vrank >= 0) {
        int send_index = 0, recv_index = 0, last_index = pof2;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            const int vpeer = vrank ^ mask, peer = rs_real(vpeer, rem);
            pact_slice snd, rcv;
            if (vrank < vpeer) {
                send_index = recv_index + mask;
                snd = rs_vslice(res, n, p, pof2, send_index, last_index);
                rcv = rs_vslice(in, n, p, pof2, recv_index, send_index);
            } else {
                recv_index = send_index + mask;
                snd = rs_vslice(res, n, p, pof2, send_index, recv_index);
                rcv = rs_vslice(in, n, p, pof2, recv_index, last_index);
            }
            const int prev = last;
            int r = -1, x = -1;
            if (rcv.count > 0) {
                r = pact_recv(s, peer, rcv);
                pact_after(s, prev);
            }
            if (snd.count > 0) {
                x = pact_send(s, peer, snd);
                pact_after(s, prev);
            }
            if (rcv.count > 0) {
                last = pact_reduce(s, pact_sl(res, rcv.off, rcv.count), rcv);
                pact_after(s, r);
                pact_after(s, x);
            } else if (x >= 0) {
                last = x;
            }
            send_index = recv_index;
            last_index = recv_index + mask;
        }
        if (mine > 0) {
            int c = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, mine), pact_sl(res, rs_off(n, p, rank), mine));
            pact_after(s, last);
            last = c;
        }
    }

    if (rank < 2 * rem && rank % 2 == 0 && mine > 0) {
        pact_recv(s, rank + 1, pact_sl(PACT_BUF_RECV, 0, mine));
        pact_after(s, last);
    } else if (rank < 2 * rem && rank % 2 == 1 && rs_len(n, p, rank - 1) > 0) {
        pact_send(s, rank - 1, pact_sl(res, rs_off(n, p, rank - 1), rs_len(n, p, rank - 1)));
        pact_after(s, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_flog2(P), pof2 = 1 << L;
    const double b = pact_cost_big_block(m, P), f = (pof2 - 1.0) / pof2;
    *src = pof2 == P ? "Thakur 2005 (recursive halving): log2 P alpha + (P-1)/P m (beta + gamma)"
                     : "Thakur 2005 for the power of two below P, the largest exchange of each step (the "
                       "folded ranks hold two blocks), plus the fold of the first 2r ranks (alpha + m (beta "
                       "+ gamma)) and their last block (alpha + beta m/P)";
    if (pof2 == P)
        pact_cost_set(t, L, f * m, f * m);
    else
        rs_halving_steps(P, m, 0, t);
    if (pof2 != P)
        pact_cost_set(t, t->a + 2, t->b + m + b, t->c + m);
    return 1;
}

const pact_alg pact_alg_reduce_scatter_recursive_halving = {
    .coll = PACT_COLL_REDUCE_SCATTER,
    .name = "recursive_halving",
    .build = pact_reduce_scatter_recursive_halving_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 2,
    .mpich = "recursive_halving",
    .smpi = "ompi_basic_recursivehalving",
    .source = "Open MPI ompi_coll_base_reduce_scatter_intra_basic_recursivehalving (coll_base_reduce_scatter.c, "
              "4.1)",
    .cost = "log2(P)*alpha + (P-1)/P*m*(beta + gamma) [+ alpha + m*(beta + gamma) + alpha + beta*m/P if P not "
            "pof2]",
    .terms = terms,
};
