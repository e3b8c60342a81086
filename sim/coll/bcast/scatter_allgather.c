/*
 * bcast scatter_allgather
 *
 * Source:   Open MPI ompi_coll_base_bcast_intra_scatter_allgather (ompi/mca/coll/base/coll_base_bcast.c):
 *           a binomial-tree scatter of ceil(count/P)-element blocks (binomial_scatter.h), then a
 *           recursive-doubling allgather over ranks relative to the root.  For P not a power of two a
 *           rank whose partner does not exist gets the partner subtree's blocks by recursive halving from
 *           a rank of its own subtree that has them, as there.  With count < P Open MPI switches to
 *           basic_linear, and so does pact.  Open MPI receives with an upper-bound count and reads the
 *           real one from the status; pact computes the exact counts (a subtree's blocks clipped to count).
 *           Zero-length messages of the allgather are kept: Open MPI sends them.
 * Restrict: none (falls back to basic_linear when count < P).
 * Cost:     2*log2(P)*alpha + 2*beta*m*(P-1)/P  (P a power of two).
 *
 *   P = 8, root 0, 8 blocks: scatter (masks 4, 2, 1), then exchanges at distance 1, 2, 4
 *   0: [0.......]  [01......]  [0123....]  [01234567]
 *   1: [.1......]  [01......]  [0123....]  [01234567]
 *   2: [..2.....]  [..23....]  [0123....]  [01234567]
 *   ...
 */
#include "binomial_scatter.h"
#include "cost.h"

/* Blocks of the size-`mask` subtree rooted at virtual rank tr, clipped to n elements: the offset is
 * clipped too so that an empty slice stays inside the buffer. */
static pact_slice tree_slice(int tr, int mask, size_t n, size_t sc)
{
    size_t lo = (size_t)tr * sc, hi = (size_t)(tr + mask) * sc;
    if (lo >= n)
        return pact_sl(PACT_BUF_RECV, n, 0);
    return pact_sl(PACT_BUF_RECV, lo, (hi < n ? hi : n) - lo);
}

int pact_bcast_scatter_rd_allgather(pact_sched *s, const pact_build_args *a, int ompi)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, root = a->root;
    size_t sc;
    /* Each step is blocking: the next one waits for both halves of a sendrecv (dep[0], dep[1]). */
    int rc, dep[2] = {-1, -1};
    if (!pact_bcast_scatter_prelude(s, a, ompi, &rc, &sc, &dep[0]))
        return rc;

    const int v = (rank - root + p) % p;

    for (int mask = 1; mask < p; mask <<= 1) {
        const int vremote = v ^ mask;
        const int vtr = v & ~(mask - 1), vrtr = vremote & ~(mask - 1);
        if (vremote < p) {
            const int remote = (vremote + root) % p;
            int r = pact_recv(s, remote, tree_slice(vrtr, mask, n, sc));
            pact_after(s, dep[0]);
            pact_after(s, dep[1]);
            int x = pact_send(s, remote, tree_slice(vtr, mask, n, sc));
            pact_after(s, dep[0]);
            pact_after(s, dep[1]);
            dep[0] = r;
            dep[1] = x;
        }
        if (vrtr + mask <= p)
            continue;
        /* The partner subtree is incomplete: the ranks of this subtree that had a partner pass its
         * blocks on to those that had none, halving the distance each time. */
        const int nalldata = p - vtr - mask;
        const pact_slice got = tree_slice(vtr + mask, mask, n, sc);
        for (int h = mask >> 1; h > 0; h >>= 1) {
            const int vr = v ^ h, remote = (vr + root) % p;
            const int tree_root = v & ~(2 * h - 1);
            int op = -1;
            if (vr > v && v < tree_root + nalldata && vr >= tree_root + nalldata)
                op = pact_send(s, remote, got);
            else if (vr < v && vr < tree_root + nalldata && v >= tree_root + nalldata)
                op = pact_recv(s, remote, got);
            if (op < 0)
                continue;
            pact_after(s, dep[0]);
            pact_after(s, dep[1]);
            dep[0] = op;
            dep[1] = -1;
        }
    }
    return PACT_OK;
}

int pact_bcast_scatter_allgather_build(pact_sched *s, const pact_build_args *a)
{
    return pact_bcast_scatter_rd_allgather(s, a, 1);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int pof2 = 1 << pact_flog2(P);
    if (m / pact_cost_elem(m) < P) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_BCAST, "basic_linear")->terms(P, m, t, src);
    double f = (pof2 == P ? P - 1.0 : P - 1.0) / P;
    int C = pact_clog2(P);
    *src = "Thakur 2005: binomial scatter + recursive-doubling allgather";
    pact_cost_set(t, 2.0 * C, 2 * f * P * pact_cost_big_block(m, P), 0);
    return 1;
}

const pact_alg pact_alg_bcast_scatter_allgather = {
    .coll = PACT_COLL_BCAST,
    .name = "scatter_allgather",
    .build = pact_bcast_scatter_allgather_build,
    .restrictions = 0,
    .ompi_id = 8,
    .smpi = "scatter_rdb_allgather",
    .source = "Open MPI ompi_coll_base_bcast_intra_scatter_allgather (coll_base_bcast.c)",
    .cost = "2*log2(P)*alpha + 2*beta*m*(P-1)/P (P pof2)",
    .terms = terms,
};
