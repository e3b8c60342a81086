/*
 * reduce over a tree, segmented: the engine of reduce chain, pipeline, binary, binomial, in_order_binary
 *
 * Source:  Open MPI ompi_coll_base_reduce_generic (ompi/mca/coll/base/coll_base_reduce.c).  A rank with
 *          children walks (segment, child) steps: each step posts the receive of that child's segment,
 *          waits for the receive of the previous step and reduces it; after the last child of a segment
 *          the finished segment goes to the parent with a blocking send.  Two incoming-segment buffers
 *          alternate, so one receive is always in flight while the previous one is reduced.  With a
 *          commutative operation (and no MPI_IN_PLACE at the root) the first child's segment is received
 *          straight into the accumulator and the rank's own data is combined next, saving a copy.
 *          Leaves send their segments with blocking sends, or, when max_reqs > 0 and there are more
 *          segments than that, keep at most max_reqs segments in flight.
 * Deviates: Open MPI's flow-control sends are synchronous (MPI_Issend); the IR has standard sends only.
 *
 *   One non-leaf rank with 2 children, 2 segments (R = post receive, W = wait, + = reduce, S = send up):
 *   (s0,c0) R    (s0,c1) R W +    (s1,c0) R W + S(s0)    (s1,c1) R W +    (s2,c0) W + S(s1)
 */
#include "common.h"
#include "topo.h"

#include <stdlib.h>

static int leaf(pact_sched *s, const pact_tree *t, uint32_t mine, size_t n, size_t sc, size_t nseg,
                int max_reqs)
{
    if (max_reqs <= 0 || nseg <= (size_t)max_reqs) {
        int last = -1;
        for (size_t k = 0; k < nseg; k++) {
            int x = pact_send(s, t->parent, pact_sl(mine, k * sc, k == nseg - 1 ? n - k * sc : sc));
            pact_after(s, last);
            last = x;
        }
        return PACT_OK;
    }
    /* Flow control: max_reqs sends in flight; segment k is posted once segment k - max_reqs completed. */
    int *ring = malloc((size_t)max_reqs * sizeof(*ring));
    if (!ring)
        return PACT_ERR_NOMEM;
    int waited = -1;
    for (size_t k = 0; k < nseg; k++) {
        int slot = (int)(k % (size_t)max_reqs), x;
        if (k < (size_t)max_reqs) {
            x = pact_send(s, t->parent, pact_sl(mine, k * sc, sc));
        } else {
            x = pact_send(s, t->parent, pact_sl(mine, k * sc, k == nseg - 1 ? n - k * sc : sc));
            pact_after(s, ring[slot]);
            pact_after(s, waited);
            waited = ring[slot];
        }
        ring[slot] = x;
    }
    free(ring);
    return PACT_OK;
}

int pact_reduce_tree_generic(pact_sched *s, const pact_build_args *a, const pact_tree *t, size_t sc,
                             uint32_t sbuf, uint32_t rbuf, int inplace, int max_reqs)
{
    const size_t n = a->count;
    if (n == 0)
        return PACT_OK;
    if (sc == 0 || sc > n)
        sc = n;
    const size_t nseg = (n + sc - 1) / sc;
    const int am_root = a->rank == t->root, nch = t->nchildren;
    const uint32_t mine = inplace && am_root ? rbuf : sbuf; /* where this rank's contribution is */

    if (nch == 0) {
        if (am_root) { /* a single rank */
            if (mine != rbuf)
                pact_copy(s, pact_sl(rbuf, 0, n), pact_sl(mine, 0, n));
            return PACT_OK;
        }
        return leaf(s, t, mine, n, sc, nseg, max_reqs);
    }

    /* TMP0: [0, n) accumulator away from the root, [n, n + 2*sc) the two incoming segments. */
    const uint32_t acc = am_root ? rbuf : PACT_BUF_TMP0;
    pact_need(s, PACT_BUF_TMP0, n + 2 * sc);
    const int direct = a->commutative && !(inplace && am_root);
    int last = -1; /* the last blocking operation: everything later is posted after it */
    if (!a->commutative && !inplace)
        last = pact_copy(s, pact_sl(acc, 0, n), pact_sl(mine, 0, n));

    int req[2] = {-1, -1}, inbi = 0;
    size_t cnt = 0, prevcnt;
    for (size_t k = 0; k <= nseg; k++) {
        prevcnt = cnt;
        cnt = k == nseg - 1 ? n - k * sc : sc;
        for (int i = 0; i < nch; i++) {
            if (k < nseg) {
                pact_slice in = i == 0 && direct ? pact_sl(acc, k * sc, cnt)
                                                 : pact_sl(PACT_BUF_TMP0, n + (size_t)inbi * sc, cnt);
                req[inbi] = pact_recv(s, t->children[i], in);
                pact_after(s, last);
            }
            const int waited = req[inbi ^ 1];
            const pact_slice prev_in = pact_sl(PACT_BUF_TMP0, n + (size_t)(inbi ^ 1) * sc, 0);
            req[inbi ^ 1] = -1;
            if (i > 0) {
                /* the previous child's segment k; the second step folds in our own data when the first
                 * child's segment went straight into the accumulator */
                pact_slice src = i == 1 && direct ? pact_sl(mine, k * sc, cnt) : prev_in;
                src.count = cnt;
                int x = pact_reduce(s, pact_sl(acc, k * sc, cnt), src);
                pact_after(s, waited);
                pact_after(s, last);
                last = x;
            } else if (k > 0) {
                /* the last child's segment k-1 (with one child, that went into the accumulator and our own
                 * data is what remains), then segment k-1 is complete */
                pact_slice src = nch <= 1 && direct ? pact_sl(mine, (k - 1) * sc, prevcnt) : prev_in;
                src.count = prevcnt;
                int x = pact_reduce(s, pact_sl(acc, (k - 1) * sc, prevcnt), src);
                pact_after(s, waited);
                pact_after(s, last);
                last = x;
                if (!am_root) {
                    x = pact_send(s, t->parent, pact_sl(acc, (k - 1) * sc, prevcnt));
                    pact_after(s, last);
                    last = x;
                }
                if (k == nseg)
                    break;
            }
            inbi ^= 1;
        }
    }
    return PACT_OK;
}
