/*
 * barrier two_proc
 *
 * Source:   Open MPI ompi_coll_base_barrier_intra_two_procs (ompi/mca/coll/base/coll_base_barrier.c, 4.1):
 *           the two ranks exchange one empty message (a sendrecv).  Open MPI returns
 *           MPI_ERR_UNSUPPORTED_OPERATION for more than two ranks, and its forced-algorithm dispatch has no
 *           fallback; pact marks the algorithm restricted there.
 * Restrict: P <= 2.
 * Cost:     alpha.
 */
#include "zero.h"
#include "cost.h"

static int pact_barrier_two_proc_build(pact_sched *s, const pact_build_args *a)
{
    if (a->size == 1)
        return PACT_OK;
    const int peer = a->rank ^ 1;
    pact_barrier_sendrecv(s, peer, peer, -1);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    (void)m;
    if (P > 2)
        return 0;
    *src = "one exchange";
    pact_cost_set(t, 1, 0, 0);
    return 1;
}

const pact_alg pact_alg_barrier_two_proc = {
    .coll = PACT_COLL_BARRIER,
    .name = "two_proc",
    .build = pact_barrier_two_proc_build,
    .restrictions = PACT_R_TWO_PROCS,
    .ompi_id = 5,
    .mpich = NULL,
    .smpi = "ompi_two_procs",
    .source = "Open MPI ompi_coll_base_barrier_intra_two_procs (coll_base_barrier.c, 4.1)",
    .cost = "alpha",
    .terms = terms,
};
