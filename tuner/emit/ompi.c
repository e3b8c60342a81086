/*
 * ompi.c - Open MPI 4.1's coll_tuned dynamic rules file: written from a selection table, and checked.
 *
 * Followed: Open MPI 4.1 ompi/mca/coll/tuned/coll_tuned_dynamic_file.c (the reader: NCOLL, per collective ID
 * NCOMSIZES, per communicator size SIZE NRULES, per rule MSGSIZE ALG FANINOUT SEGSIZE; '#' comments) and
 * coll_tuned_dynamic_rules.c (the last communicator size <= the communicator's, else the first; the last
 * rule whose size <= the message's), and the coll_tuned_<coll>_decision.c tables for the algorithm ids.
 * Open MPI ignores a file it cannot read without a word, so the checker is stricter than its reader: only
 * decimal integers without a leading zero (Open MPI's reader takes one as octal) and comments.
 */
#include "emit_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pact_host.h"

/* coll_tuned's collectives with dynamic rules in 4.1 and the number of algorithms of each (the
 * <coll>_algorithms tables of coll_tuned_<coll>_decision.c; id 0 is "ignore": the fixed decision). */
static const struct {
    int id;
    const char *name;
    int nalgs;
} ompi_colls[] = {
    {0, "allgather", 6},  {1, "allgatherv", 5},     {2, "allreduce", 6},
    {3, "alltoall", 5},   {4, "alltoallv", 2},      {6, "barrier", 6},
    {7, "bcast", 9},      {8, "exscan", 2},         {9, "gather", 3},
    {11, "reduce", 7},    {12, "reduce_scatter", 4}, {13, "reduce_scatter_block", 4},
    {14, "scan", 2},      {15, "scatter", 3},
};
#define N_OMPI_COLLS (sizeof ompi_colls / sizeof ompi_colls[0])

static int ompi_coll_index(long id)
{
    for (size_t i = 0; i < N_OMPI_COLLS; i++)
        if (ompi_colls[i].id == id)
            return (int)i;
    return -1;
}

/* ---- writer ------------------------------------------------------------------------------------------ */

/* The FANINOUT and SEGSIZE columns of row r: its fanout and segsize parameters (0 where it has none); any
 * other parameter must keep its default, which is Open MPI's (the file cannot carry it). */
