/*
 * mpich_smp.h - what MPICH 4.0's smp compositions (allreduce, reduce, bcast and barrier smp,
 * src/mpi/coll/<coll>/<coll>_intra_smp.c) share: the node and node-leader sub-groups MPICH builds for a
 * communicator whose ranks share nodes (MPIR_Comm_create_subcomms: node_comm, node_roots_comm), and the
 * collectives they call on them.
 *
 * MPICH calls MPIR_Reduce, MPIR_Allreduce, MPIR_Bcast and MPIR_Barrier on those sub-communicators, which
 * select again; a sub-communicator is not a parent (comm_hierarchy node or node_roots), so MPICH's built-in
 * tree decides by its size and the message alone, and pact's MPICH tables leave those two hierarchies to the
 * built-in tree (tuner/emit/mpich.c).  pact_smp_choice is that tree's choice, written out from the tree
 * compiled into libmpich 4.0.2 (tuner/emit/mpich_csel_data.inc; tests/unit/test_emit.c evaluates that tree
 * and compares).
 */
#ifndef PACT_COLL_MPICH_SMP_H
#define PACT_COLL_MPICH_SMP_H

#include "pact_coll.h"

/* The pact builder of the algorithm MPICH 4.0.2's built-in tree runs for collective c (allreduce, reduce,
 * bcast or barrier) on a communicator of `size` ranks that is not a parent, for `count` elements of
 * `elem_size` bytes and a built-in commutative operation; NULL for another collective. */
const pact_alg *pact_smp_choice(pact_coll c, int size, size_t count, size_t elem_size);
/* MPICH's scatter bcast on `size` ranks, with the recursive-doubling allgather (rd) or the ring:
 * mpich_scatter_allgather[_ring], or where MPICH's blocks of ceil(bytes/size) bytes are not whole elements
 * (PACT_R_BYTE_SPLIT; elements of 2 bytes or more) Open MPI's scatter_allgather[_ring], whose blocks of
 * ceil(count/size) elements are at most elem_size - 1 bytes longer: the nearest schedule that element-typed
 * buffers can say.  The compositions reach it above 12 KiB only, where MPICH leaves binomial: there count >=
 * size for up to 12288 / elem_size ranks (1,536 of doubles), so Open MPI's switch to basic_linear below size
 * elements does not happen. */
const pact_alg *pact_smp_scatter_bcast(int size, size_t count, size_t elem_size, int rd);

/* The node sub-group of `rank`: its ranks, their number and rank's index among them (MPICH's node_comm;
 * MPICH builds it only for more than one rank). */
static inline const int *pact_smp_node(const pact_place *p, int rank, int *size, int *me)
{
    int n = p->node_of[rank];
    *size = p->node_first[n + 1] - p->node_first[n];
    *me = p->local_rank[rank];
    return p->node_ranks + p->node_first[n];
}

/* Runs c on the sub-group ranks[0 .. size), where this rank is ranks[me], with pact_smp_choice's algorithm:
 * rooted at `root` (an index in the sub-group), in place at this rank when `inplace`, its SEND and RECV the
 * enclosing buffers sbuf and rbuf, its scratch buffers the enclosing ones from element `scratch` on, and
 * `tag` added to its tags (MPICH runs each part on a communicator of its own).  A group of one rank runs
 * nothing but the copy from sbuf to rbuf that MPI makes of a reduce or allreduce out of place. */
int pact_smp_part(pact_sched *s, const pact_build_args *a, pact_coll c, const int *ranks, int size, int me,
                  int root, uint32_t sbuf, uint32_t rbuf, int inplace, size_t scratch, int tag);

/* pact_smp_part on the node leaders (the first rank of each node, node by node: MPICH's node_roots_comm),
 * this rank being its node's leader; `root` is a node's index. */
int pact_smp_leaders_part(pact_sched *s, const pact_build_args *a, pact_coll c, int root, uint32_t sbuf,
                          uint32_t rbuf, int inplace, size_t scratch, int tag);

#endif
