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
#include "cost.h"

int pact_bcast_binary_tree_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_KARY, 2, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

/* Binary k-ary tree bcast (breadth-first, a parent serves child 2v+1 then 2v+2): the path to v costs one
 * message per first-child edge and two per second-child edge, i.e. depth(v) + popcount(v+1) - 1; the largest
 * over v < P.  Derived from the schedule. */
static int binary_tree_path(int P)
{
    int best = 0;
    for (int x = 1; x <= P; x = x * 2 + 1) /* all-ones x, then P itself and P with one 1 cleared */
        best = (int)fmax(best, 2 * pact_flog2(x) + 0);
    int d = pact_flog2(P);
    best = (int)fmax(best, d + __builtin_popcount((unsigned)P) - 1);
    for (int j = 0; j < d; j++)
        if (P & (1 << j)) {
            int x = (P & ~((1 << (j + 1)) - 1)) | ((1 << j) - 1);
            best = (int)fmax(best, d + __builtin_popcount((unsigned)x) - 1);
        }
    return best;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int k = binary_tree_path(P);
    *src = "PG 2007 (binary tree), unsegmented; a parent serves its two children in turn, so the path to "
           "a rank costs one message per first-child and two per second-child edge (derived from the "
           "schedule)";
    pact_cost_set(t, k, k * m, 0);
    return 1;
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
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {NULL, 0, NULL},
    },
};
