/*
 * tune.c - pact tune's run: the candidates a target can run, their simulations (pact sim's experiments on
 * the model or SimGrid engine, resumable), the d^ tables read back from results.csv, the choice per cell
 * and the ranges of the table.  Outputs (files, summary, figures) are in output.c.
 */
#include "pact_tune.h"
#include "pact_emit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pact_host.h"
#include "pact_objectives.h"
#include "pact_results.h"
#include "pact_run.h"
#include "tune_int.h"

const char *const pact_tune_shapes[PACT_TUNE_NSHAPES] = {
    "no_delay",     "ascending",    "descending", "first_delayed", "last_delayed", "middle_delayed",
    "ends_delayed", "half_delayed", "random",     "node_delayed",  "two_level"};

void pact_tune_init(pact_tune *t)
{
    memset(t, 0, sizeof *t);
    t->fields = pact_exp_new();
    t->objective = PACT_TUNE_ROBUST;
    t->objective_text = g_strdup("robust");
    t->source = PACT_TUNE_MODEL;
    t->hybrid_k = 3;
    t->target = PACT_TUNE_PACT;
    t->segsizes = g_array_new(FALSE, FALSE, sizeof(guint64));
    t->jobs = (int)g_get_num_processors();
    t->figures = TRUE;
}

void pact_tune_clear(pact_tune *t)
{
    if (t->fields)
        g_hash_table_destroy(t->fields);
    if (t->weights)
        g_hash_table_destroy(t->weights);
    if (t->segsizes)
        g_array_free(t->segsizes, TRUE);
    g_free(t->objective_text);
    g_free(t->expected_file);
    g_free(t->outdir);
    memset(t, 0, sizeof *t);
}

static const char *const objective_names[] = {"no_delay", "robust", "regret", "expected"};
static const char *const source_names[] = {"model", "sim", "hybrid"};
static const char *const target_names[] = {"pact", "ompi", "mpich"};

const char *pact_tune_target_name(pact_tune_target t)
{
    return target_names[t];
}

const char *pact_tune_source_name(pact_tune_source s)
{
    return source_names[s];
}

gboolean pact_tune_set_objective(pact_tune *t, const char *text, const char *what, GError **err)
{
    g_auto(GStrv) head = g_strsplit(text, ":", 2);
    int o = -1;
    for (guint i = 0; i < G_N_ELEMENTS(objective_names); i++)
        if (!strcmp(head[0], objective_names[i]))
            o = (int)i;
    if (o < 0 || (head[1] && o != PACT_TUNE_EXPECTED)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "%s %s: unknown objective (no_delay, robust, regret, expected, expected:PATTERN=W,... or "
                    "expected:file:PATH)",
                    what, text);
        return FALSE;
    }
    t->objective = (pact_tune_objective)o;
    g_free(t->objective_text);
    t->objective_text = g_strdup(text);
    g_clear_pointer(&t->weights, g_hash_table_destroy);
    g_clear_pointer(&t->expected_file, g_free);
    if (!head[1])
        return TRUE;
    if (g_str_has_prefix(head[1], "file:")) {
        if (!head[1][5]) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected:file:PATH needs a path", what, text);
            return FALSE;
        }
        t->expected_file = g_str_has_prefix(head[1] + 5, "/") ? g_strdup(head[1] + 5)
                                                              : g_canonicalize_filename(head[1] + 5, NULL);
        return TRUE;
    }
    t->weights = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_auto(GStrv) items = g_strsplit(head[1], ",", -1);
    for (int i = 0; items[i]; i++) {
        char *eq = strchr(items[i], '=');
        double w;
        char *end = NULL;
        if (eq)
            w = g_ascii_strtod(eq + 1, &end);
        if (!eq || eq == items[i] || !end || *end || end == eq + 1 || !isfinite(w) || w < 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s %s: '%s': expected PATTERN=WEIGHT (a number >= 0), e.g. expected:no_delay=1,random=3",
                        what, text, items[i]);
            return FALSE;
        }
        *eq = 0;
        if (g_hash_table_contains(t->weights, items[i])) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: pattern '%s' weighted twice", what, text,
                        items[i]);
            return FALSE;
        }
        g_hash_table_insert(t->weights, g_strdup(items[i]), g_memdup2(&w, sizeof w));
    }
    double sum = 0;
    GHashTableIter it;
    gpointer v;
    g_hash_table_iter_init(&it, t->weights);
    while (g_hash_table_iter_next(&it, NULL, &v))
        sum += *(double *)v;
    if (sum <= 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: the weights sum to 0", what, text);
        return FALSE;
    }
    return TRUE;
}

