/* objectives.c - best, robustness, normalized time, score and regret over a table of d^ (pact_objectives.h). */
#include "pact_objectives.h"

#include <math.h>

int pact_obj_better(double m, double best)
{
    return !isnan(m) && (isinf(best) || m < best * (1 - 1e-9));
}

unsigned pact_obj_best(const pact_obj_table *t, unsigned p, unsigned except)
{
    unsigned best_a = PACT_OBJ_NONE;
    double best = INFINITY;
    for (unsigned a = 0; a < t->na; a++)
        if (a != except && pact_obj_better(pact_obj_at(t, a, p), best)) {
            best = pact_obj_at(t, a, p);
            best_a = a;
        }
    return best_a;
}

unsigned pact_obj_choice(const pact_obj_table *t)
{
    return t->nd < 0 ? PACT_OBJ_NONE : pact_obj_best(t, (unsigned)t->nd, PACT_OBJ_NONE);
}

double pact_obj_robustness(const pact_obj_table *t, unsigned a, unsigned p)
{
    if (t->nd < 0)
        return NAN;
    double ref = pact_obj_at(t, a, (unsigned)t->nd), m = pact_obj_at(t, a, p);
    return ref > 0 && !isnan(m) ? (m / ref - 1) * 100 : NAN;
}

double pact_obj_normalized(const pact_obj_table *t, unsigned a, unsigned p)
{
    unsigned b = pact_obj_best(t, p, PACT_OBJ_NONE);
    double m = pact_obj_at(t, a, p);
    if (b == PACT_OBJ_NONE || isnan(m))
        return NAN;
    return pact_obj_ratio(m, pact_obj_at(t, b, p));
}

double pact_obj_ratio(double m, double best)
{
    return best > 0 ? m / best : m > 0 ? INFINITY : 1;
}

/* The mean (or, with `worst`, the largest) normalized time of a over the patterns where anything ran. */
static double over_patterns(const pact_obj_table *t, unsigned a, int worst, unsigned *missing)
{
    double acc = 0;
    int n = 0;
    unsigned miss = PACT_OBJ_NONE;
    for (unsigned p = 0; p < t->np; p++) {
        if (pact_obj_best(t, p, PACT_OBJ_NONE) == PACT_OBJ_NONE)
            continue;
        double v = pact_obj_normalized(t, a, p);
        if (isnan(v)) {
            if (miss == PACT_OBJ_NONE)
                miss = p;
            continue;
        }
        acc = worst ? fmax(acc, v) : acc + v;
        n++;
    }
    if (missing)
        *missing = miss;
    return miss == PACT_OBJ_NONE && n ? (worst ? acc : acc / n) : NAN;
}

double pact_obj_score(const pact_obj_table *t, unsigned a, unsigned *missing)
{
    return over_patterns(t, a, 0, missing);
}

double pact_obj_regret(const pact_obj_table *t, unsigned a, unsigned *missing)
{
    return over_patterns(t, a, 1, missing);
}

int pact_obj_rank(const double *value, unsigned n, unsigned a)
{
    if (isnan(value[a]))
        return 0;
    int r = 1;
    for (unsigned b = 0; b < n; b++)
        r += b != a && pact_obj_better(value[b], value[a]);
    return r;
}
