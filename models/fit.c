/*
 * fit.c - calibration: per-algorithm alpha_a, beta_a and one gamma by least squares over measurements at
 * several P and m (SUARA, seeds/004 section 4.4: "a different pair (alpha_a, beta_a) for a collective
 * algorithm"), from a results.csv of `pact sim`; and the YAML parameter file the other commands read.
 *
 * The regressors are the closed form's terms (closed.c): T = a(P)*alpha_a + b(P,m)*beta_a + c(P,m)*gamma.
 * Residuals are relative (each row divided by the measured time), since times span orders of magnitude.
 * gamma is identifiable only if some algorithm's reduced bytes are not proportional to its moved bytes over
 * its points (Rabenseifner or recursive doubling at P not a power of two, for instance): with ring alone,
 * b = 2c at every point and only 2*beta_a + gamma is determined.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "pact_host.h"
#include "pact_models.h"
#include "pact_results.h"

/* ---- parameter presets ---- */

void pact_model_params_hockney(pact_model_params *m, double alpha, double beta, double gamma)
{
    memset(m, 0, sizeof(*m));
    m->alpha = m->alpha_intra = alpha;
    m->beta = m->beta_intra = beta;
    m->gamma = gamma;
    m->ppn = 1;
    m->eager_limit = PACT_SMPI_EAGER;
    m->net = PACT_NET_PORT;
}

void pact_model_params_platform(pact_model_params *m, const pact_platform *p, int ppn)
{
    pact_export_opts o = {
        .nodes = 0, .ppn = ppn, .mapping = PACT_MAP_BLOCK, .ranks_on = PACT_ON_CORES, .rails = p->rails};
    pact_model_params_export(m, p, &o, NULL);
}

gboolean pact_model_params_export(pact_model_params *m, const pact_platform *p, const pact_export_opts *o,
                                  GError **err)
{
    if (o->ranks_on != PACT_ON_CORES) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "model: %s: ranks on GPUs: the model has no GPU node model (use --engine smpi)", p->name);
        return FALSE;
    }
    /* One flow alone between two nodes: a node link as the export writes it (both rails when they share:
     * one adapter's made the model 8-14% slower than SMPI at 1 MiB on thor 2 x 2), the latency of the
     * shortest route (a dragonfly's: two links through one router). */
    double lat = p->topology == PACT_TOPO_DRAGONFLY ? 2 * p->hop_lat : p->adapter.lat;
    pact_model_params_hockney(m, lat, 1.0 / pact_platform_node_bw(p, o->rails), p->gamma);
    m->alpha_intra = p->shm.lat;
    m->beta_intra = 1.0 / p->shm.bw;
    m->ppn = o->ppn > 1 ? o->ppn : 1;
    m->envelope = PACT_SMPI_ENVELOPE;
    m->net = PACT_NET_SHARED;
    m->mapping = o->mapping;
    m->rails = o->rails;
    m->platform = pact_model_routes_needed(p, o->mapping, o->rails) ? p : NULL;
    return TRUE;
}

gboolean pact_model_params_closed(pact_model_params *m, int P, char **what, GError **err)
{
    *what = NULL;
    if (!m->platform)
        return TRUE;
    pact_export_opts o = {.nodes = P / m->ppn,
                          .ppn = m->ppn,
                          .mapping = m->mapping,
                          .ranks_on = PACT_ON_CORES,
                          .rails = m->rails};
    const pact_model_routes *t = pact_model_routes_get(m->platform, &o, err);
    if (!t)
        return FALSE;
    double lo, mean, hi;
    pact_model_routes_latency(t, &lo, &mean, &hi);
    if (mean > 0)
        m->alpha = mean;
    m->beta = 1.0 / pact_model_routes_capacity(t, 0);
    *what = g_strdup_printf("alpha = mean latency of the %s routes between %d nodes (%.4g .. %.4g s), "
                            "beta = one flow alone on a node link",
                            m->platform->name, o.nodes, lo, hi);
    return TRUE;
}

/* ---- fitted parameter files ---- */

void pact_model_fit_init(pact_model_fit *f)
{
    memset(f, 0, sizeof(*f));
    f->algs = g_array_new(FALSE, TRUE, sizeof(pact_model_fit_alg));
}

void pact_model_fit_clear(pact_model_fit *f)
{
    if (f->algs) {
        for (guint i = 0; i < f->algs->len; i++)
            g_free(g_array_index(f->algs, pact_model_fit_alg, i).alg);
        g_array_free(f->algs, TRUE);
    }
    g_free(f->source);
    memset(f, 0, sizeof(*f));
}

