/*
 * alltoall mpich_pairwise
 *
 * Source:  MPICH 4.0 MPIR_Alltoall_intra_pairwise (src/mpi/coll/alltoall/alltoall_intra_pairwise.c): the own
 *          block is copied first; then step i = 1..P-1 is a blocking sendrecv with rank XOR i (both ways)
 *          when P is a power of two, else it sends block rank+i to rank+i and receives block rank-i from
 *          rank-i.  SimGrid's alltoall "pair" is the power-of-two exchange (it refuses other P).
 * Restrict: not in place (MPICH runs pairwise_sendrecv_replace then).
 * Cost:     (P-1)*(alpha + beta*m), m = count*elem_size.
 *
 *   P = 4, rank 1:  copy block 1, step 1 <-> 0, step 2 <-> 3, step 3 <-> 2.
 *   Open MPI's pairwise (sim/coll/alltoall/pairwise.c) is the shifted exchange at every P, its copy last.
 */
#include "pact_coll.h"
#include "common.h"
#include "cost.h"

int pact_alltoall_mpich_pairwise_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    const int pof2 = (p & (p - 1)) == 0;
    if (n == 0)
        return PACT_OK;

    int dep[2] = {pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n),
                            pact_sl(PACT_BUF_SEND, (size_t)rank * n, n)),
                  -1}; /* the previous sendrecv: the next one starts when both halves completed */
    for (int i = 1; i < p; i++) {
        int to = pof2 ? rank ^ i : (rank + i) % p, from = pof2 ? rank ^ i : (rank + p - i) % p;
        pact_sendrecv_step(s, to, pact_sl(PACT_BUF_SEND, (size_t)to * n, n), from,
                           pact_sl(PACT_BUF_RECV, (size_t)from * n, n), dep); /* MPIC_Sendrecv */
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "Thakur 2005 (MPICH's pairwise exchange): (P-1)(alpha + beta m)";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

/* Rank r's exchanges are rank 0's turned (pact_alg.rotates): with rank XOR i at a power of two, else with
 * rank + i and rank - i. */
static int rotates(const pact_build_args *a)
{
    if (a->count == 0 || a->inplace || a->size < 2)
        return 0;
    return (a->size & (a->size - 1)) == 0 ? PACT_TURN_XOR : PACT_TURN_ADD;
}

const pact_alg pact_alg_alltoall_mpich_pairwise = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "mpich_pairwise",
    .build = pact_alltoall_mpich_pairwise_build,
    .restrictions = PACT_R_NOT_INPLACE,
    .ompi_id = 0,
    .mpich = "pairwise",
    .smpi = "pair", /* at powers of two only (it refuses other P), its self-exchange first */
    .source = "MPICH 4.0 MPIR_Alltoall_intra_pairwise (src/mpi/coll/alltoall/alltoall_intra_pairwise.c)",
    .cost = "(P-1)*(alpha + beta*m)",
    .terms = terms,
    .rotates = rotates,
};
