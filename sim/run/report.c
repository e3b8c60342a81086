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
#include "pact_report.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pact_host.h"

enum { NCOL = 16 };
enum {
    C_PLATFORM,
    C_NODES,
    C_PPN,
    C_PROCS,
    C_COLL,
    C_ALG,
    C_BYTES,
    C_PATTERN,
    C_SKEW_MODE,
    C_SKEW_FACTOR,
    C_SKEW_S,
    C_REP,
    C_ENGINE,
    C_LAST,
    C_TOTAL,
    C_STATUS
};

/* Robustness beyond which Fig. 6 colours a cell, in %; the robustness figure's colour scale stops there. */
#define SIGNIFICANT 25.0
/* Fig. 5: algorithms within 5% of the fastest are as good as the fastest. */
#define NEAR 1.05

typedef struct {
    guint alg, pat, size; /* size: index into the sorted sizes, set by study_finish */
    guint64 bytes;
    double last, skew;
    gboolean ran, restricted;
} row_t;

typedef struct {
    char *platform, *coll, *engine, *stem;
    int nodes, ppn, procs;
    GPtrArray *algs, *pats;      /* names in order of first appearance (pats: no_delay first once finished) */
    GHashTable *alg_ix, *pat_ix; /* name -> index + 1 */
    GArray *rows;                /* row_t in CSV order */
    GPtrArray *skews;            /* "mean_nodelay x 1.5", ... in order of first appearance */
    GPtrArray *statuses;         /* status words other than ok and restricted, first appearance */
    GArray *status_n;            /* int per statuses entry */
    GPtrArray *why;              /* per algorithm: the first restriction reason, or NULL */
    /* set by study_finish */
    GArray *sizes; /* guint64, ascending */
    guint na, nz, np;
    int nd;                 /* index of no_delay in pats, -1 when the study has none */
    double *mean;           /* [a][z][p] mean d^, NAN when no repetition ran */
    guint8 *restr;          /* [a][z][p] rows exist and all are restricted */
    double *skew;           /* [z][p] the largest skew_s */
    int min_reps, max_reps; /* rows per cell that has rows */
} study_t;

struct pact_report {
    GPtrArray *studies; /* study_t, first appearance */
};

static gsize ix(const study_t *s, guint a, guint z, guint p)
{
    return ((gsize)a * s->nz + z) * s->np + p;
}

static double mean_at(const study_t *s, guint a, guint z, guint p)
{
    return s->mean[ix(s, a, z, p)];
}

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

static const char *const colname[NCOL] = {
    "platform",  "nodes",       "ppn",    "procs", "collective", "algorithm",    "bytes",         "pattern",
    "skew_mode", "skew_factor", "skew_s", "rep",   "engine",     "last_delay_s", "total_delay_s", "status"};

typedef struct {
    const char *name;
    int line;
    GError **err;
} where_t;

static gboolean bad(const where_t *w, int col, const char *val, const char *what)
{
    g_set_error(w->err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: column %s: '%s': %s", w->name, w->line,
                colname[col], val, what);
    return FALSE;
}

static gboolean parse_uint(const where_t *w, int col, const char *v, guint64 min, guint64 max, guint64 *out)
{
    if (!g_ascii_string_to_unsigned(v, 10, min, max, out, NULL))
        return bad(w, col, v, min ? "expected a whole number >= 1" : "expected a whole number >= 0");
    return TRUE;
}

/* Seconds: full precision as %.17g writes them, >= 0; empty gives NAN when `empty_ok`. */
static gboolean parse_seconds(const where_t *w, int col, const char *v, gboolean empty_ok, double *out)
{
    char *end;
    if (!*v && empty_ok) {
        *out = NAN;
        return TRUE;
    }
    *out = g_ascii_strtod(v, &end);
    if (!*v || *end || !(*out >= 0) || isinf(*out))
        return bad(w, col, v, "expected seconds, a finite number >= 0");
    return TRUE;
}

static guint intern(GPtrArray *names, GHashTable *ix, const char *name)
{
    guint i = GPOINTER_TO_UINT(g_hash_table_lookup(ix, name));
    if (i)
        return i - 1;
    g_ptr_array_add(names, g_strdup(name));
    g_hash_table_insert(ix, names->pdata[names->len - 1], GUINT_TO_POINTER(names->len));
    return names->len - 1;
}

