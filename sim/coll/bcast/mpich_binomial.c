/*
 * bcast mpich_binomial
 *
 * Source:  MPICH 4.0 MPIR_Bcast_intra_binomial (src/mpi/coll/bcast/bcast_intra_binomial.c); SimGrid's
 *          bcast binomial_tree (src/smpi/colls/bcast/bcast-binomial-tree.cpp) is the same schedule.  Ranks
 *          are shifted by the root (v = rank - root mod P).  Rank v receives the whole buffer from v minus its
 *          lowest set bit (one blocking receive), then sends it to v + mask for mask = (its lowest set bit) / 2
 *          down to 1 (the root: from the largest power of two below P down to 1), skipping v + mask >= P:
 *          one blocking send at a time, the largest subtree first.  Unsegmented.
 * Restrict: none.
 * Cost:     ceil(log2 P)*(alpha + beta*m): the root's ceil(log2 P) sends are in sequence, and rank v's last
 *           send ends when its whole subtree's first send would; the deepest rank (1) hears last.
 *
 *   P = 8, root 0:   0 -> 4, 2, 1 (in that order);  4 -> 6, 5;  2 -> 3;  6 -> 7
 *   Open MPI's binomial (sim/coll/bcast/binomial.c) is another tree: there 7's parent is 3, and a rank starts
 *   all its sends at once, nearest first.
 */
#include "common.h"
#include "cost.h"

int pact_bcast_mpich_binomial_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int p = a->size, rank = a->rank;
    if (n == 0 || p == 1) /* MPICH returns at once when nbytes is 0 */
        return PACT_OK;
    const int v = (rank - a->root + p) % p;
    const pact_slice all = pact_sl(PACT_BUF_RECV, 0, n);

    int mask = 1, prev = -1;
    while (mask < p) {
        if (v & mask) {
            prev = pact_recv(s, (rank - mask + p) % p, all);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < p) {
            int x = pact_send(s, (rank + mask) % p, all);
            pact_after(s, prev); /* MPIC_Send: the next starts when this one completed */
            prev = x;
        }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int C = pact_clog2(P);
    *src = "Thakur 2005 (MPICH's binomial bcast): ceil(log2 P)(alpha + beta m)";
    pact_cost_set(t, C, C * m, 0);
    return 1;
}

const pact_alg pact_alg_bcast_mpich_binomial = {
    .coll = PACT_COLL_BCAST,
    .name = "mpich_binomial",
    .build = pact_bcast_mpich_binomial_build,
    .restrictions = 0,
    .ompi_id = 0,
    .mpich = "binomial",
    .smpi = "binomial_tree",
    .source = "MPICH 4.0 MPIR_Bcast_intra_binomial (src/mpi/coll/bcast/bcast_intra_binomial.c)",
    .cost = "ceil(log2 P)*(alpha + beta*m)",
    .terms = terms,
};