static gboolean rule_params(const pact_table_row *r, long *fan, long *seg, GError **err)
{
    size_t np = pact_alg_nparams(r->alg);
    long def[np ? np : 1];
    pact_params_defaults(r->alg, def);
    const long *v = r->params ? r->params : def;
    *fan = *seg = 0;
    for (size_t k = 0; k < np; k++) {
        const char *name = r->alg->params[k].name;
        if (!strcmp(name, "fanout"))
            *fan = v[k];
        else if (!strcmp(name, "segsize"))
            *seg = v[k];
        else if (v[k] != def[k]) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s: %s with %s=%ld: Open MPI's rules file carries only fan-out and segment size (%s "
                        "comes from an MCA parameter)",
                        emit_where(r), r->alg->name, name, v[k], name);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean pact_emit_ompi(const pact_table *t, int ppn, GString *out, GError **err)
{
    g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    int ncoll = 0;
    /* collectives in the order of their ids (the file does not need it; a reader finds it easier) */
    int order[PACT_NCOLL];
    for (int c = 0; c < PACT_NCOLL; c++)
        order[c] = c;
    for (int a = 0; a < PACT_NCOLL; a++)
        for (int b = a + 1; b < PACT_NCOLL; b++)
            if (pact_coll_traits_of(order[b])->ompi_coll_id < pact_coll_traits_of(order[a])->ompi_coll_id) {
                int x = order[a];
                order[a] = order[b];
                order[b] = x;
            }
    for (int k = 0; k < PACT_NCOLL; k++) {
        GArray *g = emit_groups(t, order[k], ppn);
        ncoll += g->len > 0;
        g_ptr_array_add(groups, g);
    }
    if (ncoll == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "the table has no row: no Open MPI rules to write");
        return FALSE;
    }
    g_string_append_printf(out,
                           "# Open MPI 4.1 coll_tuned dynamic rules, written by pact tune for %d process%s per node.\n"
                           "# Load: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
                           "coll_tuned_dynamic_rules_filename FILE\n"
                           "# Open MPI takes the last communicator size <= the communicator's (the first when "
                           "it is smaller),\n"
                           "# then the last rule whose size <= the message's (bytes per process; alltoall and "
                           "allgather: x the\n"
                           "# communicator size).  Rule: MSGSIZE ALGORITHM FANINOUT SEGSIZE.\n"
                           "%d\n",
                           ppn, ppn == 1 ? "" : "es", ncoll);
    for (int k = 0; k < PACT_NCOLL; k++) {
        GArray *g = groups->pdata[k];
        if (g->len == 0)
            continue;
        pact_coll c = order[k];
        const pact_coll_traits *tr = pact_coll_traits_of(c);
        g_string_append_printf(out, "# %s (%s): %u communicator size%s\n%d %u\n", tr->name, tr->mpi, g->len,
                               g->len == 1 ? "" : "s", tr->ompi_coll_id, g->len);
        for (guint j = 0; j < g->len; j++) {
            const emit_group *e = &g_array_index(g, emit_group, j);
            g_string_append_printf(out, "%d %u\n", e->procs, e->n);
            for (guint i = e->first; i < e->first + e->n; i++) {
                const pact_table_row *r = emit_row(t, i);
                if (r->alg->ompi_id <= 0) {
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: %s is not an Open MPI algorithm",
                                emit_where(r), r->alg->name);
                    return FALSE;
                }
                long fan, seg;
                if (!rule_params(r, &fan, &seg, err))
                    return FALSE;
                uint64_t scale = pact_coll_m_per_block(c) ? (uint64_t)e->procs : 1;
                if (r->min_bytes > (uint64_t)G_MAXINT64 / scale) {
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: the message size overflows", emit_where(r));
                    return FALSE;
                }
                g_string_append_printf(out, "# %s: %s\n%llu %d %ld %ld\n", emit_where(r), pact_table_spec(r),
                                       (unsigned long long)(r->min_bytes * scale), r->alg->ompi_id, fan, seg);
            }
        }
    }
    GError *e = NULL;
    if (!pact_check_ompi_text(out->str, out->len, "(the rules pact wrote)", &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "internal error, refusing to write it: %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    return TRUE;
}

/* ---- checker ----------------------------------------------------------------------------------------- */

typedef struct {
    const char *p, *end, *name;
    int line;     /* of the next character */
    int tok_line; /* of the last token read */
    GError **err;
} lexer;

static gboolean fail(lexer *lx, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail(lexer *lx, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(lx->err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s", lx->name, line, msg);
    return FALSE;
}

/* The next integer; `what` names it in messages ("the number of collectives"). */
static gboolean next_long(lexer *lx, long *v, const char *what)
{
    for (;;) {
        while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == '\n')) {
            if (*lx->p == '\n')
                lx->line++;
            lx->p++;
        }
        if (lx->p < lx->end && *lx->p == '#') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
            continue;
        }
        break;
    }
    if (lx->p >= lx->end)
        return fail(lx, lx->line, "the file ends where %s should be", what);
    const char *s = lx->p;
    while (lx->p < lx->end && !strchr(" \t\r\n#", *lx->p))
        lx->p++;
    int n = (int)(lx->p - s);
    lx->tok_line = lx->line;
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return fail(lx, lx->line, "%s: '%.*s': not a non-negative decimal integer", what, n, s);
    if (n > 1 && s[0] == '0')
        return fail(lx, lx->line, "%s: '%.*s': a leading zero makes Open MPI read it as octal", what, n, s);
    char buf[32];
    if (n >= (int)sizeof buf)
        return fail(lx, lx->line, "%s: '%.*s': too large", what, n, s);
    memcpy(buf, s, (size_t)n);
    buf[n] = '\0';
    errno = 0;
    *v = strtol(buf, NULL, 10);
    if (errno)
        return fail(lx, lx->line, "%s: '%s': too large", what, buf);
    return TRUE;
}