gboolean pact_tune_set_source(pact_tune *t, const char *text, const char *what, GError **err)
{
    if (!strcmp(text, "model") || !strcmp(text, "sim")) {
        t->source = text[0] == 'm' ? PACT_TUNE_MODEL : PACT_TUNE_SIM;
        return TRUE;
    }
    if (!strcmp(text, "hybrid")) {
        t->source = PACT_TUNE_HYBRID;
        t->hybrid_k = 3;
        return TRUE;
    }
    int k = 0;
    char tail = 0;
    if (sscanf(text, "hybrid:%d%c", &k, &tail) == 1 && k >= 1 && k <= 64) {
        t->source = PACT_TUNE_HYBRID;
        t->hybrid_k = k;
        return TRUE;
    }
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: unknown source (model, sim, hybrid or hybrid:K, 1 <= K <= 64)",
                what, text);
    return FALSE;
}

gboolean pact_tune_set_target(pact_tune *t, const char *text, const char *what, GError **err)
{
    for (guint i = 0; i < G_N_ELEMENTS(target_names); i++)
        if (!strcmp(text, target_names[i])) {
            t->target = (pact_tune_target)i;
            return TRUE;
        }
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: unknown target (ompi, mpich or pact)", what, text);
    return FALSE;
}

gboolean pact_tune_target_runs(pact_tune_target t, const pact_alg *a)
{
    switch (t) {
    case PACT_TUNE_OMPI:
        return a->ompi_id != 0;
    case PACT_TUNE_MPICH: /* a name the MPICH installed (whose names pact_emit knows) runs */
        return a->mpich != NULL && pact_emit_mpich_knows(a->coll, a->mpich);
    case PACT_TUNE_PACT:
        return TRUE;
    }
    return FALSE;
}

/* ---- candidates -------------------------------------------------------------------------------------- */

/* Whether the target's file can carry these parameter values: Open MPI's rules hold a segment size and a
 * fan-out, MPICH's CSEL none (its algorithms run with their CVARs' values, pact's defaults). */
static gboolean params_expressible(pact_tune_target tg, const pact_alg *a, const long *v, const char **bad)
{
    for (size_t k = 0; k < pact_alg_nparams(a); k++) {
        if (v[k] == a->params[k].def)
            continue;
        const char *n = a->params[k].name;
        if (tg == PACT_TUNE_MPICH || (tg == PACT_TUNE_OMPI && strcmp(n, "segsize") && strcmp(n, "fanout"))) {
            *bad = n;
            return FALSE;
        }
    }
    return TRUE;
}

static void add_spec(GPtrArray *out, const char *spec)
{
    for (guint i = 0; i < out->len; i++)
        if (!strcmp(out->pdata[i], spec))
            return;
    g_ptr_array_add(out, g_strdup(spec));
}

static const char *target_library(pact_tune_target t)
{
    return t == PACT_TUNE_OMPI ? "Open MPI 4.1 (coll_tuned)" : t == PACT_TUNE_MPICH ? "MPICH 4.0" : "pact";
}

