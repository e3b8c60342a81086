/*
 * alltoall modified_bruck
 *
 * Source:  Open MPI ompi_coll_base_alltoall_intra_bruck (ompi/mca/coll/base/coll_base_alltoall.c):
 *          1. rotate locally: TMP0 block i <- SEND block (rank+i) mod P;
 *          2. for distance d = 1, 2, 4, ... < P: send the TMP0 blocks whose index has bit d set to rank+d,
 *             receive the same blocks from rank-d into RECV, copy them back into TMP0 (blocking sendrecv,
 *             then the copy, as in Open MPI);
 *          3. inverse rotation: RECV block (rank-i) mod P <- TMP0 block i.
 * Deviates: Open MPI describes the blocks of a step with a derived datatype; the PML packs it on the send
 *          side and unpacks it into RECV on the receive side.  The schedule has contiguous slices only, so
 *          a step whose blocks form several runs packs them into TMP1 with copies, and receives into RECV
 *          from block d on, contiguously; the copy back into TMP0 then scatters the runs.  A step with one
 *          run (d >= P/2) sends from and receives into the blocks themselves, exactly as Open MPI.
 * Restrict: not in place (Open MPI runs mca_coll_base_alltoall_intra_basic_inplace then).
 * Cost:     ceil(log2 P)*(alpha + beta*m*P/2), m = count*elem_size (each step moves about half the blocks).
 *
 *   P = 5, TMP0 blocks 0..4 after the rotation; blocks sent at each step:
 *     d = 1: 1 3        (two runs: packed)
 *     d = 2: 2 3        (one run)
 *     d = 4: 4          (one run)
 *   after step d, TMP0 block i holds the block that rank-i (mod P) sent to this rank, for the bits of i
 *   handled so far; the inverse rotation puts block i at RECV[rank-i].
 */
#include "pact_coll.h"
#include "cost.h"

int pact_alltoall_modified_bruck_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;

    pact_need(s, PACT_BUF_TMP0, (size_t)p * n);
    pact_copy(s, pact_sl(PACT_BUF_TMP0, 0, (size_t)(p - rank) * n),
              pact_sl(PACT_BUF_SEND, (size_t)rank * n, (size_t)(p - rank) * n));
    if (rank != 0)
        pact_copy(s, pact_sl(PACT_BUF_TMP0, (size_t)(p - rank) * n, (size_t)rank * n),
                  pact_sl(PACT_BUF_SEND, 0, (size_t)rank * n));

    for (int d = 1; d < p; d <<= 1) {
        const int to = (rank + d) % p, from = (rank - d + p) % p;
        size_t nblk = 0;
        int nruns = 0;
        for (int i = d; i < p; i += 2 * d, nruns++)
            nblk += (size_t)(i + d < p ? d : p - i);

        /* Each step starts once the previous sendrecv and its copy back have completed. */
        pact_fence(s);
        /* Open MPI's sendrecv posts the receive first. */
        int r = pact_recv(s, from, pact_sl(PACT_BUF_RECV, (size_t)d * n, nblk * n));
        int x;
        if (nruns == 1) {
            x = pact_send(s, to, pact_sl(PACT_BUF_TMP0, (size_t)d * n, nblk * n));
        } else {
            pact_need(s, PACT_BUF_TMP1, nblk * n);
            size_t pos = 0;
            int last = -1;
            for (int i = d; i < p; i += 2 * d) {
                size_t len = (size_t)(i + d < p ? d : p - i) * n;
                int c = pact_copy(s, pact_sl(PACT_BUF_TMP1, pos, len),
                                  pact_sl(PACT_BUF_TMP0, (size_t)i * n, len));
                pact_after(s, last); /* the PML packs the runs one after the other */
                last = c;
                pos += len;
            }
            x = pact_send(s, to, pact_sl(PACT_BUF_TMP1, 0, nblk * n));
            pact_after(s, last);
        }
        size_t pos = (size_t)d * n;
        for (int i = d; i < p; i += 2 * d) {
            size_t len = (size_t)(i + d < p ? d : p - i) * n;
            pact_copy(s, pact_sl(PACT_BUF_TMP0, (size_t)i * n, len), pact_sl(PACT_BUF_RECV, pos, len));
            pact_after(s, r);
            pact_after(s, x);
            pos += len;
        }
    }

    pact_fence(s);
    for (int i = 0; i < p; i++)
        pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)((rank - i + p) % p) * n, n),
                  pact_sl(PACT_BUF_TMP0, (size_t)i * n, n));
    return PACT_OK;
}

/* Blocks with bit d set among 0..P-1: what a modified Bruck alltoall step moves. */
static double bruck_blocks(int P, int d)
{
    long hi = 1L << (d + 1), lo = 1L << d;
    return (double)((P / hi) * lo + fmax(0, (double)(P % hi) - (double)lo));
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int C = pact_clog2(P);
    double blocks = 0;
    for (int d = 0; d < C; d++)
        blocks += bruck_blocks(P, d);
    *src = "Thakur 2005 (Bruck): ceil(log2 P) steps of the blocks whose index has that bit set (P/2 "
           "for P a power of two); local copies free";
    pact_cost_set(t, C, blocks * m, 0);
    return 1;
}

const pact_alg pact_alg_alltoall_modified_bruck = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "modified_bruck",
    .build = pact_alltoall_modified_bruck_build,
    .restrictions = PACT_R_NOT_INPLACE,
    .ompi_id = 3,
    .mpich = "brucks",
    .smpi = "bruck",
    .source = "Open MPI ompi_coll_base_alltoall_intra_bruck (coll_base_alltoall.c)",
    .cost = "ceil(log2 P)*(alpha + beta*m*P/2)",
    .terms = terms,
};
