/*
 * table.c - the selection table: rows in memory, table.csv's one writer and one reader, the order and
 * coverage check and the matching rule (pact_table.h says what each is).
 */
#include "pact_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pact_host.h"

void pact_table_init(pact_table *t)
{
    t->rows = g_array_new(FALSE, TRUE, sizeof(pact_table_row));
    t->source = NULL;
}

void pact_table_clear(pact_table *t)
{
    if (t->rows) {
        for (guint i = 0; i < t->rows->len; i++) {
            pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
            g_free(r->params);
            g_free(r->objective);
            g_free(r->runner_up);
        }
        g_array_free(t->rows, TRUE);
    }
    t->rows = NULL;
    g_free(t->source);
    t->source = NULL;
}

void pact_table_add(pact_table *t, const pact_table_row *r)
{
    pact_table_row c = *r;
    size_t np = r->alg ? pact_alg_nparams(r->alg) : 0;
    c.params = r->params && np ? g_memdup2(r->params, np * sizeof(long)) : NULL;
    c.objective = g_strdup(r->objective);
    c.runner_up = g_strdup(r->runner_up);
    g_array_append_val(t->rows, c);
}

/* "FILE:LINE" of a row read from a file, else "row N" (static buffer). */
static const char *where(const pact_table *t, guint i)
{
    static _Thread_local char buf[512];
    const pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
    if (t->source && r->line > 0)
        snprintf(buf, sizeof buf, "%s:%d", t->source, r->line);
    else
        snprintf(buf, sizeof buf, "row %u", i + 1);
    return buf;
}

/* The position of a collective in collectives.inc's order. */
static int coll_rank(pact_coll c)
{
    return (int)c; /* the enum follows the table's rows (pact_coll.h) */
}

static int cmp_key(const pact_table_row *a, const pact_table_row *b)
{
    if (coll_rank(a->coll) != coll_rank(b->coll))
        return coll_rank(a->coll) < coll_rank(b->coll) ? -1 : 1;
    if (a->procs != b->procs)
        return a->procs < b->procs ? -1 : 1;
    if (a->ppn != b->ppn)
        return a->ppn < b->ppn ? -1 : 1;
    return 0;
}

gboolean pact_table_check(const pact_table *t, GError **err)
{
    if (t->rows->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: the table has no rows", t->source ? t->source : "table");
        return FALSE;
    }
    for (guint i = 0; i < t->rows->len; i++) {
        const pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
        const char *w = where(t, i);
        if (!r->alg || r->alg->coll != r->coll) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: algorithm %s is not one of %s's", w,
                        r->alg ? r->alg->name : "(none)", pact_coll_name(r->coll));
            return FALSE;
        }
        if (r->procs < 1 || r->ppn < 1 || r->ppn > r->procs) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: procs %d and ppn %d: need 1 <= ppn <= procs", w,
                        r->procs, r->ppn);
            return FALSE;
        }
        if (r->max_bytes < r->min_bytes) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: max_bytes below min_bytes", w);
            return FALSE;
        }
        const pact_table_row *p = i ? &g_array_index(t->rows, pact_table_row, i - 1) : NULL;
        int c = p ? cmp_key(p, r) : -1;
        if (c > 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s: out of order (collectives as pact list collectives lists them, then procs, ppn, "
                        "min_bytes ascending)",
                        w);
            return FALSE;
        }
        if (c < 0) {
            if (p && p->max_bytes != PACT_TABLE_INF) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: the last range of %s procs %d ppn %d must be open (max_bytes inf)", where(t, i - 1),
                            pact_coll_name(p->coll), p->procs, p->ppn);
                return FALSE;
            }
            if (r->min_bytes != 0) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: the first range of %s procs %d ppn %d must start at 0 bytes", w,
                            pact_coll_name(r->coll), r->procs, r->ppn);
                return FALSE;
            }
        } else if (p->max_bytes == PACT_TABLE_INF || r->min_bytes != p->max_bytes + 1) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s: min_bytes %" G_GUINT64_FORMAT " must follow the previous row's max_bytes (%s)", w,
                        (guint64)r->min_bytes,
                        p->max_bytes == PACT_TABLE_INF ? "inf: a gap-free group has one open range, the last"
                                                       : "a gap or an overlap");
            return FALSE;
        }
    }
    const pact_table_row *l = &g_array_index(t->rows, pact_table_row, t->rows->len - 1);
    if (l->max_bytes != PACT_TABLE_INF) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: the last range of %s procs %d ppn %d must be open (inf)",
                    where(t, t->rows->len - 1), pact_coll_name(l->coll), l->procs, l->ppn);
        return FALSE;
    }
    return TRUE;
}

const char *pact_table_spec(const pact_table_row *r)
{
    static _Thread_local char buf[512];
    char p[400] = "";
    if (r->params)
        pact_params_format(r->alg, r->params, p, sizeof p);
    g_strdelimit(p, ",", ':'); /* NAME:p=v:p=v, the spec syntax */
    snprintf(buf, sizeof buf, "%s%s%s", r->alg->name, *p ? ":" : "", p);
    return buf;
}

