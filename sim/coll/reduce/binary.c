/*
 * reduce binary
 *
 * Source:  Open MPI ompi_coll_base_reduce_intra_binary (ompi/mca/coll/base/coll_base_reduce.c):
 *          ompi_coll_base_reduce_generic (sim/coll/reduce/tree_generic.c) over the breadth-first binary
 *          tree (ompi_coll_base_topo_build_tree with fanout 2, ranks shifted by the root), segments of
 *          `segsize` bytes.  Defaults are coll_tuned's for a forced algorithm: segsize 0 (one segment),
 *          max_requests 0 (no limit).
 * Restrict: commutative operation (the subtrees are not contiguous in rank order).
 * Cost:     with S segments of s = m/S bytes: (floor(log2 P) + S - 1)*(2*alpha + 2*beta*s + 2*gamma*s).
 *
 *   P = 7, root 0:        0
 *                       /   \
 *                      1     2
 *                     / \   / \
 *                    3   5 4   6
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_reduce_binary_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_KARY, 2, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_reduce_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count),
                                    PACT_BUF_SEND, PACT_BUF_RECV, a->inplace, (int)a->params[1]);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int D = pact_flog2(P);
    *src = "PG 2007 (binary tree), unsegmented: per level two messages on the parent's receive port and "
           "one reduction on the critical path (derived from the schedule)";
    pact_cost_set(t, 2.0 * D, 2.0 * D * m, D * m);
    return 1;
}

const pact_alg pact_alg_reduce_binary = {
    .coll = PACT_COLL_REDUCE,
    .name = "binary",
    .build = pact_reduce_binary_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 4,
    .mpich = NULL,
    .smpi = "ompi_binary",
    .smpi_params = "segsize=32K",
    .source = "Open MPI ompi_coll_base_reduce_intra_binary + ompi_coll_base_reduce_generic "
              "(coll_base_reduce.c)",
    .cost = "(floor(log2 P) + S - 1)*2*(alpha + beta*m/S + gamma*m/S), S segments",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"max_requests", 0, "leaf sends in flight, 0: no limit (coll_tuned_reduce_algorithm_max_requests)"},
        {NULL, 0, NULL},
    },
};
