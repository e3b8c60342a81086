/*
 * mpich_redscat.h - the reduce-scatter that opens both of MPICH 4.0's Rabenseifner algorithms,
 * MPIR_Allreduce_intra_reduce_scatter_allgather and MPIR_Reduce_intra_reduce_scatter_gather
 * (sim/coll/allreduce/mpich_reduce_scatter_allgather.c, sim/coll/reduce/mpich_reduce_scatter_gather.c).
 * MPICH writes it twice; the two copies differ only in which rank of a folded pair goes on (the odd one in
 * allreduce, the even one in reduce), a parameter here.  Open MPI's version (redscat.h) folds otherwise
 * (a half swap and a half sent back) and halves element counts instead of whole blocks.
 */
#ifndef PACT_COLL_MPICH_REDSCAT_H
#define PACT_COLL_MPICH_REDSCAT_H

#include "common.h"

/* Where the reduce-scatter leaves a rank, for the phase after it (MPICH's variables of the same names). */
typedef struct {
    int pof2, rem;  /* the largest power of two <= P, and P - pof2 */
    int newrank;    /* rank among the pof2 that go on; -1: folded away */
    int send_idx, recv_idx, last_idx; /* block indices, as MPICH leaves them after the loop */
    int dep[2];     /* what the next operation waits for: the last step's operations (-1: none) */
} pact_mrs;

/* MPICH's split of n elements into pof2 blocks, the first n % pof2 one element longer (the split of
 * pact_block): block i starts at pact_mrs_disp(n, pof2, i); i = pof2 is the end. */
static inline size_t pact_mrs_disp(size_t n, int pof2, int i)
{
    size_t off, len;
    pact_block(n, pof2, i, &off, &len);
    return off;
}

/* The real rank of newrank v: folded pairs are ranks 2v and 2v+1 below 2 rem, `odd` of them goes on. */
static inline int pact_mrs_real(int v, int rem, int odd)
{
    return v < rem ? v * 2 + odd : v + rem;
}

/*
 * Emits, for a->rank, after operation `prev`: the fold (below 2 rem, the rank of parity !odd sends its whole
 * vector from `acc` to its partner, which receives it into `tmp` and reduces it into `acc`), then the
 * reduce-scatter by recursive vector halving and distance doubling over whole blocks (blocking sendrecvs
 * from `acc` into the same offsets of `tmp`, each followed by its reduction into `acc`).  `acc` and `tmp`
 * are buffers of a->count elements; needs a->count >= pof2 and a commutative operation.  Fills *st.
 */
void pact_mrs_halving(pact_sched *s, const pact_build_args *a, uint32_t acc, uint32_t tmp, int odd, int prev,
                      pact_mrs *st);

/* One step of the phase after the reduce-scatter, which walks its pairs in reverse (mask = pof2/2 .. 1): moves
 * st's indices as MPICH does and gives the blocks this rank sends, [*sa, *sb), and receives, [*ra, *rb), in
 * that step; the caller sets send_idx = recv_idx afterwards when v > v ^ mask (and it did receive). */
static inline void pact_mrs_back(pact_mrs *st, int v, int mask, int *sa, int *sb, int *ra, int *rb)
{
    if (v < (v ^ mask)) {
        if (mask != st->pof2 / 2)
            st->last_idx = st->last_idx + st->pof2 / (mask * 2);
        st->recv_idx = st->send_idx + st->pof2 / (mask * 2);
        *sa = st->send_idx, *sb = st->recv_idx, *ra = st->recv_idx, *rb = st->last_idx;
    } else {
        st->recv_idx = st->send_idx - st->pof2 / (mask * 2);
        *sa = st->send_idx, *sb = st->last_idx, *ra = st->recv_idx, *rb = st->send_idx;
    }
}

/* The largest power of two <= p (p >= 1). */
static inline int pact_mrs_pof2(int p)
{
    int q = 1;
    while (q * 2 <= p)
        q *= 2;
    return q;
}

#endif
