/*
 * reduce mpich_binomial
 *
 * Source:  MPICH 4.0 MPIR_Reduce_intra_binomial (src/mpi/coll/reduce/reduce_intra_binomial.c), from MPICH-1;
 *          SimGrid's reduce binomial (src/smpi/colls/reduce/reduce-binomial.cpp) is the same schedule.  Every
 *          rank first copies its input into its accumulator (the root's receive buffer, a scratch buffer
 *          elsewhere; the root in place copies nothing).  Ranks are shifted by lroot (the root; rank 0 when
 *          the operation is not commutative).  For mask = 1, 2, 4 ...: while bit `mask` of v is 0, v receives
 *          from v | mask (when < P) into a scratch buffer and reduces it into the accumulator (one blocking
 *          receive, then the reduction, then the next receive); at v's lowest set bit it sends the
 *          accumulator to v without that bit and is done.  Not commutative and root != 0: rank 0 then sends
 *          the result to the root.  Unsegmented.
 * Restrict: none (not commutative: the tree on rank 0 keeps the order of the ranks, the operand received
 *          from above goes right, and the result takes one more message to the root).
 * Cost:     ceil(log2 P)*(alpha + beta*m + gamma*m), plus alpha + beta*m when it goes on to a root != 0.
 *
 *   P = 8, root 0:   0 <- 1, 0 <- 2 <- 3, 0 <- 4 <- 5, 4 <- 6 <- 7   (the same tree as Open MPI's binomial)
 *   Open MPI's binomial (sim/coll/reduce/binomial.c) posts the next child's receive while it reduces the
 *   previous one's data, and refuses operations that do not commute.
 */
#include "common.h"
#include "cost.h"

int pact_reduce_mpich_binomial_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int p = a->size, rank = a->rank;
    if (n == 0)
        return PACT_OK;
    const int at_root = rank == a->root;
    const pact_slice acc = pact_sl(at_root ? PACT_BUF_RECV : PACT_BUF_TMP1, 0, n);
    const pact_slice tmp = pact_sl(PACT_BUF_TMP0, 0, n);
    pact_need(s, PACT_BUF_TMP0, n);
    if (!at_root)
        pact_need(s, PACT_BUF_TMP1, n);

    int prev = -1; /* everything is blocking: each operation after the one before */
    if (!at_root || !a->inplace)
        prev = pact_copy(s, acc, pact_sl(PACT_BUF_SEND, 0, n));
    const int lroot = a->commutative ? a->root : 0;
    const int v = (rank - lroot + p) % p;
    for (int mask = 1; mask < p; mask <<= 1) {
        if ((mask & v) == 0) {
            int src = v | mask;
            if (src >= p)
                continue;
            int r = pact_recv(s, (src + lroot) % p, tmp);
            pact_after(s, prev);
            if (a->commutative) {
                prev = pact_reduce(s, acc, tmp); /* acc = tmp (op) acc */
                pact_after(s, r);
            } else {
                int x = pact_reduce(s, tmp, acc); /* tmp = acc (op) tmp: the sender is above */
                pact_after(s, r);
                prev = pact_copy(s, acc, tmp);
                pact_after(s, x);
            }
        } else {
            int x = pact_send(s, ((v & ~mask) + lroot) % p, acc);
            pact_after(s, prev);
            prev = x;
            break;
        }
    }
    if (!a->commutative && a->root != 0) {
        if (rank == 0) {
            pact_send(s, a->root, acc);
            pact_after(s, prev);
        } else if (at_root) {
            pact_recv(s, 0, acc);
            pact_after(s, prev);
        }
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int C = pact_clog2(P);
    *src = "Thakur 2005 (MPICH's binomial reduce): ceil(log2 P)(alpha + beta m + gamma m)";
    pact_cost_set(t, C, C * m, C * m);
    return 1;
}

const pact_alg pact_alg_reduce_mpich_binomial = {
    .coll = PACT_COLL_REDUCE,
    .name = "mpich_binomial",
    .build = pact_reduce_mpich_binomial_build,
    .restrictions = 0,
    .ompi_id = 0,
    .mpich = "binomial",
    .smpi = "binomial",
    .source = "MPICH 4.0 MPIR_Reduce_intra_binomial (src/mpi/coll/reduce/reduce_intra_binomial.c)",
    .cost = "ceil(log2 P)*(alpha + beta*m + gamma*m)",
    .terms = terms,
};
