/*
 * alltoall linear_sync
 *
 * Source:  Open MPI ompi_coll_base_alltoall_intra_linear_sync (ompi/mca/coll/base/coll_base_alltoall.c):
 *          the own block is copied first; then at most K receives (from rank+1, rank+2, ...) and K sends
 *          (to rank-1, rank-2, ...) are in flight, K = max_requests (0 or >= P-1: all P-1 at once, which is
 *          basic linear).  Open MPI's default is coll_tuned_alltoall_algorithm_max_requests = 0.
 * Deviates: Open MPI waits for any request (MPI_Waitany) and replaces the one that completed by the next
 *          request of the same kind.  A schedule is static, so receive j (j >= K) starts when receive j-K
 *          completed and send j when send j-K completed: the same window of K per kind, filled in order
 *          of posting instead of order of completion.
 * Restrict: not in place (Open MPI runs mca_coll_base_alltoall_intra_basic_inplace then).
 * Cost:     (P-1)*(alpha + beta*m), m = count*elem_size, with K >= P-1; about ceil((P-1)/K) rounds of K
 *           messages otherwise.
 */
#include "pact_coll.h"
#include "cost.h"

#include <stdlib.h>

int pact_alltoall_linear_sync_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    const long k_req = a->params[0];
    if (n == 0)
        return PACT_OK;

    pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n), pact_sl(PACT_BUF_SEND, (size_t)rank * n, n));
    if (p == 1)
        return PACT_OK;

    const int total = (k_req <= 0 || k_req > p - 1) ? p - 1 : (int)k_req;
    int *rop = malloc((size_t)(p - 1) * sizeof(*rop)), *sop = malloc((size_t)(p - 1) * sizeof(*sop));
    if (!rop || !sop) {
        free(rop);
        free(sop);
        if (!s->err)
            s->err = PACT_ERR_NOMEM;
        return PACT_ERR_NOMEM;
    }
    /* Peer of the j-th receive: rank+1+j; of the j-th send: rank-1-j. */
    for (int j = 0; j < total; j++) {
        int from = (rank + 1 + j) % p;
        rop[j] = pact_recv(s, from, pact_sl(PACT_BUF_RECV, (size_t)from * n, n));
    }
    for (int j = 0; j < total; j++) {
        int to = ((rank - 1 - j) % p + p) % p;
        sop[j] = pact_send(s, to, pact_sl(PACT_BUF_SEND, (size_t)to * n, n));
    }
    for (int j = total; j < p - 1; j++) {
        int from = (rank + 1 + j) % p, to = ((rank - 1 - j) % p + p) % p;
        rop[j] = pact_recv(s, from, pact_sl(PACT_BUF_RECV, (size_t)from * n, n));
        pact_after(s, rop[j - total]);
        sop[j] = pact_send(s, to, pact_sl(PACT_BUF_SEND, (size_t)to * n, n));
        pact_after(s, sop[j - total]);
    }
    free(rop);
    free(sop);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "PG 2007: every message posted at once, serialized on the ports "
           "(linear_sync's default max_requests 0 is linear)";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

/* Rank r's j-th receive is from r + 1 + j and its j-th send to r - 1 - j, in windows of the same K on every
 * rank: rank 0's schedule turned (pact_alg.rotates). */
static int rotates(const pact_build_args *a)
{
    return a->count > 0 && !a->inplace;
}

const pact_alg pact_alg_alltoall_linear_sync = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "linear_sync",
    .build = pact_alltoall_linear_sync_build,
    .restrictions = PACT_R_NOT_INPLACE,
    .ompi_id = 4,
    .mpich = NULL,
    .smpi = NULL,
    .source = "Open MPI ompi_coll_base_alltoall_intra_linear_sync (coll_base_alltoall.c)",
    .cost = "(P-1)*(alpha + beta*m) with K >= P-1; ceil((P-1)/K) rounds of K messages otherwise",
    .terms = terms,
    .rotates = rotates,
    .params =
        (const pact_param_desc[]){
            {"max_requests", 0, "receives and sends in flight per kind; 0: all (Open MPI's default)"},
            {NULL, 0, NULL}},
};
