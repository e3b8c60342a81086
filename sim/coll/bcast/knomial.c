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
#include "cost.h"

int pact_bcast_knomial_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_KNOMIAL, (int)a->params[1], a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

/* K-nomial bcast (ompi_coll_base_topo_build_kmtree): a subtree of n ranks whose root may use digit positions
 * below i; the root serves children farthest first (positions i-1 down to 0, digits 1..radix-1), one after
 * another.  Returns the most messages on a path from the root; a full subtree (n = radix^i) costs
 * i*(radix-1), so only the one partial child recurses: O(radix log^2 P).  Derived from the schedule. */
static int knomial_path(int i, long n, int radix)
{
    int best = 0, idx = 0;
    long pw = 1;
    for (int k = 1; k < i; k++)
        pw *= radix;
    for (int ip = i - 1; ip >= 0; ip--, pw /= radix)
        for (int d = 1; d < radix && d * pw < n; d++) {
            idx++;
            long sub = n - d * pw < pw ? n - d * pw : pw;
            int g = sub == pw ? ip * (radix - 1) : knomial_path(ip, sub, radix);
            best = idx + g > best ? idx + g : best;
        }
    return best;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int K = 0;
    for (long x = 1; x < P; x *= 4)
        K++;
    int k = knomial_path(K, P, 4);
    *src = "(radix - 1) ceil(log_radix P)(alpha + beta m) for P a power of the radix 4, each parent serving "
           "its children farthest first, one after another; the longest such path for other P (derived "
           "from the schedule)";
    pact_cost_set(t, k, k * m, 0);
    return 1;
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
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"radix", 4, "k-nomial tree radix (coll_tuned_bcast_knomial_radix)"},
        {NULL, 0, NULL},
    },
};
