/* file.c - pattern files (one delay per line) and arrival traces (rank,call,arrival_s CSV). */
#include "pact_patterns.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pact_host.h"

gboolean pact_pattern_write(const char *path, const double *d, int p, const char *comment, GError **err)
{
    GString *s = g_string_new(NULL);
    if (comment)
        g_string_append_printf(s, "# %s\n", comment);
    for (int i = 0; i < p; i++) {
        char b[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append_printf(s, "%s\n", g_ascii_formatd(b, sizeof b, "%.17g", d[i]));
    }
    gboolean ok = g_file_set_contents(path, s->str, (gssize)s->len, err);
    g_string_free(s, TRUE);
    return ok;
}

/* Strips a '#' comment and surrounding blanks in place; returns the remaining text. */
static char *content(char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    return g_strstrip(line);
}

/* A finite number that fills the whole field. */
static gboolean number(const char *s, double *v)
{
    char *end;
    if (!*s)
        return FALSE;
    errno = 0;
    *v = g_ascii_strtod(s, &end);
    return *end == 0 && errno == 0 && isfinite(*v);
}

/* Files are read once and parsed from memory, so that a pipe (<(...)) works too. */
static GArray *parse_pattern(const char *path, char *text, int p, GError **err)
{
    GArray *d = g_array_new(FALSE, FALSE, sizeof(double));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    int n = 0;
    for (int i = 0; lines[i]; i++) {
        char *s = content(lines[i]);
        double v;
        if (!*s)
            continue;
        n = i + 1;
        if (!number(s, &v)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s:%d: '%s' is not a number (one delay in seconds per line)", path, i + 1, s);
            goto fail;
        }
        if (v < 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: delay %s is negative", path, i + 1, s);
            goto fail;
        }
        g_autofree char *where = g_strdup_printf("%s:%d: delay", path, i + 1);
        if (!pact_skew_check(v, FALSE, where, err))
            goto fail;
        if (p > 0 && (int)d->len == p) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s:%d: more than %d delays for %d processes (one per rank)", path, i + 1, p, p);
            goto fail;
        }
        g_array_append_val(d, v);
    }
    if (d->len == 0 || (p > 0 && (int)d->len != p)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %u delays for %d processes (one per rank)",
                    path, n ? n : 1, d->len, p > 0 ? p : 1);
        goto fail;
    }
    return d;
fail:
    g_array_unref(d);
    return NULL;
}

GArray *pact_pattern_read(const char *path, int p, GError **err)
{
    g_autofree char *text = NULL;
    return (text = pact_read_file(path, NULL, err)) ? parse_pattern(path, text, p, err) : NULL;
}

/* ---- traces ------------------------------------------------------------------------------------------ */

static const char *const trace_cols[] = {"rank", "call", "arrival_s"};

static gboolean sniff(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", 64);
    for (int i = 0; lines[i]; i++) {
        char *s = content(lines[i]);
        if (*s)
            return strstr(s, "rank") && strstr(s, "arrival_s");
    }
    return FALSE;
}

static gboolean whole(const char *s, gint64 max, gint64 *v)
{
    guint64 u;
    if (!g_ascii_string_to_unsigned(s, 10, 0, (guint64)max, &u, NULL))
        return FALSE;
    *v = (gint64)u;
    return TRUE;
}

static gint cmp_i64(gconstpointer a, gconstpointer b)
{
    gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    gint64 rank, call;
    double a;
    int line;
} row_t;