static void put_double(GString *s, double v)
{
    if (isnan(v))
        return;
    char b[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append(s, g_ascii_formatd(b, sizeof b, "%.9g", v));
}

char *pact_table_format(const pact_table *t)
{
    GString *s = g_string_new(PACT_TABLE_HEADER "\n");
    for (guint i = 0; i < t->rows->len; i++) {
        const pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
        char p[400] = "";
        if (r->params)
            pact_params_format(r->alg, r->params, p, sizeof p);
        for (char *c = p; *c; c++)
            if (*c == ',')
                *c = ';';
        g_string_append_printf(s, "%s,%d,%d,%" G_GUINT64_FORMAT ",", pact_coll_name(r->coll), r->procs, r->ppn,
                               (guint64)r->min_bytes);
        if (r->max_bytes == PACT_TABLE_INF)
            g_string_append(s, "inf");
        else
            g_string_append_printf(s, "%" G_GUINT64_FORMAT, (guint64)r->max_bytes);
        /* ',' inside a field (parameter lists, expected:WEIGHTS) is written ';': the file needs no quoting */
        g_autofree char *obj = g_strdelimit(g_strdup(r->objective ? r->objective : ""), ",\n", ';');
        g_autofree char *run = g_strdelimit(g_strdup(r->runner_up ? r->runner_up : ""), ",\n", ';');
        g_string_append_printf(s, ",%s,%s,%s,", r->alg->name, p, obj);
        put_double(s, r->value);
        g_string_append_printf(s, ",%s,", run);
        if (r->runner_up)
            put_double(s, r->runner_up_value);
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

enum { F_COLL, F_PROCS, F_PPN, F_MIN, F_MAX, F_ALG, F_PARAMS, F_OBJ, F_VALUE, F_RUNNER, F_RVALUE, F_N };
static const char *const fname[F_N] = {"collective", "procs", "ppn",       "min_bytes", "max_bytes",      "algorithm",
                                       "params",     "objective", "value", "runner_up", "runner_up_value"};

static gboolean bad(GError **err, const char *name, int line, int f, const char *val, const char *what)
{
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: column %s: '%s': %s", name, line, fname[f], val, what);
    return FALSE;
}

static gboolean parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s < '0' || *s > '9')
        return FALSE;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return FALSE;
    *out = v;
    return TRUE;
}

static gboolean parse_int(const char *s, int *out)
{
    uint64_t v;
    if (!parse_u64(s, &v) || v > (uint64_t)G_MAXINT)
        return FALSE;
    *out = (int)v;
    return TRUE;
}

static gboolean parse_dbl(const char *s, double *out)
{
    if (!*s) {
        *out = NAN;
        return TRUE;
    }
    char *end;
    double v = g_ascii_strtod(s, &end);
    if (*end || !isfinite(v))
        return FALSE;
    *out = v;
    return TRUE;
}

static gboolean parse_line(char **f, const char *name, int line, pact_table *t, GError **err)
{
    pact_table_row r = {.line = line, .value = NAN, .runner_up_value = NAN};
    int c = pact_coll_from_name(f[F_COLL]);
    if (c < 0)
        return bad(err, name, line, F_COLL, f[F_COLL], "unknown collective (pact list collectives)");
    r.coll = (pact_coll)c;
    if (!parse_int(f[F_PROCS], &r.procs) || r.procs < 1)
        return bad(err, name, line, F_PROCS, f[F_PROCS], "expected a process count >= 1");
    if (!parse_int(f[F_PPN], &r.ppn) || r.ppn < 1)
        return bad(err, name, line, F_PPN, f[F_PPN], "expected processes per node >= 1");
    if (!parse_u64(f[F_MIN], &r.min_bytes))
        return bad(err, name, line, F_MIN, f[F_MIN], "expected bytes (a whole number)");
    if (!strcmp(f[F_MAX], "inf"))
        r.max_bytes = PACT_TABLE_INF;
    else if (!parse_u64(f[F_MAX], &r.max_bytes) || r.max_bytes == PACT_TABLE_INF)
        return bad(err, name, line, F_MAX, f[F_MAX], "expected bytes (a whole number) or inf");
    r.alg = pact_alg_find(r.coll, f[F_ALG]);
    if (!r.alg)
        return bad(err, name, line, F_ALG, f[F_ALG], "not an algorithm of this collective (pact list algorithms)");
    size_t np = pact_alg_nparams(r.alg);
    if (*f[F_PARAMS]) {
        long *v = g_new0(long, np ? np : 1);
        char why[256];
        pact_params_defaults(r.alg, v);
        if (pact_params_parse(r.alg, f[F_PARAMS], ';', v, why, sizeof why) != PACT_OK) {
            g_free(v);
            return bad(err, name, line, F_PARAMS, f[F_PARAMS], why);
        }
        r.params = v;
    }
    r.objective = f[F_OBJ];
    if (!parse_dbl(f[F_VALUE], &r.value)) {
        g_free(r.params);
        return bad(err, name, line, F_VALUE, f[F_VALUE], "expected a number");
    }
    r.runner_up = *f[F_RUNNER] ? f[F_RUNNER] : NULL;
    if (r.runner_up) {
        const pact_alg *a;
        long *v = NULL;
        char why[256];
        g_autofree char *spec = g_strdelimit(g_strdup(r.runner_up), ";", ':');
        if (pact_spec_parse(r.coll, spec, &a, &v, why, sizeof why) != PACT_OK) {
            g_free(r.params);
            return bad(err, name, line, F_RUNNER, f[F_RUNNER], why);
        }
        free(v);
    }
    if (!parse_dbl(f[F_RVALUE], &r.runner_up_value)) {
        g_free(r.params);
        return bad(err, name, line, F_RVALUE, f[F_RVALUE], "expected a number");
    }
    pact_table_add(t, &r);
    g_free(r.params);
    return TRUE;
}

gboolean pact_table_parse(const char *text, gsize len, const char *name, pact_table *t, GError **err)
{
    g_free(t->source);
    t->source = g_strdup(name);
    if (memchr(text, 0, len)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: not a text file (a NUL byte)", name);
        return FALSE;
    }
    char *copy = g_strndup(text, len);
    char **lines = g_strsplit(copy, "\n", -1);
    g_free(copy);
    gboolean ok = TRUE, header = FALSE;
    for (int i = 0; ok && lines[i]; i++) {
        char *l = lines[i];
        size_t n = strlen(l);
        if (n && l[n - 1] == '\r')
            l[n - 1] = 0;
        if (!*l || *l == '#')
            continue;
        if (!header) {
            if (strcmp(l, PACT_TABLE_HEADER)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: expected the header line '%s'", name, i + 1,
                            PACT_TABLE_HEADER);
                ok = FALSE;
            }
            header = TRUE;
            continue;
        }
        char **f = g_strsplit(l, ",", -1);
        if (g_strv_length(f) != F_N) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %u columns, expected %d (%s)", name, i + 1,
                        g_strv_length(f), F_N, PACT_TABLE_HEADER);
            ok = FALSE;
        } else
            ok = parse_line(f, name, i + 1, t, err);
        g_strfreev(f);
    }
    g_strfreev(lines);
    if (ok && !header) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: empty (no header line)", name);
        ok = FALSE;
    }
    return ok && pact_table_check(t, err);
}