static study_t *study_new(char **f, int nodes, int ppn, int procs)
{
    study_t *s = g_new0(study_t, 1);
    s->platform = g_strdup(f[C_PLATFORM]);
    s->coll = g_strdup(f[C_COLL]);
    s->engine = g_strdup(f[C_ENGINE]);
    s->nodes = nodes;
    s->ppn = ppn;
    s->procs = procs;
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

/* One data row into its study.  `key` finds the study: (platform, nodes, ppn, procs, collective, engine). */
static gboolean add_row(pact_report *r, GHashTable *by_key, char **f, const where_t *w)
{
    guint64 nodes, ppn, procs, bytes, rep;
    double skew, last, total, factor = NAN;
    static const int named[] = {C_PLATFORM, C_COLL, C_ALG, C_PATTERN, C_SKEW_MODE, C_ENGINE, C_STATUS};
    for (gsize i = 0; i < G_N_ELEMENTS(named); i++)
        if (!*f[named[i]])
            return bad(w, named[i], "", "empty");
    if (!parse_uint(w, C_NODES, f[C_NODES], 1, G_MAXINT, &nodes) ||
        !parse_uint(w, C_PPN, f[C_PPN], 1, G_MAXINT, &ppn) ||
        !parse_uint(w, C_PROCS, f[C_PROCS], 1, G_MAXINT, &procs) ||
        !parse_uint(w, C_BYTES, f[C_BYTES], 0, G_MAXUINT64, &bytes) ||
        !parse_uint(w, C_REP, f[C_REP], 0, G_MAXINT, &rep) ||
        !parse_seconds(w, C_SKEW_FACTOR, f[C_SKEW_FACTOR], TRUE, &factor) ||
        !parse_seconds(w, C_SKEW_S, f[C_SKEW_S], FALSE, &skew) ||
        !parse_seconds(w, C_LAST, f[C_LAST], TRUE, &last) ||
        !parse_seconds(w, C_TOTAL, f[C_TOTAL], TRUE, &total))
        return FALSE;
    (void)rep;
    g_autofree char *word = g_strndup(f[C_STATUS], strcspn(f[C_STATUS], ":"));
    gboolean ran = !strcmp(word, "ok") || !strcmp(word, "wrong");
    if (ran && isnan(last))
        return bad(w, C_LAST, "", "empty, but the status says the call ran");

    g_autofree char *key =
        g_strjoin("\x1f", f[C_PLATFORM], f[C_NODES], f[C_PPN], f[C_PROCS], f[C_COLL], f[C_ENGINE], NULL);
    study_t *s = g_hash_table_lookup(by_key, key);
    if (!s) {
        s = study_new(f, (int)nodes, (int)ppn, (int)procs);
        g_ptr_array_add(r->studies, s);
        g_hash_table_insert(by_key, g_steal_pointer(&key), s);
    }
    row_t row = {.alg = intern(s->algs, s->alg_ix, f[C_ALG]),
                 .pat = intern(s->pats, s->pat_ix, f[C_PATTERN]),
                 .bytes = bytes,
                 .last = last,
                 .skew = skew,
                 .ran = ran,
                 .restricted = !strcmp(word, "restricted")};
    g_array_append_val(s->rows, row);
    while (s->why->len < s->algs->len)
        g_ptr_array_add(s->why, NULL);
    if (row.restricted && !s->why->pdata[row.alg])
        s->why->pdata[row.alg] = g_strdup(f[C_STATUS][strlen(word)] ? f[C_STATUS] + strlen(word) + 1 : "");
    if (strcmp(f[C_PATTERN], "no_delay")) {
        g_autofree char *sk = !strcmp(f[C_SKEW_MODE], "absolute") || isnan(factor)
                                  ? g_strdup(f[C_SKEW_MODE])
                                  : g_strdup_printf("%s x %s", f[C_SKEW_MODE], f[C_SKEW_FACTOR]);
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
    where_t w = {.name = name, .line = 0, .err = err};
    const char *p = text, *end = text + len;
    gboolean header = FALSE;
    while (p < end) {
        const char *nl = memchr(p, '\n', (gsize)(end - p));
        const char *eol = nl ? nl : end;
        g_autofree char *line = g_strndup(p, (gsize)(eol - p));
        p = nl ? nl + 1 : end;
        w.line++;
        g_strchomp(line); /* a CR of CRLF files, trailing blanks */
        if (!header) {
            if (strcmp(line, PACT_RESULTS_HEADER)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s:1: not a pact results.csv: expected the header %s", name,
                            PACT_RESULTS_HEADER);
                goto fail;
            }
            header = TRUE;
            continue;
        }
        if (!*line || !strcmp(line, PACT_RESULTS_HEADER)) /* blank, or the header of a file joined on */
            continue;
        g_auto(GStrv) f = g_strsplit(line, ",", -1);
        guint nf = g_strv_length(f);
        if (nf != NCOL) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %u columns, expected %d (%s)", name,
                        w.line, nf, NCOL, PACT_RESULTS_HEADER);
            goto fail;
        }
        if (!add_row(r, by_key, f, &w))
            goto fail;
    }
    if (!header) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:1: empty file, expected the header %s", name,
                    PACT_RESULTS_HEADER);
        goto fail;
    }
    for (guint i = 0; i < r->studies->len; i++)
        study_finish(r->studies->pdata[i]);
    name_studies(r);
    return r;
fail:
    pact_report_free(r);
    return NULL;
}

pact_report *pact_report_load(const char *csv_path, GError **err)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(csv_path, &text, &len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    return pact_report_parse(text, len, csv_path, err);
}

/* ---- the definitions (see the top of the file) --------------------------------------------------------- */

/* Strictly better beyond rounding: two algorithms whose schedules coincide (ring falls back to recursive
 * doubling below P elements) differ only in the last bits, and then the one listed first wins. */
static gboolean better(double m, double best)
{
    return !isnan(m) && (isinf(best) || m < best * (1 - 1e-9));
}

/* The algorithm of least mean d^ at (size z, pattern p), G_MAXUINT when none ran. */
static guint best_of(const study_t *s, guint z, guint p)
{
    guint best_a = G_MAXUINT;
    double best = INFINITY;
    for (guint a = 0; a < s->na; a++)
        if (better(mean_at(s, a, z, p), best)) {
            best = mean_at(s, a, z, p);
            best_a = a;
        }
    return best_a;
}

/* The second best at (z, p): the least d^ but the best's, G_MAXUINT when fewer than two ran. */
static guint runner_up_of(const study_t *s, guint z, guint p, guint best_a)
{
    guint r = G_MAXUINT;
    double rv = INFINITY;
    for (guint a = 0; a < s->na; a++)
        if (a != best_a && better(mean_at(s, a, z, p), rv)) {
            rv = mean_at(s, a, z, p);
            r = a;
        }
    return r;
}

/* The no-delay choice at size z (Fig. 4's reference), G_MAXUINT without a no_delay pattern. */
static guint choice_of(const study_t *s, guint z)
{
    return s->nd < 0 ? G_MAXUINT : best_of(s, z, (guint)s->nd);
}

/* Fig. 6: d^_k / d^_no_delay - 1 of algorithm a, in %; NAN when either is missing or d^_no_delay is 0. */
static double robustness(const study_t *s, guint a, guint z, guint p)
{
    if (s->nd < 0)
        return NAN;
    double ref = mean_at(s, a, z, (guint)s->nd), m = mean_at(s, a, z, p);
    return ref > 0 && !isnan(m) ? (m / ref - 1) * 100 : NAN;
}

/* Fig. 8: d^ of a under p over d^ of the fastest under p; NAN when a did not run there. */
static double normalized(const study_t *s, guint a, guint z, guint p)
{
    guint b = best_of(s, z, p);
    double m = mean_at(s, a, z, p);
    if (b == G_MAXUINT || isnan(m))
        return NAN;
    double f = mean_at(s, b, z, p);
    return f > 0 ? m / f : m > 0 ? INFINITY : 1;
}

/* Fig. 8's "Average": the mean of normalized() over the patterns where any algorithm ran; NAN when a lacks
 * one of them (a score over fewer patterns would not compare).  *missing names the first pattern lacking. */
static double score_of(const study_t *s, guint a, guint z, guint *missing)
{
    double sum = 0;
    int n = 0;
    *missing = G_MAXUINT;
    for (guint p = 0; p < s->np; p++) {
        if (best_of(s, z, p) == G_MAXUINT)
            continue;
        double v = normalized(s, a, z, p);
        if (isnan(v)) {
            if (*missing == G_MAXUINT)
                *missing = p;
            continue;
        }
        sum += v;
        n++;
    }
    return *missing == G_MAXUINT && n ? sum / n : NAN;
}