const pact_model_fit_alg *pact_model_fit_find(const pact_model_fit *f, pact_coll coll, const char *alg)
{
    for (guint i = 0; f->algs && i < f->algs->len; i++) {
        const pact_model_fit_alg *a = &g_array_index(f->algs, pact_model_fit_alg, i);
        if (a->coll == coll && !strcmp(a->alg, alg))
            return a;
    }
    return NULL;
}

gboolean pact_model_fit_write(const char *path, const pact_model_fit *f, GError **err)
{
    GString *s =
        g_string_new("# pact model fit: Hockney parameters per algorithm (seconds, seconds per byte)\n");
    if (f->source)
        g_string_append_printf(s, "# fitted from %s\n", f->source);
    g_string_append_printf(s, "gamma: %.17g\nalgorithms:\n", f->gamma);
    for (guint i = 0; i < f->algs->len; i++) {
        const pact_model_fit_alg *a = &g_array_index(f->algs, pact_model_fit_alg, i);
        g_string_append_printf(s,
                               "  - collective: %s\n    algorithm: %s\n    alpha: %.17g\n    beta: %.17g\n"
                               "    r2: %.6f\n    points: %d\n",
                               pact_coll_name(a->coll), a->alg, a->alpha, a->beta, a->r2, a->points);
    }
    GError *e = NULL;
    gboolean ok = g_file_set_contents(path, s->str, (gssize)s->len, &e); /* writes a temporary, renames */
    g_string_free(s, TRUE);
    if (!ok) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
        g_error_free(e);
    }
    return ok;
}

static gboolean bad(GError **err, const char *file, const yaml_node_t *n, const char *field, const char *why)
{
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%lu: %s: %s", file,
                n ? (unsigned long)n->start_mark.line + 1 : 0UL, field, why);
    return FALSE;
}

/* A finite number from a scalar node (the callers check the sign). */
static gboolean yaml_num(const char *file, const yaml_node_t *n, const char *field, double *out, GError **err)
{
    if (n->type != YAML_SCALAR_NODE)
        return bad(err, file, n, field, "expected a number");
    const char *t = (const char *)n->data.scalar.value;
    char *end;
    errno = 0;
    double v = g_ascii_strtod(t, &end);
    if (!*t || *end || errno || !isfinite(v))
        return bad(err, file, n, field, "expected a number");
    *out = v;
    return TRUE;
}

static gboolean read_alg(const char *file, yaml_document_t *d, yaml_node_t *n, pact_model_fit *f,
                         GError **err)
{
    if (n->type != YAML_MAPPING_NODE)
        return bad(err, file, n, "algorithms", "expected a mapping per algorithm");
    pact_model_fit_alg a = {0};
    const char *coll = NULL;
    const yaml_node_t *coll_node = n, *alg_node = n;
    int have = 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key), *v = yaml_document_get_node(d, p->value);
        const char *key = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
        double x;
        if (!strcmp(key, "collective") || !strcmp(key, "algorithm")) {
            if (v->type != YAML_SCALAR_NODE)
                return bad(err, file, v, key, "expected a name");
            if (!strcmp(key, "collective")) {
                coll = (const char *)v->data.scalar.value;
                coll_node = v;
                have |= 1;
            } else {
                a.alg = (char *)v->data.scalar.value;
                alg_node = v;
                have |= 2;
            }
        } else if (!strcmp(key, "alpha") || !strcmp(key, "beta") || !strcmp(key, "r2") ||
                   !strcmp(key, "points")) {
            if (!yaml_num(file, v, key, &x, err))
                return FALSE;
            if (x < 0 && strcmp(key, "r2")) /* costs: a negative one predicts nothing (R^2 may be < 0) */
                return bad(err, file, v, key, "negative; expected a number >= 0");
            if (!strcmp(key, "alpha")) {
                a.alpha = x;
                have |= 4;
            } else if (!strcmp(key, "beta")) {
                a.beta = x;
                have |= 8;
            } else if (!strcmp(key, "r2")) {
                a.r2 = x;
            } else {
                a.points = (int)x;
            }
        } else {
            return bad(err, file, k, key, "unknown field (collective, algorithm, alpha, beta, r2, points)");
        }
    }
    if ((have & 15) != 15)
        return bad(err, file, n, "algorithms", "each entry needs collective, algorithm, alpha and beta");
    int c = pact_coll_from_name(coll);
    if (c < 0)
        return bad(err, file, coll_node, "collective", "unknown collective");
    if (!pact_alg_find((pact_coll)c, a.alg))
        return bad(err, file, alg_node, "algorithm", "unknown algorithm (pact list algorithms)");
    a.coll = (pact_coll)c;
    a.alg = g_strdup(a.alg);
    g_array_append_val(f->algs, a);
    return TRUE;
}

