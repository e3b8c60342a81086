/*
 * closed.c - closed-form Hockney costs of the registry's algorithms, as terms T = a*alpha + b*beta +
 * c*gamma (linear in the parameters, so `pact model fit` is linear least squares), for root 0 and the
 * algorithms' default parameters (unsegmented, Open MPI's forced-algorithm defaults).
 *
 * Model: Hockney, single-port full-duplex (SUARA, seeds/004 section 4.1): a message of m bytes costs
 * alpha + beta*m and holds its sender's send port and its receiver's receive port; a reduction costs
 * gamma*m.  Where a source's textbook formula assumes something the schedule does not do (which child a
 * tree serves first, whether sends to several children overlap), the form here follows the schedule and
 * says so ("derived from the schedule"); the evaluator (eval.c) is the reference, and tests/test_models.c
 * holds the evaluator and the closed forms of recursive doubling, ring and Rabenseifner allreduce to 1e-9.
 *
 * Sources: SUARA = Nuriyev et al. 2022, seeds/004 Table 1 and eqs. 1-8; Thakur = Thakur, Rabenseifner,
 * Gropp 2005, "Optimization of collective communication operations in MPICH"; PG = Pjesivac-Grbovic et al.
 * 2007, "Performance analysis of MPI collective operations"; Tran = Tran et al., seeds/001 section 2.2.
 */
#include <math.h>
#include <string.h>

#include "pact_models.h"

/* ceil(log2 n) and floor(log2 n), n >= 1 */
static int clog2(int n)
{
    int k = 0;
    while ((1L << k) < n)
        k++;
    return k;
}

static int flog2(int n)
{
    int k = 0;
    while ((2L << k) <= n)
        k++;
    return k;
}

static void set(pact_model_terms *t, double a, double b, double c)
{
    t->a = a;
    t->b = b;
    t->c = c;
}

/* Element size the cells use (pact_model_cell): doubles when m allows. */
static double elem_of(double m)
{
    return fmod(m, 8) == 0 ? 8 : 1;
}

/* Bytes of the largest of P blocks (the first count mod P one element longer, Open MPI's block split). */
static double big_block(double m, int P)
{
    double es = elem_of(m), n = m / es;
    return ceil(n / P) * es;
}

/* Binary k-ary tree bcast (breadth-first, a parent serves child 2v+1 then 2v+2): the path to v costs one
 * message per first-child edge and two per second-child edge, i.e. depth(v) + popcount(v+1) - 1; the largest
 * over v < P.  Derived from the schedule. */
static int binary_tree_path(int P)
{
    int best = 0;
    for (int x = 1; x <= P; x = x * 2 + 1) /* all-ones x, then P itself and P with one 1 cleared */
        best = (int)fmax(best, 2 * flog2(x) + 0);
    int d = flog2(P);
    best = (int)fmax(best, d + __builtin_popcount((unsigned)P) - 1);
    for (int j = 0; j < d; j++)
        if (P & (1 << j)) {
            int x = (P & ~((1 << (j + 1)) - 1)) | ((1 << j) - 1);
            best = (int)fmax(best, d + __builtin_popcount((unsigned)x) - 1);
        }
    return best;
}

/* K-nomial bcast (ompi_coll_base_topo_build_kmtree): a subtree of n ranks whose root may use digit positions
 * below i; the root serves children farthest first (positions i-1 down to 0, digits 1..radix-1), one after
 * another.  Returns the most messages on a path from the root; a full subtree (n = radix^i) costs
 * i*(radix-1), so only the one partial child recurses: O(radix log^2 P).  Derived from the schedule. */
static int knomial_path(int i, long n, int radix)
{
    int best = 0, idx = 0;
    long pw = 1;
    for (int k = 1; k < i; k++)
        pw *= radix;
    for (int ip = i - 1; ip >= 0; ip--, pw /= radix)
        for (int d = 1; d < radix && d * pw < n; d++) {
            idx++;
            long sub = n - d * pw < pw ? n - d * pw : pw;
            int g = sub == pw ? ip * (radix - 1) : knomial_path(ip, sub, radix);
            best = idx + g > best ? idx + g : best;
        }
    return best;
}

static gboolean terms(pact_coll coll, const char *name, int P, double m, pact_model_terms *t,
                      const char **src);

