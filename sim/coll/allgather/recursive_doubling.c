/*
 * allgather recursive_doubling
 *
 * Source:  Open MPI ompi_coll_base_allgather_intra_recursivedoubling
 * (ompi/mca/coll/base/coll_base_allgather.c): the own block is copied into RECV[rank]; at distance d = 1, 2,
 * 4, ... a blocking sendrecv with rank^d swaps the 2^k blocks gathered so far, which stay contiguous in RECV.
 * For P not a power of two Open MPI falls back to the Bruck algorithm, and so does pact. Restrict: none
 * (Bruck when P is not a power of two). Cost:     log2(P)*alpha + (P-1)*beta*m, m = count*elem_size.
 *
 *   P = 4:  d = 1: {0,1} and {2,3} swap one block;  d = 2: {0,2} and {1,3} swap two blocks.
 */
#include "pact_coll.h"
#include "common.h"
#include "cost.h"

int pact_allgather_recursive_doubling_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (!pact_is_pof2(p))
        return pact_allgather_bruck_build(s, a);
    if (n == 0)
        return PACT_OK;

    int dep[2] = {pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n), pact_sl(PACT_BUF_SEND, 0, n)),
                  -1};
    int first = rank; /* first block of the run gathered so far */
    for (int d = 1; d < p; d <<= 1) {
        const int remote = rank ^ d;
        const int rfirst = rank < remote ? first + d : first - d;
        pact_sendrecv_step(s, remote, pact_sl(PACT_BUF_RECV, (size_t)first * n, (size_t)d * n), remote,
                           pact_sl(PACT_BUF_RECV, (size_t)rfirst * n, (size_t)d * n), dep);
        if (rank > remote)
            first = rfirst;
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int L = pact_flog2(P);
    if ((1 << L) != P) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_ALLGATHER, "bruck")->terms(P, m, t, src);
    *src = "Thakur 2005: log2(P) alpha + (P-1) beta m";
    pact_cost_set(t, L, (P - 1) * m, 0);
    return 1;
}

const pact_alg pact_alg_allgather_recursive_doubling = {
    .coll = PACT_COLL_ALLGATHER,
    .name = "recursive_doubling",
    .build = pact_allgather_recursive_doubling_build,
    .restrictions = 0,
    .ompi_id = 3,
    .mpich = "recursive_doubling",
    .smpi = "rdb",
    .source = "Open MPI ompi_coll_base_allgather_intra_recursivedoubling (coll_base_allgather.c)",
    .cost = "log2(P)*alpha + (P-1)*beta*m [Bruck if P not pof2]",
    .terms = terms,
};
