/*
 * bcast over a tree, segmented: the engine of bcast chain, pipeline, binary_tree, binomial, knomial
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_generic (ompi/mca/coll/base/coll_base_bcast.c).  The root
 *          sends each segment to all children at once and waits for those sends before the next segment.
 *          An inner rank keeps two receives posted: it posts segment k, waits for segment k-1, forwards it
 *          to all children and waits for those sends.  A leaf posts segment k, then waits for k-1.
 * Deviates: Open MPI posts every receive for a full segment (the last one may be shorter); the IR receives
 *          the exact length.
 *
 *   inner rank, 3 segments:  R0  R1 W0 S0* W(S0*)  R2 W1 S1* W(S1*)  W2 S2* W(S2*)   (S* = to all children)
 */
#include "common.h"
#include "topo.h"

/* Sends segment `seg` to every child, each after the sends in `prev` (the previous wait-all) and `dep`;
 * `prev` becomes these sends. */
static void to_children(pact_sched *s, const pact_tree *t, pact_slice seg, int dep, int *prev, int *nprev)
{
    int cur[PACT_TREE_MAXCHILDREN];
    for (int i = 0; i < t->nchildren; i++) {
        cur[i] = pact_send(s, t->children[i], seg);
        pact_after(s, dep);
        for (int j = 0; j < *nprev; j++)
            pact_after(s, prev[j]);
    }
    for (int i = 0; i < t->nchildren; i++)
        prev[i] = cur[i];
    *nprev = t->nchildren;
}

/* Segment k of RECV: sc elements, the last one the rest. */
static pact_slice seg(size_t n, size_t sc, size_t k)
{
    return pact_sl(PACT_BUF_RECV, k * sc, n - k * sc < sc ? n - k * sc : sc);
}

int pact_bcast_tree_generic(pact_sched *s, const pact_build_args *a, const pact_tree *t, size_t sc)
{
    const size_t n = a->count;
    if (n == 0 || a->size == 1)
        return PACT_OK;
    if (sc == 0 || sc > n)
        sc = n;
    const size_t nseg = (n + sc - 1) / sc;
    int prev[PACT_TREE_MAXCHILDREN], nprev = 0;

    if (a->rank == a->root) {
        for (size_t k = 0; k < nseg; k++)
            to_children(s, t, seg(n, sc, k), -1, prev, &nprev);
    } else if (t->nchildren > 0) {
        int r_prev = pact_recv(s, t->parent, seg(n, sc, 0));
        for (size_t k = 1; k < nseg; k++) {
            int r = pact_recv(s, t->parent, seg(n, sc, k));
            for (int j = 0; j < nprev; j++)
                pact_after(s, prev[j]);
            to_children(s, t, seg(n, sc, k - 1), r_prev, prev, &nprev);
            r_prev = r;
        }
        to_children(s, t, seg(n, sc, nseg - 1), r_prev, prev, &nprev);
    } else {
        int r_prev2 = -1, r_prev = pact_recv(s, t->parent, seg(n, sc, 0));
        for (size_t k = 1; k < nseg; k++) {
            int r = pact_recv(s, t->parent, seg(n, sc, k));
            pact_after(s, r_prev2); /* posted after the wait for segment k-2 */
            r_prev2 = r_prev;
            r_prev = r;
        }
    }
    return PACT_OK;
}
