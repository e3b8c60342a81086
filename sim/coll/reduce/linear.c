/*
 * reduce linear
 *
 * Source:  Open MPI ompi_coll_base_reduce_intra_basic_linear (ompi/mca/coll/base/coll_base_reduce.c):
 *          every rank sends its vector to the root; the root starts from rank P-1's vector and folds in
 *          ranks P-2, ..., 0 one blocking receive at a time (result = v_i op result), so the result is in
 *          rank order.  In place, the root reduces into a scratch vector and copies it back at the end.
 * Restrict: none (non-commutative operations are reduced in rank order).
 * Cost:     (P-1)*(alpha + beta*m + gamma*m) at the root.
 */
#include "pact_coll.h"
#include "cost.h"

int pact_reduce_linear_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    if (rank != a->root) {
        pact_send(s, a->root, pact_sl(PACT_BUF_SEND, 0, n));
        return PACT_OK;
    }

    /* In place the user's vector is our input and the result builds up in TMP1 until the end. */
    const uint32_t res = a->inplace ? PACT_BUF_TMP1 : PACT_BUF_RECV;
    const pact_slice all = pact_sl(res, 0, n), in = pact_sl(PACT_BUF_TMP0, 0, n);
    if (a->inplace)
        pact_need(s, PACT_BUF_TMP1, n);
    if (p > 1)
        pact_need(s, PACT_BUF_TMP0, n);

    int last = rank == p - 1 ? pact_copy(s, all, pact_sl(PACT_BUF_SEND, 0, n)) : pact_recv(s, p - 1, all);
    for (int i = p - 2; i >= 0; i--) {
        int r = -1;
        if (i != rank) {
            r = pact_recv(s, i, in);
            pact_after(s, last);
        }
        int x = pact_reduce(s, all, i == rank ? pact_sl(PACT_BUF_SEND, 0, n) : in);
        pact_after(s, r);
        pact_after(s, last);
        last = x;
    }
    if (a->inplace) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), all);
        pact_after(s, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "SUARA eq. 1; PG 2007";
    pact_cost_set(t, P - 1, (P - 1) * m, (P - 1) * m);
    return 1;
}

const pact_alg pact_alg_reduce_linear = {
    .coll = PACT_COLL_REDUCE,
    .name = "linear",
    .build = pact_reduce_linear_build,
    .restrictions = 0,
    .ompi_id = 1,
    .mpich = NULL,
    .smpi = "ompi_basic_linear",
    .source = "Open MPI ompi_coll_base_reduce_intra_basic_linear (coll_base_reduce.c)",
    .cost = "(P-1)*(alpha + beta*m + gamma*m)",
    .terms = terms,
};
