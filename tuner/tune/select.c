/*
 * select.c - the tuner's objectives over one cell's d^ table (candidates x patterns), on top of
 * tuner/objectives (normalized d^, score, regret): pact_tune.h says what each objective minimizes.
 */
#include <math.h>

#include "pact_objectives.h"
#include "pact_tune.h"

double pact_tune_value(pact_tune_objective o, const double *d, unsigned na, unsigned np, int nd, const double *w,
                       unsigned a)
{
    pact_obj_table t = {.na = na, .np = np, .d = d, .stride = np, .nd = nd};
    switch (o) {
    case PACT_TUNE_NO_DELAY:
        return nd >= 0 ? pact_obj_at(&t, a, (unsigned)nd) : NAN;
    case PACT_TUNE_ROBUST:
        return pact_obj_score(&t, a, NULL);
    case PACT_TUNE_REGRET:
        return pact_obj_regret(&t, a, NULL);
    case PACT_TUNE_EXPECTED: {
        double sum = 0, wsum = 0;
        for (unsigned p = 0; p < np; p++) {
            double wp = w ? w[p] : 1.0;
            if (wp == 0)
                continue;
            double v = pact_obj_at(&t, a, p);
            if (isnan(v))
                return NAN;
            sum += wp * v;
            wsum += wp;
        }
        return wsum > 0 ? sum / wsum : NAN;
    }
    }
    return NAN;
}

unsigned pact_tune_pick(pact_tune_objective o, const double *d, unsigned na, unsigned np, int nd, const double *w,
                        const gboolean *allowed, unsigned except, double *value)
{
    unsigned best = PACT_OBJ_NONE;
    double bv = INFINITY;
    for (unsigned a = 0; a < na; a++) {
        if (a == except || (allowed && !allowed[a]))
            continue;
        double v = pact_tune_value(o, d, na, np, nd, w, a);
        if (!isnan(v) && pact_obj_better(v, bv)) {
            best = a;
            bv = v;
        }
    }
    if (value)
        *value = best == PACT_OBJ_NONE ? NAN : bv;
    return best;
}

/* A lower bound of candidate a's objective value from x (its known d^ or its bounds), against `best` (the
 * least known d^ per pattern, INFINITY: none yet, which is never less than the final one): INFINITY when a
 * can never be picked (a pattern it failed under). */
static double value_bound(pact_tune_objective o, const double *w, unsigned np, int nd, const double *x,
                          const double *best)
{
    double acc = 0, wsum = 0;
    unsigned n = 0;
    for (unsigned p = 0; p < np; p++) {
        if (o == PACT_TUNE_NO_DELAY && (int)p != nd)
            continue;
        if (o == PACT_TUNE_EXPECTED && w && w[p] == 0)
            continue;
        if ((o == PACT_TUNE_ROBUST || o == PACT_TUNE_REGRET) && isinf(best[p]))
            continue; /* nothing ran there yet: no bound from it */
        if (isnan(x[p]))
            return INFINITY;
        switch (o) {
        case PACT_TUNE_NO_DELAY:
            return x[p];
        case PACT_TUNE_ROBUST:
            acc += pact_obj_ratio(x[p], best[p]);
            n++;
            break;
        case PACT_TUNE_REGRET:
            acc = fmax(acc, pact_obj_ratio(x[p], best[p]));
            n++;
            break;
        case PACT_TUNE_EXPECTED:
            acc += (w ? w[p] : 1.0) * x[p];
            wsum += w ? w[p] : 1.0;
            break;
        }
    }
    if (o == PACT_TUNE_ROBUST)
        return n ? acc / n : 0;
    if (o == PACT_TUNE_EXPECTED)
        return wsum > 0 ? acc / wsum : 0;
    return acc;
}

