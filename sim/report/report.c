/*
 * report.c - summary.txt and figures from a results.csv alone (pact report, and pact sim after a sweep).
 *
 * Definitions, all on d^ = max(e_i) - max(a_i), the last delay of Salimi Beni et al. (Eq. 2), averaged over
 * the repetitions of a cell that ran (status ok or wrong):
 *   - no-delay choice(m): the best algorithm under no_delay at size m, what a library tuned on synchronized
 *     micro-benchmarks picks (Fig. 4, "a decision logic based on the no_delay case").
 *   - best(m, k): the algorithm of least d^ under pattern k; shown with d^_best / d^_choice under the same
 *     pattern k (Fig. 4's number in each cell; 1 in the no_delay row).
 *   - within 5%: algorithms at most 5% slower than best(m, k), which Fig. 5 treats as indistinguishable.
 *   - robustness(a, m, k) = d^_k / d^_no_delay - 1 of one algorithm (Fig. 6); beyond -25% it absorbs the
 *     skew (green), beyond +25% it suffers (red), within +-25% no significant impact (grey).
 *   - score(a, m): per pattern k, d^ of a over d^ of the fastest algorithm under k (Fig. 8's rows, 1 = the
 *     fastest), averaged over all patterns of the study, no_delay included (Fig. 8's last row, "Average");
 *     the lowest is the most robust choice (Section V-C).
 * Ties: an algorithm must be better by more than a relative 1e-9 (better()), else the one that appears
 * first in the CSV wins.  Sizes are reported in ascending order, patterns in CSV order with no_delay first.
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pact_host.h"
#include "pact_results.h"
#include "report_int.h"

static void study_free(gpointer data)
{
    study_t *s = data;
    g_free(s->platform);
    g_free(s->coll);
    g_free(s->engine);
    g_free(s->stem);
    g_ptr_array_unref(s->algs);
    g_ptr_array_unref(s->pats);
    g_hash_table_unref(s->alg_ix);
    g_hash_table_unref(s->pat_ix);
    g_array_unref(s->rows);
    g_ptr_array_unref(s->skews);
    g_ptr_array_unref(s->statuses);
    g_array_unref(s->status_n);
    g_ptr_array_unref(s->why);
    if (s->sizes)
        g_array_unref(s->sizes);
    g_free(s->mean);
    g_free(s->lo);
    g_free(s->hi);
    g_free(s->restr);
    g_free(s->skew);
    g_free(s);
}

void pact_report_free(pact_report *r)
{
    if (!r)
        return;
    g_ptr_array_unref(r->studies);
    g_free(r);
}

/* ---- reading ------------------------------------------------------------------------------------------- */

static guint intern(GPtrArray *names, GHashTable *ix, const char *name)
{
    guint i = GPOINTER_TO_UINT(g_hash_table_lookup(ix, name));
    if (i)
        return i - 1;
    g_ptr_array_add(names, g_strdup(name));
    g_hash_table_insert(ix, names->pdata[names->len - 1], GUINT_TO_POINTER(names->len));
    return names->len - 1;
}

static study_t *study_new(const pact_result_row *row)
{
    study_t *s = g_new0(study_t, 1);
    s->platform = g_strdup(row->platform);
    s->coll = g_strdup(row->coll);
    s->engine = g_strdup(row->engine);
    s->nodes = row->nodes;
    s->ppn = row->ppn;
    s->procs = row->procs;
    s->algs = g_ptr_array_new_with_free_func(g_free);
    s->pats = g_ptr_array_new_with_free_func(g_free);
    s->alg_ix = g_hash_table_new(g_str_hash, g_str_equal);
    s->pat_ix = g_hash_table_new(g_str_hash, g_str_equal);
    s->rows = g_array_new(FALSE, FALSE, sizeof(row_t));
    s->skews = g_ptr_array_new_with_free_func(g_free);
    s->statuses = g_ptr_array_new_with_free_func(g_free);
    s->status_n = g_array_new(FALSE, TRUE, sizeof(int));
    s->why = g_ptr_array_new_with_free_func(g_free);
    return s;
}