/* Blocks with bit d set among 0..P-1: what a modified Bruck alltoall step moves. */
static double bruck_blocks(int P, int d)
{
    long hi = 1L << (d + 1), lo = 1L << d;
    return (double)((P / hi) * lo + fmax(0, (double)(P % hi) - (double)lo));
}

static gboolean allreduce(const char *name, int P, double m, pact_model_terms *t, const char **src)
{
    const int L = flog2(P), pof2 = 1 << L;
    const double n = m / elem_of(m);
    if (!strcmp(name, "basic_linear")) {
        *src = "SUARA eq. 3 (Table 1): linear reduce, then linear bcast";
        set(t, 2.0 * (P - 1), 2.0 * (P - 1) * m, (P - 1) * m);
    } else if (!strcmp(name, "nonoverlapping")) {
        pact_model_terms r, b;
        const char *s;
        terms(PACT_COLL_REDUCE, "binomial", P, m, &r, &s);
        terms(PACT_COLL_BCAST, "binomial", P, m, &b, &s);
        *src = "SUARA eq. 4: T(reduce binomial) + T(bcast binomial), Open MPI's default pair";
        set(t, r.a + b.a, r.b + b.b, r.c + b.c);
    } else if (!strcmp(name, "recursive_doubling") || (!strcmp(name, "ring") && (n < P || P == 1)) ||
               (!strcmp(name, "segmented_ring") && (n < P || P == 1))) {
        *src = pof2 == P ? "SUARA eq. 5; Thakur 2005"
                         : "Thakur 2005, with Open MPI's fold for P not a power of two (derived from the "
                           "schedule: one send before, one after, one reduction more)";
        if (pof2 == P)
            set(t, L, L * m, L * m);
        else
            set(t, L + 2, (L + 2) * m, (L + 1) * m);
    } else if (!strcmp(name, "ring") || !strcmp(name, "segmented_ring")) {
        /* segmented_ring's default segsize 0 is the ring (SUARA eq. 7 with n_s = 1 is eq. 6). */
        double b = big_block(m, P);
        *src = "SUARA eq. 6 (ring without segmentation); Thakur 2005; blocks of ceil(count/P) elements";
        set(t, 2.0 * (P - 1), 2.0 * (P - 1) * b, (P - 1) * b);
    } else if (!strcmp(name, "rabenseifner")) {
        if (n < pof2 || P == 1)
            return allreduce("basic_linear", P, m, t, src);
        double f = (pof2 - 1.0) / pof2;
        *src = pof2 == P
                   ? "SUARA eq. 8; Thakur 2005"
                   : "Thakur 2005 for the power of two below P, plus Open MPI's pairing of the first 2r "
                     "ranks: 3 alpha + 2 beta m + gamma m/2 (derived from the schedule)";
        set(t, 2.0 * L, 2 * f * m, f * m);
        if (pof2 != P)
            set(t, t->a + 3, t->b + 2 * m, t->c + m / 2);
    } else {
        return FALSE;
    }
    return TRUE;
}

