/* metrics.c - imbalance of an arrival pattern (Alizadeh et al., seed 000, section 2.2, after Faraj et al.).
 */
#include "pact_patterns.h"

#include <math.h>

#include "pact_host.h"

gboolean pact_skew_check(double v, gboolean factor, const char *what, GError **err)
{
    double cap = factor ? PACT_SKEW_FACTOR_MAX : PACT_SKEW_MAX_S;
    if (v <= cap)
        return TRUE;
    const char *unit = factor ? "" : " s";
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                "%s %g%s: at most %g%s, or d^ is lost next to the skew in the simulated clock's double "
                "precision",
                what, v, unit, cap, unit);
    return FALSE;
}

pact_imbalance pact_imbalance_of(const double *a, int p)
{
    pact_imbalance m = {0, 0};
    if (p < 1)
        return m;
    double lo = a[0], hi = a[0], mean = 0;
    for (int i = 0; i < p; i++) {
        lo = fmin(lo, a[i]);
        hi = fmax(hi, a[i]);
        mean += a[i];
    }
    mean /= p;
    for (int i = 0; i < p; i++)
        m.avg += fabs(a[i] - mean);
    m.avg /= p;
    m.worst = hi - lo;
    return m;
}

pact_imbalance pact_imbalance_nodes(const double *a, int p, const int *node_of)
{
    pact_imbalance sum = {0, 0};
    int nn = 0, used = 0;
    for (int i = 0; i < p; i++)
        nn = MAX(nn, node_of[i] + 1);
    g_autofree double *sub = g_new(double, (gsize)p);
    for (int n = 0; n < nn; n++) {
        int k = 0;
        for (int i = 0; i < p; i++)
            if (node_of[i] == n)
                sub[k++] = a[i];
        if (k == 0)
            continue;
        pact_imbalance m = pact_imbalance_of(sub, k);
        sum.worst += m.worst;
        sum.avg += m.avg;
        used++;
    }
    if (used) {
        sum.worst /= used;
        sum.avg /= used;
    }
    return sum;
}
