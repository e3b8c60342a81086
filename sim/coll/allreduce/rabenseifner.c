/*
 * allreduce rabenseifner
 *
 * Source:   Open MPI ompi_coll_base_allreduce_intra_redscat_allgather (coll_base_allreduce.c in
 *           ompi/mca/coll/base, 4.1 and 5.0): Rabenseifner's allreduce, a reduce-scatter by recursive
 *           vector halving and distance doubling, then an allgather by recursive vector doubling and
 *           distance halving.  For P not a power of two the first 2r ranks (r = P - 2^floor(log2 P)) pair
 *           up first: each even rank keeps the left half, each odd rank the right half, they exchange and
 *           reduce the halves, the odd rank hands its reduced half to the even one and sits out until the
 *           even one sends it the result.  As in Open MPI 4.1/5.0, with count < 2^floor(log2 P) or a
 *           non-commutative operation it runs basic_linear instead (Open MPI's main branch has since
 *           dropped the count test).
 * Restrict: none (falls back as above).
 * Cost:     2*log2(P)*alpha + 2*beta*m*(P-1)/P + gamma*m*(P-1)/P  (P a power of two);
 *           otherwise + 3*alpha + 2*beta*m + gamma*m/2 for the pairing and the final send.
 *
 *   P = 4, blocks a b c d:
 *   reduce-scatter distance 1: 0<->1, 2<->3 exchange halves;  distance 2: 0<->2, 1<->3 exchange quarters
 *     rank 0 holds a, rank 2 holds b, rank 1 holds c, rank 3 holds d (reduced over all)
 *   allgather distance 2: 0<->2 (a, b), 1<->3 (c, d);  distance 1: 0<->1, 2<->3 (ab, cd)
 */
#include "pact_sim.h"

#define MAXSTEPS 32

int pact_allreduce_rabenseifner_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    const int pof2 = pact_pof2_floor(p);
    if (n < (size_t)pof2 || !a->commutative)
        return pact_allreduce_basic_linear_build(s, a);

    const int rem = p - pof2;
    const uint32_t rbuf = PACT_BUF_RECV, tmp = PACT_BUF_TMP0;
    pact_need(s, PACT_BUF_TMP0, n);

    /* Open MPI's steps are blocking: each waits for both halves of the previous sendrecv (d0, d1). */
    int d0 = pact_copy(s, pact_sl(rbuf, 0, n), pact_sl(PACT_BUF_SEND, 0, n)), d1 = -1;
    int vrank;
    if (rank < 2 * rem) {
        const size_t lh = n / 2, rh = n - lh;
        if (rank % 2) { /* keeps the right half, returns it reduced to rank - 1 and sits out */
            int r = pact_recv(s, rank - 1, pact_sl(tmp, lh, rh));
            pact_after(s, d0);
            int x = pact_send(s, rank - 1, pact_sl(rbuf, 0, lh));
            pact_after(s, d0);
            int red = pact_reduce(s, pact_sl(rbuf, lh, rh), pact_sl(tmp, lh, rh));
            pact_after(s, r);
            pact_after(s, x);
            d0 = pact_send(s, rank - 1, pact_sl(rbuf, lh, rh));
            pact_after(s, red);
            vrank = -1;
        } else {
            int r = pact_recv(s, rank + 1, pact_sl(tmp, 0, lh));
            pact_after(s, d0);
            int x = pact_send(s, rank + 1, pact_sl(rbuf, lh, rh));
            pact_after(s, d0);
            int red = pact_reduce(s, pact_sl(rbuf, 0, lh), pact_sl(tmp, 0, lh));
            pact_after(s, r);
            pact_after(s, x);
            d0 = pact_recv(s, rank + 1, pact_sl(rbuf, lh, rh));
            pact_after(s, red);
            vrank = rank / 2;
        }
    } else {
        vrank = rank - rem;
    }

    if (vrank != -1) {
        /* Reduce-scatter: the window [rindex, rindex + rcount) this rank keeps halves each step; the lower
         * rank of a pair keeps the left half. */
        size_t rindex[MAXSTEPS], sindex[MAXSTEPS], rcount[MAXSTEPS], scount[MAXSTEPS];
        size_t wsize = n, lo = 0;
        int step = 0;
        for (int mask = 1; mask < pof2; mask <<= 1, step++) {
            const int vdest = vrank ^ mask;
            const int dest = vdest < rem ? vdest * 2 : vdest + rem;
            if (rank < dest) {
                rcount[step] = wsize / 2;
                scount[step] = wsize - rcount[step];
                rindex[step] = lo;
                sindex[step] = lo + rcount[step];
            } else {
                scount[step] = wsize / 2;
                rcount[step] = wsize - scount[step];
                sindex[step] = lo;
                rindex[step] = lo + scount[step];
            }
            int r = pact_recv(s, dest, pact_sl(tmp, rindex[step], rcount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            int x = pact_send(s, dest, pact_sl(rbuf, sindex[step], scount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            d0 = pact_reduce(s, pact_sl(rbuf, rindex[step], rcount[step]),
                             pact_sl(tmp, rindex[step], rcount[step]));
            pact_after(s, r);
            pact_after(s, x);
            d1 = -1;
            lo = rindex[step];
            wsize = rcount[step];
        }

        /* Allgather: the same pairs in reverse order; send the window kept, receive the one given away. */
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            step--;
            const int vdest = vrank ^ mask;
            const int dest = vdest < rem ? vdest * 2 : vdest + rem;
            int r = pact_recv(s, dest, pact_sl(rbuf, sindex[step], scount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            int x = pact_send(s, dest, pact_sl(rbuf, rindex[step], rcount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            d0 = r;
            d1 = x;
        }
    }

    if (rank < 2 * rem) {
        const pact_slice all = pact_sl(rbuf, 0, n);
        if (rank % 2)
            pact_recv(s, rank - 1, all);
        else
            pact_send(s, rank + 1, all);
        pact_after(s, d0);
        pact_after(s, d1);
    }
    return PACT_OK;
}
