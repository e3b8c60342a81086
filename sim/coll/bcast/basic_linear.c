/*
 * bcast basic_linear
 *
 * Source:   Open MPI ompi_coll_base_bcast_intra_basic_linear (ompi/mca/coll/base/coll_base_bcast.c):
 *           the root posts one nonblocking send of the whole buffer to every other rank, in rank order,
 *           and waits for all of them; every other rank posts one blocking receive from the root.
 * Restrict: none.
 * Cost:     (P-1)*(alpha + beta*m) at the root (the sends share its link).
 */
#include "pact_coll.h"
#include "cost.h"

int pact_bcast_basic_linear_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, root = a->root;
    if (n == 0 || p == 1)
        return PACT_OK;

    const pact_slice all = pact_sl(PACT_BUF_RECV, 0, n);
    if (rank != root) {
        pact_recv(s, root, all);
        return PACT_OK;
    }
    for (int i = 0; i < p; i++)
        if (i != rank)
            pact_send(s, i, all);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "SUARA eq. 2; PG 2007: the root's sends serialized";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

const pact_alg pact_alg_bcast_basic_linear = {
    .coll = PACT_COLL_BCAST,
    .name = "basic_linear",
    .build = pact_bcast_basic_linear_build,
    .restrictions = 0,
    .ompi_id = 1,
    .mpich = NULL,
    .smpi = "flattree",
    .source = "Open MPI ompi_coll_base_bcast_intra_basic_linear (coll_base_bcast.c)",
    .cost = "(P-1)*(alpha + beta*m)",
    .terms = terms,
};
