/*
 * allgather bruck
 *
 * Source:  Open MPI ompi_coll_base_allgather_intra_bruck (ompi/mca/coll/base/coll_base_allgather.c, Open MPI
 *          4.1; newer releases run the same exchange as ompi_coll_base_allgather_intra_k_bruck with radix 2):
 *          the own block is copied to RECV block 0 (in place too, for ranks other than 0); at distance
 *          d = 1, 2, 4, ... a blocking sendrecv sends the first min(d, P-d) blocks to rank-d and receives as
 *          many from rank+d behind the d blocks held; RECV then holds blocks rank, rank+1, ..., which a final
 *          local shift through a scratch buffer of P-rank blocks puts in place.
 * Restrict: none.
 * Cost:     ceil(log2 P)*alpha + (P-1)*beta*m, m = count*elem_size.
 *
 *   P = 5, rank 2:  after the exchange RECV = [2 3 4 0 1];  TMP0 <- [2 3 4];  RECV[0..1] <- [0 1];
 *                   RECV[2..4] <- TMP0.
 */
#include "pact_coll.h"
#include "common.h"
#include "cost.h"

int pact_allgather_bruck_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;

    int dep[2] = {pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n)), -1};
    for (int d = 1; d < p; d <<= 1) {
        const int from = (rank + d) % p, to = (rank - d + p) % p;
        const size_t blocks = (size_t)(d <= p / 2 ? d : p - d);
        pact_sendrecv_step(s, to, pact_sl(PACT_BUF_RECV, 0, blocks * n), from,
                           pact_sl(PACT_BUF_RECV, (size_t)d * n, blocks * n), dep);
    }
    if (rank == 0)
        return PACT_OK;

    /* Shift: the first P-rank blocks go to the scratch buffer, the last rank blocks to the front (a move
     * whose source and destination overlap when rank > P-rank: copied in pieces of P-rank blocks, front
     * to back, each after the previous), then the scratch buffer behind them. */
    const size_t head = (size_t)(p - rank) * n, tail = (size_t)rank * n;
    pact_need(s, PACT_BUF_TMP0, head);
    int last = pact_copy(s, pact_sl(PACT_BUF_TMP0, 0, head), pact_sl(PACT_BUF_RECV, 0, head));
    pact_after2(s, dep);
    for (size_t off = 0; off < tail; off += head) {
        size_t len = tail - off < head ? tail - off : head;
        int c = pact_copy(s, pact_sl(PACT_BUF_RECV, off, len), pact_sl(PACT_BUF_RECV, off + head, len));
        pact_after(s, last);
        last = c;
    }
    pact_copy(s, pact_sl(PACT_BUF_RECV, tail, head), pact_sl(PACT_BUF_TMP0, 0, head));
    pact_after(s, last);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "Thakur 2005 (Bruck): ceil(log2 P) alpha + (P-1) beta m";
    pact_cost_set(t, pact_clog2(P), (P - 1) * m, 0);
    return 1;
}

const pact_alg pact_alg_allgather_bruck = {
    .coll = PACT_COLL_ALLGATHER,
    .name = "bruck",
    .build = pact_allgather_bruck_build,
    .restrictions = 0,
    .ompi_id = 2,
    .mpich = "brucks",
    .smpi = "bruck",
    .source = "Open MPI ompi_coll_base_allgather_intra_bruck (coll_base_allgather.c, 4.1)",
    .cost = "ceil(log2 P)*alpha + (P-1)*beta*m",
    .terms = terms,
};
