/*
 * bcast smp
 *
 * Source:   MPICH 4.0 MPIR_Bcast_intra_smp (src/mpi/coll/bcast/bcast_intra_smp.c), with MPICH's defaults
 *           MPIR_CVAR_BCAST_SHORT_MSG_SIZE = 12288, MPIR_CVAR_BCAST_LONG_MSG_SIZE = 524288 and
 *           MPIR_CVAR_BCAST_MIN_PROCS = 8.  Three cases by m = count x element size:
 *           - m < 12288 or P < 8: a root that does not lead its node (the node's first rank) sends the
 *             buffer to its leader (one blocking send); the node leaders broadcast among themselves
 *             (node_roots_comm) from the root's node's leader; every node broadcasts from its leader on
 *             its ranks (node_comm), the root's node included.
 *           - m < 524288 and P a power of two: the root's node broadcasts from the root first (when the
 *             root does not lead it), then the leaders among themselves, then every other node from its
 *             leader (and the root's node, when the root leads it).
 *           - otherwise MPICH's scatter_ring_allgather on all P ranks (mpich_scatter_allgather_ring.c; see
 *             pact_smp_scatter_bcast in mpich_smp.h for elements that MPICH's byte blocks would split).
 *           MPICH selects again for each part, on communicators that are not parents, so its built-in tree
 *           decides them (pact_smp_choice, sim/coll/common/mpich_smp.c): binomial below 8 ranks or to
 *           12 KiB, scatter+recursive-doubling allgather to 512 KiB at powers of two, else scatter+ring
 *           allgather.  Each part starts when the one before has completed on this rank.
 * Restrict: the node of every rank, and a node of two ranks or more (MPICH builds node communicators, and
 *           runs smp, only then; it asserts a parent communicator).
 * Cost:     the parts' costs, each at its own latency and bandwidth; no one-level closed form.
 */
#include "mpich_smp.h"

#define SHORT_MSG 12288
#define LONG_MSG 524288
#define MIN_PROCS 8

int pact_bcast_smp_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count, m = n * a->elem_size;
    if (n == 0)
        return PACT_OK;
    const pact_place *pl = a->place;
    const int rank = a->rank, root = a->root, P = a->size;
    const int mynode = pl->node_of[rank], rnode = pl->node_of[root], rlocal = pl->local_rank[root];
    int L, lr;
    const int *node = pact_smp_node(pl, rank, &L, &lr);
    const int shortmsg = m < SHORT_MSG || P < MIN_PROCS;
    if (!shortmsg && !(m < LONG_MSG && pact_is_pof2(P)))
        return pact_compose(s, pact_smp_scatter_bcast(P, n, a->elem_size, 0), a, NULL);
    const pact_slice all = pact_sl(PACT_BUF_RECV, 0, n);
    int rc = PACT_OK;
    if (mynode == rnode && rlocal > 0) {
        /* the root's node first: the root's buffer to its leader (short), or the node's broadcast from it */
        if (shortmsg) {
            if (rank == root) {
                pact_send(s, node[0], all);
                pact_set_tag(s, 1);
            } else if (lr == 0) {
                pact_recv(s, root, all);
                pact_set_tag(s, 1);
            }
        } else {
            rc = pact_smp_part(s, a, PACT_COLL_BCAST, node, L, lr, rlocal, PACT_BUF_RECV, PACT_BUF_RECV, 0, 0,
                               1);
        }
        pact_fence(s);
    }
    if (rc == PACT_OK && lr == 0) {
        rc = pact_smp_leaders_part(s, a, PACT_COLL_BCAST, rnode, PACT_BUF_RECV, PACT_BUF_RECV, 0, 0, 2);
        pact_fence(s);
    }
    if (rc == PACT_OK && (shortmsg || mynode != rnode || rlocal == 0))
        rc = pact_smp_part(s, a, PACT_COLL_BCAST, node, L, lr, 0, PACT_BUF_RECV, PACT_BUF_RECV, 0, 0, 3);
    return rc;
}

const pact_alg pact_alg_bcast_smp = {
    .coll = PACT_COLL_BCAST,
    .name = "smp",
    .build = pact_bcast_smp_build,
    .restrictions = PACT_R_PLACE | PACT_R_NODES,
    .ompi_id = 0,
    .mpich = "smp",
    .smpi = NULL,
    .source = "MPICH 4.0 MPIR_Bcast_intra_smp (src/mpi/coll/bcast/bcast_intra_smp.c)",
    .cost = "T(bcast among node leaders) + T(bcast on a node), plus the root's send to its leader; "
            "scatter + ring allgather on all ranks from 512 KiB or off powers of two",
    .terms = NULL,
};
