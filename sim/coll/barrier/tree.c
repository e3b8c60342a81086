/*
 * barrier tree
 *
 * Source:   Open MPI ompi_coll_base_barrier_intra_tree (ompi/mca/coll/base/coll_base_barrier.c, 4.1): a
 *           binomial gather to rank 0, then a binomial release back down, blocking calls.  Going up, at
 *           distance j = 1, 2, ... the rank whose low bits below j are zero pairs with rank ^ j: the lower
 *           one receives, the higher one sends (and is done going up).  Coming down, j from half the
 *           smallest power of two >= P to 1: the lower one sends, the higher one receives.
 * Restrict: none.
 * Cost:     2*ceil(log2 P)*alpha.
 *
 *   P = 8 up:   1->0 3->2 5->4 7->6 | 2->0 6->4 | 4->0      down: the same arrows reversed, last first
 */
#include "zero.h"
#include "cost.h"

static int pact_barrier_tree_build(pact_sched *s, const pact_build_args *a)
{
    const int rank = a->rank, p = a->size;
    int depth = 1, last = -1;
    while (depth < p)
        depth <<= 1;
    for (int j = 1; j < depth; j <<= 1) {
        const int partner = rank ^ j;
        if ((partner & (j - 1)) || partner >= p)
            continue;
        last = partner > rank ? pact_barrier_recv(s, partner, last) : pact_barrier_send(s, partner, last);
    }
    for (int j = depth >> 1; j > 0; j >>= 1) {
        const int partner = rank ^ j;
        if ((partner & (j - 1)) || partner >= p)
            continue;
        last = partner > rank ? pact_barrier_send(s, partner, last) : pact_barrier_recv(s, partner, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    (void)m;
    *src = "a binomial fan-in then fan-out, ceil(log2 P) levels each (derived from the schedule)";
    pact_cost_set(t, 2.0 * pact_clog2(P), 0, 0);
    return 1;
}

const pact_alg pact_alg_barrier_tree = {
    .coll = PACT_COLL_BARRIER,
    .name = "tree",
    .build = pact_barrier_tree_build,
    .restrictions = 0,
    .ompi_id = 6,
    .mpich = NULL,
    .smpi = "ompi_tree",
    .source = "Open MPI ompi_coll_base_barrier_intra_tree (coll_base_barrier.c, 4.1)",
    .cost = "2*ceil(log2 P)*alpha",
    .terms = terms,
};