gboolean pact_check_ompi_text(const char *text, gsize len, const char *name, GError **err)
{
    lexer lx = {.p = text, .end = text + len, .name = name, .line = 1, .err = err};
    long ncoll;
    if (!next_long(&lx, &ncoll, "the number of collectives"))
        return FALSE;
    if (ncoll < 1 || ncoll > (long)N_OMPI_COLLS)
        return fail(&lx, lx.tok_line, "the number of collectives: %ld: expected 1..%zu", ncoll, N_OMPI_COLLS);
    gboolean seen[N_OMPI_COLLS] = {0};
    for (long c = 0; c < ncoll; c++) {
        long id, ncs;
        if (!next_long(&lx, &id, "a collective id"))
            return FALSE;
        int ci = ompi_coll_index(id);
        if (ci < 0)
            return fail(&lx, lx.tok_line, "collective id %ld: not one coll_tuned 4.1 reads rules for", id);
        if (seen[ci])
            return fail(&lx, lx.tok_line, "collective id %ld (%s) given twice", id, ompi_colls[ci].name);
        seen[ci] = TRUE;
        const char *cn = ompi_colls[ci].name;
        int nalgs = ompi_colls[ci].nalgs;
        int pc = pact_coll_from_name(cn);
        for (size_t a = 0; pc >= 0 && a < pact_alg_count(); a++) /* pact's registry knows no more ids */
            if (pact_alg_at(a)->coll == (pact_coll)pc && pact_alg_at(a)->ompi_id > nalgs)
                nalgs = pact_alg_at(a)->ompi_id;
        if (!next_long(&lx, &ncs, "the number of communicator sizes"))
            return FALSE;
        if (ncs < 1)
            return fail(&lx, lx.tok_line, "%s: the number of communicator sizes must be at least 1", cn);
        long prev_size = 0;
        for (long s = 0; s < ncs; s++) {
            long size, nrules;
            if (!next_long(&lx, &size, "a communicator size"))
                return FALSE;
            if (size < 1)
                return fail(&lx, lx.tok_line, "%s: communicator size 0", cn);
            if (s > 0 && size <= prev_size)
                return fail(&lx, lx.tok_line, "%s: communicator size %ld after %ld: sizes must ascend", cn, size,
                            prev_size);
            prev_size = size;
            if (!next_long(&lx, &nrules, "the number of message rules"))
                return FALSE;
            if (nrules < 1)
                return fail(&lx, lx.tok_line, "%s at %ld processes: no message rule", cn, size);
            long prev_msg = 0;
            for (long r = 0; r < nrules; r++) {
                long msg, alg, fan, seg;
                if (!next_long(&lx, &msg, "a message size"))
                    return FALSE;
                int mline = lx.tok_line;
                if (r == 0 && msg != 0)
                    return fail(&lx, mline, "%s at %ld processes: the first rule's message size is %ld, must be 0",
                                cn, size, msg);
                if (r > 0 && msg <= prev_msg)
                    return fail(&lx, mline, "%s at %ld processes: message size %ld after %ld: sizes must ascend",
                                cn, size, msg, prev_msg);
                prev_msg = msg;
                if (!next_long(&lx, &alg, "an algorithm id"))
                    return FALSE;
                if (alg > nalgs)
                    return fail(&lx, lx.tok_line, "%s: algorithm %ld: Open MPI 4.1 has %d (1..%d; 0: its fixed "
                                "decision)", cn, alg, nalgs, nalgs);
                if (!next_long(&lx, &fan, "a fan-in/out") || !next_long(&lx, &seg, "a segment size"))
                    return FALSE;
            }
        }
    }
    long extra;
    GError *e = NULL;
    lexer probe = lx;
    probe.err = &e;
    if (next_long(&probe, &extra, "x"))
        return fail(&lx, probe.tok_line, "'%ld': more numbers than the %ld collectives announced", extra, ncoll);
    if (e && !strstr(e->message, "the file ends")) {
        g_propagate_error(err, e);
        return FALSE;
    }
    g_clear_error(&e);
    return TRUE;
}

gboolean pact_check_ompi(const char *path, GError **err)
{
    gsize len;
    g_autofree char *text = pact_read_file(path, &len, err);
    return text && pact_check_ompi_text(text, len, path, err);
}
