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
    /* One flow alone between two nodes: a node link (both rails when they share, export.c's node_bw), the
     * latency of the shortest route (a dragonfly's: two links through one router). */
    double rails = o->rails == PACT_RAILS_SHARING ? p->adapters : 1;
    double lat = p->topology == PACT_TOPO_DRAGONFLY ? 2 * p->hop_lat : p->adapter.lat;
    pact_model_params_hockney(m, lat, 1.0 / (p->adapter.bw * rails), p->gamma);
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

/* The whole file, or NULL with an input error naming it. */
static char *read_text(const char *path, gsize *len, GError **err)
{
    char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    return text;
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

/* A finite number >= 0 from a scalar node. */
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
    g_autofree char *text = read_text(path, &len, err);
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

static const char *const columns[] = {
    "platform",  "nodes",       "ppn",    "procs", "collective", "algorithm",    "bytes",         "pattern",
    "skew_mode", "skew_factor", "skew_s", "rep",   "engine",     "last_delay_s", "total_delay_s", "status"};
enum {
    C_PROCS = 3,
    C_COLL = 4,
    C_ALG = 5,
    C_BYTES = 6,
    C_PATTERN = 7,
    C_LAST = 13,
    C_STATUS = 15,
    NCOL = 16
};

static gboolean csv_num(const char *path, int line, const char *field, const char *t, double *v, GError **err)
{
    char *end;
    errno = 0;
    *v = g_ascii_strtod(t, &end);
    if (!*t || *end || errno || !isfinite(*v) || *v < 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s: '%s' is not a number >= 0", path, line,
                    field, t);
        return FALSE;
    }
    return TRUE;
}

GArray *pact_model_points_read(const char *path, GError **err)
{
    g_autofree char *text = read_text(path, NULL, err);
    if (!text)
        return NULL;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pact_model_point));
    int col[NCOL], ncol = 0;
    for (int i = 0; i < NCOL; i++)
        col[i] = -1;
    for (int ln = 0; lines[ln]; ln++) {
        char *l = g_strstrip(lines[ln]);
        if (!*l || *l == '#')
            continue;
        g_auto(GStrv) f = g_strsplit(l, ",", -1);
        int nf = (int)g_strv_length(f);
        if (ncol == 0) { /* the header */
            for (int j = 0; j < nf; j++) {
                int k = 0;
                while (k < NCOL && strcmp(columns[k], g_strstrip(f[j])))
                    k++;
                if (k == NCOL || col[k] >= 0) {
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s: %s column", path, ln + 1, f[j],
                                k == NCOL ? "unknown" : "repeated");
                    goto fail;
                }
                col[k] = j;
            }
            for (int k = 0; k < NCOL; k++)
                if (col[k] < 0) {
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s: missing column", path, ln + 1,
                                columns[k]);
                    goto fail;
                }
            ncol = nf;
            continue;
        }
        if (nf != ncol) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: row: %d fields, the header has %d", path,
                        ln + 1, nf, ncol);
            goto fail;
        }
        double P, bytes, t;
        if (!csv_num(path, ln + 1, "procs", f[col[C_PROCS]], &P, err) ||
            !csv_num(path, ln + 1, "bytes", f[col[C_BYTES]], &bytes, err))
            goto fail;
        if (P < 1 || P != floor(P) || P > 1e7) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: procs: '%s' is not a process count", path,
                        ln + 1, f[col[C_PROCS]]);
            goto fail;
        }
        const char *an = f[col[C_ALG]], *cn = f[col[C_COLL]];
        int c = pact_coll_from_name(cn);
        if (c < 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: collective: unknown '%s'", path, ln + 1,
                        cn);
            goto fail;
        }
        if (strcmp(f[col[C_PATTERN]], "no_delay") || strcmp(f[col[C_STATUS]], "ok"))
            continue;
        if (strchr(an, ':')) /* SimGrid's built-ins and parameter overrides: no closed form */
            continue;
        const pact_alg *a = pact_alg_find((pact_coll)c, an);
        if (!a) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: algorithm: unknown %s algorithm '%s'",
                        path, ln + 1, cn, an);
            goto fail;
        }
        if (!csv_num(path, ln + 1, "last_delay_s", f[col[C_LAST]], &t, err))
            goto fail;
        pact_model_point p = {a, (int)P, bytes, t, ln + 1};
        g_array_append_val(pts, p);
    }
    if (ncol == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:1: header: missing", path);
        goto fail;
    }
    return pts;
fail:
    g_array_free(pts, TRUE);
    return NULL;
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
    if (!solve(A, y, n)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "fit: the parameters are not determined by these measurements (each algorithm needs at "
                    "least two (P, m) points with different shapes)");
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
    g_free(ai);
    g_free(tm);
    g_ptr_array_free(algs, TRUE);
    return ok;
}