static int cmp_est(const void *a, const void *b, void *v)
{
    const double *e = v;
    double x = e[*(const unsigned *)a], y = e[*(const unsigned *)b];
    return x < y ? -1 : x > y ? 1 : (int)(*(const unsigned *)a) - (int)(*(const unsigned *)b);
}

void pact_tune_prune(pact_tune_objective o, const double *w, unsigned keep, unsigned na, unsigned np, int nd,
                     const double *d, const double *lb, const guint8 *known, guint8 *need)
{
    const double M = 1 + 1e-6;
    const size_t n = (size_t)na * np;
    double *dk = g_new(double, n), *x = g_new(double, n), *best = g_new(double, np), *v = g_new(double, na);
    gboolean *full = g_new(gboolean, na);
    for (size_t i = 0; i < n; i++) {
        dk[i] = known[i] ? d[i] : NAN;
        x[i] = known[i] ? d[i] : lb[i];
    }
    for (unsigned p = 0; p < np; p++) {
        best[p] = INFINITY;
        for (unsigned a = 0; a < na; a++)
            if (known[a * np + p] && !isnan(d[a * np + p]))
                best[p] = fmin(best[p], d[a * np + p]);
    }
    for (unsigned a = 0; a < na; a++) {
        full[a] = TRUE;
        for (unsigned p = 0; p < np; p++)
            full[a] &= known[a * np + p] != 0;
        v[a] = full[a] ? pact_tune_value(o, dk, na, np, nd, w, a) : NAN;
    }
    /* the keep-th best value of the candidates known everywhere */
    unsigned *order = g_new(unsigned, na), m = 0;
    for (unsigned a = 0; a < na; a++)
        if (full[a] && !isnan(v[a]))
            order[m++] = a;
    g_qsort_with_data(order, (gint)m, sizeof(unsigned), cmp_est, v);
    const unsigned nfull = m; /* known everywhere, with a value */
    const double vk = keep > 0 && nfull >= keep ? v[order[keep - 1]] : INFINITY;
    const unsigned ndc =
        nd >= 0 ? pact_tune_pick(PACT_TUNE_NO_DELAY, dk, na, np, nd, NULL, NULL, PACT_OBJ_NONE, NULL)
                : PACT_OBJ_NONE;
    /* first call, before any bound: the no-delay choice and the next candidates by no-delay d^, until keep
     * are known everywhere; later ones evaluate what cannot be ruled out, pattern by pattern */
    gboolean seeding = FALSE;
    for (size_t i = 0; i < n; i++)
        seeding |= !known[i] && isnan(lb[i]);
    if (seeding) {
        double *est = g_new(double, na);
        m = 0;
        for (unsigned a = 0; a < na; a++) {
            est[a] = nd >= 0 && known[a * np + nd] && !isnan(d[a * np + nd]) ? d[a * np + nd] : INFINITY;
            if (!full[a])
                order[m++] = a;
        }
        g_qsort_with_data(order, (gint)m, sizeof(unsigned), cmp_est, est);
        for (unsigned i = 0, have = nfull; i < m; i++) {
            unsigned a = order[i];
            if (a != ndc && (have >= keep || isinf(est[a])))
                continue;
            for (unsigned p = 0; p < np; p++)
                need[a * np + p] = !known[a * np + p];
            have++;
        }
        g_free(est);
    } else {
        for (unsigned a = 0; a < na; a++) {
            if (full[a])
                continue;
            /* it may be the choice or the runner-up: all of it; else only where it may be the best */
            double lv = value_bound(o, w, np, nd, x + (size_t)a * np, best);
            gboolean pick = a == ndc || isinf(vk) || !(isinf(lv) || lv > vk * M);
            for (unsigned p = 0; p < np; p++)
                need[a * np + p] =
                    !known[a * np + p] && (pick || !(pact_obj_ratio(lb[a * np + p], best[p]) > M));
        }
    }
    g_free(order);
    g_free(dk);
    g_free(x);
    g_free(best);
    g_free(v);
    g_free(full);
}
