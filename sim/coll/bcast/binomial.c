/*
 * bcast binomial
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_binomial (ompi/mca/coll/base/coll_base_bcast.c):
 *          ompi_coll_base_bcast_intra_generic (sim/coll/bcast/tree_generic.c) down the binomial tree of
 *          ompi_coll_base_topo_build_bmtree (ranks shifted by the root; the parent of v is v without its
 *          highest set bit, children are sent to nearest first), in segments of `segsize` bytes.  Default
 *          is coll_tuned's for a forced algorithm: segsize 0.
 * Restrict: none.
 * Cost:     unsegmented: ceil(log2 P)*(alpha + beta*m).
 *
 *   P = 8, root 0:   0 -> 1, 2, 4;  1 -> 3, 5;  2 -> 6;  3 -> 7
 *   MPICH's binomial (and SimGrid's binomial_tree) is another schedule: there 7's parent is 6, not 3,
 *   and a rank sends to its children one blocking send at a time, farthest first, while Open MPI starts
 *   all of a rank's sends at once; under SMPI at 64 ranks Open MPI's is 2.5x-5x slower from 1 KiB up.
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_bcast_binomial_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_BINOMIAL, 0, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int C = pact_clog2(P);
    *src = "PG 2007; Tran 2.2.4: ceil(log2 P)(alpha + beta m)";
    pact_cost_set(t, C, C * m, 0);
    return 1;
}

const pact_alg pact_alg_bcast_binomial = {
    .coll = PACT_COLL_BCAST,
    .name = "binomial",
    .build = pact_bcast_binomial_build,
    .restrictions = 0,
    .ompi_id = 6,
    .mpich = NULL, /* MPICH's binomial is mpich_binomial */
    .smpi = NULL, /* SimGrid's binomial_tree is MPICH's: other tree, blocking sends farthest first */
    .source = "Open MPI ompi_coll_base_bcast_intra_binomial + ompi_coll_base_bcast_intra_generic "
              "(coll_base_bcast.c)",
    .cost = "ceil(log2 P)*(alpha + beta*m) unsegmented",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {NULL, 0, NULL},
    },
};
