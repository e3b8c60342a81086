/*
 * bcast mpich_scatter_allgather
 *
 * Source:   MPICH 4.0 MPIR_Bcast_intra_scatter_recursive_doubling_allgather
 *           (src/mpi/coll/bcast/bcast_intra_scatter_recursive_doubling_allgather.c, the scatter in
 *           MPII_Scatter_for_bcast, bcast_utils.c); SimGrid's bcast scatter_rdb_allgather
 *           (src/smpi/colls/bcast/bcast-scatter-rdb-allgather.cpp) is the same schedule.  A binomial scatter
 *           of blocks of ceil(bytes/P) bytes, then a recursive-doubling allgather of each subtree's blocks,
 *           with the recursive halving to the ranks whose partner does not exist off powers of two (MPICH
 *           marks that part experimental; its CSEL JSON path runs it at any P).  The schedule of Open MPI's
 *           scatter_allgather (scatter_allgather.c) but for two things: MPICH splits bytes, not elements
 *           (PACT_R_BYTE_SPLIT: the blocks must be whole elements), and it goes on below P bytes, where the
 *           ranks past the last byte get nothing in the scatter and send and receive zero bytes in the
 *           allgather (Open MPI switches to basic_linear there).
 * Restrict: ceil(count x element size / P) a whole number of elements (always, for one-byte elements).
 * Cost:     2*log2(P)*alpha + 2*beta*m*(P-1)/P (P a power of two).
 *
 *   P = 4, root 0, 3 bytes: blocks of 1 byte; rank 3 gets none in the scatter, and in the allgather sends
 *   0 bytes to 2, then 0 bytes (its subtree's) to 1.
 */
#include "binomial_scatter.h"
#include "cost.h"

int pact_bcast_mpich_scatter_allgather_build(pact_sched *s, const pact_build_args *a)
{
    return pact_bcast_scatter_rd_allgather(s, a, 0);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "Thakur 2005 (MPICH's scatter + recursive doubling allgather)";
    pact_cost_set(t, 2.0 * pact_clog2(P), 2.0 * (P - 1) * ceil(m / P), 0);
    return 1;
}

const pact_alg pact_alg_bcast_mpich_scatter_allgather = {
    .coll = PACT_COLL_BCAST,
    .name = "mpich_scatter_allgather",
    .build = pact_bcast_mpich_scatter_allgather_build,
    .restrictions = PACT_R_BYTE_SPLIT,
    .ompi_id = 0,
    .mpich = "scatter_recursive_doubling_allgather",
    .smpi = "scatter_rdb_allgather",
    .source = "MPICH 4.0 MPIR_Bcast_intra_scatter_recursive_doubling_allgather "
              "(bcast_intra_scatter_recursive_doubling_allgather.c)",
    .cost = "2*log2(P)*alpha + 2*beta*m*(P-1)/P (P pof2)",
    .terms = terms,
};
