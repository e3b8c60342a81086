/*
 * table.c - libpact's reader of table.csv, in plain C: libpact runs inside MPI ranks, where pact's GLib
 * reader (tuner/table/table.c) may not go.  It applies the same rules (tuner/table/pact_table.h: header,
 * columns, order and coverage, the matching rule) and refuses what breaks them with FILE:LINE: column:
 * reason; tests/integration/libpact.sh has it read every table of results/reference/tune.
 */
#include "lp_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    C_COLL,
    C_PROCS,
    C_PPN,
    C_MIN,
    C_MAX,
    C_ALG,
    C_PARAMS,
    C_OBJ,
    C_VALUE,
    C_RUNNER,
    C_RUNNER_VALUE,
    NCOL
};
static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return PACT_ERR_ARG;
}

void lp_table_free(lp_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->rows[i].params);
    free(t->rows);
    t->rows = NULL;
    t->n = 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s < '0' || *s > '9')
        return 0;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return 0;
    *v = x;
    return 1;
}

/* What a file that is not a table.csv looks like it is, from its first line. */
static const char *what_else(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line == '{')
        return " (it looks like MPICH's CSEL JSON: give libpact the table.csv pact tune wrote beside it)";
    if ((*line >= '0' && *line <= '9') || *line == '#')
        return " (it looks like Open MPI's coll_tuned rules: give libpact the table.csv pact tune wrote "
               "beside "
               "it)";
    return "";
}

static int parse_row(char *line, const char *path, int ln, lp_row *r, char *why, size_t len)
{
    char *f[NCOL];
    int n = 0;
    for (char *p = line;; p++) {
        if (n < NCOL)
            f[n] = p;
        n++;
        p = strchr(p, ',');
        if (!p)
            break;
        *p = 0;
    }
    if (n != NCOL)
        return fail(why, len, "%s:%d: %d fields, the header has %d", path, ln, n, NCOL);
    memset(r, 0, sizeof(*r));
    r->line = ln;
    int c = pact_coll_from_name(f[C_COLL]);
    if (c < 0)
        return fail(why, len, "%s:%d: column collective: '%s': not one of %s", path, ln, f[C_COLL],
                    pact_coll_list());
    r->coll = (pact_coll)c;
    uint64_t v;
    if (!parse_u64(f[C_PROCS], &v) || v < 1 || v > INT32_MAX)
        return fail(why, len, "%s:%d: column procs: '%s': expected a process count >= 1", path, ln,
                    f[C_PROCS]);
    r->procs = (int)v;
    if (!parse_u64(f[C_PPN], &v) || v < 1 || v > INT32_MAX)
        return fail(why, len, "%s:%d: column ppn: '%s': expected processes per node >= 1", path, ln,
                    f[C_PPN]);
    r->ppn = (int)v;
    if (!parse_u64(f[C_MIN], &r->min_bytes))
        return fail(why, len, "%s:%d: column min_bytes: '%s': expected bytes", path, ln, f[C_MIN]);
    if (!strcmp(f[C_MAX], "inf"))
        r->max_bytes = UINT64_MAX;
    else if (!parse_u64(f[C_MAX], &r->max_bytes) || r->max_bytes < r->min_bytes)
        return fail(why, len, "%s:%d: column max_bytes: '%s': expected bytes >= min_bytes, or inf", path, ln,
                    f[C_MAX]);
    char msg[200];
    if (pact_spec_parse(r->coll, f[C_ALG], &r->alg, &r->params, msg, sizeof msg) != PACT_OK)
        return fail(why, len, "%s:%d: column algorithm: '%s': %s", path, ln, f[C_ALG], msg);
    if (strchr(f[C_ALG], ':'))
        return fail(why, len, "%s:%d: column algorithm: '%s': parameters go in the params column", path, ln,
                    f[C_ALG]);
    if (f[C_PARAMS][0] && pact_params_parse(r->alg, f[C_PARAMS], ';', r->params, msg, sizeof msg) != PACT_OK)
        return fail(why, len, "%s:%d: column params: '%s': %s", path, ln, f[C_PARAMS], msg);
    if (!f[C_OBJ][0])
        return fail(why, len, "%s:%d: column objective: empty", path, ln);
    return PACT_OK;
}

/* Order and coverage: collectives in the traits table's order, then procs, ppn, min_bytes; each group's
 * ranges from 0 on without gap or overlap, the last one open. */