gboolean pact_model_fit_read(const char *path, pact_model_fit *f, GError **err)
{
    gsize len = 0;
    g_autofree char *text = pact_read_file(path, &len, err);
    if (!text)
        return FALSE;
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%lu: %s", path,
                    (unsigned long)parser.problem_mark.line + 1,
                    parser.problem ? parser.problem : "bad YAML");
        yaml_parser_delete(&parser);
        return FALSE;
    }
    yaml_parser_delete(&parser);
    gboolean ok = FALSE;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    pact_model_fit_init(f);
    f->source = g_strdup(path);
    if (!root || root->type != YAML_MAPPING_NODE) {
        bad(err, path, root, "file", "expected a mapping with gamma and algorithms");
        goto out;
    }
    int have = 0;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&doc, p->key), *v = yaml_document_get_node(&doc, p->value);
        const char *key = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
        if (!strcmp(key, "gamma")) {
            if (!yaml_num(path, v, "gamma", &f->gamma, err))
                goto out;
            if (f->gamma < 0) {
                bad(err, path, v, "gamma", "negative; expected a number >= 0");
                goto out;
            }
            have |= 1;
        } else if (!strcmp(key, "algorithms")) {
            if (v->type != YAML_SEQUENCE_NODE) {
                bad(err, path, v, "algorithms", "expected a list");
                goto out;
            }
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
                if (!read_alg(path, &doc, yaml_document_get_node(&doc, *it), f, err))
                    goto out;
            have |= 2;
        } else {
            bad(err, path, k, key, "unknown field (gamma, algorithms)");
            goto out;
        }
    }
    if (have != 3) {
        bad(err, path, root, have & 1 ? "algorithms" : "gamma", "missing");
        goto out;
    }
    ok = TRUE;
out:
    yaml_document_delete(&doc);
    if (!ok)
        pact_model_fit_clear(f);
    return ok;
}

/* ---- measurements ---- */

typedef struct {
    GArray *pts;
    const char *path;
} points_t;

/* A no_delay row with status ok of a pact sim results.csv: one point (P, m, d^) of a pact algorithm. */
static gboolean add_point(const pact_result_row *r, const char *line, int lineno, gpointer user, GError **err)
{
    points_t *x = user;
    (void)line;
    int c = pact_coll_from_name(r->coll);
    if (c < 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: collective: unknown '%s'", x->path, lineno,
                    r->coll);
        return FALSE;
    }
    if (strcmp(r->pattern, "no_delay") || strcmp(r->status, "ok"))
        return TRUE;
    if (strchr(r->alg, ':')) /* SimGrid's built-ins and parameter overrides: no closed form */
        return TRUE;
    const pact_alg *a = pact_alg_find((pact_coll)c, r->alg);
    if (!a) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: algorithm: unknown %s algorithm '%s'", x->path,
                    lineno, r->coll, r->alg);
        return FALSE;
    }
    pact_model_terms t;
    if (!pact_model_terms_of(a, r->procs, (double)r->bytes, &t, NULL))
        return TRUE; /* no closed form to fit there (MPICH's smp compositions: their cost follows the nodes) */
    pact_model_point p = {a, r->procs, (double)r->bytes, r->last, lineno};
    g_array_append_val(x->pts, p);
    return TRUE;
}

GArray *pact_model_points_read(const char *path, GError **err)
{
    gsize len = 0;
    g_autofree char *text = pact_read_file(path, &len, err);
    if (!text)
        return NULL;
    points_t x = {g_array_new(FALSE, FALSE, sizeof(pact_model_point)), path};
    if (!pact_results_parse(text, len, path, FALSE, add_point, &x, err)) {
        g_array_free(x.pts, TRUE);
        return NULL;
    }
    return x.pts;
}

/* ---- least squares ---- */

/* Solves the n x n system A x = y in place by Gaussian elimination with partial pivoting; FALSE if singular.
 */
