/*
 * topo.c - Open MPI's collective trees (ompi/mca/coll/base/coll_base_topo.c), recomputed per rank.
 *
 * Shapes for P = 10, root 0 (children listed in Open MPI's order):
 *   k-ary, fanout 2:     0 -> 1 2;  1 -> 3 5;  2 -> 4 6;  3 -> 7;  4 -> 8;  5 -> 9   (level by level)
 *   binomial:            0 -> 1 2 4 8;  1 -> 3 5 9;  2 -> 6;  3 -> 7       (parent: v minus its highest bit)
 *   in-order binomial:   0 -> 1 2 4 8;  2 -> 3;  4 -> 5 6;  6 -> 7;  8 -> 9 (parent: v minus its lowest bit)
 *   k-nomial, radix 4:   0 -> 4 8 1 2 3;  4 -> 5 6 7;  8 -> 9             (farthest first)
 *
 *   chain, fanout 3, P = 8: root 0 heads 3 chains 1-2-3, 4-5, 6-7 (the first (P-1) mod 3 chains are longer).
 *   in-order binary, P = 9: root 8; left child 7 heads ranks 4..7, right child 3 heads ranks 0..3, so that
 *   each subtree covers a contiguous range of ranks below its root (non-commutative reductions stay exact).
 */
#include "topo.h"

static int add_child(pact_tree *t, int child)
{
    if (t->nchildren >= PACT_TREE_MAXCHILDREN)
        return PACT_ERR_ARG;
    t->children[t->nchildren++] = child;
    return PACT_OK;
}

/* k-ary tree filled level by level: level L (delta = k^L nodes) starts at shifted rank (k^L-1)/(k-1); the
 * children of r are r + delta*j, j = 1..k, and its parent is found by stepping back delta/k at a time until
 * the level above is reached (ompi_coll_base_topo_build_tree). */
static int kary(int k, int v, int size, pact_tree *t, int root)
{
    long first = 0, delta = 1; /* first shifted rank of v's level, and that level's width */
    while (first + delta <= v) {
        first += delta;
        delta *= k;
    }
    for (int j = 1; j <= k; j++) {
        long c = v + delta * j;
        if (c >= size)
            break;
        if (add_child(t, (int)((c + root) % size)) != PACT_OK)
            return PACT_ERR_ARG;
    }
    if (v > 0) {
        long p = v, step = delta / k;
        while (p >= first)
            p -= step;
        t->parent = (int)((p + root) % size);
    }
    return PACT_OK;
}

/* Root P-1; the left child P-2 heads the upper part of the remaining ranks, the right child heads the lower
 * size/2 ranks; recurse into the subtree holding `rank` (ompi_coll_base_topo_build_in_order_bintree). */
static void in_order_binary(int rank, int size, pact_tree *t)
{
    int n = size, me = rank, top = size - 1, shift = 0;
    t->root = size - 1;
    for (;;) {
        int right = n / 2;
        int lchild = n > 1 ? top - 1 : -1;
        int rchild = lchild > 0 ? right - 1 : -1;
        if (me == top) {
            if (lchild >= 0)
                t->children[t->nchildren++] = lchild + shift;
            if (rchild >= 0)
                t->children[t->nchildren++] = rchild + shift;
            return;
        }
        if (me > rchild) { /* left subtree: ranks [right, top-1], renumbered from 0 */
            if (me == lchild)
                t->parent = top + shift;
            n = n - right - 1;
            shift += right;
            me -= right;
            top = n - 1;
        } else { /* right subtree: ranks [0, right-1], numbering unchanged */
            if (me == rchild)
                t->parent = top + shift;
            n = right;
            top = rchild;
        }
    }
}

/* Parent: v without its highest set bit; children v + 2^j for every 2^j above v's highest bit, nearest
 * first (ompi_coll_base_topo_build_bmtree). */
static int binomial(int v, int size, pact_tree *t, int root)
{
    long mask = 1;
    while (mask <= v)
        mask <<= 1;
    if (v > 0)
        t->parent = ((v ^ (int)(mask >> 1)) + root) % size;
    for (; mask < size && v + mask < size; mask <<= 1)
        if (add_child(t, (int)((v + mask + root) % size)) != PACT_OK)
            return PACT_ERR_ARG;
    return PACT_OK;
}