/* 1 + the algorithms with a better score: equal scores share a rank.  0 for no score. */
static int rank_of(const double *score, guint na, guint a)
{
    if (isnan(score[a]))
        return 0;
    int r = 1;
    for (guint b = 0; b < na; b++)
        r += b != a && better(score[b], score[a]);
    return r;
}

static guint64 size_at(const study_t *s, guint z)
{
    return g_array_index(s->sizes, guint64, z);
}

/* ---- summary.txt --------------------------------------------------------------------------------------- */

static const char *plural(guint n)
{
    return n == 1 ? "" : "s";
}

static int width_of(GPtrArray *names, int least)
{
    int w = least;
    for (guint i = 0; i < names->len; i++)
        w = MAX(w, (int)strlen(names->pdata[i]));
    return w;
}

static void summary_head(GString *o, const study_t *s)
{
    g_string_append_printf(o, "== %s on %s: %d node%s x %d ppn = %d ranks, engine %s ==\n", s->coll,
                           s->platform, s->nodes, s->nodes == 1 ? "" : "s", s->ppn, s->procs, s->engine);
    g_string_append_printf(o, "%u algorithm%s, %u size%s, %u pattern%s, ", s->na, plural(s->na), s->nz,
                           plural(s->nz), s->np, plural(s->np));
    if (s->min_reps == s->max_reps)
        g_string_append_printf(o, "%d rep%s per cell", s->max_reps, s->max_reps == 1 ? "" : "s");
    else
        g_string_append_printf(o, "%d to %d reps per cell", s->min_reps, s->max_reps);
    g_string_append(o, "; skew: ");
    for (guint i = 0; i < s->skews->len; i++)
        g_string_append_printf(o, "%s%s", i ? ", " : "", (char *)s->skews->pdata[i]);
    g_string_append_printf(o, "%s\n", s->skews->len ? "" : "none");
    /* A factor's skew depends on the study (1.5 x the mean no-delay d^ was 4.68 ms on cedar, 11x ring's own
     * time): the seconds it came to, per size, the largest over the size's cells. */
    if (s->skews->len) {
        g_string_append(o, "skew in us per size:");
        for (guint z = 0; z < s->nz; z++) {
            double k = 0;
            for (guint p = 0; p < s->np; p++)
                k = fmax(k, s->skew[(gsize)z * s->np + p]);
            g_string_append_printf(o, "%s %" G_GUINT64_FORMAT " B %.3f", z ? "," : "", size_at(s, z),
                                   k * 1e6);
        }
        g_string_append_c(o, '\n');
    }
    g_string_append(
        o, "d^ = time from the last arrival to the last exit (Salimi Beni et al., Eq. 2), in microseconds,\n"
           "the mean over the reps that ran (status ok or wrong)\n");
}

/* Fig. 4 (and Fig. 5's 5% margin) as a table. */
static void summary_best(GString *o, const study_t *s)
{
    int pw = width_of(s->pats, 8), aw = width_of(s->algs, 15);
    g_string_append(
        o, "\nBest algorithm per size and pattern (Salimi Beni et al., Fig. 4).  no-delay choice: the "
           "best under no_delay at that\nsize; best/choice: d^ of the best over d^ of the choice under "
           "the same pattern; within5%: algorithms at most 5%\nslower than the best (Fig. 5); "
           "skew_us: the largest skew of the pattern's cells.\nrunner-up: the second least d^; margin: how "
           "much slower it is than the best.\n");
    if (s->nd < 0)
        g_string_append(o, "(no no_delay pattern in this study: no no-delay choice)\n");
    g_string_append_printf(o, "%10s  %-*s %12s  %-*s %12s  %-*s %12s  %11s  %8s  %-*s %8s\n", "bytes", pw,
                           "pattern", "skew_us", aw, "best", "d^_us", aw, "no-delay choice", "its_d^_us",
                           "best/choice", "within5%", aw, "runner-up", "margin");
    for (guint z = 0; z < s->nz; z++) {
        guint choice = choice_of(s, z);
        for (guint p = 0; p < s->np; p++) {
            guint b = best_of(s, z, p);
            g_string_append_printf(o, "%10" G_GUINT64_FORMAT "  %-*s %12.3f  ", size_at(s, z), pw,
                                   (char *)s->pats->pdata[p], s->skew[(gsize)z * s->np + p] * 1e6);
            if (b == G_MAXUINT) {
                gboolean all = TRUE;
                for (guint a = 0; a < s->na; a++)
                    all &= s->restr[ix(s, a, z, p)];
                g_string_append(o, all ? "(no algorithm applies)\n" : "(no algorithm ran)\n");
                continue;
            }
            double best = mean_at(s, b, z, p);
            int near = 0;
            for (guint a = 0; a < s->na; a++)
                near += mean_at(s, a, z, p) <= best * NEAR;
            g_string_append_printf(o, "%-*s %12.3f  ", aw, (char *)s->algs->pdata[b], best * 1e6);
            double cm = choice != G_MAXUINT ? mean_at(s, choice, z, p) : NAN;
            if (!isnan(cm))
                g_string_append_printf(o, "%-*s %12.3f  %11.3f", aw, (char *)s->algs->pdata[choice], cm * 1e6,
                                       best / cm);
            else
                g_string_append_printf(o, "%-*s %12s  %11s", aw,
                                       choice != G_MAXUINT ? (char *)s->algs->pdata[choice] : "-", "-", "-");
            g_string_append_printf(o, "  %8d  ", near);
            guint r = runner_up_of(s, z, p, b);
            if (r == G_MAXUINT)
                g_string_append_printf(o, "%-*s %8s\n", aw, "-", "-");
            else { /* a near-tie the best wins by order of appearance is +0.0%, not -0.0% */
                double margin = 100 * (mean_at(s, r, z, p) / best - 1);
                g_string_append_printf(o, "%-*s %+7.1f%%\n", aw, (char *)s->algs->pdata[r],
                                       fabs(margin) < 0.05 ? 0.0 : margin);
            }
        }
    }
}

/* A robustness in % for people: one decimal (none from 1000 on), signed, "0.0" rather than "-0.0". */
static char *pct(double v)
{
    if (fabs(v) < 0.05)
        return g_strdup("0.0");
    return g_strdup_printf("%+.*f", fabs(v) >= 999.95 ? 0 : 1, v);
}

