/*
 * reduce pipeline
 *
 * Source:  Open MPI ompi_coll_base_reduce_intra_pipeline (ompi/mca/coll/base/coll_base_reduce.c):
 *          ompi_coll_base_reduce_generic (sim/coll/reduce/tree_generic.c) over a single chain
 *          root <- root+1 <- ... <- root+P-1 (ompi_coll_base_topo_build_chain with fanout 1), segments of
 *          `segsize` bytes.  Defaults are coll_tuned's for a forced algorithm: segsize 0 (one segment, i.e.
 *          no pipelining), max_requests 0 (no limit).
 * Restrict: commutative operation (a rank combines the data from above before its own).
 * Cost:     with S segments of s = m/S bytes: (P + S - 2)*(alpha + beta*s + gamma*s).
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_reduce_pipeline_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_CHAIN, 1, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_reduce_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count),
                                    PACT_BUF_SEND, PACT_BUF_RECV, a->inplace, (int)a->params[1]);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "PG 2007, (P + S - 2)(alpha + beta m/S + gamma m/S) with S = 1";
    pact_cost_set(t, P - 1, (P - 1) * m, (P - 1) * m);
    return 1;
}

const pact_alg pact_alg_reduce_pipeline = {
    .coll = PACT_COLL_REDUCE,
    .name = "pipeline",
    .build = pact_reduce_pipeline_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 3,
    .mpich = NULL,
    .smpi = "ompi_pipeline",
    .smpi_params = "segsize=1K",
    .source = "Open MPI ompi_coll_base_reduce_intra_pipeline + ompi_coll_base_reduce_generic "
              "(coll_base_reduce.c)",
    .cost = "(P + S - 2)*(alpha + beta*m/S + gamma*m/S), S segments",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"max_requests", 0, "leaf sends in flight, 0: no limit (coll_tuned_reduce_algorithm_max_requests)"},
        {NULL, 0, NULL},
    },
};
