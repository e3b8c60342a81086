/* cells.c - the results.csv rows of a sweep's cells: written as cells finish, read back to resume a killed
 * sweep or to merge shards. */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "pact_host.h"
#include "pact_models.h"
#include "pact_replay.h"
#include "pact_report.h"
#include "pact_results.h"
#include "sweep_int.h"

/* ---- rows -------------------------------------------------------------------------------------------------
 */

static const char *engine_name(pact_engine e)
{
    return e == PACT_ENGINE_MODEL ? "model" : e == PACT_ENGINE_REPLAY ? "replay" : "smpi";
}

/* The columns that name the cell (platform .. pattern). */
static pact_result_row cell_row(const ctx_t *x, const cell_t *c)
{
    const pact_sweep *s = x->s;
    return (pact_result_row){.platform = pact_sw_platform_name(s),
                             .nodes = s->nodes,
                             .ppn = s->ppn,
                             .procs = s->procs,
                             .coll = pact_coll_name(s->coll),
                             .alg = s->algs->pdata[c->alg],
                             .bytes = g_array_index(s->sizes, guint64, c->size),
                             .pattern = s->patterns->pdata[c->pat]};
}

/* The key of a cell: its naming columns as results.csv writes them. */
static char *cell_key(const ctx_t *x, const cell_t *c)
{
    pact_result_row r = cell_row(x, c);
    return g_strdup_printf("%s,%d,%d,%d,%s,%s,%" G_GUINT64_FORMAT ",%s", r.platform, r.nodes, r.ppn, r.procs,
                           r.coll, r.alg, r.bytes, r.pattern);
}

char *pact_sw_cell_rows(const ctx_t *x, const cell_t *c)
{
    const pact_sweep *s = x->s;
    const char *pat = s->patterns->pdata[c->pat];
    gboolean nodelay = !strcmp(pat, "no_delay"), file = s->pattern_data->pdata[c->pat] != NULL;
    pact_result_row r = cell_row(x, c);
    r.skew_mode = nodelay ? "none" : file ? "file" : pact_skew_mode_name(s->skew_mode);
    r.skew_factor = s->skew_mode != PACT_SKEW_ABSOLUTE && !nodelay && !file ? s->skew : NAN;
    r.skew_s = c->skew_s;
    r.engine = engine_name(s->engine);
    GString *o = g_string_new(NULL);
    for (guint k = 0; k < c->last->len; k++) {
        r.rep = (int)k;
        r.last = g_array_index(c->last, double, k);
        r.total = g_array_index(c->total, double, k);
        r.status = c->status->pdata[k];
        pact_results_append(o, &r);
    }
    return g_string_free(o, FALSE);
}

/* Fills a cell's values from its rows (a resumed or merged cell). */
static gboolean cell_value(const pact_result_row *r, const char *line, int lineno, gpointer user, GError **err)
{
    cell_t *c = user;
    (void)line, (void)lineno, (void)err;
    g_array_append_val(c->last, r->last);
    g_array_append_val(c->total, r->total);
    g_ptr_array_add(c->status, g_strdup(r->status));
    c->skew_s = r->skew_s;
    return TRUE;
}

static void cell_parse_rows(cell_t *c)
{
    pact_sw_cell_reset(c);
    g_autofree char *text = g_strconcat(pact_results_header(), "\n", c->rows, NULL);
    pact_results_parse(text, strlen(text), "rows", FALSE, cell_value, c, NULL); /* pact's own rows */
}


/* Index of every cell of the experiment by its key. */
GHashTable *pact_sw_cell_index(GPtrArray *studies)
{
    GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_ref *r = g_new(cell_ref, 1);
            r->x = x;
            r->c = x->cells->pdata[i];
            g_hash_table_insert(h, cell_key(x, r->c), r);
        }
    }
    return h;
}

typedef struct {
    GHashTable *index, *pending;
    const char *path;
} load_t;

/* One row of a results.csv being resumed or merged: kept, by repetition, with the cell it belongs to. */
static gboolean load_row(const pact_result_row *r, const char *line, int lineno, gpointer user, GError **err)
{
    load_t *l = user;
    g_autofree char *key = g_strdup_printf("%s,%d,%d,%d,%s,%s,%" G_GUINT64_FORMAT ",%s", r->platform, r->nodes,
                                           r->ppn, r->procs, r->coll, r->alg, r->bytes, r->pattern);
    cell_ref *c = g_hash_table_lookup(l->index, key);
    if (!c || r->rep >= c->x->s->reps) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s", l->path, lineno,
                    c ? "rep: out of range" : "a row of another experiment (or a malformed row)");
        return FALSE;
    }
    GPtrArray *reps = g_hash_table_lookup(l->pending, c);
    if (!reps) {
        reps = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_set_size(reps, c->x->s->reps);
        g_hash_table_insert(l->pending, c, reps);
    }
    g_free(reps->pdata[r->rep]);
    reps->pdata[r->rep] = g_strconcat(line, "\n", NULL);
    return TRUE;
}

/* Reads the rows of a results.csv into the cells they belong to.  A cell takes its rows only when all its
 * repetitions are there (a killed run may have written part of the last batch; a line without its newline
 * is the torn end of a write).  A cell that already has rows (another shard's copy) must get the same. */
gboolean pact_sw_load_rows(GHashTable *index, const char *path, GError **err)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!(text = pact_read_file(path, &len, err)))
        return FALSE;
    g_autoptr(GHashTable) pending =
        g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_ptr_array_unref);
    load_t l = {.index = index, .pending = pending, .path = path};
    if (!pact_results_parse(text, len, path, TRUE, load_row, &l, err))
        return FALSE;
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, pending);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        cell_ref *r = k;
        GPtrArray *reps = v;
        gboolean all = TRUE;
        for (guint i = 0; i < reps->len; i++)
            all &= reps->pdata[i] != NULL;
        if (!all)
            continue;
        g_ptr_array_add(reps, NULL);
        g_autofree char *rows = g_strjoinv("", (char **)reps->pdata);
        g_ptr_array_remove_index(reps, reps->len - 1);
        if (r->c->rows && strcmp(r->c->rows, rows)) {
            g_autofree char *key = cell_key(r->x, r->c);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s: cell %s differs from the same cell in another folder (different builds?)", path,
                        key);
            return FALSE;
        }
        if (!r->c->rows) {
            r->c->rows = g_steal_pointer(&rows);
            cell_parse_rows(r->c);
        }
    }
    return TRUE;
}

/* results.csv in the experiment's order: every cell that has its rows. */
char *pact_sw_all_rows(GPtrArray *studies, guint *missing)
{
    GString *o = g_string_new(pact_results_header());
    g_string_append_c(o, '\n');
    *missing = 0;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->rows)
                g_string_append(o, c->rows);
            else
                (*missing)++;
        }
    }
    return g_string_free(o, FALSE);
}

