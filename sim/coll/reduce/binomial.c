/*
 * reduce binomial
 *
 * Source:  Open MPI ompi_coll_base_reduce_intra_binomial (ompi/mca/coll/base/coll_base_reduce.c):
 *          ompi_coll_base_reduce_generic (sim/coll/reduce/tree_generic.c) over the in-order binomial tree
 *          (ompi_coll_base_topo_build_in_order_bmtree, ranks shifted by the root: the parent of v is v
 *          without its lowest set bit; children are received nearest first), segments of `segsize`
 *          bytes.  Defaults are coll_tuned's for a forced algorithm: segsize 0 (one segment),
 *          max_requests 0 (no limit).
 * Restrict: commutative operation (a rank puts its children's data before its own).
 * Cost:     unsegmented: ceil(log2 P)*(alpha + beta*m + gamma*m).
 *
 *   P = 8, root 0:   0 <- 1, 0 <- 2 <- 3, 0 <- 4 <- 5, 4 <- 6 <- 7   (0 receives from 1, 2, 4 in turn)
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_reduce_binomial_build(pact_sched *s, const pact_build_args *a)
{
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_IN_ORDER_BINOMIAL, 0, a->rank, a->size, a->root, &t);
    if (rc != PACT_OK)
        return rc;
    return pact_reduce_tree_generic(s, a, &t, pact_seg_count(a->params[0], a->elem_size, a->count),
                                    PACT_BUF_SEND, PACT_BUF_RECV, a->inplace, (int)a->params[1]);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int C = pact_clog2(P);
    *src = "PG 2007; Tran 2.2.5: ceil(log2 P)(alpha + beta m + gamma m)";
    pact_cost_set(t, C, C * m, C * m);
    return 1;
}

const pact_alg pact_alg_reduce_binomial = {
    .coll = PACT_COLL_REDUCE,
    .name = "binomial",
    .build = pact_reduce_binomial_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 5,
    .mpich = NULL, /* MPICH's binomial waits for each child in turn: mpich_binomial */
    .smpi = "ompi_binomial",
    .source = "Open MPI ompi_coll_base_reduce_intra_binomial + ompi_coll_base_reduce_generic "
              "(coll_base_reduce.c)",
    .cost = "ceil(log2 P)*(alpha + beta*m + gamma*m) unsegmented",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"max_requests", 0, "leaf sends in flight, 0: no limit (coll_tuned_reduce_algorithm_max_requests)"},
        {NULL, 0, NULL},
    },
};