/* One data row into its study, found by (platform, nodes, ppn, procs, collective, engine). */
static gboolean add_row(const pact_result_row *x, const char *line, int lineno, gpointer user, GError **err)
{
    pact_report *r = ((gpointer *)user)[0];
    GHashTable *by_key = ((gpointer *)user)[1];
    const char *const *f = x->field;
    (void)line, (void)lineno, (void)err;
    g_autofree char *word = g_strndup(x->status, strcspn(x->status, ":"));
    gboolean ran = !strcmp(word, "ok") || !strcmp(word, "wrong");
    g_autofree char *key = g_strjoin("\x1f", x->platform, f[PACT_COL_NODES], f[PACT_COL_PPN], f[PACT_COL_PROCS],
                                     x->coll, x->engine, NULL);
    study_t *s = g_hash_table_lookup(by_key, key);
    if (!s) {
        s = study_new(x);
        g_ptr_array_add(r->studies, s);
        g_hash_table_insert(by_key, g_steal_pointer(&key), s);
    }
    row_t row = {.alg = intern(s->algs, s->alg_ix, x->alg),
                 .pat = intern(s->pats, s->pat_ix, x->pattern),
                 .bytes = x->bytes,
                 .last = x->last,
                 .skew = x->skew_s,
                 .ran = ran,
                 .restricted = !strcmp(word, "restricted")};
    g_array_append_val(s->rows, row);
    while (s->why->len < s->algs->len)
        g_ptr_array_add(s->why, NULL);
    if (row.restricted && !s->why->pdata[row.alg])
        s->why->pdata[row.alg] = g_strdup(x->status[strlen(word)] ? x->status + strlen(word) + 1 : "");
    if (strcmp(x->pattern, "no_delay")) {
        g_autofree char *sk = !strcmp(x->skew_mode, "absolute") || isnan(x->skew_factor)
                                  ? g_strdup(x->skew_mode)
                                  : g_strdup_printf("%s x %s", x->skew_mode, f[PACT_COL_SKEW_FACTOR]);
        guint i;
        if (!g_ptr_array_find_with_equal_func(s->skews, sk, g_str_equal, &i))
            g_ptr_array_add(s->skews, g_steal_pointer(&sk));
    }
    if (strcmp(word, "ok") && !row.restricted) {
        guint i;
        if (!g_ptr_array_find_with_equal_func(s->statuses, word, g_str_equal, &i)) {
            i = s->statuses->len;
            g_ptr_array_add(s->statuses, g_strdup(word));
            g_array_set_size(s->status_n, s->statuses->len);
        }
        g_array_index(s->status_n, int, i)++;
    }
    return TRUE;
}

static int cmp_u64(gconstpointer a, gconstpointer b)
{
    guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
    return x < y ? -1 : x > y;
}

/* Sorted sizes, no_delay first, and the dense tables of means, all from the rows in CSV order. */
static void study_finish(study_t *s)
{
    s->sizes = g_array_new(FALSE, FALSE, sizeof(guint64));
    g_autoptr(GHashTable) seen = g_hash_table_new(g_int64_hash, g_int64_equal);
    for (guint i = 0; i < s->rows->len; i++) {
        row_t *w = &g_array_index(s->rows, row_t, i);
        if (g_hash_table_add(seen, &w->bytes))
            g_array_append_val(s->sizes, w->bytes);
    }
    g_array_sort(s->sizes, cmp_u64);

    /* no_delay first: the reference of every other pattern, and Fig. 4's reference row */
    guint np = s->pats->len;
    g_autofree guint *to = g_new(guint, np);
    guint nd = GPOINTER_TO_UINT(g_hash_table_lookup(s->pat_ix, "no_delay"));
    for (guint p = 0, k = nd ? 1 : 0; p < np; p++)
        to[p] = nd && p == nd - 1 ? 0 : k++;
    GPtrArray *pats = g_ptr_array_new_full(np, g_free);
    g_ptr_array_set_size(pats, (gint)np);
    for (guint p = 0; p < np; p++)
        pats->pdata[to[p]] = g_steal_pointer(&s->pats->pdata[p]);
    g_ptr_array_unref(s->pats);
    s->pats = pats;
    g_hash_table_remove_all(s->pat_ix);
    for (guint p = 0; p < np; p++)
        g_hash_table_insert(s->pat_ix, pats->pdata[p], GUINT_TO_POINTER(p + 1));
    s->nd = nd ? 0 : -1;

    s->na = s->algs->len;
    s->nz = s->sizes->len;
    s->np = np;
    gsize n = (gsize)s->na * s->nz * s->np;
    g_autofree double *sum = g_new0(double, n);
    g_autofree int *ran = g_new0(int, n), *rows = g_new0(int, n), *restr = g_new0(int, n);
    s->skew = g_new0(double, (gsize)s->nz * s->np);
    s->lo = g_new(double, n);
    s->hi = g_new(double, n);
    for (gsize k = 0; k < n; k++) {
        s->lo[k] = INFINITY;
        s->hi[k] = -INFINITY;
    }
    for (guint i = 0; i < s->rows->len; i++) {
        row_t *w = &g_array_index(s->rows, row_t, i);
        guint64 *hit = bsearch(&w->bytes, s->sizes->data, s->nz, sizeof(guint64), cmp_u64);
        w->size = (guint)(hit - (guint64 *)s->sizes->data);
        w->pat = to[w->pat];
        gsize k = ix(s, w->alg, w->size, w->pat);
        rows[k]++;
        restr[k] += w->restricted;
        if (w->ran) {
            sum[k] += w->last;
            ran[k]++;
            s->lo[k] = fmin(s->lo[k], w->last);
            s->hi[k] = fmax(s->hi[k], w->last);
        }
        double *sk = &s->skew[(gsize)w->size * s->np + w->pat];
        if (!isnan(w->skew))
            *sk = fmax(*sk, w->skew);
    }
    s->mean = g_new(double, n);
    s->restr = g_new0(guint8, n);
    s->min_reps = G_MAXINT;
    for (gsize k = 0; k < n; k++) {
        s->mean[k] = ran[k] ? sum[k] / ran[k] : NAN;
        if (!ran[k])
            s->lo[k] = s->hi[k] = NAN;
        s->restr[k] = rows[k] && restr[k] == rows[k];
        if (rows[k]) {
            s->min_reps = MIN(s->min_reps, rows[k]);
            s->max_reps = MAX(s->max_reps, rows[k]);
        }
    }
}