static gboolean reduce(const char *name, int P, double m, pact_model_terms *t, const char **src)
{
    const int L = flog2(P), pof2 = 1 << L;
    const double n = m / elem_of(m);
    if (P == 1) {
        *src = "one rank: nothing moves";
        set(t, 0, 0, 0);
    } else if (!strcmp(name, "linear")) {
        *src = "SUARA eq. 1; PG 2007";
        set(t, P - 1, (P - 1) * m, (P - 1) * m);
    } else if (!strcmp(name, "chain")) {
        /* fanout 4: a chain of L hops, then the root takes the f chain heads one after another */
        int f = P - 1 < 4 ? P - 1 : 4, len = (P - 1 + f - 1) / f;
        *src =
            "PG 2007 (chain), unsegmented; the root's f-way fan-in serialized on its receive port (derived "
            "from the schedule)";
        set(t, len - 1 + f, (len - 1 + f) * m, len * m);
    } else if (!strcmp(name, "pipeline")) {
        *src = "PG 2007, (P + S - 2)(alpha + beta m/S + gamma m/S) with S = 1";
        set(t, P - 1, (P - 1) * m, (P - 1) * m);
    } else if (!strcmp(name, "binary")) {
        int D = flog2(P);
        *src = "PG 2007 (binary tree), unsegmented: per level two messages on the parent's receive port and "
               "one reduction on the critical path (derived from the schedule)";
        set(t, 2.0 * D, 2.0 * D * m, D * m);
    } else if (!strcmp(name, "binomial")) {
        int C = clog2(P);
        *src = "PG 2007; Tran 2.2.5: ceil(log2 P)(alpha + beta m + gamma m)";
        set(t, C, C * m, C * m);
    } else if (!strcmp(name, "in_order_binary")) {
        int D = flog2(P);
        *src = "PG 2007 (binary tree) with Open MPI's final send from rank P-1 to root 0 (derived from the "
               "schedule)";
        set(t, 2.0 * D + 1, (2.0 * D + 1) * m, 2.0 * D * m);
    } else if (!strcmp(name, "rabenseifner")) {
        if (n < pof2)
            return reduce("linear", P, m, t, src);
        double f = (pof2 - 1.0) / pof2;
        *src = "Thakur 2005 (reduce-scatter + binomial gather); for P not a power of two plus Open MPI's "
               "pairing, 2 alpha + beta m + gamma m/2 (derived from the schedule)";
        set(t, 2.0 * L, 2 * f * m, f * m);
        if (pof2 != P)
            set(t, t->a + 2, t->b + m, t->c + m / 2);
    } else {
        return FALSE;
    }
    return TRUE;
}

static gboolean bcast(const char *name, int P, double m, pact_model_terms *t, const char **src)
{
    const int L = flog2(P), pof2 = 1 << L;
    const double n = m / elem_of(m);
    if (P == 1) {
        *src = "one rank: nothing moves";
        set(t, 0, 0, 0);
        return TRUE;
    }
    if ((!strcmp(name, "scatter_allgather") || !strcmp(name, "scatter_allgather_ring")) && n < P)
        name = "basic_linear"; /* Open MPI's fallback */
    if (!strcmp(name, "basic_linear") || !strcmp(name, "pipeline")) {
        *src = !strcmp(name, "pipeline") ? "PG 2007, (P + S - 2)(alpha + beta m/S) with S = 1"
                                         : "SUARA eq. 2; PG 2007: the root's sends serialized";
        set(t, P - 1, (P - 1) * m, 0);
    } else if (!strcmp(name, "chain")) {
        /* fanout 4: head c is served (c+1)-th by the root, then its chain of len_c ranks forwards */
        int f = P - 1 < 4 ? P - 1 : 4, len = (P - 1) / f, longer = (P - 1) % f, best = 0;
        if (longer)
            len++;
        else
            longer = f;
        for (int c = 0; c < f; c++)
            best = (int)fmax(best, c + (c < longer ? len : len - 1));
        *src = "PG 2007 (chain), unsegmented, the root serving the chain heads in turn (derived from the "
               "schedule)";
        set(t, best, best * m, 0);
    } else if (!strcmp(name, "split_binary_tree")) {
        if (n < 2)
            return bcast("pipeline", P, m, t, src);
        int D = flog2(P);
        double h = big_block(m, 2);
        *src = "PG 2007 (split binary tree), unsegmented: halves down two binary trees, each parent serving "
               "two children in turn, then the exchange of halves (derived from the schedule)";
        set(t, 2.0 * D + 1, (2.0 * D + 1) * h, 0);
    } else if (!strcmp(name, "binary_tree")) {
        int k = binary_tree_path(P);
        *src = "PG 2007 (binary tree), unsegmented; a parent serves its two children in turn, so the path to "
               "a rank costs one message per first-child and two per second-child edge (derived from the "
               "schedule)";
        set(t, k, k * m, 0);
    } else if (!strcmp(name, "binomial")) {
        int C = clog2(P);
        *src = "PG 2007; Tran 2.2.4: ceil(log2 P)(alpha + beta m)";
        set(t, C, C * m, 0);
    } else if (!strcmp(name, "knomial")) {
        int K = 0;
        for (long x = 1; x < P; x *= 4)
            K++;
        int k = knomial_path(K, P, 4);
        *src =
            "(radix - 1) ceil(log_radix P)(alpha + beta m) for P a power of the radix 4, each parent serving "
            "its children farthest first, one after another; the longest such path for other P (derived "
            "from the schedule)";
        set(t, k, k * m, 0);
    } else if (!strcmp(name, "scatter_allgather")) {
        double f = (pof2 == P ? P - 1.0 : P - 1.0) / P;
        int C = clog2(P);
        *src = "Thakur 2005: binomial scatter + recursive-doubling allgather";
        set(t, 2.0 * C, 2 * f * P * big_block(m, P), 0);
    } else if (!strcmp(name, "scatter_allgather_ring")) {
        int C = clog2(P);
        double b = big_block(m, P);
        *src = "Thakur 2005: binomial scatter + ring allgather";
        set(t, C + P - 1.0, 2.0 * (P - 1) * b, 0);
    } else {
        return FALSE;
    }
    return TRUE;
}

