/*
 * topo.h - the communication trees of Open MPI's coll/base (ompi/mca/coll/base/coll_base_topo.c), and the
 * two generic tree collectives built on them (reduce and bcast, sim/coll/<collective>/tree_generic.c).
 *
 * A tree is computed for one rank: its parent and its children in the order Open MPI lists them (which is
 * the order it posts messages in).  Ranks are shifted by the root as Open MPI does, except for the in-order
 * binary tree, whose root is always rank P-1.
 */
#ifndef PACT_COLL_TOPO_H
#define PACT_COLL_TOPO_H

#include "pact_coll.h"

/* Open MPI's MAXTREEFANOUT: the largest fanout of k-ary trees and chains. */
#define PACT_TREE_MAXFANOUT 32
/* Children one rank can have: binomial trees have up to log2(P) of them, k-nomial (radix-1)*log_radix(P). */
#define PACT_TREE_MAXCHILDREN 512

typedef enum {
    PACT_TREE_KARY,              /* ompi_coll_base_topo_build_tree(fanout): breadth-first k-ary tree */
    PACT_TREE_IN_ORDER_BINARY,   /* ompi_coll_base_topo_build_in_order_bintree: root P-1, `root` ignored */
    PACT_TREE_BINOMIAL,          /* ompi_coll_base_topo_build_bmtree: parent clears the highest bit */
    PACT_TREE_IN_ORDER_BINOMIAL, /* ompi_coll_base_topo_build_in_order_bmtree: parent clears the lowest bit */
    PACT_TREE_KNOMIAL,           /* ompi_coll_base_topo_build_kmtree(radix = fanout) */
    PACT_TREE_CHAIN,             /* ompi_coll_base_topo_build_chain(fanout): `fanout` chains off the root */
} pact_tree_kind;

typedef struct {
    int root;   /* the rank at the top of the tree */
    int parent; /* -1 at the root */
    int nchildren;
    int children[PACT_TREE_MAXCHILDREN];
} pact_tree;

/* Fills `t` for `rank` of `size` ranks.  `fanout` is the k of the k-ary tree, the number of chains, or the
 * k-nomial radix; ignored by the other kinds.  As in Open MPI, a chain fanout below 1 becomes 1 and one
 * above PACT_TREE_MAXFANOUT becomes PACT_TREE_MAXFANOUT.  Returns PACT_OK, or PACT_ERR_ARG for arguments
 * Open MPI rejects (k-ary fanout outside 1..PACT_TREE_MAXFANOUT, radix < 2) or too many children. */
int pact_topo_tree(int kind, int fanout, int rank, int size, int root, pact_tree *t);

/*
 * Open MPI's ompi_coll_base_reduce_generic on tree `t` (whose root is t->root), `segcount` elements per
 * segment.  `sbuf` holds this rank's contribution (PACT_BUF_SEND, or a scratch copy), `rbuf` receives the
 * result at the tree root; `inplace` is "sendbuf == MPI_IN_PLACE" as the generic function sees it (the
 * contribution is then in rbuf).  `max_reqs` > 0 limits the segments a leaf has in flight.
 * Scratch: TMP0 holds the accumulator [0, count) and the two incoming segments [count, count+2*segcount);
 * the caller may use TMP1.
 */
int pact_reduce_tree_generic(pact_sched *s, const pact_build_args *a, const pact_tree *t, size_t segcount,
                             uint32_t sbuf, uint32_t rbuf, int inplace, int max_reqs);

/* Open MPI's ompi_coll_base_bcast_intra_generic on tree `t` (rooted at a->root), `segcount` elements per
 * segment, in RECV. */
int pact_bcast_tree_generic(pact_sched *s, const pact_build_args *a, const pact_tree *t, size_t segcount);

#endif
