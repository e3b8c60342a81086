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
