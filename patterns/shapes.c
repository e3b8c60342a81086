/* shapes.c - the artificial arrival patterns (Salimi Beni et al., Fig. 3; names are ours). */
#include "pact_patterns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pact_host.h"

typedef struct {
    const char *name;
    const char *what;
} shape_desc;

static const shape_desc shapes[] = {
    {"no_delay", "every rank arrives at once"},
    {"ascending", "d_i = s*i/(p-1): rank 0 first, the last rank latest"},
    {"descending", "d_i = s*(p-1-i)/(p-1): the last rank first"},
    {"first_delayed", "rank 0 arrives s late, the others at once"},
    {"last_delayed", "rank p-1 arrives s late, the others at once"},
    {"middle_delayed", "a mountain: the middle ranks latest, both ends first (flat for p <= 2)"},
    {"ends_delayed", "a valley: both ends latest, the middle ranks first (flat for p <= 2)"},
    {"half_delayed", "ranks p/2.. arrive s late"},
    {"random", "uniform in [0, s], seeded, rescaled so that max - min = s"},
};

const char *const *pact_pattern_shapes(void)
{
    static const char *names[G_N_ELEMENTS(shapes) + 1];
    for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
        names[i] = shapes[i].name;
    return names;
}

const char *pact_pattern_describe(const char *shape)
{
    for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
        if (strcmp(shapes[i].name, shape) == 0)
            return shapes[i].what;
    return NULL;
}

gboolean pact_pattern_gen(const char *shape, int p, double skew, guint64 seed, double *d, GError **err)
{
    if (!pact_pattern_describe(shape)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "unknown pattern '%s' (pact list patterns)", shape);
        return FALSE;
    }
    if (p < 1 || !(skew >= 0) || !isfinite(skew)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "pattern %s: need p >= 1 and a skew >= 0 (got p=%d, %g)", shape, p, skew);
        return FALSE;
    }
    double last = p > 1 ? (double)(p - 1) : 1.0;
    /* Mountain and valley in integers, |2i - (p-1)|, so both halves are exact mirror images and the
     * extremes are exactly 0 and s for odd and even p alike. */
    int amin = (p - 1) % 2, amax = p - 1;
    for (int i = 0; i < p; i++) {
        int ai = abs(2 * i - (p - 1));
        double span = amax > amin ? (double)(amax - amin) : 1.0;
        if (!strcmp(shape, "ascending"))
            d[i] = p > 1 ? skew * i / last : 0;
        else if (!strcmp(shape, "descending"))
            d[i] = p > 1 ? skew * (p - 1 - i) / last : 0;
        else if (!strcmp(shape, "first_delayed"))
            d[i] = i == 0 && p > 1 ? skew : 0;
        else if (!strcmp(shape, "last_delayed"))
            d[i] = i == p - 1 && p > 1 ? skew : 0;
        else if (!strcmp(shape, "middle_delayed"))
            d[i] = amax > amin ? skew * (amax - ai) / span : 0;
        else if (!strcmp(shape, "ends_delayed"))
            d[i] = amax > amin ? skew * (ai - amin) / span : 0;
        else if (!strcmp(shape, "half_delayed"))
            d[i] = i >= p / 2 && p > 1 ? skew : 0;
        else
            d[i] = 0;
    }
    if (!strcmp(shape, "random") && p > 1) {
        GRand *r = g_rand_new_with_seed((guint32)(seed ^ (seed >> 32)));
        double lo = 1, hi = 0;
        for (int i = 0; i < p; i++) {
            d[i] = g_rand_double(r);
            lo = fmin(lo, d[i]);
            hi = fmax(hi, d[i]);
        }
        g_rand_free(r);
        for (int i = 0; i < p; i++)
            d[i] = hi > lo ? skew * (d[i] - lo) / (hi - lo) : 0;
    }
    return TRUE;
}

gboolean pact_pattern_write(const char *path, const double *d, int p, const char *comment, GError **err)
{
    GString *s = g_string_new(NULL);
    if (comment)
        g_string_append_printf(s, "# %s\n", comment);
    for (int i = 0; i < p; i++)
        g_string_append_printf(s, "%.17g\n", d[i]);
    gboolean ok = g_file_set_contents(path, s->str, (gssize)s->len, err);
    g_string_free(s, TRUE);
    return ok;
}