/* Fig. 6 as one table per size. */
static void summary_robustness(GString *o, const study_t *s)
{
    g_string_append(
        o, "\nRobustness (Salimi Beni et al., Fig. 6): d^ under the pattern / d^ under no_delay - 1 of "
           "the same algorithm, in %;\nbelow 0 the algorithm absorbs the skew, above 0 it suffers; * "
           "marks beyond -25% or +25% (Fig. 6's green and red).\n");
    if (s->nd < 0 || s->np < 2) {
        g_string_append(o, s->nd < 0 ? "(no no_delay pattern in this study: no robustness table)\n"
                                     : "(no pattern but no_delay in this study: no robustness table)\n");
        return;
    }
    if (s->skews->len == 1 && strncmp(s->skews->pdata[0], "own_nodelay", 11))
        g_string_append(
            o, "(Fig. 6 gives each algorithm a skew of its own no-delay d^: --skew-mode own_nodelay; "
               "this study did not)\n");
    int aw = width_of(s->algs, 9);
    for (guint z = 0; z < s->nz; z++) {
        g_string_append_printf(o, "\n%" G_GUINT64_FORMAT " bytes\n%-*s", size_at(s, z), aw, "algorithm");
        for (guint p = 1; p < s->np; p++)
            g_string_append_printf(o, "  %*s", MAX(9, (int)strlen(s->pats->pdata[p])),
                                   (char *)s->pats->pdata[p]);
        g_string_append_c(o, '\n');
        GString *none = g_string_new(NULL);
        for (guint a = 0; a < s->na; a++) {
            gboolean any = FALSE;
            for (guint p = 0; p < s->np; p++)
                any |= !isnan(mean_at(s, a, z, p));
            if (!any) {
                g_string_append_printf(none, " %s", (char *)s->algs->pdata[a]);
                continue;
            }
            g_string_append_printf(o, "%-*s", aw, (char *)s->algs->pdata[a]);
            for (guint p = 1; p < s->np; p++) {
                int w = MAX(9, (int)strlen(s->pats->pdata[p]));
                double v = robustness(s, a, z, p);
                if (isnan(v))
                    g_string_append_printf(o, "  %*s ", w - 1, "-");
                else {
                    g_autofree char *t = pct(v);
                    g_string_append_printf(o, "  %*s%c", w - 1, t,
                                           v < -SIGNIFICANT || v > SIGNIFICANT ? '*' : ' ');
                }
            }
            g_string_append_c(o, '\n');
        }
        if (none->len)
            g_string_append_printf(o, "(no result:%s)\n", none->str);
        g_string_free(none, TRUE);
    }
}

/* Fig. 8's last row, ranked per size. */
static void summary_score(GString *o, const study_t *s)
{
    int aw = width_of(s->algs, 9), pw = width_of(s->pats, 13);
    g_string_append_printf(
        o,
        "\nRobustness score (Salimi Beni et al., Fig. 8, last row): per pattern, d^ over d^ of "
        "the fastest algorithm under it,\naveraged over the study's %u pattern%s%s; 1 = the fastest under "
        "every "
        "pattern, lower is more\nrobust.  no_delay: the same ratio under no_delay alone; worst: the largest "
        "ratio and its pattern.\n",
        s->np, plural(s->np), s->nd >= 0 ? " (no_delay included)" : "");
    g_string_append_printf(o, "%10s  %4s  %-*s %9s %9s %9s  %s\n", "bytes", "rank", aw, "algorithm", "score",
                           "no_delay", "worst", "worst_pattern");
    g_autofree double *score = g_new(double, s->na);
    g_autofree guint *order = g_new(guint, s->na);
    for (guint z = 0; z < s->nz; z++) {
        if (z)
            g_string_append_c(o, '\n');
        for (guint a = 0; a < s->na; a++) {
            guint miss;
            score[a] = score_of(s, a, z, &miss);
        }
        /* by rank, then by first appearance; algorithms without a score last */
        guint n = 0;
        for (int r = 1; r <= (int)s->na; r++)
            for (guint a = 0; a < s->na; a++)
                if (rank_of(score, s->na, a) == r)
                    order[n++] = a;
        for (guint a = 0; a < s->na; a++)
            if (isnan(score[a]))
                order[n++] = a;
        for (guint i = 0; i < s->na; i++) {
            guint a = order[i], miss;
            int rank = rank_of(score, s->na, a);
            g_string_append_printf(o, "%10" G_GUINT64_FORMAT "  ", size_at(s, z));
            if (!rank) {
                score_of(s, a, z, &miss);
                gboolean applies = FALSE;
                for (guint p = 0; p < s->np; p++)
                    applies |= !s->restr[ix(s, a, z, p)];
                g_string_append_printf(o, "%4s  %-*s %9s  ", "-", aw, (char *)s->algs->pdata[a], "-");
                if (!applies)
                    g_string_append(o, "(does not apply)\n");
                else if (miss != G_MAXUINT)
                    g_string_append_printf(o, "(no result under %s)\n", (char *)s->pats->pdata[miss]);
                else
                    g_string_append(o, "(no result)\n");
                continue;
            }
            double worst = -1;
            guint wp = 0;
            for (guint p = 0; p < s->np; p++) {
                double v = normalized(s, a, z, p);
                if (!isnan(v) && v > worst * (1 + 1e-9)) {
                    worst = v;
                    wp = p;
                }
            }
            double ndv = s->nd < 0 ? NAN : normalized(s, a, z, (guint)s->nd);
            g_string_append_printf(o, "%4d  %-*s %9.3f ", rank, aw, (char *)s->algs->pdata[a], score[a]);
            if (isnan(ndv))
                g_string_append_printf(o, "%9s ", "-");
            else
                g_string_append_printf(o, "%9.3f ", ndv);
            g_string_append_printf(o, "%9.3f  %-*s\n", worst, pw, (char *)s->pats->pdata[wp]);
        }
    }
}

static void summary_notes(GString *o, const study_t *s)
{
    gboolean head = FALSE;
    for (guint a = 0; a < s->na; a++) {
        GString *at = g_string_new(NULL);
        for (guint z = 0; z < s->nz; z++) {
            gboolean all = TRUE, any = FALSE;
            for (guint p = 0; p < s->np; p++) {
                all &= s->restr[ix(s, a, z, p)];
                any |= s->restr[ix(s, a, z, p)];
            }
            if (all && any)
                g_string_append_printf(at, "%s%" G_GUINT64_FORMAT, at->len ? "," : "", size_at(s, z));
        }
        if (at->len) {
            if (!head)
                g_string_append(o, "\nRestricted (the algorithm does not apply):\n");
            head = TRUE;
            const char *why = a < s->why->len ? s->why->pdata[a] : NULL;
            g_string_append_printf(o, "  %s at %s bytes%s%s%s\n", (char *)s->algs->pdata[a], at->str,
                                   why && *why ? " (" : "", why && *why ? why : "", why && *why ? ")" : "");
        }
        g_string_free(at, TRUE);
    }
    if (s->statuses->len) {
        g_string_append(o, "\nWARNING: calls that did not run cleanly:");
        for (guint i = 0; i < s->statuses->len; i++) {
            const char *st = s->statuses->pdata[i];
            g_string_append_printf(o, "%s %d %s", i ? "," : "", g_array_index(s->status_n, int, i), st);
        }
        g_string_append(o, "\n(wrong: the result differs from the library's, its time counts; the others' "
                           "times do not count)\n");
    }
}

