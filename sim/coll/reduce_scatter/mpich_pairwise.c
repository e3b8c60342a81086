/*
 * reduce_scatter mpich_pairwise
 *
 * Source:   MPICH 4.0 MPIR_Reduce_scatter_intra_pairwise (src/mpi/coll/reduce_scatter/
 *           reduce_scatter_intra_pairwise.c); SimGrid's reduce_scatter mpich_pair
 *           (src/smpi/colls/reduce_scatter/reduce_scatter-mpich.cpp) is the same schedule.  Out of place,
 *           the rank's own block of the input is copied into RECV.  Then for i = 1..P-1 a blocking sendrecv
 *           sends block rank+i of the input (of RECV in place) to rank+i and receives, from rank-i, that
 *           rank's copy of this rank's block into a scratch buffer, which is reduced into the result (RECV,
 *           or in place this rank's block of RECV, copied to the front of RECV at the end on ranks > 0).
 *           Empty blocks are still sent (as empty messages).
 * Restrict: commutative operation (MPICH asserts it).
 * Cost:     (P-1)*(alpha + beta*m/P + gamma*m/P), the largest block of the split for m/P.
 *
 *   P = 4, rank 1:  copy b1;  step 1: b2 -> 2, 0's b1 <- 0;  step 2: b3 -> 3, 3's b1 <- 3;  step 3: b0 -> 0, ...
 */
#include "blocks.h"
#include "cost.h"

static int pact_reduce_scatter_mpich_pairwise_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0) /* MPI_Reduce_scatter returns at once when every recvcount is 0 */
        return PACT_OK;
    const size_t mine = rs_len(n, p, rank), at = rs_off(n, p, rank);
    /* where the result accumulates: RECV's front, or in place this rank's block of the vector in RECV */
    const pact_slice res = pact_sl(PACT_BUF_RECV, a->inplace ? at : 0, mine);
    const pact_slice tmp = pact_sl(PACT_BUF_TMP0, 0, mine);
    pact_need(s, PACT_BUF_TMP0, mine ? mine : 1);
    const uint32_t input = a->inplace ? PACT_BUF_RECV : PACT_BUF_SEND;

    int dep[2] = {-1, -1};
    if (!a->inplace && mine > 0)
        dep[0] = pact_copy(s, res, pact_sl(PACT_BUF_SEND, at, mine));
    for (int i = 1; i < p; i++) {
        const int src = (rank - i + p) % p, dst = (rank + i) % p;
        int r = pact_recv(s, src, tmp); /* MPIC_Sendrecv: the receive posted first */
        pact_after2(s, dep);
        int x = pact_send(s, dst, pact_sl(input, rs_off(n, p, dst), rs_len(n, p, dst)));
        pact_after2(s, dep);
        if (mine > 0) {
            dep[0] = pact_reduce(s, res, tmp); /* res = tmp (op) res */
            pact_after(s, r);
            pact_after(s, x);
            dep[1] = -1;
        } else {
            dep[0] = r;
            dep[1] = x;
        }
    }
    if (a->inplace && rank != 0 && mine > 0) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, mine), res);
        pact_after2(s, dep);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const double b = pact_cost_big_block(m, P);
    *src = "Thakur 2005 (pairwise exchange): (P-1)(alpha + (beta + gamma) m/P), the largest block for m/P";
    pact_cost_set(t, P - 1, (P - 1) * b, (P - 1) * b);
    return 1;
}

const pact_alg pact_alg_reduce_scatter_mpich_pairwise = {
    .coll = PACT_COLL_REDUCE_SCATTER,
    .name = "mpich_pairwise",
    .build = pact_reduce_scatter_mpich_pairwise_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 0,
    .mpich = "pairwise",
    .smpi = "mpich_pair",
    .source = "MPICH 4.0 MPIR_Reduce_scatter_intra_pairwise (src/mpi/coll/reduce_scatter/"
              "reduce_scatter_intra_pairwise.c)",
    .cost = "(P-1)*(alpha + beta*m/P + gamma*m/P)",
    .terms = terms,
    .rotates = rs_rotates, /* equal blocks: step i pairs rank r with r + i and r - i, rank 0's turned */
};
