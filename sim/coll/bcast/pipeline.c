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

int pact_bcast_pipeline_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_CHAIN, 1, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}
