/*
 * pact_objectives.h - what "best" means when processes do not arrive together (Salimi Beni, Cosenza and
 * Hunold, seeds/002 sections IV-V), over one table of mean d^ (last delay) per algorithm and arrival pattern
 * at one size.  pact report draws the seeds' figures with them; pact tune builds its selection tables with
 * them.  Host side, plain C (layer 5: tuner/objectives sits below the report that uses it).
 *
 *   best(p)          the algorithm of least d^ under pattern p (ties: better only beyond a relative 1e-9,
 *                    else the first listed wins: schedules that coincide differ in the last bits)
 *   no-delay choice  best(no_delay): what a library tuned on synchronized benchmarks picks (Fig. 4)
 *   robustness(a,p)  d^_p / d^_no_delay - 1 of one algorithm, in % (Fig. 6)
 *   normalized(a,p)  d^ of a under p over d^ of best(p) (Fig. 8's rows)
 *   score(a)         the mean of normalized(a, p) over the patterns (Fig. 8's "Average"): the `robust`
 *                    objective, lowest wins
 *   regret(a)        the largest normalized(a, p) over the patterns: the minimax-regret objective
 */
#ifndef PACT_OBJECTIVES_H
#define PACT_OBJECTIVES_H

#include <stddef.h>

#define PACT_OBJ_NONE ((unsigned)-1)

/* d^ of algorithm a under pattern p is d[a * stride + p] (NAN: it did not run there). */
typedef struct {
    unsigned na, np;
    const double *d;
    size_t stride;
    int nd; /* the no_delay pattern's index, -1: none */
} pact_obj_table;

static inline double pact_obj_at(const pact_obj_table *t, unsigned a, unsigned p)
{
    return t->d[a * t->stride + p];
}

/* m strictly better than best beyond rounding (best may be INFINITY). */
int pact_obj_better(double m, double best);
/* best(p), or PACT_OBJ_NONE when nothing ran under p; `except` (PACT_OBJ_NONE for none) is left out, so
 * pact_obj_best(t, p, pact_obj_best(t, p, NONE)) is the runner-up. */
unsigned pact_obj_best(const pact_obj_table *t, unsigned p, unsigned except);
/* The no-delay choice, PACT_OBJ_NONE without a no_delay pattern. */
unsigned pact_obj_choice(const pact_obj_table *t);
double pact_obj_robustness(const pact_obj_table *t, unsigned a, unsigned p);
double pact_obj_normalized(const pact_obj_table *t, unsigned a, unsigned p);
/* m / best as the normalized time counts it (best 0: 1 for m 0, else infinity). */
double pact_obj_ratio(double m, double best);
/* score(a) and regret(a) over the patterns where anything ran; NAN when a lacks one of them (*missing, if
 * not NULL, gets the first such pattern, else PACT_OBJ_NONE). */
double pact_obj_score(const pact_obj_table *t, unsigned a, unsigned *missing);
double pact_obj_regret(const pact_obj_table *t, unsigned a, unsigned *missing);
/* 1 + the number of algorithms with a better value (equal values share a rank); 0 for NAN. */
int pact_obj_rank(const double *value, unsigned n, unsigned a);

#endif
