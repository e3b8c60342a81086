/*
 * barrier recursive_doubling
 *
 * Source:   Open MPI ompi_coll_base_barrier_intra_recursivedoubling (ompi/mca/coll/base/coll_base_barrier.c,
 *           4.1).  With pof2 the largest power of two <= P, ranks pof2.. first exchange with rank - pof2
 *           (a sendrecv) while the rank below only receives; the pof2 low ranks then run log2(pof2) sendrecv
 *           steps with rank ^ 1, rank ^ 2, ...; finally each low rank with a partner above sends it the
 *           message its pending receive is waiting for.  Open MPI's final send is synchronous; it is a
 *           standard send here (the IR has none; SimGrid's ompi_recursivedoubling does the same).
 * Restrict: none.
 * Cost:     log2(P)*alpha for P a power of two, else (floor(log2 P) + 2)*alpha.
 *
 *   P = 6 (pof2 = 4):   4 -> 0, 5 -> 1 | 0<->1 2<->3 | 0<->2 1<->3 | 0 -> 4, 1 -> 5
 */
#include "zero.h"
#include "cost.h"

static int pact_barrier_recursive_doubling_build(pact_sched *s, const pact_build_args *a)
{
    const int rank = a->rank, p = a->size, pof2 = pact_pof2_floor(p);
    if (p == 1)
        return PACT_OK;
    int last = -1;
    if (rank >= pof2) { /* its receive is answered by the low rank's final send */
        pact_barrier_sendrecv(s, rank - pof2, rank - pof2, -1);
        return PACT_OK;
    }
    if (rank < p - pof2)
        last = pact_barrier_recv(s, rank + pof2, -1);
    for (int mask = 1; mask < pof2; mask <<= 1)
        last = pact_barrier_sendrecv(s, rank ^ mask, rank ^ mask, last);
    if (rank < p - pof2)
        pact_barrier_send(s, rank + pof2, last);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_flog2(P);
    (void)m;
    *src = (1 << L) == P ? "log2 P exchanges (Thakur 2005, recursive doubling)"
                         : "floor(log2 P) exchanges, plus the fold in and the release of the ranks above "
                           "the power of two (derived from the schedule)";
    pact_cost_set(t, (1 << L) == P ? L : L + 2.0, 0, 0);
    return 1;
}

const pact_alg pact_alg_barrier_recursive_doubling = {
    .coll = PACT_COLL_BARRIER,
    .name = "recursive_doubling",
    .build = pact_barrier_recursive_doubling_build,
    .restrictions = 0,
    .ompi_id = 3,
    .mpich = NULL,
    .smpi = "ompi_recursivedoubling",
    .source = "Open MPI ompi_coll_base_barrier_intra_recursivedoubling (coll_base_barrier.c, 4.1)",
    .cost = "log2(P)*alpha [(floor(log2 P) + 2)*alpha if P not pof2]",
    .terms = terms,
};
