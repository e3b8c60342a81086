/*
 * redscat.c - the pairing step and the recursive-halving reduce-scatter of the Rabenseifner algorithms
 * (see redscat.h).
 *
 *   P = 6 (pof2 = 4, r = 2), n elements:
 *   pairing:         0 <-> 1, 2 <-> 3: ranks 0 and 2 end up with the sum over their pair, 1 and 3 sit out
 *   virtual ranks:   0 -> 0, 2 -> 1, 4 -> 2, 5 -> 3
 *   reduce-scatter:  distance 1: (0,2) (4,5) exchange halves;  distance 2: (0,4) (2,5) exchange quarters
 */
#include "redscat.h"

/* Pairing of one of the first 2r ranks with its neighbour: a blocking sendrecv of the halves, the reduction
 * of the half kept, then the odd rank's reduced half to the even rank.  Returns the last operation. */
static int pair_up(pact_sched *s, int rank, size_t n, uint32_t rbuf, uint32_t tmp, int dep)
{
    const size_t lh = n / 2, rh = n - lh;
    const int odd = rank % 2, peer = odd ? rank - 1 : rank + 1;
    /* The odd rank keeps the right half, the even one the left half. */
    const size_t koff = odd ? lh : 0, kcount = odd ? rh : lh;
    const size_t goff = odd ? 0 : lh, gcount = odd ? lh : rh;
    int r = pact_recv(s, peer, pact_sl(tmp, koff, kcount));
    pact_after(s, dep);
    int x = pact_send(s, peer, pact_sl(rbuf, goff, gcount));
    pact_after(s, dep);
    int red = pact_reduce(s, pact_sl(rbuf, koff, kcount), pact_sl(tmp, koff, kcount));
    pact_after(s, r);
    pact_after(s, x);
    /* The odd rank returns its reduced right half to the even one and sits out. */
    int last = odd ? pact_send(s, peer, pact_sl(rbuf, lh, rh)) : pact_recv(s, peer, pact_sl(rbuf, lh, rh));
    pact_after(s, red);
    return last;
}

/* The reduce-scatter among the pof2 ranks left, after operation `last`: the window [lo, lo + wsize) this
 * rank keeps halves each step; the lower rank of a pair keeps the left half.  Returns the last reduction. */
static int halve(pact_sched *s, int rank, size_t n, int pof2, int rem, uint32_t rbuf, uint32_t tmp,
                 pact_redscat *rs, int last)
{
    size_t wsize = n, lo = 0;
    for (int step = 0, mask = 1; mask < pof2; mask <<= 1, step++) {
        const int dest = pact_redscat_real(rs->vrank ^ mask, rem);
        if (rank < dest) {
            rs->rcount[step] = wsize / 2;
            rs->scount[step] = wsize - rs->rcount[step];
            rs->rindex[step] = lo;
            rs->sindex[step] = lo + rs->rcount[step];
        } else {
            rs->scount[step] = wsize / 2;
            rs->rcount[step] = wsize - rs->scount[step];
            rs->sindex[step] = lo;
            rs->rindex[step] = lo + rs->scount[step];
        }
        int r = pact_recv(s, dest, pact_sl(tmp, rs->rindex[step], rs->rcount[step]));
        pact_after(s, last);
        int x = pact_send(s, dest, pact_sl(rbuf, rs->sindex[step], rs->scount[step]));
        pact_after(s, last);
        last = pact_reduce(s, pact_sl(rbuf, rs->rindex[step], rs->rcount[step]),
                           pact_sl(tmp, rs->rindex[step], rs->rcount[step]));
        pact_after(s, r);
        pact_after(s, x);
        lo = rs->rindex[step];
        wsize = rs->rcount[step];
    }
    return last;
}

int pact_redscat_halving(pact_sched *s, const pact_build_args *a, uint32_t rbuf, uint32_t tmp,
                         pact_redscat *rs)
{
    const size_t n = a->count;
    const int rank = a->rank, pof2 = pact_pof2_floor(a->size), rem = a->size - pof2;
    pact_need(s, tmp, n);
    rs->nsteps = 0;
    while ((1 << rs->nsteps) < pof2)
        rs->nsteps++;

    int last = pact_copy(s, pact_sl(rbuf, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    if (rank < 2 * rem) {
        last = pair_up(s, rank, n, rbuf, tmp, last);
        rs->vrank = rank % 2 ? -1 : rank / 2;
    } else {
        rs->vrank = rank - rem;
    }
    if (rs->vrank != -1)
        last = halve(s, rank, n, pof2, rem, rbuf, tmp, rs, last);
    return last;
}
