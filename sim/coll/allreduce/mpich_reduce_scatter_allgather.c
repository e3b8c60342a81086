/*
 * allreduce mpich_reduce_scatter_allgather
 *
 * Source:  MPICH 4.0 MPIR_Allreduce_intra_reduce_scatter_allgather
 *          (src/mpi/coll/allreduce/allreduce_intra_reduce_scatter_allgather.c), Rabenseifner's algorithm as
 *          MPICH writes it: SEND is copied into RECV; below 2 rem (rem = P - pof2, pof2 the largest power of
 *          two <= P) each even rank sends its whole vector to the odd rank above it, which reduces it and goes
 *          on; the pof2 ranks left reduce-scatter by recursive halving over pof2 whole blocks (the first
 *          count % pof2 one element longer; sim/coll/common/mpich_redscat.c), allgather the blocks back by
 *          recursive doubling (the same pairs in reverse), and each odd rank below 2 rem sends the result to
 *          the even rank it folded.  Every step is a blocking sendrecv.
 *          MPICH runs it only for a built-in operation and count >= pof2, and pact's MPICH tables guard it
 *          so (tuner/emit/mpich.c, is_op_built_in and count<pow2): elsewhere this builder runs what the guard
 *          gives, recursive doubling (sim/coll/allreduce/recursive_doubling.c).
 * Restrict: none (the fallback above).
 * Cost:     P a power of two: 2*log2(P)*alpha + 2*(P-1)/P*beta*m + (P-1)/P*gamma*m; otherwise two more
 *           steps of alpha + beta*m and one more gamma*m (the fold and the result sent back).
 *
 *   Open MPI's rabenseifner (sim/coll/allreduce/rabenseifner.c) folds by a half swap and keeps the even rank.
 */
#include "common.h"
#include "cost.h"
#include "mpich_redscat.h"

int pact_allreduce_mpich_reduce_scatter_allgather_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    const int pof2 = pact_mrs_pof2(p);
    if (!a->commutative || n < (size_t)pof2)
        return pact_allreduce_recursive_doubling_build(s, a);

    pact_need(s, PACT_BUF_TMP0, n);
    int prev = -1;
    if (!a->inplace)
        prev = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    pact_mrs st;
    pact_mrs_halving(s, a, PACT_BUF_RECV, PACT_BUF_TMP0, 1, prev, &st);

    if (st.newrank != -1) { /* the allgather: the pairs of the reduce-scatter in reverse */
        const int v = st.newrank;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            const int dst = pact_mrs_real(v ^ mask, st.rem, 1);
            int sa, sb, ra, rb;
            pact_mrs_back(&st, v, mask, &sa, &sb, &ra, &rb);
            size_t s0 = pact_mrs_disp(n, pof2, sa), s1 = pact_mrs_disp(n, pof2, sb);
            size_t r0 = pact_mrs_disp(n, pof2, ra), r1 = pact_mrs_disp(n, pof2, rb);
            int r = pact_recv(s, dst, pact_sl(PACT_BUF_RECV, r0, r1 - r0));
            pact_after2(s, st.dep);
            int x = pact_send(s, dst, pact_sl(PACT_BUF_RECV, s0, s1 - s0));
            pact_after2(s, st.dep);
            st.dep[0] = r;
            st.dep[1] = x;
            if (v > (v ^ mask))
                st.send_idx = st.recv_idx;
        }
    }
    if (rank < 2 * st.rem) { /* the result back to the folded even ranks */
        const pact_slice all = pact_sl(PACT_BUF_RECV, 0, n);
        if (rank % 2)
            pact_send(s, rank - 1, all);
        else
            pact_recv(s, rank + 1, all);
        pact_after2(s, st.dep);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    int pof2 = 1 << pact_flog2(P), L = pact_flog2(P);
    double f = (double)(pof2 - 1) / pof2, extra = P == pof2 ? 0 : 1;
    if (m / pact_cost_elem(m) < pof2) /* the fallback: recursive doubling */
        return pact_alg_find(PACT_COLL_ALLREDUCE, "recursive_doubling")->terms(P, m, t, src);
    *src = "Thakur 2005 (MPICH's reduce-scatter + allgather): 2 log2(pof2) alpha + 2 (pof2-1)/pof2 beta m + "
           "(pof2-1)/pof2 gamma m, and a fold and a send back when P is not a power of two";
    pact_cost_set(t, 2 * L + 2 * extra, 2 * f * m + 2 * extra * m, f * m + extra * m);
    return 1;
}

const pact_alg pact_alg_allreduce_mpich_reduce_scatter_allgather = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "mpich_reduce_scatter_allgather",
    .build = pact_allreduce_mpich_reduce_scatter_allgather_build,
    .restrictions = 0,
    .ompi_id = 0,
    .mpich = "reduce_scatter_allgather",
    .smpi = "rab_rdb", /* SimGrid's rab_rdb is MPICH's (no fallback: count >= pof2 only) */
    .source = "MPICH 4.0 MPIR_Allreduce_intra_reduce_scatter_allgather "
              "(src/mpi/coll/allreduce/allreduce_intra_reduce_scatter_allgather.c)",
    .cost = "2*log2(P)*alpha + 2*(P-1)/P*beta*m + (P-1)/P*gamma*m, P a power of two and count >= P",
    .terms = terms,
};