GPtrArray *pact_tune_candidates(pact_tune *t, pact_coll c, GError **err)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    const char *user = pact_exp_get(t->fields, "algs");
    g_autofree char *what = pact_exp_what(t->fields, "algs");
    if (user && strcmp(user, "all")) {
        g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
        if (!pact_split_list(user, what, items, err))
            goto fail;
        for (guint i = 0; i < items->len; i++) {
            const char *spec = items->pdata[i];
            g_auto(GStrv) base = g_strsplit(spec, ":", 2);
            if (!pact_alg_find(c, base[0]))
                continue; /* another collective's (pact_tune_run checks every name belongs to one) */
            const pact_alg *a;
            long *v = NULL;
            char why[256];
            if (pact_spec_parse(c, spec, &a, &v, why, sizeof why) != PACT_OK) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: %s", what, spec, why);
                goto fail;
            }
            const char *bad = NULL;
            gboolean runs = pact_tune_target_runs(t->target, a), expr = runs && params_expressible(t->target, a, v, &bad);
            free(v);
            if (!runs) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s %s: %s cannot run %s %s (pact list algorithms shows each algorithm's %s)", what,
                            spec, target_library(t->target), pact_coll_name(c), a->name,
                            t->target == PACT_TUNE_OMPI ? "Open MPI id" : "MPICH name");
                goto fail;
            }
            if (!expr) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s %s: %s's selection file cannot carry parameter %s (%s)", what, spec,
                            target_library(t->target), bad,
                            t->target == PACT_TUNE_OMPI ? "its rules hold a segment size and a fan-out" : "none");
                goto fail;
            }
            add_spec(out, spec);
        }
    } else {
        for (size_t i = 0; i < pact_alg_count(); i++) {
            const pact_alg *a = pact_alg_at(i);
            if (a->coll != c || !pact_tune_target_runs(t->target, a) || (a->restrictions & PACT_R_ORDER))
                continue;
            add_spec(out, a->name);
            int k = pact_alg_param(a, "segsize", 7);
            if (k < 0 || t->target == PACT_TUNE_MPICH)
                continue;
            for (guint s = 0; s < t->segsizes->len; s++) {
                guint64 seg = g_array_index(t->segsizes, guint64, s);
                if ((long)seg == a->params[k].def)
                    continue;
                g_autofree char *spec = g_strdup_printf("%s:segsize=%" G_GUINT64_FORMAT, a->name, seg);
                add_spec(out, spec);
            }
        }
    }
    if (out->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: no candidate for %s that %s can run%s", what,
                    pact_coll_name(c), target_library(t->target), user ? " among those listed" : "");
        goto fail;
    }
    return out;
fail:
    g_ptr_array_unref(out);
    return NULL;
}

/* ---- simulations ------------------------------------------------------------------------------------- */

/* Every cell of the experiment (process count, placement, size) has a candidate that applies there, checked
 * with the arguments pact sim's engines build for it (pact_sweep_build_args); else the cell and each
 * candidate's reason, before anything runs: a placement that admits none (MPICH's smp with a rank per node),
 * a process count none runs at. */
static gboolean runnable_everywhere(const pact_experiment *e, pact_coll c, GPtrArray *algs, GError **err)
{
    for (guint i = 0; i < e->studies->len; i++) {
        const pact_sweep *s = e->studies->pdata[i];
        pact_place place;
        if (pact_place_init(&place, s->procs, s->node_of) != PACT_OK) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "out of memory");
            return FALSE;
        }
        gboolean ok = TRUE;
        for (guint z = 0; ok && z < s->sizes->len; z++) {
            guint64 bytes = g_array_index(s->sizes, guint64, z);
            g_autoptr(GString) why = g_string_new(NULL);
            gboolean any = FALSE;
            for (guint k = 0; k < algs->len && !any; k++) {
                const pact_alg *a;
                long *v = NULL;
                char msg[256];
                if (pact_spec_parse(c, algs->pdata[k], &a, &v, msg, sizeof msg) != PACT_OK)
                    continue; /* pact_tune_candidates refused it already */
                pact_build_args args;
                pact_sweep_build_args(s, &place, v, bytes, &args);
                const char *reason = NULL;
                any = pact_alg_applies(a, &args, &reason) == PACT_OK;
                if (!any)
                    g_string_append_printf(why, "; %s: %s", (char *)algs->pdata[k],
                                           reason ? reason : "restricted");
                free(v);
            }
            if (!any) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s, %d processes (%d per node), %" G_GUINT64_FORMAT
                            " bytes: no candidate can run there%s",
                            pact_coll_name(c), s->procs, s->ppn, bytes, why->str);
                ok = FALSE;
            }
        }
        pact_place_free(&place);
        if (!ok)
            return FALSE;
    }
    return TRUE;
}

/* pact_prune_fn for the model's runs: the objective's pruning (select.c), keeping the choice and runner-up
 * exact, and hybrid's K best. */
static void prune_cells(void *ctx, guint na, guint np, int nd, const double *d, const double *lb,
                        const guint8 *known, guint8 *need)
{
    const pact_tune *t = ctx;
    unsigned keep = t->source == PACT_TUNE_HYBRID && t->hybrid_k > 2 ? (unsigned)t->hybrid_k : 2;
    pact_tune_prune(t->objective, t->pattern_w, keep, na, np, nd, d, lb, known, need);
}

char *pact_tune_keep_key(const char *alg, guint64 bytes, const char *pattern)
{
    return pattern ? g_strdup_printf("%s %" G_GUINT64_FORMAT " %s", alg, bytes, pattern)
                   : g_strdup_printf("%s %" G_GUINT64_FORMAT, alg, bytes);
}

