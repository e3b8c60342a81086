/*
 * reduce smp
 *
 * Source:   MPICH 4.0 MPIR_Reduce_intra_smp (src/mpi/coll/reduce/reduce_intra_smp.c).  On every node but the
 *           root's, a reduce to the node's first rank (its leader) on the node's ranks (MPICH's node_comm),
 *           into a scratch vector; then a reduce among the node leaders (node_roots_comm) to the leader of
 *           the root's node, from that scratch vector (or the input, for a rank alone on its node); on the
 *           root's node last, a reduce to the root on the node's ranks, where the root's node leader
 *           contributes what the leaders' reduce gave it (the root itself, when it leads its node, reduces in
 *           place then).  So the root's node reduces after every other node.  MPICH selects again for each
 *           part, on communicators that are not parents, so its built-in tree decides them
 *           (pact_smp_choice, sim/coll/common/mpich_smp.c): a binomial reduce to 2 KiB, else
 *           reduce_scatter_gather.  Each part starts when the one before has completed on this rank.
 * Restrict: a commutative operation (MPICH asserts it); the node of every rank, and a node of two ranks or
 *           more (MPICH builds node communicators, and runs smp, only then).
 * Cost:     T(reduce on a node) + T(reduce among the node leaders) + T(reduce on the root's node), each
 *           at its own latency and bandwidth; no one-level closed form.
 */
#include "mpich_smp.h"

int pact_reduce_smp_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    if (n == 0)
        return PACT_OK;
    const pact_place *pl = a->place;
    const int rank = a->rank, root = a->root, mynode = pl->node_of[rank], rnode = pl->node_of[root];
    int L, lr;
    const int *node = pact_smp_node(pl, rank, &L, &lr);
    /* the input: in place it is in RECV (the root's only) */
    uint32_t in = a->inplace ? PACT_BUF_RECV : PACT_BUF_SEND;
    /* the leaders' scratch vector: TMP1[0, n); the parts' scratch after it */
    const uint32_t tmp = PACT_BUF_TMP1;
    if (lr == 0)
        pact_need(s, tmp, n);
    int rc = PACT_OK;
    if (L > 1 && mynode != rnode) {
        rc = pact_smp_part(s, a, PACT_COLL_REDUCE, node, L, lr, 0, in, tmp, 0, n, 1);
        if (rc != PACT_OK)
            return rc;
        pact_fence(s);
    }
    if (lr == 0) {
        uint32_t from = in, to = tmp;
        int inplace = 0;
        if (mynode != rnode)
            from = L == 1 ? in : tmp; /* to: MPICH passes NULL, nothing arrives */
        else if (rank == root) {
            to = PACT_BUF_RECV;
            inplace = a->inplace;
        }
        rc = pact_smp_leaders_part(s, a, PACT_COLL_REDUCE, rnode, from, to, inplace, n, 2);
        if (rc != PACT_OK)
            return rc;
        pact_fence(s);
        if (mynode == rnode)
            in = rank == root ? PACT_BUF_RECV : tmp;
    }
    if (L > 1 && mynode == rnode) {
        /* the root's node: the leader's input is the leaders' result (in place at the root) */
        int inplace = rank == root && (a->inplace || lr == 0);
        rc = pact_smp_part(s, a, PACT_COLL_REDUCE, node, L, lr, pl->local_rank[root], in, PACT_BUF_RECV,
                           inplace, n, 3);
    }
    return rc;
}

const pact_alg pact_alg_reduce_smp = {
    .coll = PACT_COLL_REDUCE,
    .name = "smp",
    .build = pact_reduce_smp_build,
    .restrictions = PACT_R_COMMUTATIVE | PACT_R_PLACE | PACT_R_NODES,
    .ompi_id = 0,
    .mpich = "smp",
    .smpi = NULL,
    .source = "MPICH 4.0 MPIR_Reduce_intra_smp (src/mpi/coll/reduce/reduce_intra_smp.c)",
    .cost = "T(reduce on a node) + T(reduce among node leaders) + T(reduce on the root's node)",
    .terms = NULL,
};
