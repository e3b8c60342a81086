/*
 * allreduce basic_linear
 *
 * Source:   Open MPI ompi_coll_base_allreduce_intra_basic_linear (ompi/mca/coll/base/coll_base_allreduce.c):
 *           a linear reduce to rank 0 (ompi_coll_base_reduce_intra_basic_linear, pact's reduce "linear",
 *           Open MPI id 1), then a linear broadcast from rank 0 (bcast basic_linear); the broadcast
 *           starts once the reduce has completed on this rank.  In place, rank 0 reduces in place and the
 *           other ranks send their receive buffer, as there.
 * Restrict: none.
 * Cost:     (P-1)*(alpha + beta*m + gamma*m) + (P-1)*(alpha + beta*m).
 */
#include "pact_coll.h"
#include "cost.h"

int pact_allreduce_basic_linear_build(pact_sched *s, const pact_build_args *a)
{
    if (a->count == 0)
        return PACT_OK;
    pact_build_args b = *a;
    b.coll = PACT_COLL_REDUCE;
    b.root = 0;
    b.inplace = a->inplace && a->rank == 0;
    int rc = pact_reduce_linear_build(s, &b);
    if (rc != PACT_OK)
        return rc;
    pact_fence(s);
    b = *a;
    b.coll = PACT_COLL_BCAST;
    b.root = 0;
    b.inplace = 0;
    return pact_bcast_basic_linear_build(s, &b);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "SUARA eq. 3 (Table 1): linear reduce, then linear bcast";
    pact_cost_set(t, 2.0 * (P - 1), 2.0 * (P - 1) * m, (P - 1) * m);
    return 1;
}

const pact_alg pact_alg_allreduce_basic_linear = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "basic_linear",
    .build = pact_allreduce_basic_linear_build,
    .restrictions = 0,
    .ompi_id = 1,
    .mpich = NULL,
    .smpi = "redbcast:reduce=ompi_basic_linear:bcast=flattree",
    .source = "Open MPI ompi_coll_base_allreduce_intra_basic_linear (coll_base_allreduce.c)",
    .cost = "(P-1)*(alpha + beta*m + gamma*m) + (P-1)*(alpha + beta*m)",
    .terms = terms,
};