/* Parent: v without its lowest set bit; children v + 2^j for every 2^j below v's lowest bit, nearest first
 * (ompi_coll_base_topo_build_in_order_bmtree). */
static int in_order_binomial(int v, int size, pact_tree *t, int root)
{
    for (long mask = 1; mask < size; mask <<= 1) {
        if (v & mask) {
            t->parent = ((v - (int)mask) + root) % size;
            break;
        }
        if (v + mask < size && add_child(t, (int)((v + mask + root) % size)) != PACT_OK)
            return PACT_ERR_ARG;
    }
    return PACT_OK;
}

/* Parent: v rounded down to a multiple of radix^(j+1), radix^j being the largest power dividing v; children
 * v + d*radix^i for d = 1..radix-1 and every radix^i below that, farthest first
 * (ompi_coll_base_topo_build_kmtree). */
static int knomial(int radix, int v, int size, pact_tree *t, int root)
{
    long mask = 1;
    while (mask < size) {
        if (v % (radix * mask)) {
            t->parent = (int)((v / (radix * mask) * (radix * mask) + root) % size);
            break;
        }
        mask *= radix;
    }
    for (mask /= radix; mask > 0; mask /= radix)
        for (int d = 1; d < radix; d++) {
            long c = v + mask * d;
            if (c < size && add_child(t, (int)((c + root) % size)) != PACT_OK)
                return PACT_ERR_ARG;
        }
    return PACT_OK;
}

/* `fanout` chains below the root over shifted ranks 1..P-1 in order; the first (P-1) mod fanout chains hold
 * one rank more than the others (ompi_coll_base_topo_build_chain). */
static void chain(int fanout, int v, int size, pact_tree *t, int root)
{
    if (size < 2)
        return;
    if (fanout > size - 1)
        fanout = size - 1;
    int len = (size - 1) / fanout, longer = (size - 1) % fanout;
    if (longer)
        len++;
    else
        longer = fanout; /* all chains have the same length */
    if (v == 0) {
        int head = 1;
        for (int c = 0; c < fanout; c++) {
            t->children[t->nchildren++] = (head + root) % size;
            head += c < longer ? len : len - 1;
        }
        return;
    }
    int head, clen;
    if (v - 1 < longer * len) {
        head = 1 + (v - 1) / len * len;
        clen = len;
    } else {
        head = longer * len + 1 + (v - 1 - longer * len) / (len - 1) * (len - 1);
        clen = len - 1;
    }
    t->parent = ((v == head ? 0 : v - 1) + root) % size;
    if (v < head + clen - 1)
        t->children[t->nchildren++] = (v + 1 + root) % size;
}

int pact_topo_tree(int kind, int fanout, int rank, int size, int root, pact_tree *t)
{
    if (!t || size < 1 || rank < 0 || rank >= size || root < 0 || root >= size)
        return PACT_ERR_ARG;
    t->root = root;
    t->parent = -1;
    t->nchildren = 0;
    const int v = (rank - root + size) % size;
    switch (kind) {
    case PACT_TREE_KARY:
        if (fanout < 1 || fanout > PACT_TREE_MAXFANOUT)
            return PACT_ERR_ARG;
        return kary(fanout, v, size, t, root);
    case PACT_TREE_IN_ORDER_BINARY:
        in_order_binary(rank, size, t);
        return PACT_OK;
    case PACT_TREE_BINOMIAL:
        return binomial(v, size, t, root);
    case PACT_TREE_IN_ORDER_BINOMIAL:
        return in_order_binomial(v, size, t, root);
    case PACT_TREE_KNOMIAL:
        if (fanout < 2)
            return PACT_ERR_ARG;
        return knomial(fanout, v, size, t, root);
    case PACT_TREE_CHAIN:
        if (fanout < 1)
            fanout = 1;
        if (fanout > PACT_TREE_MAXFANOUT)
            fanout = PACT_TREE_MAXFANOUT;
        chain(fanout, v, size, t, root);
        return PACT_OK;
    }
    return PACT_ERR_ARG;
}