static gboolean parse_trace(const char *path, const char *text, pact_trace *t, GError **err)
{
    memset(t, 0, sizeof(*t));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(row_t));
    GHashTable *calls = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    int col[3] = {-1, -1, -1}, ncols = 0, header = 0;
    gint64 maxrank = -1;
    int *seen = NULL; /* per (call, rank): the line of its arrival, 0 when none yet */
    gboolean ok = FALSE;
    for (int i = 0; lines[i]; i++) {
        char *s = content(lines[i]);
        if (!*s)
            continue;
        g_auto(GStrv) f = g_strsplit(s, ",", -1);
        int nf = (int)g_strv_length(f);
        for (int k = 0; k < nf; k++)
            g_strstrip(f[k]);
        if (!header) {
            header = i + 1;
            ncols = nf;
            for (int k = 0; k < nf; k++)
                for (int c = 0; c < 3; c++)
                    if (!strcmp(f[k], trace_cols[c]))
                        col[c] = k;
            for (int c = 0; c < 3; c++)
                if (col[c] < 0) {
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                                "%s:%d: header: no column '%s' (an arrival trace starts rank,call,arrival_s)",
                                path, i + 1, trace_cols[c]);
                    goto out;
                }
            continue;
        }
        if (nf != ncols) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %d fields, the header has %d", path, i + 1,
                        nf, ncols);
            goto out;
        }
        row_t r = {.line = i + 1};
        if (!whole(f[col[0]], G_MAXINT - 1, &r.rank)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: rank: '%s' is not a rank (0, 1, ...)",
                        path, i + 1, f[col[0]]);
            goto out;
        }
        if (!whole(f[col[1]], G_MAXINT64, &r.call)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s:%d: call: '%s' is not a call number (0, 1, ...)", path, i + 1, f[col[1]]);
            goto out;
        }
        if (!number(f[col[2]], &r.a)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: arrival_s: '%s' is not a time in seconds",
                        path, i + 1, f[col[2]]);
            goto out;
        }
        maxrank = MAX(maxrank, r.rank);
        if (!g_hash_table_contains(calls, &r.call))
            g_hash_table_insert(calls, g_memdup2(&r.call, sizeof r.call), NULL);
        g_array_append_val(rows, r);
    }
    if (rows->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: no arrivals (rank,call,arrival_s rows)", path,
                    header ? header : 1);
        goto out;
    }
    /* Calls in ascending order; a call's index by binary search in that order. */
    t->ranks = (int)maxrank + 1;
    t->calls = (int)g_hash_table_size(calls);
    t->call_id = g_new(gint64, (gsize)t->calls);
    GHashTableIter it;
    gpointer key;
    int k = 0;
    g_hash_table_iter_init(&it, calls);
    while (g_hash_table_iter_next(&it, &key, NULL))
        t->call_id[k++] = *(gint64 *)key;
    qsort(t->call_id, (size_t)t->calls, sizeof(gint64), cmp_i64);
    gsize cells = (gsize)t->calls * (gsize)t->ranks;
    t->a = g_new(double, cells);
    seen = g_new0(int, cells);
    for (guint i = 0; i < rows->len; i++) {
        row_t *r = &g_array_index(rows, row_t, i);
        gint64 *at = bsearch(&r->call, t->call_id, (size_t)t->calls, sizeof(gint64), cmp_i64);
        gsize cell = (gsize)(at - t->call_id) * (gsize)t->ranks + (gsize)r->rank;
        if (seen[cell]) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s:%d: rank %" G_GINT64_FORMAT " call %" G_GINT64_FORMAT
                        ": a second arrival (the first is on line %d)",
                        path, r->line, r->rank, r->call, seen[cell]);
            goto out;
        }
        seen[cell] = r->line;
        t->a[cell] = r->a;
    }
    for (gsize c = 0; c < cells; c++)
        if (!seen[c]) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s: call %" G_GINT64_FORMAT
                        " has no arrival for rank %d (every call needs ranks 0..%d)",
                        path, t->call_id[c / (gsize)t->ranks], (int)(c % (gsize)t->ranks), t->ranks - 1);
            goto out;
        }
    ok = TRUE;
out:
    g_free(seen);
    g_array_unref(rows);
    g_hash_table_destroy(calls);
    if (!ok)
        pact_trace_free(t);
    return ok;
}

gboolean pact_trace_read(const char *path, pact_trace *t, GError **err)
{
    g_autofree char *text = NULL;
    memset(t, 0, sizeof(*t));
    return (text = pact_read_file(path, NULL, err)) && parse_trace(path, text, t, err);
}

void pact_trace_free(pact_trace *t)
{
    g_free(t->call_id);
    g_free(t->a);
    memset(t, 0, sizeof(*t));
}

void pact_trace_to_pattern(const pact_trace *t, double *d)
{
    for (int r = 0; r < t->ranks; r++)
        d[r] = 0;
    for (int c = 0; c < t->calls; c++) {
        const double *a = t->a + (gsize)c * (gsize)t->ranks;
        double first = INFINITY;
        for (int r = 0; r < t->ranks; r++)
            first = fmin(first, a[r]);
        for (int r = 0; r < t->ranks; r++)
            d[r] += a[r] - first;
    }
    for (int r = 0; r < t->ranks; r++)
        d[r] /= t->calls;
}

GArray *pact_pattern_load(const char *path, int p, pact_trace *trace, GError **err)
{
    g_autofree char *text = NULL;
    pact_trace t;
    if (trace)
        memset(trace, 0, sizeof(*trace));
    if (!(text = pact_read_file(path, NULL, err)))
        return NULL;
    if (!sniff(text))
        return parse_pattern(path, text, p, err);
    if (!parse_trace(path, text, &t, err))
        return NULL;
    if (p > 0 && t.ranks != p) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: an arrival trace of %d ranks for %d processes",
                    path, t.ranks, p);
        pact_trace_free(&t);
        return NULL;
    }
    GArray *d = g_array_sized_new(FALSE, FALSE, sizeof(double), (guint)t.ranks);
    g_array_set_size(d, (guint)t.ranks);
    pact_trace_to_pattern(&t, (double *)d->data);
    double hi = 0;
    for (int r = 0; r < t.ranks; r++)
        hi = fmax(hi, g_array_index(d, double, r));
    g_autofree char *where = g_strdup_printf("%s: mean delay after the first arrival", path);
    if (!pact_skew_check(hi, FALSE, where, err)) {
        pact_trace_free(&t);
        g_array_unref(d);
        return NULL;
    }
    if (trace)
        *trace = t;
    else
        pact_trace_free(&t);
    return d;
}
