/*
 * allreduce recursive_doubling
 *
 * Source:  Open MPI ompi_coll_base_allreduce_intra_recursivedoubling
 * (ompi/mca/coll/base/coll_base_allreduce.c), the fold for non-power-of-two P as there: of the first 2r ranks
 * (r = P - 2^floor(log2 P)), each even rank hands its vector to the odd rank above it and sits out the
 * exchange. Restrict: none (the operand order keeps lower ranks on the left, so non-commutative ops are
 * exact). Cost:     ceil(log2 P)*(alpha + beta*m + gamma*m); with a fold, + 2*(alpha + beta*m) + gamma*m.
 *
 *   P = 6, r = 2:  fold      0 -> 1, 2 -> 3          (new ranks: 1->0, 3->1, 4->2, 5->3)
 *                  exchange  distance 1: {1,3} {4,5}; distance 2: {1,4} {3,5}
 *                  unfold    1 -> 0, 3 -> 2
 *
 * The running result lives in `acc`, the incoming vector in `oth`; as in Open MPI the two swap whenever
 * the local vector must stay the left operand, and a final copy moves the result to RECV.
 */
#include "pact_coll.h"
#include "cost.h"

int pact_allreduce_recursive_doubling_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, size = a->size;
    if (n == 0)
        return PACT_OK;

    uint32_t acc = PACT_BUF_RECV, oth = PACT_BUF_TMP0;
    pact_need(s, PACT_BUF_TMP0, n);
    int last = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));

    const int pof2 = pact_pof2_floor(size);
    const int extra = size - pof2;
    int newrank;
    if (rank < 2 * extra) {
        if (rank % 2 == 0) {
            int x = pact_send(s, rank + 1, pact_sl(acc, 0, n));
            pact_after(s, last);
            last = x;
            newrank = -1;
        } else {
            int r = pact_recv(s, rank - 1, pact_sl(oth, 0, n));
            int x = pact_reduce(s, pact_sl(acc, 0, n), pact_sl(oth, 0, n));
            pact_after(s, r);
            pact_after(s, last);
            last = x;
            newrank = rank / 2;
        }
    } else {
        newrank = rank - extra;
    }

    if (newrank >= 0) {
        for (int dist = 1; dist < pof2; dist <<= 1) {
            int newremote = newrank ^ dist;
            int remote = newremote < extra ? newremote * 2 + 1 : newremote + extra;
            int r = pact_recv(s, remote, pact_sl(oth, 0, n));
            pact_after(s, last);
            int x = pact_send(s, remote, pact_sl(acc, 0, n));
            pact_after(s, last);
            if (rank < remote) { /* oth = acc (op) oth, then the roles swap */
                last = pact_reduce(s, pact_sl(oth, 0, n), pact_sl(acc, 0, n));
                uint32_t t = acc;
                acc = oth;
                oth = t;
            } else {
                last = pact_reduce(s, pact_sl(acc, 0, n), pact_sl(oth, 0, n));
            }
            pact_after(s, r);
            pact_after(s, x);
        }
    }

    if (rank < 2 * extra) {
        if (rank % 2 == 0) {
            int r = pact_recv(s, rank + 1, pact_sl(PACT_BUF_RECV, 0, n));
            pact_after(s, last);
            last = r;
        } else {
            pact_send(s, rank - 1, pact_sl(acc, 0, n));
            pact_after(s, last);
        }
    }
    if (acc != PACT_BUF_RECV) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(acc, 0, n));
        pact_after(s, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_flog2(P), pof2 = 1 << L;
    *src = pof2 == P ? "SUARA eq. 5; Thakur 2005"
                     : "Thakur 2005, with Open MPI's fold for P not a power of two (derived from the "
                       "schedule: one send before, one after, one reduction more)";
    if (pof2 == P)
        pact_cost_set(t, L, L * m, L * m);
    else
        pact_cost_set(t, L + 2, (L + 2) * m, (L + 1) * m);
    return 1;
}

const pact_alg pact_alg_allreduce_recursive_doubling = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "recursive_doubling",
    .build = pact_allreduce_recursive_doubling_build,
    .restrictions = 0,
    .ompi_id = 3,
    .mpich = "recursive_doubling",
    .smpi = "rdb",
    .source = "Open MPI ompi_coll_base_allreduce_intra_recursivedoubling (coll_base_allreduce.c)",
    .cost = "ceil(log2 P)*(alpha + beta*m + gamma*m) [+ 2*(alpha + beta*m) + gamma*m if P not pof2]",
    .terms = terms,
};