static gboolean alltoall(const char *name, int P, double m, pact_model_terms *t, const char **src)
{
    if (!strcmp(name, "linear") || !strcmp(name, "linear_sync") || !strcmp(name, "pairwise")) {
        *src = !strcmp(name, "pairwise") ? "Thakur 2005; Tran 2.2.6: (P-1)(alpha + beta m)"
                                         : "PG 2007: every message posted at once, serialized on the ports "
                                           "(linear_sync's default max_requests 0 is linear)";
        set(t, P - 1, (P - 1) * m, 0);
    } else if (!strcmp(name, "modified_bruck")) {
        int C = clog2(P);
        double blocks = 0;
        for (int d = 0; d < C; d++)
            blocks += bruck_blocks(P, d);
        *src = "Thakur 2005 (Bruck): ceil(log2 P) steps of the blocks whose index has that bit set (P/2 "
               "for P a power of two); local copies free";
        set(t, C, blocks * m, 0);
    } else {
        return FALSE;
    }
    return TRUE;
}

static gboolean allgather(const char *name, int P, double m, pact_model_terms *t, const char **src)
{
    int L = flog2(P);
    if (!strcmp(name, "linear")) {
        *src = "PG 2007: linear gather, (P-1)(alpha + beta m), then linear bcast of P blocks, (P-1)(alpha + "
               "beta P m)";
        set(t, 2.0 * (P - 1), (P - 1) * m * (1.0 + P), 0);
    } else if (!strcmp(name, "bruck") || (!strcmp(name, "recursive_doubling") && (1 << L) != P)) {
        *src = "Thakur 2005 (Bruck): ceil(log2 P) alpha + (P-1) beta m";
        set(t, clog2(P), (P - 1) * m, 0);
    } else if (!strcmp(name, "recursive_doubling")) {
        *src = "Thakur 2005: log2(P) alpha + (P-1) beta m";
        set(t, L, (P - 1) * m, 0);
    } else if (!strcmp(name, "ring") || (!strcmp(name, "neighbor") && P % 2)) {
        *src = "Thakur 2005; Tran 2.2.1: (P-1)(alpha + beta m)";
        set(t, P - 1, (P - 1) * m, 0);
    } else if (!strcmp(name, "neighbor")) {
        *src = "Chen et al. 2005 (neighbor exchange): P/2 alpha + (P-1) beta m";
        set(t, P / 2, (P - 1) * m, 0);
    } else {
        return FALSE;
    }
    return TRUE;
}

static gboolean terms(pact_coll coll, const char *name, int P, double m, pact_model_terms *t,
                      const char **src)
{
    switch (coll) {
    case PACT_COLL_ALLREDUCE:
        return allreduce(name, P, m, t, src);
    case PACT_COLL_REDUCE:
        return reduce(name, P, m, t, src);
    case PACT_COLL_BCAST:
        return bcast(name, P, m, t, src);
    case PACT_COLL_ALLTOALL:
        return alltoall(name, P, m, t, src);
    case PACT_COLL_ALLGATHER:
        return allgather(name, P, m, t, src);
    default:
        return FALSE;
    }
}

gboolean pact_model_terms_of(const pact_alg *alg, int P, double m, pact_model_terms *t, const char **source)
{
    const char *src = NULL;
    set(t, 0, 0, 0);
    if (P < 1 || !(m >= 0))
        return FALSE;
    gboolean ok = m == 0 ? (src = "nothing to move", TRUE) : terms(alg->coll, alg->name, P, m, t, &src);
    if (source)
        *source = src;
    return ok;
}

/* ---- two levels: ranks r and r' share a node when r/ppn == r'/ppn (block mapping) ---- */

