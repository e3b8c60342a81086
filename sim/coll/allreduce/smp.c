/*
 * allreduce smp
 *
 * Source:   MPICH 4.0 MPIR_Allreduce_intra_smp (src/mpi/coll/allreduce/allreduce_intra_smp.c): a reduce to
 *           the first rank of each node on the node's ranks (MPICH's node_comm), an allreduce in place among
 *           those node leaders (node_roots_comm), and a broadcast from the leader on each node.  A rank
 *           alone on its node copies its input instead of the reduce.  In place, the leader reduces in place
 *           and the other ranks pass their receive buffer as the input.  MPICH selects again for each part,
 *           on communicators that are not parents, so its built-in tree decides them (pact_smp_choice,
 *           sim/coll/common/mpich_smp.c): at 8 B or less a recursive-doubling allreduce, else
 *           reduce_scatter_allgather; a binomial reduce to 2 KiB, else reduce_scatter_gather; a binomial
 *           bcast below 8 ranks or to 12 KiB, then scatter+allgather.  Each part starts when the one before
 *           has completed on this rank (blocking calls).
 * Restrict: a commutative operation (MPICH's tree runs it for those only); the node of every rank, and a
 *           node of two ranks or more (MPICH builds node communicators, and runs smp, only then).
 * Cost:     T(reduce on a node) + T(allreduce among the nodes' leaders) + T(bcast on a node), each at its
 *           own latency and bandwidth; no one-level closed form.
 */
#include "mpich_smp.h"

int pact_allreduce_smp_build(pact_sched *s, const pact_build_args *a)
{
    if (a->count == 0)
        return PACT_OK;
    int L, lr;
    const int *node = pact_smp_node(a->place, a->rank, &L, &lr);
    /* the reduce to the leader: in place the leader reduces in place, the others send from RECV */
    uint32_t in = a->inplace ? PACT_BUF_RECV : PACT_BUF_SEND;
    int rc =
        pact_smp_part(s, a, PACT_COLL_REDUCE, node, L, lr, 0, in, PACT_BUF_RECV, a->inplace && lr == 0, 0, 1);
    if (rc != PACT_OK)
        return rc;
    pact_fence(s);
    if (lr == 0) {
        rc = pact_smp_leaders_part(s, a, PACT_COLL_ALLREDUCE, 0, PACT_BUF_RECV, PACT_BUF_RECV, 1, 0, 2);
        if (rc != PACT_OK)
            return rc;
        pact_fence(s);
    }
    return pact_smp_part(s, a, PACT_COLL_BCAST, node, L, lr, 0, PACT_BUF_RECV, PACT_BUF_RECV, 0, 0, 3);
}

const pact_alg pact_alg_allreduce_smp = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "smp",
    .build = pact_allreduce_smp_build,
    .restrictions = PACT_R_COMMUTATIVE | PACT_R_PLACE | PACT_R_NODES,
    .ompi_id = 0,
    .mpich = "smp",
    .smpi = NULL,
    .source = "MPICH 4.0 MPIR_Allreduce_intra_smp (src/mpi/coll/allreduce/allreduce_intra_smp.c)",
    .cost = "T(reduce on a node) + T(allreduce among node leaders) + T(bcast on a node)",
    .terms = NULL,
};
