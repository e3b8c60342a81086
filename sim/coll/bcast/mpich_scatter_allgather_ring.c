/*
 * bcast mpich_scatter_allgather_ring
 *
 * Source:   MPICH 4.0 MPIR_Bcast_intra_scatter_ring_allgather
 *           (src/mpi/coll/bcast/bcast_intra_scatter_ring_allgather.c, the scatter in MPII_Scatter_for_bcast,
 *           bcast_utils.c); SimGrid's bcast scatter_LR_allgather (src/smpi/colls/bcast/
 *           bcast-scatter-LR-allgather.cpp) is the same schedule.  A binomial scatter of blocks of
 *           ceil(bytes/P) bytes, then a ring allgather of P - 1 blocking sendrecv steps (send block j to the
 *           right, receive block j - 1 from the left, j starting at this rank's).  Open MPI's
 *           scatter_allgather_ring (scatter_allgather_ring.c) but for MPICH's byte split (PACT_R_BYTE_SPLIT)
 *           and no switch below P bytes: the ranks past the last byte get nothing in the scatter, and the
 *           ring carries their empty blocks as zero-byte messages.
 * Restrict: ceil(count x element size / P) a whole number of elements (always, for one-byte elements).
 * Cost:     (log2(P) + P - 1)*alpha + 2*beta*m*(P-1)/P.
 *
 *   P = 4, root 0, 3 bytes: blocks of 1 byte; block 3 is empty, and the ring passes it on as 0 bytes.
 */
#include "binomial_scatter.h"
#include "cost.h"

int pact_bcast_mpich_scatter_allgather_ring_build(pact_sched *s, const pact_build_args *a)
{
    return pact_bcast_scatter_ring_allgather(s, a, 0);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "Thakur 2005 (MPICH's scatter + ring allgather)";
    pact_cost_set(t, pact_clog2(P) + P - 1.0, 2.0 * (P - 1) * ceil(m / P), 0);
    return 1;
}

const pact_alg pact_alg_bcast_mpich_scatter_allgather_ring = {
    .coll = PACT_COLL_BCAST,
    .name = "mpich_scatter_allgather_ring",
    .build = pact_bcast_mpich_scatter_allgather_ring_build,
    .restrictions = PACT_R_BYTE_SPLIT,
    .ompi_id = 0,
    .mpich = "scatter_ring_allgather",
    .smpi = "scatter_LR_allgather",
    .source = "MPICH 4.0 MPIR_Bcast_intra_scatter_ring_allgather (bcast_intra_scatter_ring_allgather.c)",
    .cost = "(log2(P) + P - 1)*alpha + 2*beta*m*(P-1)/P",
    .terms = terms,
};
