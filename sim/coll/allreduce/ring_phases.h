/* ring_phases.h - the two phases of Open MPI's ring allreduce (ompi_coll_base_allreduce_intra_ring), which
 * its segmented variant (ompi_coll_base_allreduce_intra_ring_segmented) runs too: a ring reduce-scatter,
 * once on whole blocks or once per phase on pieces of them, then a ring allgather of whole blocks.  Both
 * allreduce ring.c and segmented_ring.c build on them, so that the two schedules cannot drift apart. */
#ifndef PACT_ALLREDUCE_RING_PHASES_H
#define PACT_ALLREDUCE_RING_PHASES_H

#include "common.h"

/* Block b of n elements in p blocks (the first n mod p one element longer), in RECV. */
static inline pact_slice pact_allreduce_ring_block(size_t n, int p, int b)
{
    size_t off, len;
    pact_block(n, p, b, &off, &len);
    return pact_sl(PACT_BUF_RECV, off, len);
}

/* Piece `phase` of block b when each block is cut into `phases` pieces the same way, in RECV. */
static inline pact_slice pact_allreduce_ring_piece(size_t n, int p, int b, int phases, int phase)
{
    size_t poff, plen;
    pact_slice blk = pact_allreduce_ring_block(n, p, b);
    pact_block(blk.count, phases, phase, &poff, &plen);
    return pact_sl(PACT_BUF_RECV, blk.off + poff, plen);
}

/*
 * One ring reduce-scatter (p >= 2) on the pieces `phase` of the P blocks in RECV (phases = 1: the whole
 * blocks), in Open MPI's posting order: receive k (block rank-k, into the scratch buffer of TMP0/TMP1 not
 * being reduced) is posted once send k-1 has completed; the block that arrived before is reduced after its
 * receive and after send k-1, then sent on as send k.  The first receive waits for `recv_dep`, the first send
 * for `send_dep` (-1: nothing).  Rank r ends up with piece `phase` of block r+1 reduced over all ranks.
 * The caller sizes TMP0 and TMP1 to a piece.  Returns the last reduction.
 */
static inline int pact_allreduce_ring_reduce_scatter(pact_sched *s, int rank, int p, size_t n, int phases,
                                                     int phase, int recv_dep, int send_dep)
{
    const uint32_t inbuf[2] = {PACT_BUF_TMP0, PACT_BUF_TMP1};
    const int right = (rank + 1) % p, left = (rank + p - 1) % p;
    int inbi = 0;
    int recv_prev =
        pact_recv(s, left, pact_sl(inbuf[0], 0, pact_allreduce_ring_piece(n, p, left, phases, phase).count));
    pact_after(s, recv_dep);
    int send_prev = pact_send(s, right, pact_allreduce_ring_piece(n, p, rank, phases, phase));
    pact_after(s, send_dep);
    for (int k = 2; k < p; k++) {
        inbi ^= 1;
        pact_slice next = pact_allreduce_ring_piece(n, p, (rank + p - k) % p, phases, phase);
        int r = pact_recv(s, left, pact_sl(inbuf[inbi], 0, next.count));
        pact_after(s, send_prev);
        pact_slice done = pact_allreduce_ring_piece(n, p, (rank + p - k + 1) % p, phases, phase);
        int red = pact_reduce(s, done, pact_sl(inbuf[inbi ^ 1], 0, done.count));
        pact_after(s, recv_prev);
        pact_after(s, send_prev);
        int x = pact_send(s, right, done);
        pact_after(s, red);
        recv_prev = r;
        send_prev = x;
    }
    pact_slice fin = pact_allreduce_ring_piece(n, p, right, phases, phase);
    int last = pact_reduce(s, fin, pact_sl(inbuf[inbi], 0, fin.count));
    pact_after(s, recv_prev);
    pact_after(s, send_prev);
    return last;
}

/* The ring allgather of whole blocks after operation `dep`: P-1 blocking sendrecvs, step k sending block
 * rank+1-k to the right (complete here) and receiving block rank-k from the left. */
static inline void pact_allreduce_ring_allgather(pact_sched *s, int rank, int p, size_t n, int dep)
{
    const int right = (rank + 1) % p, left = (rank + p - 1) % p;
    int prev[2] = {dep, -1};
    for (int k = 0; k < p - 1; k++)
        pact_sendrecv_step(s, right, pact_allreduce_ring_block(n, p, (rank + 1 - k + p) % p), left,
                           pact_allreduce_ring_block(n, p, (rank - k + p) % p), prev);
}

#endif