char *pact_report_summary(const pact_report *r)
{
    GString *o = g_string_new(NULL);
    for (guint i = 0; i < r->studies->len; i++) {
        const study_t *s = r->studies->pdata[i];
        if (i)
            g_string_append(o, "\n\n");
        summary_head(o, s);
        summary_best(o, s);
        summary_robustness(o, s);
        summary_score(o, s);
        summary_notes(o, s);
    }
    if (!r->studies->len)
        g_string_append(o, "no results (results.csv holds only its header)\n");
    /* the tables pad their last column: no trailing blanks */
    g_auto(GStrv) lines = g_strsplit(o->str, "\n", -1);
    g_string_free(o, TRUE);
    for (char **l = lines; *l; l++)
        g_strchomp(*l);
    return g_strjoinv("\n", lines);
}

/* ---- figures ------------------------------------------------------------------------------------------- */

/* Qualitative colours, one per algorithm in order of appearance: Okabe and Ito's eight (told apart with
 * colour-blindness too, black left out for the text), then Tol's muted ones; reused past 19. */
static const guint32 alg_colour[] = {0x0072b2, 0xe69f00, 0x009e73, 0xcc79a7, 0x56b4e9, 0xd55e00, 0xf0e442,
                                     0x332288, 0x88ccee, 0x44aa99, 0x117733, 0x999933, 0xddcc77, 0xcc6677,
                                     0x882255, 0xaa4499, 0x661100, 0x6699cc, 0x888888};
#define NO_RESULT_COLOUR 0xe8e8e8

/* Black text on light cells, white on dark ones (relative luminance). */
static guint32 text_on(guint32 rgb)
{
    double r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 128 ? 0x000000 : 0xffffff;
}

static char *human_bytes(guint64 b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = (double)b;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    return v == floor(v) ? g_strdup_printf("%.0f %s", v, unit[u]) : g_strdup_printf("%.3g %s", v, unit[u]);
}

/* gnuplot strings in single quotes: a quote is doubled. */
static void sq(GString *o, const char *s)
{
    g_string_append_c(o, '\'');
    for (; *s; s++)
        if (*s == '\'')
            g_string_append(o, "''");
        else
            g_string_append_c(o, *s);
    g_string_append_c(o, '\'');
}

/* gnuplot strings in double quotes ("\n" breaks lines): backslash and quote escaped. */
static void dq(GString *o, const char *s)
{
    g_string_append_c(o, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            g_string_append_c(o, '\\');
        if (*s == '\n')
            g_string_append(o, "\\n");
        else
            g_string_append_c(o, *s);
    }
    g_string_append_c(o, '"');
}

/* Pattern names for axes: file:PATH shortened to file:BASENAME. */
static char *pattern_label(const char *name)
{
    if (g_str_has_prefix(name, "file:")) {
        g_autofree char *base = g_path_get_basename(name + 5);
        return g_strconcat("file:", base, NULL);
    }
    return g_strdup(name);
}

/* `set xtics (...)` and the like: labels at 0, 1, 2, ... */
static void tics(GString *o, const char *axis, GPtrArray *labels, const char *opts)
{
    g_string_append_printf(o, "set %s (", axis);
    for (guint i = 0; i < labels->len; i++) {
        if (i)
            g_string_append(o, ", ");
        g_autoptr(GString) label = g_string_new(labels->pdata[i]);
        g_string_replace(label, "%", "%%", 0); /* tic labels are formats */
        sq(o, label->str);
        g_string_append_printf(o, " %u", i);
    }
    g_string_append_printf(o, ") %s\n", opts);
}

/* Height in pixels of tic labels rotated by 30 degrees (font 10: about 6.8 pixels a character). */
static int rotated(GPtrArray *labels)
{
    return (int)(3.4 * width_of(labels, 1)) + 22;
}

/* The script's head: what it draws, where it writes, the title and the margins in pixels, so that PNG and
 * SVG share one layout; the terminals come last (script_tail). */
static void script_head(GString *o, const char *kind, const study_t *s, const char *what, const char *title2,
                        int w, int h, int l, int r, int b)
{
    /* The title as a label centred on the figure (gnuplot centres its title on the plot, which the key and
     * the tic labels push aside), and the figure wide enough for its longest line. */
    g_autofree char *title =
        g_strdup_printf("%s on %s, P = %d (%d node%s x %d ppn), engine %s\n%s", s->coll, s->platform,
                        s->procs, s->nodes, s->nodes == 1 ? "" : "s", s->ppn, s->engine, title2);
    g_auto(GStrv) lines = g_strsplit(title, "\n", -1);
    for (char **t = lines; *t; t++)
        w = MAX(w, (int)(7.4 * (double)strlen(*t)) + 40);
    g_string_append_printf(o,
                           "# %s-%s.gp - written by pact report: %s\n"
                           "# Redraw: cd into this folder, then: gnuplot %s-%s.gp  (writes ../%s-%s.png and "
                           ".svg)\n"
                           "if (!exists(\"out\")) out = '../%s-%s'\n"
                           "dat = '%s-%s.dat'\n"
                           "W = %d; H = %d\n"
                           "set lmargin at screen %d.0/W; set rmargin at screen 1 - %d.0/W\n"
                           "set bmargin at screen %d.0/H; set tmargin at screen 1 - 70.0/H\n"
                           "set tics scale 0\nset border lw 0.5\nset label 100 ",
                           kind, s->stem, what, kind, s->stem, kind, s->stem, kind, s->stem, kind, s->stem, w,
                           h, l, r, b);
    dq(o, title);
    g_string_append(o, " at screen 0.5, screen 1 - 16.0/H center front\n");
}

/* Before the plot command: the PNG; after it (script_tail), the same plot as SVG. */
static void script_png(GString *o)
{
    g_string_append(o, "set terminal pngcairo size W,H font 'sans,10' noenhanced\nset output out.'.png'\n");
}

static void script_tail(GString *o)
{
    g_string_append(o, "set terminal svg size W,H font 'sans,10' noenhanced background rgb 'white'\n"
                       "set output out.'.svg'\nreplot\nunset output\n");
}

