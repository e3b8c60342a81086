/*
 * bcast chain
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_chain (ompi/mca/coll/base/coll_base_bcast.c):
 *          ompi_coll_base_bcast_intra_generic (sim/coll/bcast/tree_generic.c) down `fanout` chains hanging
 *          off the root (ompi_coll_base_topo_build_chain, ranks shifted by the root), in segments of
 *          `segsize` bytes.  Defaults are coll_tuned's for a forced algorithm: segsize 0 (one segment),
 *          chain fanout 4 (coll_tuned_init_chain_fanout).
 * Restrict: none.
 * Cost:     with S segments of s = m/S bytes and chains of L = ceil((P-1)/fanout) ranks:
 *           (L + S - 1)*(alpha + beta*s), the root sending each segment fanout times.
 *
 *   P = 9, fanout 4, root 0:   0 -> 1 -> 2,  0 -> 3 -> 4,  0 -> 5 -> 6,  0 -> 7 -> 8
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_bcast_chain_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_CHAIN, (int)a->params[1], a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_bcast_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count));
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    /* fanout 4: head c is served (c+1)-th by the root, then its chain of len_c ranks forwards */
    int f = P - 1 < 4 ? P - 1 : 4, len = (P - 1) / f, longer = (P - 1) % f, best = 0;
    if (longer)
        len++;
    else
        longer = f;
    for (int c = 0; c < f; c++)
        best = (int)fmax(best, c + (c < longer ? len : len - 1));
    *src = "PG 2007 (chain), unsegmented, the root serving the chain heads in turn (derived from the "
           "schedule)";
    pact_cost_set(t, best, best * m, 0);
    return 1;
}

const pact_alg pact_alg_bcast_chain = {
    .coll = PACT_COLL_BCAST,
    .name = "chain",
    .build = pact_bcast_chain_build,
    .restrictions = 0,
    .ompi_id = 2,
    .mpich = NULL,
    .smpi = NULL,
    .source = "Open MPI ompi_coll_base_bcast_intra_chain + ompi_coll_base_bcast_intra_generic "
              "(coll_base_bcast.c)",
    .cost = "(ceil((P-1)/fanout) + S - 1)*(alpha + beta*m/S) + (fanout-1)*beta*m/S per root segment, S "
            "segments",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"fanout", 4, "number of chains (coll_tuned_init_chain_fanout)"},
        {NULL, 0, NULL},
    },
};
