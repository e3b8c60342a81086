/*
 * bcast binary_tree
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_bintree (ompi/mca/coll/base/coll_base_bcast.c):
 *          ompi_coll_base_bcast_intra_generic (sim/coll/bcast/tree_generic.c) down the breadth-first
 *          binary tree (ompi_coll_base_topo_build_tree with fanout 2, ranks shifted by the root), in
 *          segments of `segsize` bytes.  Default is coll_tuned's for a forced algorithm: segsize 0.
 * Restrict: none.
 * Cost:     with S segments of s = m/S bytes: (floor(log2 P) + S - 1)*(alpha + 2*beta*s).
 *
 *   P = 7, root 0:   0 -> 1, 2;  1 -> 3, 5;  2 -> 4, 6
 */
#include "common.h"
#include "topo.h"

int pact_bcast_binary_tree_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_KARY, 2, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

const pact_alg pact_alg_bcast_binary_tree = {
    .coll = PACT_COLL_BCAST,
    .name = "binary_tree",
    .build = pact_bcast_binary_tree_build,
    .restrictions = 0,
    .ompi_id = 5,
    .mpich = NULL,
    .smpi = NULL,
    .source = "Open MPI ompi_coll_base_bcast_intra_bintree + ompi_coll_base_bcast_intra_generic "
              "(coll_base_bcast.c)",
    .cost = "(floor(log2 P) + S - 1)*(alpha + 2*beta*m/S), S segments",
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {NULL, 0, NULL},
    },
};
