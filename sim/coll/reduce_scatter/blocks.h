/*
 * blocks.h - the blocks of a reduce_scatter vector and the folding of P ranks to a power of two, shared by
 * recursive_halving.c and butterfly.c; when ring.c and mpich_pairwise.c turn rank 0's schedule.
 *
 * recvcounts[i] is block i of pact_block's split: the vector of n elements in P blocks, the first n mod P
 * one element longer.  When P is not a power of two both algorithms fold the first 2r ranks (r = P - pof2)
 * pairwise: the even rank hands its vector to the odd one and sits out; virtual rank v < r is the odd rank
 * 2v+1 and owns real blocks 2v and 2v+1, virtual rank v >= r is rank v+r and owns block v+r.
 */
#ifndef PACT_REDUCE_SCATTER_BLOCKS_H
#define PACT_REDUCE_SCATTER_BLOCKS_H

#include "common.h"
#include "cost.h"

static inline size_t rs_off(size_t n, int p, int b)
{
    size_t off, len;
    pact_block(n, p, b, &off, &len);
    return off;
}

static inline size_t rs_len(size_t n, int p, int b)
{
    size_t off, len;
    pact_block(n, p, b, &off, &len);
    return len;
}

/* Whether every rank's schedule is rank 0's turned (pact_alg.rotates) for an algorithm whose step i pairs
 * each rank with rank + i and rank - i (ring, MPICH's pairwise exchange): where the P blocks are equal (count
 * a multiple of P) and the input is not in place (in place, MPICH's pairwise copies the result to the front
 * on ranks other than 0). */
static inline int rs_rotates(const pact_build_args *a)
{
    return a->count > 0 && a->size > 1 && a->count % (size_t)a->size == 0 && !a->inplace;
}

/* Real rank of virtual rank v. */
static inline int rs_real(int v, int rem)
{
    return v < rem ? 2 * v + 1 : v + rem;
}

/* First element of virtual block v (v = pof2: the end of the vector); the virtual blocks are contiguous. */
static inline size_t rs_voff(size_t n, int p, int pof2, int v)
{
    const int rem = p - pof2;
    return v >= pof2 ? n : rs_off(n, p, v < rem ? 2 * v : v + rem);
}

/* The elements of virtual blocks [lo, hi). */
static inline pact_slice rs_vslice(uint32_t buf, size_t n, int p, int pof2, int lo, int hi)
{
    const size_t a = rs_voff(n, p, pof2, lo);
    return pact_sl(buf, a, rs_voff(n, p, pof2, hi) - a);
}


/* The fold of the first 2r ranks: every rank copies SEND into `acc`; an even rank below 2r hands its vector
 * to the odd rank above it and sits out (*vrank -1), which receives it into `in` and reduces it into `acc`
 * (virtual rank rank/2); the others are virtual rank rank - r.  Returns the operation the rest waits for. */
static inline int rs_fold(pact_sched *s, int rank, int rem, size_t n, uint32_t acc, uint32_t in, int *vrank)
{
    int last = pact_copy(s, pact_sl(acc, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    if (rank < 2 * rem && rank % 2 == 0) {
        int x = pact_send(s, rank + 1, pact_sl(acc, 0, n));
        pact_after(s, last);
        last = x;
        *vrank = -1;
    } else if (rank < 2 * rem) {
        int r = pact_recv(s, rank - 1, pact_sl(in, 0, n));
        pact_after(s, last);
        last = pact_reduce(s, pact_sl(acc, 0, n), pact_sl(in, 0, n));
        pact_after(s, r);
        *vrank = rank / 2;
    } else {
        *vrank = rank - rem;
    }
    return last;
}

/* Closed forms (derived from the schedules).  Bytes of virtual blocks [lo, hi) of a reduce-scatter over pof2
 * virtual ranks: virtual rank v < r = P - pof2 owns blocks 2v and 2v+1 of the P-block split, the others
 * block v + r. */
static inline double rs_vbytes(double m, int P, int pof2, int lo, int hi)
{
    const double es = pact_cost_elem(m), n = m / es, small = floor(n / P), extra = n - small * P;
    const int rem = P - pof2;
    if (hi <= lo)
        return 0;
    /* virtual blocks [lo, hi) are the real blocks [klo, khi): 2v, 2v+1 below rem, v + rem above */
    const double klo = lo < rem ? 2.0 * lo : (double)lo + rem, khi = hi <= rem ? 2.0 * hi : (double)hi + rem;
    const double big = fmax(0, fmin(khi, extra) - klo); /* blocks k < extra hold one element more */
    return ((khi - klo) * small + big) * es;
}

/* The exchanges of recursive halving (masks pof2/2 down to 1) or butterfly (masks 1 up to pof2/2) among pof2
 * virtual ranks: each step costs what its largest exchange costs, alpha + beta max(sent, received) + gamma
 * received (the largest such over the pairs: exact when the blocks are equal). */
static inline void rs_halving_steps(int P, double m, int butterfly, pact_cost *t)
{
    const int pof2 = 1 << pact_flog2(P);
    double a = 0, b = 0, c = 0;
    for (int step = 0; (1 << step) < pof2; step++) {
        const int mask = butterfly ? 1 << step : pof2 >> (step + 1);
        /* Every v exchanges n virtual blocks with its partner inside an aligned window of 2n: halving's
         * window is v's bits above `mask`, butterfly's is set by its bits below.  Bytes per virtual block never
         * grow with v (two real blocks below r, blocks below `extra` one element larger), so the largest
         * exchange, alpha + beta max(sent, received) + gamma received, is v = 0's: it receives [0, n) and
         * sends [n, 2n). */
        const int n = butterfly ? pof2 / (mask * 2) : mask;
        const double s = rs_vbytes(m, P, pof2, n, 2 * n), r = rs_vbytes(m, P, pof2, 0, n);
        const double bs = fmax(s, r), br = r;
        a += 1;
        b += bs;
        c += br;
    }
    pact_cost_set(t, a, b, c);
}

#endif
