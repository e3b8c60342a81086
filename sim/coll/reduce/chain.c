/*
 * reduce chain
 *
 * Source:  Open MPI ompi_coll_base_reduce_intra_chain (ompi/mca/coll/base/coll_base_reduce.c):
 *          ompi_coll_base_reduce_generic (sim/coll/reduce/tree_generic.c) over `fanout` chains hanging off
 *          the root (ompi_coll_base_topo_build_chain, ranks shifted by the root), segments of `segsize`
 *          bytes flowing up each chain.  Defaults are coll_tuned's for a forced algorithm: segsize 0 (one
 *          segment), chain fanout 4 (coll_tuned_init_chain_fanout), max_requests 0 (no limit).
 * Restrict: commutative operation (a rank combines its children's data before its own).
 * Cost:     with S segments of s = m/S bytes and chains of L = ceil((P-1)/fanout) ranks:
 *           (L + S - 1)*(alpha + beta*s + gamma*s), plus the root's fanout-way fan-in per segment.
 *
 *   P = 9, fanout 4, root 0:   0 <- 1 <- 2,  0 <- 3 <- 4,  0 <- 5 <- 6,  0 <- 7 <- 8
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_reduce_chain_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_CHAIN, (int)a->params[1], a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_reduce_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count),
                                    PACT_BUF_SEND, PACT_BUF_RECV, a->inplace, (int)a->params[2]);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    /* fanout 4: a chain of L hops, then the root takes the f chain heads one after another */
    int f = P - 1 < 4 ? P - 1 : 4, len = (P - 1 + f - 1) / f;
    *src = "PG 2007 (chain), unsegmented; the root's f-way fan-in serialized on its receive port (derived "
           "from the schedule)";
    pact_cost_set(t, len - 1 + f, (len - 1 + f) * m, len * m);
    return 1;
}

const pact_alg pact_alg_reduce_chain = {
    .coll = PACT_COLL_REDUCE,
    .name = "chain",
    .build = pact_reduce_chain_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 2,
    .mpich = NULL,
    .smpi = "ompi_chain",
    .smpi_params = "segsize=64K:fanout=32",
    .source = "Open MPI ompi_coll_base_reduce_intra_chain + ompi_coll_base_reduce_generic "
              "(coll_base_reduce.c)",
    .cost = "(ceil((P-1)/fanout) + S - 1)*(alpha + beta*m/S + gamma*m/S) + fanout-way fan-in at the root, "
            "S segments",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"fanout", 4, "number of chains (coll_tuned_init_chain_fanout)"},
        {"max_requests", 0, "leaf sends in flight, 0: no limit (coll_tuned_reduce_algorithm_max_requests)"},
        {NULL, 0, NULL},
    },
};
