/*
 * bcast pipeline
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_pipeline (ompi/mca/coll/base/coll_base_bcast.c):
 *          ompi_coll_base_bcast_intra_generic (sim/coll/bcast/tree_generic.c) down the single chain
 *          root -> root+1 -> ... -> root+P-1 (ompi_coll_base_topo_build_chain with fanout 1), in segments
 *          of `segsize` bytes.  Default is coll_tuned's for a forced algorithm: segsize 0 (one segment,
 *          i.e. no pipelining).
 * Restrict: none.
 * Cost:     with S segments of s = m/S bytes: (P + S - 2)*(alpha + beta*s).
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_bcast_pipeline_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_CHAIN, 1, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "PG 2007, (P + S - 2)(alpha + beta m/S) with S = 1";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

const pact_alg pact_alg_bcast_pipeline = {
    .coll = PACT_COLL_BCAST,
    .name = "pipeline",
    .build = pact_bcast_pipeline_build,
    .restrictions = 0,
    .ompi_id = 3,
    .mpich = NULL,
    .smpi = "ompi_pipeline",
    .smpi_params = "segsize=128K",
    .source = "Open MPI ompi_coll_base_bcast_intra_pipeline + ompi_coll_base_bcast_intra_generic "
              "(coll_base_bcast.c)",
    .cost = "(P + S - 2)*(alpha + beta*m/S), S segments",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {NULL, 0, NULL},
    },
};
