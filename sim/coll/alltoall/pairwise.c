/*
 * alltoall pairwise
 *
 * Source:  Open MPI ompi_coll_base_alltoall_intra_pairwise (ompi/mca/coll/base/coll_base_alltoall.c):
 *          step k = 1..P-1 is a blocking sendrecv that sends block (rank+k) to rank+k and receives block
 *          (rank-k) from rank-k; step P is the sendrecv with itself, i.e. the local copy of the own block,
 *          which Open MPI does last.  SimGrid's alltoall "ring" is this exchange (its "pair" pairs rank
 *          with rank^k instead).
 * Restrict: not in place (Open MPI runs mca_coll_base_alltoall_intra_basic_inplace then).
 * Cost:     (P-1)*(alpha + beta*m), m = count*elem_size.
 *
 *   P = 4, rank 1:  step 1 -> 2 / <- 0,  step 2 -> 3 / <- 3,  step 3 -> 0 / <- 2,  then copy block 1.
 */
#include "pact_coll.h"
#include "common.h"
#include "cost.h"

int pact_alltoall_pairwise_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;

    int dep[2] = {-1, -1}; /* the previous sendrecv: the next one starts when both halves completed */
    for (int k = 1; k < p; k++) {
        int to = (rank + k) % p, from = (rank + p - k) % p;
        pact_sendrecv_step(s, to, pact_sl(PACT_BUF_SEND, (size_t)to * n, n), from,
                           pact_sl(PACT_BUF_RECV, (size_t)from * n, n), dep);
    }
    pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n), pact_sl(PACT_BUF_SEND, (size_t)rank * n, n));
    pact_after2(s, dep);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "Thakur 2005; Tran 2.2.6: (P-1)(alpha + beta m)";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

/* Rank r exchanges with r + k and r - k at step k: rank 0's schedule turned (pact_alg.rotates). */
static int rotates(const pact_build_args *a)
{
    return a->count > 0 && !a->inplace;
}

const pact_alg pact_alg_alltoall_pairwise = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "pairwise",
    .build = pact_alltoall_pairwise_build,
    .restrictions = PACT_R_NOT_INPLACE,
    .ompi_id = 2,
    .mpich = NULL, /* MPICH's pairwise pairs rank with rank^k at powers of two: mpich_pairwise */
    .smpi = "ring",
    .source = "Open MPI ompi_coll_base_alltoall_intra_pairwise (coll_base_alltoall.c)",
    .cost = "(P-1)*(alpha + beta*m)",
    .terms = terms,
    .rotates = rotates,
};
