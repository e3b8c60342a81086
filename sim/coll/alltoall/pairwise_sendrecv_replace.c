/*
 * alltoall pairwise_sendrecv_replace
 *
 * Source:  MPICH 4.0 MPIR_Alltoall_intra_pairwise_sendrecv_replace
 *          (src/mpi/coll/alltoall/alltoall_intra_pairwise_sendrecv_replace.c), MPICH's only in-place alltoall.
 *          Every pair (i, j), i <= j, exchanges once, in one global order: i = 0..P-1, j = i..P-1.  So rank r
 *          exchanges with 0, 1, ..., r-1, then itself, then r+1, ..., P-1, one MPIC_Sendrecv_replace at a
 *          time: block q of the buffer is packed into a scratch buffer (MPIR_Typerep_pack), the receive into
 *          block q is posted, then the send of the scratch copy, and both are waited for.  With itself the
 *          same happens through MPICH's self path: two copies.
 * Restrict: in place only (MPICH runs it for MPI_IN_PLACE and nothing else).
 * Cost:     (2P-3)*(alpha + beta*m), m = count*elem_size: the pair (i, j) can exchange once i has done its
 *           exchange with j-1 and j its exchange with i-1, i.e. at step i+j; the last pair, (P-2, P-1), at
 *           step 2P-3.  Copies left out.
 *
 *   P = 4:  step 1: 0-1;  step 2: 0-2;  step 3: 0-3, 1-2;  step 4: 1-3;  step 5: 2-3  (self copies in between)
 */
#include "pact_coll.h"
#include "cost.h"

int pact_alltoall_pairwise_sendrecv_replace_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    pact_need(s, PACT_BUF_TMP0, n);
    const pact_slice tmp = pact_sl(PACT_BUF_TMP0, 0, n);

    int pr = -1, ps = -1; /* the previous exchange: the next one starts when it completed */
    for (int q = 0; q < p; q++) {
        const pact_slice blk = pact_sl(PACT_BUF_RECV, (size_t)q * n, n);
        int c = pact_copy(s, tmp, blk); /* the pack */
        pact_after(s, pr);
        pact_after(s, ps);
        if (q == rank) {
            pr = pact_copy(s, blk, tmp);
            pact_after(s, c);
            ps = -1;
            continue;
        }
        pr = pact_recv(s, q, blk);
        pact_after(s, c);
        ps = pact_send(s, q, tmp);
        pact_after(s, c);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "the schedule: pair (i, j) exchanges at step i+j, the last at step 2P-3 (copies left out)";
    pact_cost_set(t, 2 * P - 3, (2 * P - 3) * m, 0);
    return 1;
}

const pact_alg pact_alg_alltoall_pairwise_sendrecv_replace = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "pairwise_sendrecv_replace",
    .build = pact_alltoall_pairwise_sendrecv_replace_build,
    .restrictions = PACT_R_INPLACE,
    .ompi_id = 0,
    .mpich = "pairwise_sendrecv_replace",
    .smpi = NULL,
    .source = "MPICH 4.0 MPIR_Alltoall_intra_pairwise_sendrecv_replace "
              "(src/mpi/coll/alltoall/alltoall_intra_pairwise_sendrecv_replace.c)",
    .cost = "(2*P-3)*(alpha + beta*m), one global order of the P(P-1)/2 pairs",
    .terms = terms,
};
