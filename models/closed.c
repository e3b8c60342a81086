/*
 * closed.c - closed-form Hockney costs of the registry's algorithms: the one-level terms T = a*alpha +
 * b*beta + c*gamma that each algorithm's file writes next to its builder (pact_alg.terms; linear in the
 * parameters, so `pact model fit` is linear least squares), for root 0 and the algorithms' default
 * parameters, and the two-level forms of Tran et al. for the algorithms that have one.
 *
 * Model: Hockney, single-port full-duplex (SUARA, seeds/004 section 4.1): a message of m bytes costs
 * alpha + beta*m and holds its sender's send port and its receiver's receive port; a reduction costs
 * gamma*m.  Where a source's textbook formula assumes something the schedule does not do (which child a
 * tree serves first, whether sends to several children overlap), the form here follows the schedule and
 * says so ("derived from the schedule"); the evaluator (eval.c) is the reference, and tests/unit/test_models.c
 * holds the evaluator and the closed forms of recursive doubling, ring and Rabenseifner allreduce to 1e-9.
 *
 * Sources: SUARA = Nuriyev et al. 2022, seeds/004 Table 1 and eqs. 1-8; Thakur = Thakur, Rabenseifner,
 * Gropp 2005, "Optimization of collective communication operations in MPICH"; PG = Pjesivac-Grbovic et al.
 * 2007, "Performance analysis of MPI collective operations"; Tran = Tran et al., seeds/001 section 2.2.
 */
#include <math.h>
#include <string.h>

#include "cost.h"
#include "pact_models.h"

gboolean pact_model_terms_of(const pact_alg *alg, int P, double m, pact_model_terms *t, const char **source)
{
    const char *src = NULL;
    pact_cost_set(t, 0, 0, 0);
    if (P < 1 || !(m >= 0) || !alg->terms)
        return FALSE;
    gboolean ok = TRUE;
    if (P == 1)
        src = "one rank: nothing moves";
    else if (m == 0 && !pact_coll_dataless(alg->coll))
        src = "nothing to move";
    else
        ok = alg->terms(P, m, t, &src) != 0;
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
    const int L = pact_flog2(P);
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
            if (m / pact_cost_elem(m) < P)
                return FALSE;
            double b = pact_cost_big_block(m, P);
            double s = P > ppn ? fmax(x->ac + x->bc * b, x->ah + x->bh * b) : x->ac + x->bc * b;
            sum = 2.0 * (P - 1) * s + (P - 1) * x->g * b;
        } else if (!strcmp(n, "rabenseifner")) { /* halving at distance 1, 2, ...; doubling back */
            if (m / pact_cost_elem(m) < P)
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
