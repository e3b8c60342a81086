/*
 * allreduce rabenseifner
 *
 * Source:   Open MPI ompi_coll_base_allreduce_intra_redscat_allgather (coll_base_allreduce.c in
 *           ompi/mca/coll/base, 4.1 and 5.0): Rabenseifner's allreduce, a reduce-scatter by recursive
 *           vector halving and distance doubling, then an allgather by recursive vector doubling and
 *           distance halving.  For P not a power of two the first 2r ranks (r = P - 2^floor(log2 P)) pair
 *           up first: each even rank keeps the left half, each odd rank the right half, they exchange and
 *           reduce the halves, the odd rank hands its reduced half to the even one and sits out until the
 *           even one sends it the result.  As in Open MPI 4.1/5.0, with count < 2^floor(log2 P) or a
 *           non-commutative operation it runs basic_linear instead (Open MPI's main branch has since
 *           dropped the count test).  The copy, the pairing and the reduce-scatter are reduce
 *           rabenseifner's as well, in sim/coll/redscat.c.
 * Restrict: none (falls back as above).
 * Cost:     2*log2(P)*alpha + 2*beta*m*(P-1)/P + gamma*m*(P-1)/P  (P a power of two);
 *           otherwise + 3*alpha + 2*beta*m + gamma*m/2 for the pairing and the final send.
 *
 *   P = 4, blocks a b c d:
 *   reduce-scatter distance 1: 0<->1, 2<->3 exchange halves;  distance 2: 0<->2, 1<->3 exchange quarters
 *     rank 0 holds a, rank 2 holds b, rank 1 holds c, rank 3 holds d (reduced over all)
 *   allgather distance 2: 0<->2 (a, b), 1<->3 (c, d);  distance 1: 0<->1, 2<->3 (ab, cd)
 */
#include "redscat.h"
#include "cost.h"

int pact_allreduce_rabenseifner_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    const int pof2 = pact_pof2_floor(p);
    if (n < (size_t)pof2 || !a->commutative)
        return pact_allreduce_basic_linear_build(s, a);

    const int rem = p - pof2;
    const uint32_t rbuf = PACT_BUF_RECV;
    pact_redscat rs;
    /* Open MPI's steps are blocking: each waits for both halves of the previous sendrecv (d0, d1). */
    int d0 = pact_redscat_halving(s, a, rbuf, PACT_BUF_TMP0, &rs), d1 = -1;

    if (rs.vrank != -1) {
        /* Allgather: the same pairs in reverse order; send the window kept, receive the one given away. */
        for (int step = rs.nsteps - 1, mask = pof2 >> 1; mask > 0; mask >>= 1, step--) {
            const int dest = pact_redscat_real(rs.vrank ^ mask, rem);
            int r = pact_recv(s, dest, pact_sl(rbuf, rs.sindex[step], rs.scount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            int x = pact_send(s, dest, pact_sl(rbuf, rs.rindex[step], rs.rcount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            d0 = r;
            d1 = x;
        }
    }

    if (rank < 2 * rem) {
        const pact_slice all = pact_sl(rbuf, 0, n);
        if (rank % 2)
            pact_recv(s, rank - 1, all);
        else
            pact_send(s, rank + 1, all);
        pact_after(s, d0);
        pact_after(s, d1);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_flog2(P), pof2 = 1 << L;
    if (m / pact_cost_elem(m) < pof2) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_ALLREDUCE, "basic_linear")->terms(P, m, t, src);
    double f = (pof2 - 1.0) / pof2;
    *src = pof2 == P ? "SUARA eq. 8; Thakur 2005"
                     : "Thakur 2005 for the power of two below P, plus Open MPI's pairing of the first 2r "
                       "ranks: 3 alpha + 2 beta m + gamma m/2 (derived from the schedule)";
    pact_cost_set(t, 2.0 * L, 2 * f * m, f * m);
    if (pof2 != P)
        pact_cost_set(t, t->a + 3, t->b + 2 * m, t->c + m / 2);
    return 1;
}

const pact_alg pact_alg_allreduce_rabenseifner = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "rabenseifner",
    .build = pact_allreduce_rabenseifner_build,
    .restrictions = 0,
    .ompi_id = 6,
    .mpich = NULL, /* MPICH folds otherwise and splits whole blocks: mpich_reduce_scatter_allgather */
    .smpi = "rab_rdb",
    .source = "Open MPI ompi_coll_base_allreduce_intra_redscat_allgather (coll_base_allreduce.c)",
    .cost = "2*log2(P)*alpha + 2*beta*m*(P-1)/P + gamma*m*(P-1)/P (P pof2)",
    .terms = terms,
};