gboolean pact_table_read(const char *path, pact_table *t, GError **err)
{
    gsize len;
    char *text = pact_read_file(path, &len, err);
    if (!text)
        return FALSE;
    gboolean ok = pact_table_parse(text, len, path, t, err);
    g_free(text);
    return ok;
}

gboolean pact_table_write(const pact_table *t, const char *path, GError **err)
{
    if (!pact_table_check(t, err))
        return FALSE;
    char *text = pact_table_format(t);
    char *tmp = g_strconcat(path, ".tmp", NULL);
    GError *e = NULL;
    gboolean ok = g_file_set_contents(tmp, text, -1, &e) && rename(tmp, path) == 0;
    if (!ok) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", path, e ? e->message : g_strerror(errno));
        g_clear_error(&e);
        remove(tmp);
    }
    g_free(tmp);
    g_free(text);
    return ok;
}

const pact_table_row *pact_table_lookup(const pact_table *t, pact_coll coll, int procs, int ppn, uint64_t bytes)
{
    /* the procs value: the largest tuned <= procs, else the smallest tuned; then the ppn value alike */
    int best_p = -1, min_p = -1;
    for (guint i = 0; i < t->rows->len; i++) {
        const pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
        if (r->coll != coll)
            continue;
        if (min_p < 0 || r->procs < min_p)
            min_p = r->procs;
        if (r->procs <= procs && r->procs > best_p)
            best_p = r->procs;
    }
    if (min_p < 0)
        return NULL;
    int P = best_p >= 0 ? best_p : min_p;
    int best_q = -1, min_q = -1;
    for (guint i = 0; i < t->rows->len; i++) {
        const pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
        if (r->coll != coll || r->procs != P)
            continue;
        if (min_q < 0 || r->ppn < min_q)
            min_q = r->ppn;
        if (r->ppn <= ppn && r->ppn > best_q)
            best_q = r->ppn;
    }
    int Q = best_q >= 0 ? best_q : min_q;
    for (guint i = 0; i < t->rows->len; i++) {
        const pact_table_row *r = &g_array_index(t->rows, pact_table_row, i);
        if (r->coll == coll && r->procs == P && r->ppn == Q && bytes >= r->min_bytes && bytes <= r->max_bytes)
            return r;
    }
    return NULL;
}
