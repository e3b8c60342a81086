/*
 * barrier bruck
 *
 * Source:   Open MPI ompi_coll_base_barrier_intra_bruck (ompi/mca/coll/base/coll_base_barrier.c, 4.1): the
 *           dissemination barrier.  At distance d = 1, 2, 4, ... < P each rank sends to rank + d and
 *           receives from rank - d (mod P), one sendrecv per step.
 * Restrict: none.
 * Cost:     ceil(log2 P)*alpha.
 *
 *   P = 5:  d=1: r -> r+1   d=2: r -> r+2   d=4: r -> r+4   (every rank has heard from all after 3 steps)
 */
#include "zero.h"
#include "cost.h"

static int pact_barrier_bruck_build(pact_sched *s, const pact_build_args *a)
{
    const int rank = a->rank, p = a->size;
    int last = -1;
    for (int d = 1; d < p; d <<= 1)
        last = pact_barrier_sendrecv(s, (rank + d) % p, (rank + p - d) % p, last);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    (void)m;
    *src = "Hensgen et al. 1988 (dissemination): ceil(log2 P) rounds";
    pact_cost_set(t, pact_clog2(P), 0, 0);
    return 1;
}

const pact_alg pact_alg_barrier_bruck = {
    .coll = PACT_COLL_BARRIER,
    .name = "bruck",
    .build = pact_barrier_bruck_build,
    .restrictions = 0,
    .ompi_id = 4,
    .mpich = "dissemination",
    .smpi = "ompi_bruck",
    .source = "Open MPI ompi_coll_base_barrier_intra_bruck (coll_base_barrier.c, 4.1)",
    .cost = "ceil(log2 P)*alpha",
    .terms = terms,
};