static gboolean solve(double *A, double *y, int n)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (fabs(A[i * n + k]) > fabs(A[p * n + k]))
                p = i;
        if (!(fabs(A[p * n + k]) > 1e-300))
            return FALSE;
        if (p != k) {
            for (int j = 0; j < n; j++) {
                double t = A[k * n + j];
                A[k * n + j] = A[p * n + j];
                A[p * n + j] = t;
            }
            double t = y[k];
            y[k] = y[p];
            y[p] = t;
        }
        for (int i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (int j = k; j < n; j++)
                A[i * n + j] -= f * A[k * n + j];
            y[i] -= f * y[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        for (int j = k + 1; j < n; j++)
            y[k] -= A[k * n + j] * y[j];
        y[k] /= A[k * n + k];
    }
    return TRUE;
}

/* Non-negative least squares on the normal equations A x = y (A = X'X, y = X'b, n x n, A positive definite):
 * Lawson and Hanson's active set (Solving Least Squares Problems, 1974, ch. 23) on the gradient y - A x.
 * Times are sums of non-negative costs, and an unconstrained fit can trade a negative beta against a larger
 * gamma for a good R^2 (cedar 2,4,8 x 8 gave gamma -2e-10): parameters that predict nothing.  The variables
 * are column-scaled to order 1, so absolute tolerances do.  On return x holds the solution. */
static gboolean nnls(const double *A, const double *y, int n, double *x)
{
    gboolean *on = g_new0(gboolean, n), ok = FALSE; /* on: the passive set, free to move */
    double *M = g_new(double, (size_t)n * n + 1), *z = g_new(double, n + 1), *w = g_new(double, n + 1);
    int *idx = g_new(int, n + 1);
    const double tol = 1e-12;
    for (int j = 0; j < n; j++)
        x[j] = 0;
    for (int outer = 0; outer < 3 * n + 3; outer++) {
        int jmax = -1;
        for (int j = 0; j < n; j++) {
            w[j] = y[j];
            for (int k = 0; k < n; k++)
                w[j] -= A[j * n + k] * x[k];
            if (!on[j] && w[j] > tol && (jmax < 0 || w[j] > w[jmax]))
                jmax = j;
        }
        if (jmax < 0) {
            ok = TRUE; /* Kuhn-Tucker: no bound variable would lower the residual by moving up */
            break;
        }
        on[jmax] = TRUE;
        for (int inner = 0; inner < 3 * n + 3; inner++) {
            int np = 0;
            for (int j = 0; j < n; j++)
                if (on[j])
                    idx[np++] = j;
            for (int u = 0; u < np; u++) {
                z[u] = y[idx[u]];
                for (int v = 0; v < np; v++)
                    M[u * np + v] = A[idx[u] * n + idx[v]];
            }
            if (!solve(M, z, np))
                goto out;
            double step = 1;
            for (int u = 0; u < np; u++)
                if (z[u] <= 0) {
                    double xj = x[idx[u]];
                    step = fmin(step, xj / (xj - z[u]));
                }
            for (int u = 0; u < np; u++)
                x[idx[u]] += step * (z[u] - x[idx[u]]);
            if (step >= 1)
                break;
            for (int u = 0; u < np; u++) /* the variables the step stopped at 0 are bound again */
                if (x[idx[u]] <= tol) {
                    x[idx[u]] = 0;
                    on[idx[u]] = FALSE;
                }
        }
    }
out:
    g_free(on);
    g_free(M);
    g_free(z);
    g_free(w);
    g_free(idx);
    return ok;
}

