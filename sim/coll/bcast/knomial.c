/*
 * bcast knomial
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_knomial (ompi/mca/coll/base/coll_base_bcast.c):
 *          ompi_coll_base_bcast_intra_generic (sim/coll/bcast/tree_generic.c) down the k-nomial tree of
 *          ompi_coll_base_topo_build_kmtree (ranks shifted by the root, children sent to farthest first),
 *          in segments of `segsize` bytes.  Defaults are coll_tuned's: segsize 0, radix 4
 *          (coll_tuned_bcast_knomial_radix).
 * Restrict: none (a radix below 2 is an argument error).
 * Cost:     unsegmented: ceil(log_radix P)*(radix-1)*(alpha + beta*m) at most.
 *
 *   P = 10, radix 4, root 0:   0 -> 4, 8, 1, 2, 3;  4 -> 5, 6, 7;  8 -> 9
 */
#include "common.h"
#include "topo.h"

int pact_bcast_knomial_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_KNOMIAL, (int)a->params[1], a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

const pact_alg pact_alg_bcast_knomial = {
    .coll = PACT_COLL_BCAST,
    .name = "knomial",
    .build = pact_bcast_knomial_build,
    .restrictions = 0,
    .ompi_id = 7,
    .mpich = NULL,
    .smpi = NULL,
    .source = "Open MPI ompi_coll_base_bcast_intra_knomial + ompi_coll_base_bcast_intra_generic "
              "(coll_base_bcast.c)",
    .cost = "ceil(log_radix P)*(radix-1)*(alpha + beta*m) unsegmented",
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"radix", 4, "k-nomial tree radix (coll_tuned_bcast_knomial_radix)"},
        {NULL, 0, NULL},
    },
};