/* pact_keep_fn of the hybrid's SimGrid runs: the cell's key in the set, for every pattern or for its own */
static gboolean keep_cell(void *ctx, const pact_sweep *s, guint alg, guint size, guint pat)
{
    const char *a = s->algs->pdata[alg];
    const guint64 bytes = g_array_index(s->sizes, guint64, size);
    g_autofree char *key = pact_tune_keep_key(a, bytes, NULL);
    g_autofree char *one = pact_tune_keep_key(a, bytes, s->patterns->pdata[pat]);
    return g_hash_table_contains(ctx, key) || g_hash_table_contains(ctx, one);
}

gboolean pact_tune_simulate(pact_tune *t, pact_coll c, GPtrArray *algs, const char *engine, const char *nodes,
                            const char *ppn, const char *dir, GHashTable *keep, GError **err)
{
    /* dir NULL: only check that the experiment builds (every name, size, pattern and file) */
    GHashTable *f = pact_exp_copy(t->fields, FALSE);
    GString *a = g_string_new(NULL);
    for (guint i = 0; i < algs->len; i++)
        g_string_append_printf(a, "%s%s", i ? "," : "", (char *)algs->pdata[i]);
    pact_exp_set(f, "coll", pact_coll_name(c), NULL);
    pact_exp_set(f, "algs", a->str, NULL);
    /* MPICH broadcasts a contiguous buffer as bytes, whatever its datatype (binomial, smp's thresholds, the
     * scatter algorithms' blocks of ceil(bytes/P) bytes): on chars pact's builders say MPICH's schedule for
     * every size, where on wider elements the byte blocks would split one (PACT_R_BYTE_SPLIT) */
    if (t->target == PACT_TUNE_MPICH && c == PACT_COLL_BCAST)
        pact_exp_set(f, "dtype", "char", NULL);
    pact_exp_set(f, "engine", engine, NULL);
    if (!strcmp(engine, "model"))
        pact_exp_set(f, "reps", "1", NULL); /* the model is deterministic: one call says it all */
    if (nodes)
        pact_exp_set(f, "nodes", nodes, NULL);
    if (ppn)
        pact_exp_set(f, "ppn", ppn, NULL);
    if (strcmp(engine, "smpi")) /* --shard deals the SimGrid runs; the model's run whole in every shard */
        g_hash_table_remove(f, "shard");
    g_string_free(a, TRUE);
    pact_experiment e;
    pact_experiment_init(&e);
    char *summary = NULL;
    gboolean ok = pact_experiment_build(f, &e, err);
    if (ok && !dir)
        ok = runnable_everywhere(&e, c, algs, err);
    if (ok && dir) {
        g_free(e.outdir);
        e.outdir = g_strdup(dir);
        e.outdir_default = FALSE;
        e.jobs = t->jobs;
        e.quiet = t->quiet;
        e.figures = FALSE;
        if (!strcmp(engine, "model") && !t->exhaustive) {
            e.prune = prune_cells;
            e.prune_ctx = t;
        }
        /* SimGrid simulates once what two candidates build alike, and hybrid's candidates under the patterns
         * only where the model ranks them among the K best; --exhaustive runs every cell */
        e.twins = !strcmp(engine, "smpi") && !t->exhaustive;
        if (keep && !t->exhaustive) {
            e.keep = keep_cell;
            e.keep_ctx = keep;
        }
        ok = pact_experiment_run(&e, &summary, err);
    }
    g_free(summary);
    pact_experiment_clear(&e);
    g_hash_table_destroy(f);
    return ok;
}

/* ---- d^ tables from results.csv ---------------------------------------------------------------------- */

/* "NAME" or "NAME:p=v,..." with the values that differ from the defaults, as pact_table_spec writes it. */
char *pact_tune_canonical(pact_coll c, const char *spec)
{
    const pact_alg *a;
    long *v = NULL;
    char why[256], p[400] = "";
    if (pact_spec_parse(c, spec, &a, &v, why, sizeof why) != PACT_OK)
        return g_strdup(spec);
    pact_params_format(a, v, p, sizeof p);
    free(v);
    g_strdelimit(p, ",", ':'); /* the spec's own separator */
    return *p ? g_strdup_printf("%s:%s", a->name, p) : g_strdup(a->name);
}