static int check_order(const lp_table *t, const char *path, char *why, size_t len)
{
    for (size_t i = 0; i < t->n; i++) {
        const lp_row *r = &t->rows[i], *p = i ? &t->rows[i - 1] : NULL;
        int same = p && p->coll == r->coll && p->procs == r->procs && p->ppn == r->ppn;
        if (p && !same && p->max_bytes != UINT64_MAX)
            return fail(why, len, "%s:%d: %s procs %d ppn %d: the last range ends at %llu, not inf", path,
                        p->line, pact_coll_name(p->coll), p->procs, p->ppn, (unsigned long long)p->max_bytes);
        if (!same && r->min_bytes != 0)
            return fail(why, len, "%s:%d: column min_bytes: %s procs %d ppn %d starts at %llu, not 0", path,
                        r->line, pact_coll_name(r->coll), r->procs, r->ppn, (unsigned long long)r->min_bytes);
        if (same && (p->max_bytes == UINT64_MAX || r->min_bytes != p->max_bytes + 1))
            return fail(why, len, "%s:%d: column min_bytes: %llu does not follow the previous range (%s)",
                        path, r->line, (unsigned long long)r->min_bytes,
                        p->max_bytes == UINT64_MAX ? "open" : "a gap or an overlap");
        if (p && !same &&
            (r->coll < p->coll ||
             (r->coll == p->coll && (r->procs < p->procs || (r->procs == p->procs && r->ppn <= p->ppn)))))
            return fail(why, len, "%s:%d: out of order (collective, procs, ppn ascending, each group once)",
                        path, r->line);
    }
    if (t->n && t->rows[t->n - 1].max_bytes != UINT64_MAX)
        return fail(why, len, "%s:%d: the last range ends at %llu, not inf", path, t->rows[t->n - 1].line,
                    (unsigned long long)t->rows[t->n - 1].max_bytes);
    return PACT_OK;
}

int lp_table_read(const char *path, lp_table *t, char *why, size_t len)
{
    int rc = PACT_OK, ln = 0;
    size_t cap = 0;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t got;
    memset(t, 0, sizeof(*t));
    FILE *f = fopen(path, "r");
    if (!f) {
        rc = fail(why, len, "%s: cannot read: %s", path, strerror(errno));
        goto out;
    }
    while ((got = getline(&line, &lcap, f)) >= 0) {
        ln++;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = 0;
        if (ln == 1) {
            if (strcmp(line, LP_TABLE_HEADER) != 0) {
                rc = fail(why, len, "%s:1: not a pact table: the header must be %s%s", path, LP_TABLE_HEADER,
                          what_else(line));
                goto out;
            }
            continue;
        }
        if (got == 0)
            continue;
        if (t->n == cap) {
            cap = cap ? 2 * cap : 64;
            lp_row *nr = realloc(t->rows, cap * sizeof(lp_row));
            if (!nr) {
                rc = fail(why, len, "%s: out of memory", path);
                goto out;
            }
            t->rows = nr;
        }
        if ((rc = parse_row(line, path, ln, &t->rows[t->n], why, len)) != PACT_OK) {
            free(t->rows[t->n].params);
            goto out;
        }
        t->n++;
    }
    if (ln == 0)
        rc = fail(why, len, "%s: empty (a pact table starts with the line %s)", path, LP_TABLE_HEADER);
    else if (t->n == 0)
        rc = fail(why, len, "%s: no rows", path);
    else
        rc = check_order(t, path, why, len);
out:
    if (f)
        fclose(f);
    free(line);
    if (rc != PACT_OK)
        lp_table_free(t);
    return rc;
}

const lp_row *lp_table_lookup(const lp_table *t, pact_coll coll, int procs, int ppn, uint64_t bytes)
{
    /* the group of the largest tuned procs <= procs (else the smallest), then the largest ppn <= ppn (else
     * the smallest), then the range holding bytes */
    int best_procs = -1, min_procs = -1;
    for (size_t i = 0; i < t->n; i++) {
        const lp_row *r = &t->rows[i];
        if (r->coll != coll)
            continue;
        if (min_procs < 0 || r->procs < min_procs)
            min_procs = r->procs;
        if (r->procs <= procs && r->procs > best_procs)
            best_procs = r->procs;
    }
    if (min_procs < 0)
        return NULL;
    if (best_procs < 0)
        best_procs = min_procs;
    int best_ppn = -1, min_ppn = -1;
    for (size_t i = 0; i < t->n; i++) {
        const lp_row *r = &t->rows[i];
        if (r->coll != coll || r->procs != best_procs)
            continue;
        if (min_ppn < 0 || r->ppn < min_ppn)
            min_ppn = r->ppn;
        if (r->ppn <= ppn && r->ppn > best_ppn)
            best_ppn = r->ppn;
    }
    if (best_ppn < 0)
        best_ppn = min_ppn;
    for (size_t i = 0; i < t->n; i++) {
        const lp_row *r = &t->rows[i];
        if (r->coll == coll && r->procs == best_procs && r->ppn == best_ppn && r->min_bytes <= bytes &&
            bytes <= r->max_bytes)
            return r;
    }
    return NULL;
}
