/*
 * allgather ring
 *
 * Source:  Open MPI ompi_coll_base_allgather_intra_ring (ompi/mca/coll/base/coll_base_allgather.c):
 *          the own block is copied into RECV[rank]; at step i = 0..P-2 a blocking sendrecv passes block
 *          (rank-i) to rank+1 and receives block (rank-i-1) from rank-1.  SimGrid's "NTSLR" is this ring;
 *          its allgather "ring" is a different algorithm (each rank sends its own block to rank+i at step i).
 * Restrict: none.
 * Cost:     (P-1)*(alpha + beta*m), m = count*elem_size.
 */
#include "pact_coll.h"
#include "common.h"
#include "cost.h"

int pact_allgather_ring_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;

    const int right = (rank + 1) % p, left = (rank + p - 1) % p;
    int dep[2] = {pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n), pact_sl(PACT_BUF_SEND, 0, n)),
                  -1};
    for (int i = 0; i < p - 1; i++) {
        int rblk = (rank - i - 1 + 2 * p) % p, sblk = (rank - i + p) % p;
        pact_sendrecv_step(s, right, pact_sl(PACT_BUF_RECV, (size_t)sblk * n, n), left,
                           pact_sl(PACT_BUF_RECV, (size_t)rblk * n, n), dep);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "Thakur 2005; Tran 2.2.1: (P-1)(alpha + beta m)";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

/* Blocks of one size: rank r's ring is rank 0's turned (pact_alg.rotates). */
static int rotates(const pact_build_args *a)
{
    return a->count > 0 && !a->inplace;
}

const pact_alg pact_alg_allgather_ring = {
    .coll = PACT_COLL_ALLGATHER,
    .name = "ring",
    .build = pact_allgather_ring_build,
    .restrictions = 0,
    .ompi_id = 4,
    .mpich = "ring",
    .smpi = "NTSLR",
    .source = "Open MPI ompi_coll_base_allgather_intra_ring (coll_base_allgather.c)",
    .cost = "(P-1)*(alpha + beta*m)",
    .terms = terms,
    .rotates = rotates,
};