typedef struct {
    double ac, bc, ah, bh, g; /* intra (c: CPU, Tran's alpha_C, 1/BW_C) and inter (h: HCA) */
} two;

/* A step at rank distance d < ppn stays inside a node for every rank (block mapping, pof2 ppn). */
static double step(const two *x, int dist, int ppn, double bytes, double reduced)
{
    return dist < ppn ? x->ac + x->bc * bytes + x->g * reduced : x->ah + x->bh * bytes + x->g * reduced;
}

static gboolean closed_2l(const pact_alg *alg, int P, double m, int ppn, const two *x, double *T)
{
    const char *n = alg->name;
    const int L = flog2(P);
    if ((1 << L) != P || P % ppn || !pact_is_pof2(ppn))
        return FALSE;
    double sum = 0;
    switch (alg->coll) {
    case PACT_COLL_ALLREDUCE:
        if (!strcmp(n,
                    "recursive_doubling")) { /* Tran 2.2.2 (binomial): log2(ppn) intra steps, log2(N) inter */
            for (int d = 1; d < P; d <<= 1)
                sum += step(x, d, ppn, m, m);
        } else if (!strcmp(n, "ring")) { /* Tran 2.2.2: every step waits for the slowest link */
            if (m / elem_of(m) < P)
                return FALSE;
            double b = big_block(m, P);
            double s = P > ppn ? fmax(x->ac + x->bc * b, x->ah + x->bh * b) : x->ac + x->bc * b;
            sum = 2.0 * (P - 1) * s + (P - 1) * x->g * b;
        } else if (!strcmp(n, "rabenseifner")) { /* halving at distance 1, 2, ...; doubling back */
            if (m / elem_of(m) < P)
                return FALSE;
            double part = m;
            for (int d = 1; d < P; d <<= 1) {
                part /= 2;
                sum += 2 * step(x, d, ppn, part, 0) + x->g * part;
            }
        } else {
            return FALSE;
        }
        break;
    case PACT_COLL_REDUCE:
    case PACT_COLL_BCAST: /* Tran 2.2.4 and 2.2.5: binomial trees */
        if (strcmp(n, "binomial"))
            return FALSE;
        for (int d = 1; d < P; d <<= 1)
            sum += step(x, d, ppn, m, alg->coll == PACT_COLL_REDUCE ? m : 0);
        break;
    case PACT_COLL_ALLGATHER:
        if (!strcmp(n, "ring")) { /* Tran 2.2.1 */
            sum = (P - 1) * (P > ppn ? fmax(x->ac + x->bc * m, x->ah + x->bh * m) : x->ac + x->bc * m);
        } else if (!strcmp(n, "recursive_doubling")) { /* Tran 2.2.1: the message doubles every step */
            for (int d = 1; d < P; d <<= 1)
                sum += step(x, d, ppn, d * m, 0);
        } else {
            return FALSE;
        }
        break;
    case PACT_COLL_ALLTOALL:
        if (!strcmp(n, "pairwise")) { /* Tran 2.2.6 */
            sum = (ppn - 1) * (x->ac + x->bc * m) + (double)(P / ppn - 1) * ppn * (x->ah + x->bh * m);
        } else if (!strcmp(n, "modified_bruck")) { /* Tran 2.2.6, local rotations free */
            for (int d = 1; d < P; d <<= 1)
                sum += step(x, d, ppn, m * P / 2, 0);
        } else {
            return FALSE;
        }
        break;
    default:
        return FALSE;
    }
    *T = sum;
    return TRUE;
}

gboolean pact_model_has_two_level(const pact_alg *alg)
{
    two x = {1, 1, 1, 1, 1};
    double T;
    return closed_2l(alg, 16, 1024, 4, &x, &T);
}

double pact_model_closed(const pact_alg *alg, int P, double m, const pact_model_params *prm)
{
    if (prm->ppn > 1 && m > 0) {
        two x = {prm->alpha_intra, prm->beta_intra, prm->alpha, prm->beta, prm->gamma};
        double T;
        if (closed_2l(alg, P, m, prm->ppn, &x, &T))
            return T;
    }
    pact_model_terms t;
    if (!pact_model_terms_of(alg, P, m, &t, NULL))
        return NAN;
    return t.a * prm->alpha + t.b * prm->beta + t.c * prm->gamma;
}
