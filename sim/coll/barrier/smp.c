/*
 * barrier smp
 *
 * Source:   MPICH 4.0 MPIR_Barrier_intra_smp (src/mpi/coll/barrier/barrier_intra_smp.c), MPICH's built-in
 *           choice for every communicator whose ranks share nodes: a barrier on each node's ranks (MPICH's
 *           node_comm), a barrier among the node leaders (node_roots_comm), then a broadcast of one element
 *           from the leader on each node, which releases the node's ranks.  MPICH selects again for each
 *           part, on communicators that are not parents, so its built-in tree decides them
 *           (pact_smp_choice, sim/coll/common/mpich_smp.c): the dissemination barrier
 *           (sim/coll/barrier/bruck.c) and the binomial bcast.  MPICH broadcasts one MPI_BYTE; pact's
 *           element is the run's datatype (8 bytes for doubles, 1 with --dtype char), which costs the
 *           difference in bytes once per node level.  Each part starts when the one before has completed on
 *           this rank.
 * Restrict: the node of every rank, and a node of two ranks or more (MPICH builds node communicators, and
 *           runs smp, only then; it asserts a parent communicator).
 * Cost:     T(barrier on a node) + T(barrier among the node leaders) + T(one-element bcast on a node), each
 *           at its own latency; no one-level closed form.
 */
#include "mpich_smp.h"

static int pact_barrier_smp_build(pact_sched *s, const pact_build_args *a)
{
    int L, lr;
    const int *node = pact_smp_node(a->place, a->rank, &L, &lr);
    pact_build_args one = *a;
    one.count = 1; /* the release: one element */
    int rc = PACT_OK;
    if (L > 1) {
        rc = pact_smp_part(s, a, PACT_COLL_BARRIER, node, L, lr, 0, PACT_BUF_RECV, PACT_BUF_RECV, 0, 0, 1);
        pact_fence(s);
    }
    if (rc == PACT_OK && lr == 0 && a->place->nnodes > 1) {
        rc = pact_smp_leaders_part(s, a, PACT_COLL_BARRIER, 0, PACT_BUF_RECV, PACT_BUF_RECV, 0, 0, 2);
        pact_fence(s);
    }
    if (rc == PACT_OK && L > 1)
        rc = pact_smp_part(s, &one, PACT_COLL_BCAST, node, L, lr, 0, PACT_BUF_TMP0, PACT_BUF_TMP0, 0, 1, 3);
    return rc;
}

const pact_alg pact_alg_barrier_smp = {
    .coll = PACT_COLL_BARRIER,
    .name = "smp",
    .build = pact_barrier_smp_build,
    .restrictions = PACT_R_PLACE | PACT_R_NODES,
    .ompi_id = 0,
    .mpich = "smp",
    .smpi = NULL,
    .source = "MPICH 4.0 MPIR_Barrier_intra_smp (src/mpi/coll/barrier/barrier_intra_smp.c)",
    .cost = "T(barrier on a node) + T(barrier among node leaders) + T(one-element bcast on a node)",
    .terms = NULL,
};