/* Fig. 4: x = pattern, y = size, colour = the best algorithm, number = d^_best / d^_no-delay-choice. */
static gboolean fig_heatmap(const study_t *s, GString *dat, GString *gp)
{
    g_autoptr(GPtrArray) px = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) sy = g_ptr_array_new_with_free_func(g_free);
    for (guint p = 0; p < s->np; p++)
        g_ptr_array_add(px, pattern_label(s->pats->pdata[p]));
    for (guint z = 0; z < s->nz; z++)
        g_ptr_array_add(sy, human_bytes(size_at(s, z)));
    g_autofree guint *best = g_new(guint, (gsize)s->nz * s->np);
    g_autofree gboolean *used = g_new0(gboolean, s->na + 1); /* + 1: cells where no algorithm ran */
    int nused = 0;
    for (guint z = 0; z < s->nz; z++)
        for (guint p = 0; p < s->np; p++) {
            guint b = best_of(s, z, p);
            best[z * s->np + p] = b;
            guint k = b == G_MAXUINT ? s->na : b;
            nused += !used[k];
            used[k] = TRUE;
        }
    int key = 70 + (int)(7.5 * width_of(s->algs, 14)), tl = rotated(px);
    int l = 30 + 7 * width_of(sy, 1) + 30, b = tl + 30;
    int w = MAX(l + 78 * (int)s->np + key, 640);
    int h = 70 + MAX(30 * (int)s->nz, 20 * (nused + 2)) + b; /* the key stays beside the plot */
    script_head(gp, "heatmap", s,
                "the best algorithm per arrival pattern and message size (Salimi Beni et al., Fig. 4)\n"
                "# data: one block per algorithm that is best somewhere: x = pattern, y = size (as the tics "
                "say), label, its colour",
                "best algorithm by mean d^ (colour), Salimi Beni et al., Fig. 4\n"
                "number: its d^ / d^ of the no-delay choice (best under no_delay) under the same pattern",
                w, h, l, key, b);
    g_string_append_printf(gp, "set xrange [-0.5:%u.5]\nset yrange [-0.5:%u.5]\n", s->np - 1, s->nz - 1);
    tics(gp, "xtics", px, "rotate by 30 right nomirror");
    tics(gp, "ytics", sy, "nomirror");
    g_string_append_printf(gp,
                           "set xlabel 'arrival pattern'\nset ylabel 'message size per process'\n"
                           "set key at screen 1 - %d.0/W, screen 1 - 66.0/H left top vertical Left reverse "
                           "samplen 1.5 maxrows %d title 'best algorithm'\n"
                           "set style fill solid 1.0 border lc rgb 'white'\n",
                           key - 16, nused);
    script_png(gp);
    g_string_append(gp, "plot ");
    int block = 0;
    for (guint a = 0; a <= s->na; a++) {
        if (!used[a])
            continue;
        guint32 c = a < s->na ? alg_colour[a % G_N_ELEMENTS(alg_colour)] : NO_RESULT_COLOUR;
        const char *name = a < s->na ? s->algs->pdata[a] : "no result";
        g_string_append_printf(dat, "%s# %s\n", block ? "\n\n" : "", name);
        for (guint z = 0; z < s->nz; z++)
            for (guint p = 0; p < s->np; p++) {
                guint b = best[z * s->np + p];
                if ((b == G_MAXUINT ? s->na : b) != a)
                    continue;
                guint ch = choice_of(s, z);
                double cm = b != G_MAXUINT && ch != G_MAXUINT ? mean_at(s, ch, z, p) : NAN;
                g_autofree char *label = b == G_MAXUINT ? g_strdup("-")
                                         : isnan(cm)    ? g_strdup("")
                                                        : g_strdup_printf("%.2f", mean_at(s, b, z, p) / cm);
                g_string_append_printf(dat, "%u %u \"%s\" %u\n", p, z, label, text_on(c));
            }
        g_string_append_printf(gp,
                               "%sdat index %d using 1:2:(0.5):(0.5) with boxxyerror fc rgb '#%06x' title ",
                               block ? ", \\\n     " : "", block, c);
        sq(gp, name);
        block++;
    }
    g_string_append(gp, ", \\\n     dat using 1:2:3:4 with labels tc rgb variable font ',9' notitle\n");
    script_tail(gp);
    return TRUE;
}

/* Fig. 6: rows = algorithms in one block per size (sizes stacked, a rule between them), columns = the
 * delayed patterns.  Colours: Fig. 6's three classes, shaded; beyond +-25% saturated (the clamp). */
