/*
 * reduce in_order_binary
 *
 * Source:  Open MPI ompi_coll_base_reduce_intra_in_order_binary (ompi/mca/coll/base/coll_base_reduce.c):
 *          ompi_coll_base_reduce_generic (sim/coll/reduce/tree_generic.c) over the in-order binary tree
 *          (ompi_coll_base_topo_build_in_order_bintree), whose root is always rank P-1 and whose subtrees
 *          cover contiguous rank ranges, so non-commutative operations stay in rank order.  For another
 *          root, rank P-1 reduces into a scratch vector and sends the result to the root at the end; an
 *          in-place root first copies its vector to scratch, as its receive buffer gets the result.
 *          Defaults are coll_tuned's for a forced algorithm: segsize 0 (one segment), max_requests 0.
 * Restrict: none.
 * Cost:     unsegmented: about 2*floor(log2 P)*(alpha + beta*m + gamma*m) [+ alpha + beta*m if root != P-1].
 *
 *   P = 9:            8
 *                   /   \
 *                  7     3        rank 8 = (2..0 reduced by 3) op (7..4 reduced by 7) op v8, in order:
 *                /  \   / \       a parent folds in its left child (just below it), then its right child.
 *               6    5 2   1
 *                   /     /
 *                  4     0
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_reduce_in_order_binary_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int io_root = a->size - 1, rank = a->rank;
    if (n == 0)
        return PACT_OK;
    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_IN_ORDER_BINARY, 0, rank, a->size, 0, &t);
    if (rc != PACT_OK)
        return rc;
    const size_t sc = pact_seg_count(a->params[0], a->elem_size, n);
    const int max_reqs = (int)a->params[1];
    if (a->root == io_root)
        return pact_reduce_tree_generic(s, a, &t, sc, PACT_BUF_SEND, PACT_BUF_RECV, a->inplace, max_reqs);

    uint32_t sbuf = PACT_BUF_SEND, rbuf = PACT_BUF_RECV;
    if (rank == a->root && a->inplace) {
        /* the receive buffer will be overwritten by the result: reduce from a copy */
        pact_need(s, PACT_BUF_TMP1, n);
        pact_copy(s, pact_sl(PACT_BUF_TMP1, 0, n), pact_sl(PACT_BUF_RECV, 0, n));
        pact_fence(s);
        sbuf = PACT_BUF_TMP1;
    } else if (rank == io_root) {
        rbuf = PACT_BUF_TMP0; /* the generic reduce's accumulator, TMP0's first n elements */
    }
    rc = pact_reduce_tree_generic(s, a, &t, sc, sbuf, rbuf, 0, max_reqs);
    if (rc != PACT_OK)
        return rc;
    if (rank == a->root) {
        pact_fence(s);
        pact_recv(s, io_root, pact_sl(PACT_BUF_RECV, 0, n));
    } else if (rank == io_root) {
        pact_fence(s);
        pact_send(s, a->root, pact_sl(PACT_BUF_TMP0, 0, n));
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int D = pact_flog2(P);
    *src = "PG 2007 (binary tree) with Open MPI's final send from rank P-1 to root 0 (derived from the "
           "schedule)";
    pact_cost_set(t, 2.0 * D + 1, (2.0 * D + 1) * m, 2.0 * D * m);
    return 1;
}

const pact_alg pact_alg_reduce_in_order_binary = {
    .coll = PACT_COLL_REDUCE,
    .name = "in_order_binary",
    .build = pact_reduce_in_order_binary_build,
    .restrictions = 0,
    .ompi_id = 6,
    .mpich = NULL,
    .smpi = "ompi_in_order_binary",
    .source = "Open MPI ompi_coll_base_reduce_intra_in_order_binary + ompi_coll_base_reduce_generic "
              "(coll_base_reduce.c)",
    .cost = "2*floor(log2 P)*(alpha + beta*m + gamma*m) unsegmented [+ alpha + beta*m if root != P-1]",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {"max_requests", 0, "leaf sends in flight, 0: no limit (coll_tuned_reduce_algorithm_max_requests)"},
        {NULL, 0, NULL},
    },
};
