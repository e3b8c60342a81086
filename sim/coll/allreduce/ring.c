/*
 * allreduce ring
 *
 * Source:  Open MPI ompi_coll_base_allreduce_intra_ring (ompi/mca/coll/base/coll_base_allreduce.c):
 *          a ring reduce-scatter followed by a ring allgather on P blocks; the first (count mod P) blocks
 *          hold one element more.  Incoming blocks alternate between two scratch buffers so that the
 *          receive of the next block overlaps the reduction of the current one.  With count < P Open MPI
 *          falls back to recursive doubling, and so does pact.
 * Restrict: commutative operation (the ring reduces in rotated order).
 * Cost:     2*(P-1)*(alpha + beta*m/P) + (P-1)*gamma*m/P.
 *
 *   P = 4, reduce-scatter (step k: send block (rank-k), receive and reduce block (rank-k-1)):
 *            rank0   rank1   rank2   rank3
 *   step 0   s0 r3   s1 r0   s2 r1   s3 r2
 *   step 1   s3 r2   s0 r3   s1 r0   s2 r1
 *   step 2   s2 r1   s3 r2   s0 r3   s1 r0    -> rank r holds block r+1 fully reduced
 *   then P-1 allgather steps pass the finished blocks on around the ring.
 */
#include "../common.h"

static pact_slice rblock(size_t n, int p, int b)
{
    size_t off, len;
    pact_block(n, p, b, &off, &len);
    return pact_sl(PACT_BUF_RECV, off, len);
}

int pact_allreduce_ring_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    if (n < (size_t)p || p == 1) /* one rank: recursive doubling is the copy alone */
        return pact_allreduce_recursive_doubling_build(s, a);

    const int right = (rank + 1) % p, left = (rank + p - 1) % p;
    const size_t maxblk = (n + (size_t)p - 1) / (size_t)p;
    pact_need(s, PACT_BUF_TMP0, maxblk);
    pact_need(s, PACT_BUF_TMP1, maxblk);

    int copy = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));

    /* Reduce-scatter, in Open MPI's order: recv j (block rank-j-1) is posted once send j-1 has completed;
     * block rank-j is reduced after its receive and after send j-1, then sent on as send j. */
    int recv_prev = pact_recv(s, left, pact_sl(PACT_BUF_TMP0, 0, rblock(n, p, (rank + p - 1) % p).count));
    int send_prev = pact_send(s, right, rblock(n, p, rank));
    pact_after(s, copy);
    for (int j = 1; j < p - 1; j++) {
        pact_slice in =
            pact_sl(j % 2 ? PACT_BUF_TMP1 : PACT_BUF_TMP0, 0, rblock(n, p, (rank - j - 1 + 2 * p) % p).count);
        int r = pact_recv(s, left, in);
        pact_after(s, send_prev);
        pact_slice done = rblock(n, p, (rank - j + p) % p);
        int red = pact_reduce(s, done, pact_sl((j - 1) % 2 ? PACT_BUF_TMP1 : PACT_BUF_TMP0, 0, done.count));
        pact_after(s, recv_prev);
        pact_after(s, send_prev);
        int x = pact_send(s, right, done);
        pact_after(s, red);
        recv_prev = r;
        send_prev = x;
    }
    pact_slice fin = rblock(n, p, (rank + 1) % p);
    int red = pact_reduce(s, fin, pact_sl((p - 2) % 2 ? PACT_BUF_TMP1 : PACT_BUF_TMP0, 0, fin.count));
    pact_after(s, recv_prev);
    pact_after(s, send_prev);

    /* Allgather: step k sends block (rank+1-k), just completed here, and receives block (rank-k). */
    int pr = red, ps = -1;
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