gboolean pact_model_fit_points(const GArray *pts, pact_model_fit *f, GArray *resid, GError **err)
{
    if (!f->algs)
        pact_model_fit_init(f);
    /* Unknowns: (alpha_a, beta_a) per algorithm in order of first appearance, then gamma (if any c != 0). */
    GPtrArray *algs = g_ptr_array_new();
    int *ai = g_new(int, pts->len + 1);
    pact_model_terms *tm = g_new(pact_model_terms, pts->len + 1);
    gboolean any_c = FALSE;
    for (guint i = 0; i < pts->len; i++) {
        const pact_model_point *p = &g_array_index(pts, pact_model_point, i);
        guint k = 0;
        while (k < algs->len && algs->pdata[k] != p->alg)
            k++;
        if (k == algs->len)
            g_ptr_array_add(algs, (gpointer)p->alg);
        ai[i] = (int)k;
        pact_model_terms_of(p->alg, p->P, p->m, &tm[i], NULL);
        any_c = any_c || tm[i].c != 0;
    }
    int na = (int)algs->len, n = 2 * na + (any_c ? 1 : 0);
    /* Column scales keep the normal equations well conditioned (alpha ~ 1e-6, beta ~ 1e-10). */
    double *scale = g_new0(double, n + 1), *A = g_new0(double, (size_t)n *n + 1), *y = g_new0(double, n + 1);
    double *A0 = g_new0(double, (size_t)n * n + 1), *y0 = g_new0(double, n + 1);
    gboolean ok = FALSE;
    if (pts->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "fit: no usable measurements (no_delay rows, status ok)");
        goto out;
    }
    for (guint i = 0; i < pts->len; i++) {
        double w = 1 / fmax(g_array_index(pts, pact_model_point, i).t, 1e-30);
        int k = ai[i];
        scale[2 * k] = fmax(scale[2 * k], fabs(tm[i].a * w));
        scale[2 * k + 1] = fmax(scale[2 * k + 1], fabs(tm[i].b * w));
        if (any_c)
            scale[n - 1] = fmax(scale[n - 1], fabs(tm[i].c * w));
    }
    for (int j = 0; j < n; j++)
        if (scale[j] == 0)
            scale[j] = 1;
    for (guint i = 0; i < pts->len; i++) {
        const pact_model_point *p = &g_array_index(pts, pact_model_point, i);
        double w = 1 / fmax(p->t, 1e-30);
        int idx[3] = {2 * ai[i], 2 * ai[i] + 1, n - 1};
        double row[3] = {tm[i].a * w / scale[idx[0]], tm[i].b * w / scale[idx[1]],
                         any_c ? tm[i].c * w / scale[n - 1] : 0};
        int nr = any_c ? 3 : 2;
        for (int u = 0; u < nr; u++) {
            y[idx[u]] += row[u] * p->t * w;
            for (int v = 0; v < nr; v++)
                A[idx[u] * n + idx[v]] += row[u] * row[v];
        }
    }
    memcpy(A0, A, sizeof(double) * (size_t)n * n);
    memcpy(y0, y, sizeof(double) * (size_t)n);
    if (!solve(A, y, n)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "fit: the parameters are not determined by these measurements (each algorithm needs at "
                    "least two (P, m) points with different shapes)");
        goto out;
    }
    gboolean neg = FALSE;
    for (int j = 0; j < n; j++)
        neg |= y[j] < 0;
    if (neg && !nnls(A0, y0, n, y)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "fit: the non-negative least-squares fit did not converge on these measurements");
        goto out;
    }
    f->gamma = any_c ? y[n - 1] / scale[n - 1] : 0;
    for (int k = 0; k < na; k++) {
        pact_model_fit_alg a = {0};
        const pact_alg *al = algs->pdata[k];
        a.coll = al->coll;
        a.alg = g_strdup(al->name);
        a.alpha = y[2 * k] / scale[2 * k];
        a.beta = y[2 * k + 1] / scale[2 * k + 1];
        double mean = 0, ss_tot = 0, ss_res = 0;
        for (guint i = 0; i < pts->len; i++)
            if (ai[i] == k) {
                mean += g_array_index(pts, pact_model_point, i).t;
                a.points++;
            }
        mean /= a.points;
        for (guint i = 0; i < pts->len; i++)
            if (ai[i] == k) {
                double t = g_array_index(pts, pact_model_point, i).t;
                double mod = tm[i].a * a.alpha + tm[i].b * a.beta + tm[i].c * f->gamma;
                ss_tot += (t - mean) * (t - mean);
                ss_res += (t - mod) * (t - mod);
            }
        a.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
        g_array_append_val(f->algs, a);
    }
    if (resid)
        for (guint i = 0; i < pts->len; i++) {
            const pact_model_point *p = &g_array_index(pts, pact_model_point, i);
            const pact_model_fit_alg *a = &g_array_index(f->algs, pact_model_fit_alg, (guint)ai[i]);
            double mod = tm[i].a * a->alpha + tm[i].b * a->beta + tm[i].c * f->gamma;
            double r = p->t > 0 ? mod / p->t - 1 : 0;
            g_array_append_val(resid, r);
        }
    ok = TRUE;
out:
    g_free(scale);
    g_free(A);
    g_free(y);
    g_free(A0);
    g_free(y0);
    g_free(ai);
    g_free(tm);
    g_ptr_array_free(algs, TRUE);
    return ok;
}