static gboolean fig_robustness(const study_t *s, GString *dat, GString *gp)
{
    if (s->nd < 0 || s->np < 2)
        return FALSE;
    g_autoptr(GPtrArray) px = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) ry = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) block_end = g_array_new(FALSE, FALSE, sizeof(int));
    for (guint p = 1; p < s->np; p++)
        g_ptr_array_add(px, pattern_label(s->pats->pdata[p]));
    GString *missing = g_string_new(NULL), *sizes = g_string_new(NULL);
    int values = 0;
    g_string_append(dat, "# x = pattern (no_delay left out), y = row; robustness in %, colour value (beyond "
                         "+-25%: +-31.25), label, text colour\n");
    for (guint z = 0; z < s->nz; z++) {
        int first = (int)ry->len;
        for (guint a = 0; a < s->na; a++) {
            gboolean any = FALSE;
            for (guint p = 0; p < s->np; p++)
                any |= !isnan(mean_at(s, a, z, p));
            if (!any)
                continue;
            int y = (int)ry->len;
            g_ptr_array_add(ry, g_strdup(s->algs->pdata[a]));
            for (guint p = 1; p < s->np; p++) {
                double v = robustness(s, a, z, p);
                if (isnan(v)) {
                    g_string_append_printf(missing, "%u %d\n", p - 1, y);
                    continue;
                }
                gboolean sig = v < -SIGNIFICANT || v > SIGNIFICANT;
                double cv =
                    sig ? copysign(1.25 * SIGNIFICANT, v) : CLAMP(v, -SIGNIFICANT + 0.1, SIGNIFICANT - 0.1);
                g_autofree char *label = pct(v);
                g_string_append_printf(dat, "%u %d %.6g %.4f \"%s\" %u\n", p - 1, y, v, cv, label,
                                       sig ? 0xffffffu : 0u);
                values++;
            }
        }
        if ((int)ry->len > first) {
            g_autofree char *hb = human_bytes(size_at(s, z));
            g_string_append_printf(sizes, "%s'%s' %.1f", sizes->len ? ", " : "", hb,
                                   (first + (int)ry->len - 1) / 2.0);
            int e = (int)ry->len;
            g_array_append_val(block_end, e);
        }
    }
    if (!values) {
        g_string_free(missing, TRUE);
        g_string_free(sizes, TRUE);
        return FALSE;
    }
    int rows = (int)ry->len, cols = (int)px->len;
    gboolean both = rows > 24; /* tall figures get the pattern names at the bottom too */
    int tl = rotated(px);
    int l = 30 + 7 * width_of(ry, 1), r = 40 + 7 * 8 + 30;
    int b = both ? 66 + tl : 74, w = MAX(l + 72 * cols + r, 640), h = 70 + tl + 20 * rows + b;
    script_head(
        gp, "robustness", s,
        "d^_pattern / d^_no_delay - 1 per algorithm (Salimi Beni et al., Fig. 6), sizes stacked\n"
        "# data: index 0 x = pattern, y = row (an algorithm within its size), value in %, colour value, "
        "label, text colour; index 1 cells without a value",
        "d^ under the pattern / d^ under no_delay - 1 of each algorithm, in % (Salimi Beni et al., Fig. 6)\n"
        "green: more than 25% faster than without delay, red: more than 25% slower",
        w, h, l, r, b);
    /* the plot's top edge sits below the pattern names */
    g_string_append_printf(gp, "set tmargin at screen 1 - %d.0/H\n", 70 + tl);
    g_string_append_printf(gp,
                           "set xrange [-0.5:%d.5]\nset x2range [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
                           "set y2range [%d.5:-0.5]\n",
                           cols - 1, cols - 1, rows - 1, rows - 1);
    tics(gp, "x2tics", px, "rotate by 30 left");
    if (both)
        tics(gp, "xtics", px, "rotate by 30 right nomirror");
    else
        g_string_append(gp, "unset xtics\n");
    tics(gp, "ytics", ry, "nomirror");
    g_string_append_printf(gp, "set y2tics (%s) nomirror\nset y2label 'message size per process'\n",
                           sizes->str);
    for (guint i = 0; i + 1 < block_end->len; i++)
        g_string_append_printf(
            gp, "set arrow from graph 0, first %d.5 to graph 1, first %d.5 nohead lw 2 front\n",
            g_array_index(block_end, int, i) - 1, g_array_index(block_end, int, i) - 1);
    g_string_append(
        gp, "set palette defined (-37.5 '#1b7837', -25 '#1b7837', -24.9 '#a6dba0', 0 '#f2f2f2', 24.9 "
            "'#f4a582', 25 '#b2182b', 37.5 '#b2182b')\nset cbrange [-37.5:37.5]\n"
            "set cbtics ('-25%%' -25, '0' 0, '+25%%' 25)\n"
            "set colorbox horizontal user origin screen 0.3, screen 22.0/H size screen 0.4, screen 12.0/H\n"
            "set label 1 'd^ change vs no_delay; colours clamped beyond +-25%' at screen 0.5, screen "
            "46.0/H center\n"
            "set label 2 'faster: absorbs the skew' at screen 0.3 - 8.0/W, screen 28.0/H right\n"
            "set label 3 'slower: suffers' at screen 0.7 + 8.0/W, screen 28.0/H left\n"
            "set style fill solid 1.0 border lc rgb 'white'\n");
    script_png(gp);
    g_string_append(gp, "plot dat index 0 using 1:2:(0.5):(0.5):4 with boxxyerror fc palette notitle, \\\n"
                        "     dat index 0 using 1:2:5:6 with labels tc rgb variable font ',9' notitle");
    if (missing->len) {
        g_string_append_printf(dat, "\n\n# cells without a value (the algorithm did not run there)\n%s",
                               missing->str);
        g_string_append(gp, ", \\\n     dat index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb '#ffffff' "
                            "notitle, \\\n     dat index 1 using 1:2:('-') with labels notitle");
    }
    g_string_append_c(gp, '\n');
    g_string_free(missing, TRUE);
    g_string_free(sizes, TRUE);
    script_tail(gp);
    return TRUE;
}

/* Fig. 8's last row for every size: rows = algorithms, columns = sizes, value = the score; the lowest per
 * size framed, the no-delay choice marked. */
