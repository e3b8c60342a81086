/*
 * allreduce ring
 *
 * Source:  Open MPI ompi_coll_base_allreduce_intra_ring (ompi/mca/coll/base/coll_base_allreduce.c):
 *          a ring reduce-scatter followed by a ring allgather on P blocks; the first (count mod P) blocks
 *          hold one element more.  Incoming blocks alternate between two scratch buffers so that the
 *          receive of the next block overlaps the reduction of the current one.  With count < P Open MPI
 *          falls back to recursive doubling, and so does pact.  Both phases are in ring_phases.h, which
 *          segmented_ring shares.
 * Restrict: commutative operation (the ring reduces in rotated order).
 * Cost:     2*(P-1)*(alpha + beta*m/P) + (P-1)*gamma*m/P.
 *
 *   P = 4, reduce-scatter (step k: send block (rank-k), receive and reduce block (rank-k-1)):
 *            rank0   rank1   rank2   rank3
 *   step 0   s0 r3   s1 r0   s2 r1   s3 r2
 *   step 1   s3 r2   s0 r3   s1 r0   s2 r1
 *   step 2   s2 r1   s3 r2   s0 r3   s1 r0    -> rank r holds block r+1 fully reduced
 *   then P-1 allgather steps pass the finished blocks on around the ring.
 */
#include "ring_phases.h"
#include "cost.h"

int pact_allreduce_ring_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    if (n < (size_t)p || p == 1) /* one rank: recursive doubling is the copy alone */
        return pact_allreduce_recursive_doubling_build(s, a);

    const size_t maxblk = (n + (size_t)p - 1) / (size_t)p;
    pact_need(s, PACT_BUF_TMP0, maxblk);
    pact_need(s, PACT_BUF_TMP1, maxblk);

    int copy = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    /* Reduce-scatter on whole blocks: the first receive, into scratch, waits for nothing; the first send,
     * of this rank's block, for the copy. */
    int red = pact_allreduce_ring_reduce_scatter(s, rank, p, n, 1, 0, -1, copy);
    pact_allreduce_ring_allgather(s, rank, p, n, red);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    if (m / pact_cost_elem(m) < P) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_ALLREDUCE, "recursive_doubling")->terms(P, m, t, src);
    double b = pact_cost_big_block(m, P);
    *src = "SUARA eq. 6 (ring without segmentation); Thakur 2005; blocks of ceil(count/P) elements";
    pact_cost_set(t, 2.0 * (P - 1), 2.0 * (P - 1) * b, (P - 1) * b);
    return 1;
}

/* Where the P blocks are equal (count a multiple of P, at least P: no fallback), rank r's ring is rank 0's
 * turned (pact_alg.rotates); blocks that differ by an element make their sizes depend on the rank. */
static int rotates(const pact_build_args *a)
{
    return a->count > 0 && a->size > 1 && a->count >= (size_t)a->size && a->count % (size_t)a->size == 0 &&
           !a->inplace;
}

const pact_alg pact_alg_allreduce_ring = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "ring",
    .build = pact_allreduce_ring_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 4,
    .mpich =
        NULL, /* MPICH 4.0 has no ring allreduce (4.1 added one, with another block split and no overlap) */
    .smpi = "lr",
    .source = "Open MPI ompi_coll_base_allreduce_intra_ring (coll_base_allreduce.c)",
    .cost = "2*(P-1)*(alpha + beta*m/P) + (P-1)*gamma*m/P",
    .terms = terms,
    .rotates = rotates,
};