/* File names: COLL-PLATFORM-PROCS, then -NODESxPPN and -ENGINE for studies that would share a name. */
static char *stem_at(const study_t *s, int level)
{
    GString *t = g_string_new(NULL);
    g_string_printf(t, "%s-%s-%d", s->coll, s->platform, s->procs);
    if (level >= 1)
        g_string_append_printf(t, "-%dx%d", s->nodes, s->ppn);
    if (level >= 2)
        g_string_append_printf(t, "-%s", s->engine);
    return g_strcanon(g_string_free(t, FALSE), G_CSET_A_2_Z G_CSET_a_2_z G_CSET_DIGITS "._+-", '_');
}

static void name_studies(pact_report *r)
{
    guint n = r->studies->len;
    g_autofree int *level = g_new0(int, n);
    for (gboolean clash = TRUE; clash;) {
        clash = FALSE;
        for (guint i = 0; i < n; i++) {
            study_t *s = r->studies->pdata[i];
            g_free(s->stem);
            s->stem = stem_at(s, level[i]);
        }
        for (guint i = 0; i < n; i++)
            for (guint j = i + 1; j < n; j++) {
                study_t *a = r->studies->pdata[i], *b = r->studies->pdata[j];
                if (strcmp(a->stem, b->stem) || (level[i] == 2 && level[j] == 2))
                    continue; /* both in full: equal only through g_strcanon, left alone */
                level[i] = level[j] = MIN(2, MAX(level[i], level[j]) + 1);
                clash = TRUE;
            }
    }
}

pact_report *pact_report_parse(const char *text, gsize len, const char *name, GError **err)
{
    pact_report *r = g_new0(pact_report, 1);
    r->studies = g_ptr_array_new_with_free_func(study_free);
    g_autoptr(GHashTable) by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gpointer user[2] = {r, by_key};
    if (!pact_results_parse(text, len, name, FALSE, add_row, user, err)) {
        pact_report_free(r);
        return NULL;
    }
    for (guint i = 0; i < r->studies->len; i++)
        study_finish(r->studies->pdata[i]);
    name_studies(r);
    return r;
}

pact_report *pact_report_load(const char *csv_path, GError **err)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!(text = pact_read_file(csv_path, &len, err)))
        return NULL;
    return pact_report_parse(text, len, csv_path, err);
}

gboolean pact_report_dir(const char *dir, gboolean figures, char **summary_text, GError **err)
{
    g_autofree char *csv = g_build_filename(dir, "results.csv", NULL);
    g_autofree char *sum_path = g_build_filename(dir, "summary.txt", NULL);
    pact_report *r = pact_report_load(csv, err);
    if (!r)
        return FALSE;
    g_autofree char *sum = pact_report_summary(r);
    GError *e = NULL;
    gboolean ok = g_file_set_contents(sum_path, sum, -1, &e);
    if (!ok) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
        g_error_free(e);
    }
    if (ok && summary_text)
        *summary_text = g_strdup(sum);
    if (ok && figures)
        ok = pact_report_figures(r, dir, NULL, err);
    pact_report_free(r);
    return ok;
}

