/*
 * reduce rabenseifner
 *
 * Source:   Open MPI ompi_coll_base_reduce_intra_redscat_gather (ompi/mca/coll/base/coll_base_reduce.c):
 *           Rabenseifner's reduce, a reduce-scatter by recursive vector halving and distance doubling
 *           followed by a binomial gather of the pieces to the root.  For P not a power of two the first
 *           2r ranks (r = P - 2^floor(log2 P)) pair up first: each even rank keeps the left half, each odd
 *           rank the right half, they exchange and reduce the halves, and the odd rank hands its reduced
 *           half to the even one and sits out.  Any root: an even root among the first 2r ranks or a root
 *           above them is a virtual rank of the gather; an odd root among them (which sat out) receives
 *           virtual rank 0's piece from rank 0 and takes its place in the gather.  As in Open MPI, with
 *           P < 2, count < 2^floor(log2 P) or a non-commutative operation it runs basic linear instead
 *           (reduce "linear").  Non-root ranks work in TMP1 (Open MPI's temporary receive buffer).  The
 *           copy, the pairing and the reduce-scatter are allreduce rabenseifner's as well, in
 *           sim/coll/redscat.c.
 * Restrict: none (falls back as above).
 * Cost:     2*log2(P)*alpha + 2*beta*m*(P-1)/P + gamma*m*(P-1)/P  (P a power of two).
 *
 *   P = 4, root 0, blocks a b c d:
 *   reduce-scatter distance 1: 0<->1, 2<->3 exchange halves;  distance 2: 0<->2, 1<->3 exchange quarters
 *     rank 0 holds a, rank 2 holds b, rank 1 holds c, rank 3 holds d (reduced over all)
 *   gather, in reverse:  distance 2: 2 -> 0 (b), 3 -> 1 (d);  distance 1: 1 -> 0 (c d)
 */
#include "redscat.h"
#include "cost.h"

int pact_reduce_rabenseifner_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, root = a->root;
    if (n == 0)
        return PACT_OK;
    const int pof2 = pact_pof2_floor(p);
    if (pof2 < 2 || n < (size_t)pof2 || !a->commutative)
        return pact_reduce_linear_build(s, a);

    const int rem = p - pof2;
    const uint32_t rbuf = rank == root ? PACT_BUF_RECV : PACT_BUF_TMP1;
    if (rank != root)
        pact_need(s, PACT_BUF_TMP1, n);
    pact_redscat rs;
    /* Open MPI's steps are blocking: each waits for both halves of the previous sendrecv (d0, d1). */
    int d0 = pact_redscat_halving(s, a, rbuf, PACT_BUF_TMP0, &rs), d1 = -1;
    const int nsteps = rs.nsteps;
    int vrank = rs.vrank;

    /* An odd root among the first 2r ranks sat out: it takes virtual rank 0's windows and piece. */
    int vroot;
    const int odd_root = root < 2 * rem && root % 2;
    if (odd_root) {
        vroot = 0;
        if (rank == root) {
            size_t wsize = n;
            for (int step = 0; step < nsteps; step++) {
                rs.rcount[step] = wsize / 2;
                rs.scount[step] = wsize - rs.rcount[step];
                rs.rindex[step] = 0;
                rs.sindex[step] = rs.rcount[step];
                wsize /= 2;
            }
            int r = pact_recv(s, 0, pact_sl(rbuf, 0, rs.rcount[nsteps - 1]));
            pact_after(s, d0);
            pact_after(s, d1);
            d0 = r;
            d1 = -1;
            vrank = 0;
        } else if (vrank == 0) {
            int x = pact_send(s, root, pact_sl(rbuf, 0, rs.rcount[nsteps - 1]));
            pact_after(s, d0);
            pact_after(s, d1);
            d0 = x;
            d1 = -1;
            vrank = -1;
        }
    } else {
        vroot = root < 2 * rem ? root / 2 : root - rem;
    }

    /* Binomial gather to the virtual root, in the reverse order of the reduce-scatter: a rank sends its
     * window to the partner on the root's side and leaves, or receives the partner's window. */
    if (vrank != -1) {
        for (int step = nsteps - 1, mask = pof2 >> 1; mask > 0; mask >>= 1, step--) {
            const int vdest = vrank ^ mask;
            int dest = pact_redscat_real(vdest, rem);
            if (vdest == 0 && odd_root)
                dest = root;
            if ((vdest >> step) == (vroot >> step)) {
                pact_send(s, dest, pact_sl(rbuf, rs.rindex[step], rs.rcount[step]));
                pact_after(s, d0);
                pact_after(s, d1);
                break;
            }
            int r = pact_recv(s, dest, pact_sl(rbuf, rs.sindex[step], rs.scount[step]));
            pact_after(s, d0);
            pact_after(s, d1);
            d0 = r;
            d1 = -1;
        }
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_flog2(P), pof2 = 1 << L;
    if (m / pact_cost_elem(m) < pof2) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_REDUCE, "linear")->terms(P, m, t, src);
    double f = (pof2 - 1.0) / pof2;
    *src = "Thakur 2005 (reduce-scatter + binomial gather); for P not a power of two plus Open MPI's "
           "pairing, 2 alpha + beta m + gamma m/2 (derived from the schedule)";
    pact_cost_set(t, 2.0 * L, 2 * f * m, f * m);
    if (pof2 != P)
        pact_cost_set(t, t->a + 2, t->b + m, t->c + m / 2);
    return 1;
}

const pact_alg pact_alg_reduce_rabenseifner = {
    .coll = PACT_COLL_REDUCE,
    .name = "rabenseifner",
    .build = pact_reduce_rabenseifner_build,
    .restrictions = 0,
    .ompi_id = 7,
    .mpich = NULL, /* MPICH folds otherwise and splits whole blocks: mpich_reduce_scatter_gather */
    .smpi = "rab",
    .source = "Open MPI ompi_coll_base_reduce_intra_redscat_gather (coll_base_reduce.c)",
    .cost = "2*log2(P)*alpha + 2*beta*m*(P-1)/P + gamma*m*(P-1)/P (P pof2)",
    .terms = terms,
};
