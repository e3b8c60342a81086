/*
 * allreduce segmented_ring
 *
 * Source:   Open MPI ompi_coll_base_allreduce_intra_ring_segmented (coll_base_allreduce.c in
 *           ompi/mca/coll/base): the ring allreduce with its reduce-scatter run in phases: each of the P
 *           blocks (the first count mod P one element longer) is cut into num_phases pieces, and phase k
 *           runs a whole ring reduce-scatter on the pieces k of all blocks, so messages stay near one
 *           segment.  The allgather then moves whole blocks, as in the ring.  Open MPI runs the plain ring
 *           (pact's "ring", which itself falls back to recursive doubling when count < P) when
 *           count < P * segcount, segcount being segsize in elements (the whole vector when segsize is 0,
 *           Open MPI's default, so that the default is the ring).  num_phases = count / (P*segcount), one
 *           more when the remainder is at least P and more than half of P*segcount.
 * Restrict: commutative operation (the ring reduces in rotated order).
 * Cost:     (P-1)*(num_phases*alpha + beta*m/P + gamma*m/P) + (P-1)*(alpha + beta*m/P).
 *
 *   P = 3, 2 phases (pieces a, b of each block):
 *   phase a: a ring reduce-scatter on 0a 1a 2a; phase b: the same on 0b 1b 2b; then the ring allgather
 *   of the whole blocks 0 1 2 (rank r ends up owning block r+1, as in the ring).
 */
#include "../common.h"

/* Piece `phase` of block b (of n elements in p blocks), in RECV. */
static pact_slice piece(size_t n, int p, int b, int phases, int phase)
{
    size_t boff, blen, poff, plen;
    pact_block(n, p, b, &boff, &blen);
    pact_block(blen, phases, phase, &poff, &plen);
    return pact_sl(PACT_BUF_RECV, boff + poff, plen);
}

static pact_slice rblock(size_t n, int p, int b)
{
    size_t off, len;
    pact_block(n, p, b, &off, &len);
    return pact_sl(PACT_BUF_RECV, off, len);
}

int pact_allreduce_segmented_ring_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    if (p == 1) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
        return PACT_OK;
    }
    const size_t segcount = pact_seg_count(a->params[0], a->elem_size, n);
    const size_t span = (size_t)p * segcount;
    if (n < span)
        return pact_allreduce_ring_build(s, a);

    int phases = (int)(n / span);
    if (n % span >= (size_t)p && n % span > span / 2)
        phases++;
    const size_t early = (n + (size_t)p - 1) / (size_t)p;
    const size_t maxseg = (early + (size_t)phases - 1) / (size_t)phases;
    pact_need(s, PACT_BUF_TMP0, maxseg);
    pact_need(s, PACT_BUF_TMP1, maxseg);
    const uint32_t inbuf[2] = {PACT_BUF_TMP0, PACT_BUF_TMP1};
    const int right = (rank + 1) % p, left = (rank + p - 1) % p;

    /* Each phase follows the ring's posting order: receive k (into the buffer not being reduced) is posted
     * after blocking send k-1, the block that arrived is reduced and sent on (blocking).  A phase starts
     * after the previous phase's last reduction. */
    int last = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    for (int ph = 0; ph < phases; ph++) {
        int inbi = 0;
        int recv_prev = pact_recv(s, left, pact_sl(inbuf[0], 0, piece(n, p, left, phases, ph).count));
        pact_after(s, last);
        int send_prev = pact_send(s, right, piece(n, p, rank, phases, ph));
        pact_after(s, last);
        for (int k = 2; k < p; k++) {
            const int prevblock = (rank + p - k + 1) % p;
            inbi ^= 1;
            int r = pact_recv(s, left,
                              pact_sl(inbuf[inbi], 0, piece(n, p, (rank + p - k) % p, phases, ph).count));
            pact_after(s, send_prev);
            pact_slice done = piece(n, p, prevblock, phases, ph);
            int red = pact_reduce(s, done, pact_sl(inbuf[inbi ^ 1], 0, done.count));
            pact_after(s, recv_prev);
            pact_after(s, send_prev);
            int x = pact_send(s, right, done);
            pact_after(s, red);
            recv_prev = r;
            send_prev = x;
        }
        pact_slice fin = piece(n, p, (rank + 1) % p, phases, ph);
        last = pact_reduce(s, fin, pact_sl(inbuf[inbi], 0, fin.count));
        pact_after(s, recv_prev);
        pact_after(s, send_prev);
    }

    /* Allgather of whole blocks: step k sends block (rank+1-k) and receives block (rank-k). */
    int pr = last, ps = -1;
    for (int k = 0; k < p - 1; k++) {
        int r = pact_recv(s, left, rblock(n, p, (rank - k + p) % p));
        pact_after(s, pr);
        pact_after(s, ps);
        int x = pact_send(s, right, rblock(n, p, (rank + 1 - k + p) % p));
        pact_after(s, pr);
        pact_after(s, ps);
        pr = r;
        ps = x;
    }
    return PACT_OK;
}
