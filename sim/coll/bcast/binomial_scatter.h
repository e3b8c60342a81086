/* binomial_scatter.h - the binomial-tree scatter, and the fallbacks before it, that open Open MPI's
 * scatter_allgather and scatter_allgather_ring broadcasts
 * (ompi_coll_base_bcast_intra_scatter_allgather[_ring]) and MPICH's scatter_recursive_doubling_allgather
 * and scatter_ring_allgather (MPII_Scatter_for_bcast, src/mpi/coll/bcast/bcast_utils.c: the same tree). */
#ifndef PACT_BCAST_BINOMIAL_SCATTER_H
#define PACT_BCAST_BINOMIAL_SCATTER_H

#include "pact_coll.h"

/* Elements virtual rank v (rank relative to the root) holds after the scatter: its subtree's blocks of
 * sc elements, [v*sc, (v + lowbit(v))*sc), clipped to the n elements there are. */
static inline size_t pact_bcast_scatter_span(int v, size_t n, size_t sc)
{
    if (v == 0)
        return n;
    size_t lo = (size_t)v * sc, hi = (size_t)(v + (v & -v)) * sc;
    if (lo >= n)
        return 0;
    return (hi < n ? hi : n) - lo;
}

/*
 * Emits the scatter of n elements of RECV in blocks of sc elements: a rank receives its subtree's blocks
 * from its parent (blocking, as in Open MPI), then hands each child, largest subtree first, the part of
 * them the child's subtree owns.  Receives and sends of nothing are skipped, as Open MPI skips them.
 * Returns the last operation emitted (-1 when none): everything after the scatter waits for it.
 */
static inline int pact_bcast_binomial_scatter(pact_sched *s, int rank, int p, int root, size_t n, size_t sc)
{
    const int v = (rank - root + p) % p;
    size_t curr = pact_bcast_scatter_span(v, n, sc);
    int last = -1, mask = 1;
    while (mask < p && !(v & mask))
        mask <<= 1;
    if (v != 0 && curr > 0)
        last = pact_recv(s, (rank - mask + p) % p, pact_sl(PACT_BUF_RECV, (size_t)v * sc, curr));
    for (mask >>= 1; mask > 0; mask >>= 1) {
        size_t keep = (size_t)mask * sc;
        if (v + mask >= p || curr <= keep)
            continue;
        int x = pact_send(s, (rank + mask) % p, pact_sl(PACT_BUF_RECV, (size_t)(v + mask) * sc, curr - keep));
        pact_after(s, last);
        last = x;
        curr = keep;
    }
    return last;
}

/*
 * What the broadcasts do before their allgathers: nothing for count 0 or one rank; with `ompi`, basic_linear
 * when count < P, as Open MPI switches to it; otherwise the scatter of ceil(count/P)-element blocks.
 * MPICH (`ompi` 0) goes on below P: its blocks of ceil(bytes/P) bytes are these, one-byte elements or whole
 * ones being what PACT_R_BYTE_SPLIT admits, and the ranks past the last byte get nothing.  Returns 1 when the
 * caller goes on with its allgather, on blocks of *sc elements after operation *last; 0 when the broadcast
 * is complete, with its status in *rc.
 */
static inline int pact_bcast_scatter_prelude(pact_sched *s, const pact_build_args *a, int ompi, int *rc,
                                             size_t *sc, int *last)
{
    const size_t n = a->count;
    const int p = a->size;
    int go = 0;
    *rc = PACT_OK;
    if (n == 0 || p < 2) {
        /* nothing to move */
    } else if (ompi && n < (size_t)p) {
        *rc = pact_bcast_basic_linear_build(s, a);
    } else {
        *sc = (n + (size_t)p - 1) / (size_t)p;
        *last = pact_bcast_binomial_scatter(s, a->rank, p, a->root, n, *sc);
        go = 1;
    }
    return go;
}

/* The broadcasts after the prelude (scatter_allgather.c, scatter_allgather_ring.c): Open MPI's with `ompi`,
 * MPICH's without (mpich_scatter_allgather.c, mpich_scatter_allgather_ring.c). */
int pact_bcast_scatter_rd_allgather(pact_sched *s, const pact_build_args *a, int ompi);
int pact_bcast_scatter_ring_allgather(pact_sched *s, const pact_build_args *a, int ompi);

#endif
