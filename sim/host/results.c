/* results.c - the results.csv schema (pact_results.h): the one writer and the one reader of its rows. */
#include "pact_results.h"

#include <math.h>
#include <string.h>

#include "pact_host.h"

const char *const pact_results_columns[PACT_NCOLS] = {
    "platform",  "nodes",       "ppn",    "procs", "collective", "algorithm",    "bytes",         "pattern",
    "skew_mode", "skew_factor", "skew_s", "rep",   "engine",     "last_delay_s", "total_delay_s", "status"};

const char *pact_results_header(void)
{
    static char header[256];
    static gsize done = 0;
    if (g_once_init_enter(&done)) { /* sweeps call it from several threads */
        GString *h = g_string_new(NULL);
        for (int c = 0; c < PACT_NCOLS; c++)
            g_string_append_printf(h, "%s%s", c ? "," : "", pact_results_columns[c]);
        g_strlcpy(header, h->str, sizeof header);
        g_string_free(h, TRUE);
        g_once_init_leave(&done, 1);
    }
    return header;
}

/* %.17g in the C locale, or nothing for NAN. */
static void num(GString *o, double v)
{
    char b[G_ASCII_DTOSTR_BUF_SIZE];
    if (!isnan(v))
        g_string_append(o, g_ascii_formatd(b, sizeof b, "%.17g", v));
}

void pact_results_append(GString *o, const pact_result_row *r)
{
    g_string_append_printf(o, "%s,%d,%d,%d,%s,%s,%" G_GUINT64_FORMAT ",%s,%s,", r->platform, r->nodes, r->ppn,
                           r->procs, r->coll, r->alg, r->bytes, r->pattern, r->skew_mode);
    num(o, r->skew_factor);
    g_string_append_c(o, ',');
    num(o, r->skew_s);
    g_string_append_printf(o, ",%d,%s,", r->rep, r->engine);
    num(o, r->last);
    g_string_append_c(o, ',');
    num(o, r->total);
    g_string_append_printf(o, ",%s\n", r->status);
}

typedef struct {
    const char *name;
    int line;
    GError **err;
} where_t;

static gboolean bad(const where_t *w, int col, const char *val, const char *what)
{
    g_set_error(w->err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: column %s: '%s': %s", w->name, w->line,
                pact_results_columns[col], val, what);
    return FALSE;
}

static gboolean whole(const where_t *w, char **f, int col, guint64 min, guint64 max, guint64 *out)
{
    if (!g_ascii_string_to_unsigned(f[col], 10, min, max, out, NULL))
        return bad(w, col, f[col], min ? "expected a whole number >= 1" : "expected a whole number >= 0");
    return TRUE;
}

/* Seconds (or a factor): a finite number >= 0; empty gives NAN when `empty_ok`. */
static gboolean seconds(const where_t *w, char **f, int col, gboolean empty_ok, double *out)
{
    const char *v = f[col];
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

static gboolean parse_row(const where_t *w, char **f, pact_result_row *r)
{
    static const int named[] = {PACT_COL_PLATFORM, PACT_COL_COLL,   PACT_COL_ALG,   PACT_COL_PATTERN,
                                PACT_COL_SKEW_MODE, PACT_COL_ENGINE, PACT_COL_STATUS};
    for (gsize i = 0; i < G_N_ELEMENTS(named); i++)
        if (!*f[named[i]])
            return bad(w, named[i], "", "empty");
    guint64 nodes, ppn, procs, rep;
    if (!whole(w, f, PACT_COL_NODES, 1, G_MAXINT, &nodes) || !whole(w, f, PACT_COL_PPN, 1, G_MAXINT, &ppn) ||
        !whole(w, f, PACT_COL_PROCS, 1, G_MAXINT, &procs) ||
        !whole(w, f, PACT_COL_BYTES, 0, G_MAXUINT64, &r->bytes) || !whole(w, f, PACT_COL_REP, 0, G_MAXINT, &rep) ||
        !seconds(w, f, PACT_COL_SKEW_FACTOR, TRUE, &r->skew_factor) ||
        !seconds(w, f, PACT_COL_SKEW_S, FALSE, &r->skew_s) || !seconds(w, f, PACT_COL_LAST, TRUE, &r->last) ||
        !seconds(w, f, PACT_COL_TOTAL, TRUE, &r->total))
        return FALSE;
    r->platform = f[PACT_COL_PLATFORM];
    r->nodes = (int)nodes;
    r->ppn = (int)ppn;
    r->procs = (int)procs;
    r->coll = f[PACT_COL_COLL];
    r->alg = f[PACT_COL_ALG];
    r->pattern = f[PACT_COL_PATTERN];
    r->skew_mode = f[PACT_COL_SKEW_MODE];
    r->rep = (int)rep;
    r->engine = f[PACT_COL_ENGINE];
    r->status = f[PACT_COL_STATUS];
    r->field = (const char *const *)f;
    gsize word = strcspn(r->status, ":");
    gboolean ran = (word == 2 && !strncmp(r->status, "ok", 2)) || (word == 5 && !strncmp(r->status, "wrong", 5));
    if (ran && isnan(r->last))
        return bad(w, PACT_COL_LAST, "", "empty, but the status says the call ran");
    return TRUE;
}

gboolean pact_results_parse(const char *text, gsize len, const char *name, gboolean torn_ok,
                            pact_results_fn fn, gpointer user, GError **err)
{
    const char *header = pact_results_header(), *p = text, *end = text + len;
    where_t w = {.name = name, .line = 0, .err = err};
    gboolean seen = FALSE;
    while (p < end) {
        const char *nl = memchr(p, '\n', (gsize)(end - p));
        if (!nl && torn_ok && seen)
            break; /* the torn end of a killed writer */
        const char *eol = nl ? nl : end;
        g_autofree char *line = g_strndup(p, (gsize)(eol - p));
        p = nl ? nl + 1 : end;
        w.line++;
        g_strchomp(line); /* a CR of CRLF files, trailing blanks */
        if (!seen) {
            if (strcmp(line, header)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s:1: not a pact results.csv: expected the header %s", name, header);
                return FALSE;
            }
            seen = TRUE;
            continue;
        }
        if (!*line || !strcmp(line, header)) /* blank, or the header of a file joined on */
            continue;
        g_auto(GStrv) f = g_strsplit(line, ",", -1);
        guint nf = g_strv_length(f);
        if (nf != PACT_NCOLS) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %u columns, expected %d (%s)", name, w.line,
                        nf, PACT_NCOLS, header);
            return FALSE;
        }
        pact_result_row r;
        if (!parse_row(&w, f, &r) || !fn(&r, line, w.line, user, err))
            return FALSE;
    }
    if (!seen) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:1: empty file, expected the header %s", name,
                    header);
        return FALSE;
    }
    return TRUE;
}
