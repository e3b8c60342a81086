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
    {"node_delayed", "every rank of one node (chosen by the seed) arrives s late: a late node"},
    {"two_level", "a delay per node plus a smaller one per rank (node-wide spread 0.25 of the cluster-wide), "
                  "seeded, rescaled to [0, s]"},
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
    if (strcmp(shape, "file") == 0)
        return "one delay per line from a pattern file, or the per-rank mean delay of an arrival trace";
    return NULL;
}

gboolean pact_pattern_uses_nodes(const char *shape)
{
    return !strcmp(shape, "node_delayed") || !strcmp(shape, "two_level");
}

static GRand *rand_for(guint64 seed)
{
    return g_rand_new_with_seed((guint32)(seed ^ (seed >> 32)));
}

/* Shifts d so that its minimum is 0 and scales it so that max - min = skew (all zeros when flat). */
static void span_to(double *d, int p, double skew)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < p; i++) {
        lo = fmin(lo, d[i]);
        hi = fmax(hi, d[i]);
    }
    /* The fraction first: (hi - lo) / (hi - lo) is exactly 1, so the maximum is exactly s. */
    for (int i = 0; i < p; i++)
        d[i] = hi > lo ? skew * ((d[i] - lo) / (hi - lo)) : 0;
}

static int node_of(const pact_pattern_opts *o, int i)
{
    return o->node_of ? o->node_of[i] : i;
}

/* node_delayed and two_level: nodes are numbered by the mapping; only nodes that hold a rank count. */
static gboolean gen_nodes(const char *shape, int p, const pact_pattern_opts *o, double *d, GError **err)
{
    int nn = 0;
    for (int i = 0; i < p; i++) {
        int n = node_of(o, i);
        if (n < 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "pattern %s: rank %d has no node", shape, i);
            return FALSE;
        }
        nn = MAX(nn, n + 1);
    }
    GRand *r = rand_for(o->seed);
    g_autofree double *late = g_new0(double, (gsize)nn);
    g_autofree gboolean *used = g_new0(gboolean, (gsize)nn);
    int nused = 0;
    for (int i = 0; i < p; i++)
        if (!used[node_of(o, i)]) {
            used[node_of(o, i)] = TRUE;
            nused++;
        }
    if (!strcmp(shape, "node_delayed")) {
        /* The k-th node that holds ranks, k uniform: the same seed picks the same node. */
        int k = g_rand_int_range(r, 0, nused), chosen = -1;
        for (int n = 0; n < nn && chosen < 0; n++)
            if (used[n] && k-- == 0)
                chosen = n;
        for (int i = 0; i < p; i++)
            d[i] = node_of(o, i) == chosen && nused > 1 ? o->skew : 0;
    } else {
        double intra = o->intra >= 0 ? o->intra : PACT_TWO_LEVEL_INTRA;
        /* Node offsets span exactly [0, 1] (over the nodes that hold ranks), so that after the final
         * rescaling each node's own spread is at most intra x s: node-wide imbalance is guaranteed to
         * stay below the cluster-wide one, not just likely to. */
        double lo = INFINITY, hi = -INFINITY;
        for (int n = 0; n < nn; n++) {
            late[n] = g_rand_double(r);
            if (used[n]) {
                lo = fmin(lo, late[n]);
                hi = fmax(hi, late[n]);
            }
        }
        for (int n = 0; n < nn; n++)
            late[n] = hi > lo ? (late[n] - lo) / (hi - lo) : 0;
        for (int i = 0; i < p; i++)
            d[i] = late[node_of(o, i)] + intra * g_rand_double(r);
        span_to(d, p, o->skew);
    }
    g_rand_free(r);
    return TRUE;
}

gboolean pact_pattern_gen(const char *shape, int p, const pact_pattern_opts *o, double *d, GError **err)
{
    double skew = o->skew;
    if (!pact_pattern_describe(shape) || !strcmp(shape, "file")) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "unknown pattern '%s' (pact list patterns)", shape);
        return FALSE;
    }
    if (p < 1 || !(skew >= 0) || !isfinite(skew)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "pattern %s: need p >= 1 and a skew >= 0 (got p=%d, %g)", shape, p, skew);
        return FALSE;
    }
    if (o->intra > 1) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "pattern %s: the node-wide fraction must be in [0, 1]",
                    shape);
        return FALSE;
    }
    if (pact_pattern_uses_nodes(shape))
        return gen_nodes(shape, p, o, d, err);
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
        GRand *r = rand_for(o->seed);
        for (int i = 0; i < p; i++)
            d[i] = g_rand_double(r);
        g_rand_free(r);
        span_to(d, p, skew);
    }
    return TRUE;
}
