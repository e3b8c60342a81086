/*
 * reduce mpich_reduce_scatter_gather
 *
 * Source:  MPICH 4.0 MPIR_Reduce_intra_reduce_scatter_gather
 *          (src/mpi/coll/reduce/reduce_intra_reduce_scatter_gather.c), Rabenseifner's reduce as MPICH writes
 *          it; SimGrid's reduce scatter_gather (src/smpi/colls/reduce/reduce-scatter-gather.cpp) is the same
 *          schedule.  Each rank copies SEND into its accumulator (the root's RECV, a scratch buffer
 *          elsewhere); below 2 rem (rem = P - pof2) each odd rank sends its whole vector to the even rank
 *          below it, which reduces it and goes on; the pof2 ranks left reduce-scatter by recursive halving
 *          over whole blocks (sim/coll/common/mpich_redscat.c); then the blocks are gathered to the root by
 *          recursive halving in reverse: at each step a rank whose partner's subtree holds the root sends it
 *          everything it has and stops, the other receives.  A root folded away (odd, below 2 rem) first
 *          takes block 0 from rank 0 and plays its part.  Every step is blocking.
 *          MPICH runs it only for a built-in operation and count >= pof2, and pact's MPICH tables guard it
 *          so (tuner/emit/mpich.c): elsewhere this builder runs what the guard gives, MPICH's binomial
 *          (sim/coll/reduce/mpich_binomial.c).
 * Restrict: none (the fallback above).
 * Cost:     P a power of two: 2*log2(P)*alpha + 2*(P-1)/P*beta*m + (P-1)/P*gamma*m; otherwise one more step
 *           of alpha + beta*m + gamma*m (the fold).
 *
 *   Open MPI's rabenseifner reduce (sim/coll/reduce/rabenseifner.c) folds by a half swap.
 */
#include "common.h"
#include "cost.h"
#include "mpich_redscat.h"

int pact_reduce_mpich_reduce_scatter_gather_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, root = a->root;
    if (n == 0)
        return PACT_OK;
    const int pof2 = pact_mrs_pof2(a->size);
    if (!a->commutative || n < (size_t)pof2)
        return pact_reduce_mpich_binomial_build(s, a);

    const uint32_t acc = rank == root ? PACT_BUF_RECV : PACT_BUF_TMP1;
    pact_need(s, PACT_BUF_TMP0, n);
    if (rank != root)
        pact_need(s, PACT_BUF_TMP1, n);
    int prev = -1;
    if (rank != root || !a->inplace)
        prev = pact_copy(s, pact_sl(acc, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    pact_mrs st;
    pact_mrs_halving(s, a, acc, PACT_BUF_TMP0, 0, prev, &st);
    const int rem = st.rem;

    /* a root folded away takes the place of newrank 0, which hands it block 0 */
    int newroot;
    if (root < 2 * rem) {
        if (root % 2 != 0) {
            size_t b0 = pact_mrs_disp(n, pof2, 1);
            if (rank == root) {
                st.dep[0] = pact_recv(s, 0, pact_sl(acc, 0, b0));
                pact_after(s, prev);
                st.dep[1] = -1;
                st.newrank = 0;
                st.send_idx = 0;
                st.last_idx = 2;
            } else if (st.newrank == 0) {
                int x = pact_send(s, root, pact_sl(acc, 0, b0));
                pact_after2(s, st.dep);
                st.dep[0] = x;
                st.dep[1] = -1;
                st.newrank = -1;
            }
            newroot = 0;
        } else {
            newroot = root / 2;
        }
    } else {
        newroot = root - rem;
    }
    if (st.newrank == -1)
        return PACT_OK;

    const int v = st.newrank;
    int j = 0;
    while ((1 << j) < pof2)
        j++;
    j--;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1, j--) {
        const int newdst = v ^ mask;
        int dst = pact_mrs_real(newdst, rem, 0);
        if (newdst == 0 && root < 2 * rem && root % 2 != 0)
            dst = root;
        int sa, sb, ra, rb;
        pact_mrs_back(&st, v, mask, &sa, &sb, &ra, &rb);
        if ((newdst >> j) == (newroot >> j)) {
            size_t s0 = pact_mrs_disp(n, pof2, sa), s1 = pact_mrs_disp(n, pof2, sb);
            pact_send(s, dst, pact_sl(acc, s0, s1 - s0));
            pact_after2(s, st.dep);
            break;
        }
        size_t r0 = pact_mrs_disp(n, pof2, ra), r1 = pact_mrs_disp(n, pof2, rb);
        int r = pact_recv(s, dst, pact_sl(acc, r0, r1 - r0));
        pact_after2(s, st.dep);
        st.dep[0] = r;
        st.dep[1] = -1;
        if (v > newdst)
            st.send_idx = st.recv_idx;
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int pof2 = 1 << pact_flog2(P), L = pact_flog2(P);
    double f = (double)(pof2 - 1) / pof2, extra = P == pof2 ? 0 : 1;
    if (m / pact_cost_elem(m) < pof2) /* the fallback: MPICH's binomial */
        return pact_alg_find(PACT_COLL_REDUCE, "mpich_binomial")->terms(P, m, t, src);
    *src = "Thakur 2005 (MPICH's reduce-scatter + gather): 2 log2(pof2) alpha + 2 (pof2-1)/pof2 beta m + "
           "(pof2-1)/pof2 gamma m, and a fold when P is not a power of two";
    pact_cost_set(t, 2 * L + extra, 2 * f * m + extra * m, f * m + extra * m);
    return 1;
}

const pact_alg pact_alg_reduce_mpich_reduce_scatter_gather = {
    .coll = PACT_COLL_REDUCE,
    .name = "mpich_reduce_scatter_gather",
    .build = pact_reduce_mpich_reduce_scatter_gather_build,
    .restrictions = 0,
    .ompi_id = 0,
    .mpich = "reduce_scatter_gather",
    .smpi = "scatter_gather",
    .source = "MPICH 4.0 MPIR_Reduce_intra_reduce_scatter_gather "
              "(src/mpi/coll/reduce/reduce_intra_reduce_scatter_gather.c)",
    .cost = "2*log2(P)*alpha + 2*(P-1)/P*beta*m + (P-1)/P*gamma*m, P a power of two and count >= P",
    .terms = terms,
};