static gboolean fig_score(const study_t *s, GString *dat, GString *gp)
{
    g_autoptr(GPtrArray) sx = g_ptr_array_new_with_free_func(g_free);
    for (guint z = 0; z < s->nz; z++)
        g_ptr_array_add(sx, human_bytes(size_at(s, z)));
    g_autofree double *score = g_new(double, s->na);
    GString *top = g_string_new(NULL), *chosen = g_string_new(NULL), *missing = g_string_new(NULL);
    g_string_append(
        dat, "# x = size, y = algorithm; score, colour value (clamped to [1, 4]), label, text colour\n");
    for (guint z = 0; z < s->nz; z++) {
        guint miss, ch = choice_of(s, z);
        for (guint a = 0; a < s->na; a++)
            score[a] = score_of(s, a, z, &miss);
        for (guint a = 0; a < s->na; a++) {
            if (isnan(score[a])) {
                g_string_append_printf(missing, "%u %u\n", z, a);
                continue;
            }
            double cv = CLAMP(score[a], 1, 4);
            g_string_append_printf(dat, "%u %u %.6g %.4f \"%.*f\" %u\n", z, a, score[a], cv,
                                   score[a] >= 99.5 ? 0 : 2, score[a], cv > 3 ? 0xffffffu : 0u);
            if (rank_of(score, s->na, a) == 1)
                g_string_append_printf(top, "%u %u\n", z, a);
        }
        if (ch != G_MAXUINT)
            g_string_append_printf(chosen, "%u %u\n", z, ch);
    }
    if (!top->len) {
        g_string_free(top, TRUE);
        g_string_free(chosen, TRUE);
        g_string_free(missing, TRUE);
        return FALSE;
    }
    int l = 30 + 7 * width_of(s->algs, 1), tl = rotated(sx);
    int w = MAX(l + 70 * (int)s->nz + 130, 640), b = tl + 40 + 30;
    int h = 70 + 28 * (int)s->na + b;
    g_autofree char *title2 =
        g_strdup_printf("robustness score = mean over the %u pattern%s of d^ / d^ of the fastest algorithm "
                        "under that pattern\n"
                        "(Salimi Beni et al., Fig. 8); 1 = always the fastest, lower is more robust",
                        s->np, plural(s->np));
    script_head(
        gp, "score", s,
        "average normalized d^ per algorithm and size (Salimi Beni et al., Fig. 8, last row)\n"
        "# data: index 0 the scores (x = size, y = algorithm, score, colour value, label, text colour), "
        "index 1 the lowest score per size, index 2 the no-delay choice, index 3 no score",
        title2, w, h + 14, l, 130, b);
    g_string_append_printf(gp, "BOT = %d.0\n", b);
    g_string_append_printf(
        gp, "set tmargin at screen 1 - 84.0/H\nset xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\n", s->nz - 1,
        s->na - 1);
    tics(gp, "xtics", sx, "rotate by 30 right nomirror");
    tics(gp, "ytics", s->algs, "nomirror");
    g_string_append(
        gp, "set xlabel 'message size per process'\n"
            "set palette defined (0 '#ffffff', 0.35 '#fee391', 0.7 '#fe9929', 1 '#8c2d04')\n"
            "set logscale cb 2\nset cbrange [1:4]\n"
            "set cbtics ('1' 1, '1.5' 1.5, '2' 2, '3' 3, '>= 4' 4)\nset cblabel 'score'\n"
            "set colorbox vertical user origin screen 1 - 105.0/W, screen (BOT)/H size screen 14.0/W, "
            "screen (H - 84 - BOT)/H\n"
            "set key at screen 0.5, screen 16.0/H center center horizontal maxrows 1 Left "
            "reverse samplen 1.5 width 2\n"
            "set style fill solid 1.0 border lc rgb 'white'\n");
    script_png(gp);
    g_string_append(gp,
                    "plot dat index 0 using 1:2:(0.5):(0.5):4 with boxxyerror fc palette notitle, \\\n"
                    "     dat index 0 using 1:2:5:6 with labels tc rgb variable font ',9' notitle, \\\n"
                    "     dat index 1 using 1:2:(0.46):(0.44) with boxxyerror fs empty lc rgb 'black' lw 2.5 "
                    "title 'most robust (lowest score)'");
    g_string_append_printf(dat, "\n\n# the lowest score per size\n%s", top->str);
    g_string_append_printf(dat, "\n\n# the no-delay choice per size\n%s", chosen->len ? chosen->str : "\n");
    if (chosen->len)
        g_string_append(gp,
                        ", \\\n     dat index 2 using ($1 - 0.34):($2 - 0.24) with points pt 9 ps 1.1 lc rgb "
                        "'#1f3b73' title 'no-delay choice'");
    if (missing->len) {
        g_string_append_printf(dat, "\n\n# no score: the algorithm lacks a pattern or does not apply\n%s",
                               missing->str);
        g_string_append(gp, ", \\\n     dat index 3 using 1:2:('-') with labels notitle");
    }
    g_string_append_c(gp, '\n');
    g_string_free(top, TRUE);
    g_string_free(chosen, TRUE);
    g_string_free(missing, TRUE);
    script_tail(gp);
    return TRUE;
}

/* Runs one script in DIR/plots; its outputs appear under their final names only when both are complete. */
static gboolean draw(const char *gnuplot, const char *dir, const char *plots, const char *name,
                     GPtrArray *written, GError **err)
{
    gboolean ok = FALSE;
    g_autofree char *tmp = g_strdup_printf(".%s.partial-%d", name, (int)getpid());
    g_autofree char *set_out = g_strdup_printf("out='../%s'", tmp);
    g_autofree char *script = g_strdup_printf("%s.gp", name);
    char *argv[] = {(char *)gnuplot, "-e", set_out, script, NULL};
    g_autofree char *serr = NULL;
    int status = 0;
    static const char *const ext[] = {".png", ".svg"};
    char *from[2], *to[2];
    for (int i = 0; i < 2; i++) {
        g_autofree char *f = g_strconcat(tmp, ext[i], NULL), *t = g_strconcat(name, ext[i], NULL);
        from[i] = g_build_filename(dir, f, NULL);
        to[i] = g_build_filename(dir, t, NULL);
    }
    if (!g_spawn_sync(plots, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &serr, &status, err))
        goto out;
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "gnuplot %s/%s failed: %s", plots, script,
                    serr ? g_strstrip(serr) : "");
        goto out;
    }
    for (int i = 0; i < 2; i++)
        if (g_rename(from[i], to[i]) != 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", to[i], g_strerror(errno));
            goto out;
        }
    for (int i = 0; i < 2; i++)
        if (written)
            g_ptr_array_add(written, g_strdup(to[i]));
    ok = TRUE;
out:
    for (int i = 0; i < 2; i++) {
        g_unlink(from[i]);
        g_free(from[i]);
        g_free(to[i]);
    }
    return ok;
}

static gboolean save(const char *dir, const char *name, const GString *text, GError **err)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    GError *e = NULL;
    if (g_file_set_contents(path, text->str, (gssize)text->len, &e))
        return TRUE;
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
    g_error_free(e);
    return FALSE;
}

gboolean pact_report_figures(const pact_report *r, const char *dir, GPtrArray *written, GError **err)
{
    typedef gboolean (*fig_fn)(const study_t *, GString *, GString *);
    static const struct {
        const char *kind;
        fig_fn fn;
    } figs[] = {{"heatmap", fig_heatmap}, {"robustness", fig_robustness}, {"score", fig_score}};
    g_autofree char *plots = g_build_filename(dir, "plots", NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    if (g_mkdir_with_parents(plots, 0755) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot create %s: %s", plots, g_strerror(errno));
        return FALSE;
    }
    for (guint i = 0; i < r->studies->len; i++) {
        const study_t *s = r->studies->pdata[i];
        for (gsize f = 0; f < G_N_ELEMENTS(figs); f++) {
            g_autofree char *name = g_strdup_printf("%s-%s", figs[f].kind, s->stem);
            g_autofree char *dname = g_strconcat(name, ".dat", NULL), *gname = g_strconcat(name, ".gp", NULL);
            GString *dat = g_string_new(NULL), *gp = g_string_new(NULL);
            /* a figure without data (no no_delay: no robustness) is left out */
            gboolean drawn = figs[f].fn(s, dat, gp);
            gboolean ok = !drawn || (save(plots, dname, dat, err) && save(plots, gname, gp, err));
            g_string_free(dat, TRUE);
            g_string_free(gp, TRUE);
            if (!ok)
                return FALSE;
            if (drawn)
                g_ptr_array_add(names, g_steal_pointer(&name));
        }
    }
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot && names->len) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "gnuplot not found: no figures drawn (their scripts are in %s; install gnuplot-nox, or "
                    "pass --no-figures)",
                    plots);
        return FALSE;
    }
    for (guint i = 0; i < names->len; i++)
        if (!draw(gnuplot, dir, plots, names->pdata[i], written, err))
            return FALSE;
    return TRUE;
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
