/*
 * bcast split_binary_tree
 *
 * Source:  Open MPI ompi_coll_base_bcast_intra_split_bintree (ompi/mca/coll/base/coll_base_bcast.c).
 *          The vector is cut in two halves (the first one element longer when the count is odd).  Over the
 *          breadth-first binary tree (ompi_coll_base_topo_build_tree, fanout 2, ranks shifted by the root)
 *          the left subtree (odd shifted ranks) gets the first half and the right subtree (even ones) the
 *          second, each pipelined in segments of `segsize` bytes with blocking sends, the root alternating
 *          between its two children.  Then shifted ranks 2i-1 and 2i swap halves; with an even P the last
 *          rank, which has no partner, gets the second half from the root.  When a half is empty or shorter
 *          than a segment Open MPI runs the chain bcast with one chain (pipeline) instead, and so does pact
 *          (SimGrid's port runs its SMP_linear bcast there instead).
 *          Default is coll_tuned's for a forced algorithm: segsize 0 (each half one segment).
 * Restrict: none.
 * Cost:     unsegmented: floor(log2 P)*(alpha + beta*m) + alpha + beta*m/2, roughly.
 *
 *   P = 7, root 0:        0            left (odd) ranks 1, 3, 5 get half A, right ranks 2, 4, 6 half B;
 *                       /   \          then 1 <-> 2, 3 <-> 4, 5 <-> 6 exchange their halves.
 *                      1     2
 *                     / \   / \
 *                    3   5 4   6
 */
#include "common.h"
#include "topo.h"
#include "cost.h"

int pact_bcast_split_binary_tree_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, root = a->root;
    const long segsize_in = a->params[0];
    if (n == 0 || p == 1)
        return PACT_OK;

    size_t counts[2] = {n - n / 2, n / 2}, seg[2];
    size_t nseg[2] = {1, 1};
    long segsize = segsize_in;
    if (segsize > 0) {
        if ((size_t)segsize < a->elem_size)
            segsize = (long)a->elem_size;
        seg[0] = seg[1] = (size_t)segsize / a->elem_size;
        for (int h = 0; h < 2; h++)
            nseg[h] = counts[h] ? (counts[h] + seg[h] - 1) / seg[h] : 0;
    } else {
        seg[0] = counts[0];
        seg[1] = counts[1];
    }
    if (counts[1] == 0 || (segsize > 0 && ((size_t)segsize > counts[0] * a->elem_size ||
                                           (size_t)segsize > counts[1] * a->elem_size))) {
        const long chain[2] = {segsize, 1}; /* chain's segsize and fanout */
        pact_build_args b = *a;
        b.params = chain;
        return pact_bcast_chain_build(s, &b);
    }

    pact_tree t;
    int rc = pact_topo_tree(PACT_TREE_KARY, 2, rank, p, root, &t);
    if (rc != PACT_OK)
        return rc;
    const size_t base[2] = {0, counts[0]};
    const int vrank = (rank - root + p) % p;
    const int lr = (vrank + 1) % 2; /* 0: left subtree (first half); the root counts as right */
    int last = -1;                  /* the last blocking operation */

    if (rank == root) {
        for (size_t k = 0; k < nseg[0]; k++)
            for (int i = 0; i < t.nchildren && i < 2; i++) {
                if (k >= nseg[i])
                    continue;
                size_t len = k == nseg[i] - 1 ? counts[i] - k * seg[i] : seg[i];
                int x = pact_send(s, t.children[i], pact_sl(PACT_BUF_RECV, base[i] + k * seg[i], len));
                pact_after(s, last);
                last = x;
            }
    } else {
        /* Inner ranks keep one receive posted ahead and forward each segment to their children with
         * blocking sends; leaves receive one segment at a time. */
        const size_t b = base[lr], c = counts[lr], sg = seg[lr], ns = nseg[lr];
        int pending = -1;
        for (size_t k = 0; k <= ns; k++) {
            if (k < ns) {
                size_t len = k == ns - 1 ? c - k * sg : sg;
                int r = pact_recv(s, t.parent, pact_sl(PACT_BUF_RECV, b + k * sg, len));
                pact_after(s, last);
                if (t.nchildren == 0) {
                    last = r;
                    continue;
                }
                if (k == 0) {
                    pending = r;
                    continue;
                }
                for (int i = 0; i < t.nchildren; i++) {
                    int x = pact_send(s, t.children[i], pact_sl(PACT_BUF_RECV, b + (k - 1) * sg, sg));
                    pact_after(s, pending);
                    pact_after(s, last);
                    last = x;
                }
                pending = r;
            } else if (t.nchildren > 0) {
                size_t len = c - (ns - 1) * sg;
                for (int i = 0; i < t.nchildren; i++) {
                    int x = pact_send(s, t.children[i], pact_sl(PACT_BUF_RECV, b + (ns - 1) * sg, len));
                    pact_after(s, pending);
                    pact_after(s, last);
                    last = x;
                }
            }
        }
    }

    /* Swap halves with the partner in the other subtree (a sendrecv: receive posted first). */
    const pact_slice mine = pact_sl(PACT_BUF_RECV, base[lr], counts[lr]);
    const pact_slice other = pact_sl(PACT_BUF_RECV, base[lr ^ 1], counts[lr ^ 1]);
    const int pair = lr == 0 ? (rank + 1) % p : (rank + p - 1) % p;
    const int last_rank = (root + p - 1) % p;
    if (p % 2 == 0 && rank == root) {
        pact_send(s, last_rank, pact_sl(PACT_BUF_RECV, base[1], counts[1]));
        pact_after(s, last);
    } else if (p % 2 == 0 && rank == last_rank) {
        pact_recv(s, root, pact_sl(PACT_BUF_RECV, base[1], counts[1]));
        pact_after(s, last);
    } else if (rank != root) {
        pact_recv(s, pair, other);
        pact_after(s, last);
        pact_send(s, pair, mine);
        pact_after(s, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    if (m / pact_cost_elem(m) < 2) /* Open MPI's fallback: the chain of one, a pipeline */
        return pact_alg_find(PACT_COLL_BCAST, "pipeline")->terms(P, m, t, src);
    int D = pact_flog2(P);
    double h = pact_cost_big_block(m, 2);
    *src = "PG 2007 (split binary tree), unsegmented: halves down two binary trees, each parent serving "
           "two children in turn, then the exchange of halves (derived from the schedule)";
    pact_cost_set(t, 2.0 * D + 1, (2.0 * D + 1) * h, 0);
    return 1;
}

const pact_alg pact_alg_bcast_split_binary_tree = {
    .coll = PACT_COLL_BCAST,
    .name = "split_binary_tree",
    .build = pact_bcast_split_binary_tree_build,
    .restrictions = 0,
    .ompi_id = 4,
    .mpich = NULL,
    .smpi = "ompi_split_bintree",
    .smpi_params = "segsize=1K",
    .source = "Open MPI ompi_coll_base_bcast_intra_split_bintree (coll_base_bcast.c)",
    .cost = "(floor(log2 P) + S - 1)*(alpha + beta*m/(2S)) + alpha + beta*m/2, S segments per half",
    .terms = terms,
    .params = (const pact_param_desc[]){
        {"segsize", 0, "segment size in bytes, 0: one segment (coll_tuned's default when forced)"},
        {NULL, 0, NULL},
    },
};