typedef struct {
    pact_tune_grid *g;
    const char *coll;
    GHashTable *alg_index; /* canonical spec -> index + 1 */
    GHashTable *pat_index; /* pattern -> index + 1 */
    GHashTable *sums;      /* "procs ppn bytes" -> double[2 * na * np] (sum, count) */
} load_ctx;

static gboolean load_row(const pact_result_row *r, const char *line, int lineno, gpointer user, GError **err)
{
    (void)line;
    (void)lineno;
    (void)err;
    load_ctx *x = user;
    pact_tune_grid *g = x->g;
    if (strcmp(r->coll, x->coll))
        return TRUE;
    g_autofree char *canon = pact_tune_canonical(g->coll, r->alg);
    guint ai = GPOINTER_TO_UINT(g_hash_table_lookup(x->alg_index, canon));
    guint pi = GPOINTER_TO_UINT(g_hash_table_lookup(x->pat_index, r->pattern));
    if (!ai || !pi)
        return TRUE; /* a resumed folder's rows of candidates no longer asked for */
    g_autofree char *key = g_strdup_printf("%d %d %" G_GUINT64_FORMAT, r->procs, r->ppn, r->bytes);
    double *s = g_hash_table_lookup(x->sums, key);
    if (!s) {
        s = g_new0(double, 2 * g->na * g->np);
        g_hash_table_insert(x->sums, g_strdup(key), s);
        pact_tune_cell cell = {.coll = g->coll, .procs = r->procs, .ppn = r->ppn, .bytes = r->bytes};
        g_array_append_val(g->cells, cell);
    }
    size_t at = 2 * ((ai - 1) * g->np + (pi - 1));
    if (!strcmp(r->status, "ok") && !isnan(r->last)) {
        s[at] += r->last;
        s[at + 1] += 1;
    } else if (!strcmp(r->status, "late") || !strcmp(r->status, "wrong"))
        g->unreliable++;
    return TRUE;
}

static int cell_cmp(gconstpointer a, gconstpointer b)
{
    const pact_tune_cell *x = a, *y = b;
    if (x->procs != y->procs)
        return x->procs < y->procs ? -1 : 1;
    if (x->ppn != y->ppn)
        return x->ppn < y->ppn ? -1 : 1;
    return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

gboolean pact_tune_load(pact_tune_grid *g, const char *csv, GError **err)
{
    gsize len;
    char *text = pact_read_file(csv, &len, err);
    if (!text)
        return FALSE;
    load_ctx x = {.g = g, .coll = pact_coll_name(g->coll)};
    x.alg_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    x.pat_index = g_hash_table_new(g_str_hash, g_str_equal);
    x.sums = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    for (unsigned a = 0; a < g->na; a++)
        g_hash_table_insert(x.alg_index, pact_tune_canonical(g->coll, g->algs->pdata[a]), GUINT_TO_POINTER(a + 1));
    for (unsigned p = 0; p < g->np; p++)
        g_hash_table_insert(x.pat_index, g->patterns->pdata[p], GUINT_TO_POINTER(p + 1));
    gboolean ok = pact_results_parse(text, len, csv, FALSE, load_row, &x, err);
    g_free(text);
    if (ok) {
        g_array_sort(g->cells, cell_cmp);
        for (guint i = 0; i < g->cells->len; i++) {
            pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
            if (c->d)
                continue; /* read from an earlier file */
            g_autofree char *key = g_strdup_printf("%d %d %" G_GUINT64_FORMAT, c->procs, c->ppn, c->bytes);
            const double *s = g_hash_table_lookup(x.sums, key);
            c->d = g_new(double, g->na * g->np);
            for (size_t k = 0; k < (size_t)g->na * g->np; k++)
                c->d[k] = s[2 * k + 1] > 0 ? s[2 * k] / s[2 * k + 1] : NAN;
        }
    }
    g_hash_table_destroy(x.alg_index);
    g_hash_table_destroy(x.pat_index);
    g_hash_table_destroy(x.sums);
    return ok;
}

void pact_tune_grid_free(pact_tune_grid *g)
{
    if (!g)
        return;
    for (guint i = 0; g->cells && i < g->cells->len; i++) {
        pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
        g_free(c->d);
    }
    if (g->cells)
        g_array_free(g->cells, TRUE);
    if (g->algs)
        g_ptr_array_unref(g->algs);
    g_free(g->choice);
    g_free(g->model_choice);
    g_free(g->value);
    g_free(g->runner);
    g_free(g->runner_value);
    g_free(g->nodelay);
    g_free(g);
}
