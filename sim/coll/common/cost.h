/* cost.h - small helpers of the closed-form costs written next to the builders (pact_cost_fn). */
#ifndef PACT_COLL_COST_H
#define PACT_COLL_COST_H

#include <math.h>

#include "pact_coll.h"

/* ceil(log2 n) and floor(log2 n), n >= 1 */
static inline int pact_clog2(int n)
{
    int k = 0;
    while ((1L << k) < n)
        k++;
    return k;
}

static inline int pact_flog2(int n)
{
    int k = 0;
    while ((2L << k) <= n)
        k++;
    return k;
}

static inline void pact_cost_set(pact_cost *t, double a, double b, double c)
{
    t->a = a;
    t->b = b;
    t->c = c;
}

/* Element size the model's cells use (pact_model_cell): doubles when m allows, else bytes. */
static inline double pact_cost_elem(double m)
{
    return fmod(m, 8) == 0 ? 8 : 1;
}

/* Bytes of the largest of P blocks (the first count mod P one element longer, Open MPI's block split). */
static inline double pact_cost_big_block(double m, int P)
{
    double es = pact_cost_elem(m), n = m / es;
    return ceil(n / P) * es;
}

#endif
