/*
 * run.c - pact_tune_run: the grid's fields checked, the folder claimed (or resumed), each collective's
 * candidates simulated (model, SimGrid, or the model then SimGrid on its K best per cell), the choices made
 * and merged into ranges, and every output written.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "pact_emit.h"
#include "pact_host.h"
#include "pact_objectives.h"
#include "pact_run.h"
#include "tune_int.h"

static const char *const all_colls = "allreduce,reduce,bcast,alltoall,allgather,barrier,reduce_scatter";

/* Writes PATH.tmp then renames it. */
static gboolean write_atomic(const char *path, const char *text, GError **err)
{
    g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
    GError *e = NULL;
    if (!g_file_set_contents(tmp, text, -1, &e) || rename(tmp, path) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", path, e ? e->message : g_strerror(errno));
        g_clear_error(&e);
        remove(tmp);
        return FALSE;
    }
    return TRUE;
}

/* The patterns: the fields' (default and "all": the 11 shapes), no_delay first if missing (the no-delay
 * choice and the gains are measured against it), the expected objective's recorded pattern last. */
static gboolean patterns_of(pact_tune *t, GPtrArray *out, GError **err)
{
    const char *v = pact_exp_get(t->fields, "patterns");
    g_autofree char *what = pact_exp_what(t->fields, "patterns");
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
    if (v && !pact_split_list(v, what, items, err))
        return FALSE;
    if (!v || (items->len == 1 && !strcmp(items->pdata[0], "all"))) {
        g_ptr_array_set_size(items, 0);
        for (int i = 0; i < PACT_TUNE_NSHAPES; i++)
            g_ptr_array_add(items, g_strdup(pact_tune_shapes[i]));
    }
    gboolean nd = FALSE;
    for (guint i = 0; i < items->len; i++)
        nd |= !strcmp(items->pdata[i], "no_delay");
    if (!nd)
        g_ptr_array_add(out, g_strdup("no_delay"));
    for (guint i = 0; i < items->len; i++) {
        if (!strcmp(items->pdata[i], "all")) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: 'all' stands alone (the 11 shapes)", what);
            return FALSE;
        }
        g_ptr_array_add(out, g_strdup(items->pdata[i]));
    }
    if (t->expected_file) {
        g_autofree char *f = g_strconcat("file:", t->expected_file, NULL);
        gboolean have = FALSE;
        for (guint i = 0; i < out->len; i++)
            have |= !strcmp(out->pdata[i], f);
        if (!have)
            g_ptr_array_add(out, g_strdup(f));
    }
    return TRUE;
}

/* The expected objective's weight per pattern (NULL: uniform); a weighted pattern must be in the set. */
static double *weights_of(pact_tune *t, GPtrArray *patterns, GError **err)
{
    if (t->objective != PACT_TUNE_EXPECTED || (!t->weights && !t->expected_file))
        return NULL;
    double *w = g_new0(double, patterns->len);
    for (guint p = 0; p < patterns->len; p++) {
        const char *name = patterns->pdata[p];
        if (t->expected_file)
            w[p] = g_str_has_prefix(name, "file:") && !strcmp(name + 5, t->expected_file);
        else if (g_hash_table_contains(t->weights, name))
            w[p] = *(double *)g_hash_table_lookup(t->weights, name);
    }
    if (t->weights) {
        GHashTableIter it;
        gpointer k;
        g_hash_table_iter_init(&it, t->weights);
        while (g_hash_table_iter_next(&it, &k, NULL)) {
            gboolean found = FALSE;
            for (guint p = 0; p < patterns->len; p++)
                found |= !strcmp(patterns->pdata[p], k);
            if (!found) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--objective %s: pattern '%s' is not among the patterns tuned for", t->objective_text,
                            (char *)k);
                g_free(w);
                return NULL;
            }
        }
    }
    return w;
}

/* tune.yaml: the canonical experiment and the tuner's own settings; a folder holding another is refused. */
static gboolean claim_folder(pact_tune *t, GError **err)
{
    GHashTable *f = pact_exp_copy(t->fields, FALSE);
    g_hash_table_remove(f, "shard");
    g_autofree char *exp = pact_exp_dump(f, FALSE);
    g_hash_table_destroy(f);
    GString *s = g_string_new("# pact tune (canonical form: a resumed run compares it)\n");
    g_string_append(s, strchr(exp, '\n') ? strchr(exp, '\n') + 1 : exp);
    g_string_append_printf(s, "objective: \"%s\"\nsource: \"%s", t->objective_text, pact_tune_source_name(t->source));
    if (t->source == PACT_TUNE_HYBRID)
        g_string_append_printf(s, ":%d", t->hybrid_k);
    g_string_append_printf(s, "\"\ntarget: \"%s\"\nsegsizes: [", pact_tune_target_name(t->target));
    for (guint i = 0; i < t->segsizes->len; i++)
        g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i ? ", " : "", g_array_index(t->segsizes, guint64, i));
    g_string_append(s, "]\n");
    if (t->exhaustive) /* its runs/ hold every cell; a pruned folder's lack some */
        g_string_append(s, "exhaustive: true\n");
    g_autofree char *text = g_string_free(s, FALSE);
    g_autofree char *path = g_build_filename(t->outdir, "tune.yaml", NULL);
    if (g_file_test(t->outdir, G_FILE_TEST_IS_DIR)) {
        g_autofree char *old = NULL;
        if (g_file_get_contents(path, &old, NULL, NULL)) {
            if (strcmp(old, text)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s holds another tuning (its tune.yaml differs from this one): choose another -o, or "
                            "remove it",
                            t->outdir);
                return FALSE;
            }
            return TRUE; /* resume */
        }
        /* empty, or holding only runs/ (simulations copied from another tuning of the same grid, so that another
         * objective decides again without simulating: pact sim checks that they are the same experiments) */
        GDir *d = g_dir_open(t->outdir, 0, NULL);
        gboolean empty = TRUE;
        for (const char *n; d && (n = g_dir_read_name(d));)
            empty &= !strcmp(n, "runs");
        if (d)
            g_dir_close(d);
        if (!empty) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: not empty and not a pact tune folder (no tune.yaml)",
                        t->outdir);
            return FALSE;
        }
    } else if (g_mkdir_with_parents(t->outdir, 0755) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", t->outdir, g_strerror(errno));
        return FALSE;
    }
    return write_atomic(path, text, err);
}

/* The objective's choice, runner-up and the no-delay choice of every cell. */
static gboolean decide(pact_tune *t, pact_tune_grid *g, GError **err)
{
    guint n = g->cells->len;
    g->choice = g_new(unsigned, n);
    g->runner = g_new(unsigned, n);
    g->nodelay = g_new(unsigned, n);
    g->value = g_new(double, n);
    g->runner_value = g_new(double, n);
    gboolean *full = g_new(gboolean, MAX(g->na, 1u));
    for (guint i = 0; i < n; i++) {
        const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
        g->choice[i] = pact_tune_pick(t->objective, c->d, g->na, g->np, g->nd, g->w, NULL, PACT_OBJ_NONE, &g->value[i]);
        if (g->choice[i] == PACT_OBJ_NONE) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                        "%s, %d processes (%d per node), %" G_GUINT64_FORMAT
                        " bytes: no candidate has a d^ under every pattern the objective needs (restricted or "
                        "failed runs: see the results.csv under %s/runs)",
                        pact_coll_name(g->coll), c->procs, c->ppn, c->bytes, t->outdir);
            g_free(full);
            return FALSE;
        }
        g->runner[i] = pact_tune_pick(t->objective, c->d, g->na, g->np, g->nd, g->w, NULL, g->choice[i],
                                      &g->runner_value[i]);
        /* the no-delay choice, the summary's reference, among the candidates with a d^ under every pattern
         * (hybrid keeps every candidate's no-delay d^, SimGrid's, to divide by; source model and sim have
         * the no-delay best's d^ everywhere) */
        for (unsigned a = 0; a < g->na; a++)
            full[a] = !isnan(pact_tune_value(PACT_TUNE_ROBUST, c->d, g->na, g->np, g->nd, NULL, a));
        g->nodelay[i] =
            pact_tune_pick(PACT_TUNE_NO_DELAY, c->d, g->na, g->np, g->nd, NULL, full, PACT_OBJ_NONE, NULL);
    }
    g_free(full);
    return TRUE;
}

/* 0 when two cells are the same (procs, ppn, bytes). */
static int cell_key_cmp(const pact_tune_cell *a, const pact_tune_cell *b)
{
    return a->procs != b->procs || a->ppn != b->ppn || a->bytes != b->bytes;
}

/* Hybrid: SimGrid re-runs, per (procs, ppn), each cell's K best under the model (every candidate without
 * delay); each cell then decides among its own K best on SimGrid's d^.  Robust and regret divide each
 * pattern's d^ by the best there over every candidate, not over the K: so SimGrid also runs, under each
 * pattern alone, the candidate the model finds best there, and the model's no-delay choice (the table's
 * reference in the summary) under every pattern; those d^ and every candidate's no-delay d^ stay in the cell,
 * the rest are masked.  (Dividing by the best of the K alone, hybrid:2 chose otherwise than --source sim and
 * the model, which agreed to 1e-12, in 9 of 14 cells of reduce on 4 x 2 ranks.)  A cell's choice still needs
 * a d^ under every pattern: one of the K best, or the no-delay choice. */
static gboolean hybrid(pact_tune *t, pact_tune_grid *gm, pact_tune_grid **out, GError **err)
{
    pact_tune_grid *gs = g_new0(pact_tune_grid, 1);
    *gs = (pact_tune_grid){.coll = gm->coll, .algs = g_ptr_array_ref(gm->algs), .patterns = gm->patterns,
                           .na = gm->na, .np = gm->np, .nd = gm->nd, .w = gm->w};
    gs->cells = g_array_new(FALSE, TRUE, sizeof(pact_tune_cell));
    *out = gs;
    const gboolean by_best = t->objective == PACT_TUNE_ROBUST || t->objective == PACT_TUNE_REGRET;
    /* top[i * na + a]: a runs under every pattern at cell i (among its K best under the model, or, where the
     * objective divides by each pattern's best, the model's no-delay choice); pbest[i * np + p]: the model's
     * best under pattern p at cell i, which runs there (by_best; PACT_OBJ_NONE: none) */
    gboolean *top = g_new0(gboolean, (size_t)gm->cells->len * gm->na);
    unsigned *pbest = g_new(unsigned, (size_t)gm->cells->len * gm->np);
    double *v = g_new(double, gm->na);
    for (guint i = 0; i < gm->cells->len; i++) {
        const pact_tune_cell *c = &g_array_index(gm->cells, pact_tune_cell, i);
        for (unsigned a = 0; a < gm->na; a++)
            v[a] = pact_tune_value(t->objective, c->d, gm->na, gm->np, gm->nd, gm->w, a);
        for (int k = 0; k < t->hybrid_k; k++) {
            unsigned best = PACT_OBJ_NONE;
            for (unsigned a = 0; a < gm->na; a++)
                if (!top[i * gm->na + a] && !isnan(v[a]) && (best == PACT_OBJ_NONE || pact_obj_better(v[a], v[best])))
                    best = a;
            if (best != PACT_OBJ_NONE)
                top[i * gm->na + best] = TRUE;
        }
        const pact_obj_table ot = {.na = gm->na, .np = gm->np, .d = c->d, .stride = gm->np, .nd = gm->nd};
        for (unsigned p = 0; p < gm->np; p++)
            pbest[i * gm->np + p] = by_best ? pact_obj_best(&ot, p, PACT_OBJ_NONE) : PACT_OBJ_NONE;
        if (by_best && gm->nodelay && gm->nodelay[i] != PACT_OBJ_NONE)
            top[i * gm->na + gm->nodelay[i]] = TRUE;
    }
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < gm->cells->len;) {
        const pact_tune_cell *c = &g_array_index(gm->cells, pact_tune_cell, i);
        guint j = i;
        /* what runs under the patterns: each size's K best, and the rest above; every candidate runs without
         * delay, as under --source sim: the skews are the factor times the mean no-delay time of them all, so
         * the patterns are sim's whatever K is, and the model's up to the engines' no-delay times (the union
         * of the K best alone, as before, gave half the model's skew at 64 KiB on 16 ranks where it left out
         * two slow candidates) */
        g_autoptr(GHashTable) keep = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        while (j < gm->cells->len && g_array_index(gm->cells, pact_tune_cell, j).procs == c->procs &&
               g_array_index(gm->cells, pact_tune_cell, j).ppn == c->ppn)
            j++;
        for (guint k = i; k < j; k++) {
            const guint64 bytes = g_array_index(gm->cells, pact_tune_cell, k).bytes;
            for (unsigned a = 0; a < gm->na; a++)
                if (top[k * gm->na + a])
                    g_hash_table_add(keep, pact_tune_keep_key(gm->algs->pdata[a], bytes, NULL));
            for (unsigned p = 0; p < gm->np; p++) {
                const unsigned b = pbest[k * gm->np + p];
                if (b != PACT_OBJ_NONE && !top[k * gm->na + b] && (int)p != gm->nd)
                    g_hash_table_add(keep,
                                     pact_tune_keep_key(gm->algs->pdata[b], bytes, gm->patterns->pdata[p]));
            }
        }
        g_autofree char *nodes = g_strdup_printf("%d", c->procs / c->ppn);
        g_autofree char *ppn = g_strdup_printf("%d", c->ppn);
        g_autofree char *name = g_strdup_printf("smpi-%s-%sx%s", pact_coll_name(gm->coll), nodes, ppn);
        g_autofree char *dir = g_build_filename(t->outdir, "runs", name, NULL);
        g_autofree char *csv = g_build_filename(dir, "results.csv", NULL);
        ok = pact_tune_simulate(t, gm->coll, gm->algs, "smpi", nodes, ppn, dir, keep, err) &&
             (pact_exp_get(t->fields, "shard") || pact_tune_load(gs, csv, err));
        i = j;
    }
    if (pact_exp_get(t->fields, "shard")) { /* a shard's runs hold part of the cells: nothing to decide */
        g_free(v);
        g_free(pbest);
        g_free(top);
        return ok;
    }
    /* mask what the cell does not use (above); keep the model's own choice to compare */
    if (ok)
        gs->model_choice = g_new(unsigned, gs->cells->len);
    for (guint i = 0; ok && i < gs->cells->len; i++) {
        pact_tune_cell *c = &g_array_index(gs->cells, pact_tune_cell, i);
        guint m = 0;
        while (m < gm->cells->len && cell_key_cmp(&g_array_index(gm->cells, pact_tune_cell, m), c))
            m++;
        gs->model_choice[i] = m < gm->cells->len && gm->choice ? gm->choice[m] : PACT_OBJ_NONE;
        for (unsigned a = 0; a < gs->na; a++)
            if (m == gm->cells->len || !top[m * gm->na + a])
                for (unsigned p = 0; p < gs->np; p++)
                    if (m == gm->cells->len || !by_best || ((int)p != gs->nd && pbest[m * gm->np + p] != a))
                        c->d[a * gs->np + p] = NAN;
    }
    g_free(v);
    g_free(pbest);
    g_free(top);
    return ok;
}

/* Merges each (procs, ppn)'s consecutive sizes with the same choice into rows of the table.  A row stands
 * for its worst size (the first where the choice's value is the largest): its value is the choice's there,
 * and its runner-up is that size's runner-up, with its value, which the choice's does not exceed.  (The
 * runner-up had been the first size's, beside the worst size's value: rows read as if the runner-up beat
 * the choice.) */
static void to_table(pact_tune *t, const pact_tune_grid *g, pact_table *table)
{
    for (guint i = 0; i < g->cells->len;) {
        const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
        guint j = i + 1, wi = i;
        while (j < g->cells->len && g_array_index(g->cells, pact_tune_cell, j).procs == c->procs &&
               g_array_index(g->cells, pact_tune_cell, j).ppn == c->ppn && g->choice[j] == g->choice[i]) {
            if (!isnan(g->value[j]) && (isnan(g->value[wi]) || g->value[j] > g->value[wi]))
                wi = j;
            j++;
        }
        gboolean first = i == 0 || g_array_index(g->cells, pact_tune_cell, i - 1).procs != c->procs ||
                         g_array_index(g->cells, pact_tune_cell, i - 1).ppn != c->ppn;
        gboolean last = j == g->cells->len || g_array_index(g->cells, pact_tune_cell, j).procs != c->procs ||
                        g_array_index(g->cells, pact_tune_cell, j).ppn != c->ppn;
        const pact_alg *a;
        long *v = NULL;
        char why[256];
        pact_spec_parse(g->coll, g->algs->pdata[g->choice[i]], &a, &v, why, sizeof why);
        g_autofree char *runner = g->runner[wi] == PACT_OBJ_NONE
                                      ? NULL
                                      : pact_tune_canonical(g->coll, g->algs->pdata[g->runner[wi]]);
        pact_table_row r = {.coll = g->coll,
                            .procs = c->procs,
                            .ppn = c->ppn,
                            .min_bytes = first ? 0 : c->bytes,
                            .max_bytes =
                                last ? PACT_TABLE_INF : g_array_index(g->cells, pact_tune_cell, j).bytes - 1,
                            .alg = a,
                            .params = v,
                            .objective = t->objective_text,
                            .value = g->value[wi],
                            .runner_up = runner,
                            .runner_up_value = g->runner_value[wi]};
        pact_table_add(table, &r);
        free(v);
        i = j;
    }
}

/* The target's selection file(s): one per ppn value (the libraries do not know how ranks sit on nodes). */
static gboolean emit(pact_tune *t, const pact_table *table, GPtrArray *written, GError **err)
{
    if (t->target == PACT_TUNE_PACT)
        return TRUE;
    g_autoptr(GArray) ppns = g_array_new(FALSE, FALSE, sizeof(int));
    for (guint i = 0; i < table->rows->len; i++) {
        int q = g_array_index(table->rows, pact_table_row, i).ppn;
        gboolean seen = FALSE;
        for (guint k = 0; k < ppns->len; k++)
            seen |= g_array_index(ppns, int, k) == q;
        if (!seen)
            g_array_append_val(ppns, q);
    }
    for (guint k = 0; k < ppns->len; k++) {
        int q = g_array_index(ppns, int, k);
        GString *out = g_string_new(NULL);
        gboolean ok = t->target == PACT_TUNE_OMPI ? pact_emit_ompi(table, q, out, err)
                                                  : pact_emit_mpich(table, q, out, err);
        const char *stem = t->target == PACT_TUNE_OMPI ? "ompi-rules" : "mpich-csel";
        const char *ext = t->target == PACT_TUNE_OMPI ? "conf" : "json";
        g_autofree char *name = ppns->len == 1 ? g_strdup_printf("%s.%s", stem, ext)
                                               : g_strdup_printf("%s-ppn%d.%s", stem, q, ext);
        g_autofree char *path = g_build_filename(t->outdir, name, NULL);
        ok = ok && write_atomic(path, out->str, err);
        g_string_free(out, TRUE);
        if (!ok)
            return FALSE;
        g_ptr_array_add(written, g_steal_pointer(&path));
    }
    return TRUE;
}

/* Every --algs name is an algorithm of one of the collectives tuned. */
static gboolean algs_known(pact_tune *t, GPtrArray *colls, GError **err)
{
    const char *user = pact_exp_get(t->fields, "algs");
    if (!user || !strcmp(user, "all"))
        return TRUE;
    g_autofree char *what = pact_exp_what(t->fields, "algs");
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
    if (!pact_split_list(user, what, items, err))
        return FALSE;
    for (guint i = 0; i < items->len; i++) {
        g_auto(GStrv) base = g_strsplit(items->pdata[i], ":", 2);
        gboolean any = FALSE;
        for (guint c = 0; c < colls->len; c++)
            any |= pact_alg_find((pact_coll)GPOINTER_TO_INT(colls->pdata[c]), base[0]) != NULL;
        if (!any) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s: '%s' is an algorithm of none of the collectives tuned (pact list algorithms)", what,
                        base[0]);
            return FALSE;
        }
    }
    return TRUE;
}

static gint coll_order(gconstpointer a, gconstpointer b)
{
    return GPOINTER_TO_INT(*(void *const *)a) - GPOINTER_TO_INT(*(void *const *)b);
}

static gint cmp_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean pact_tune_merge(const char *outdir, char **dirs, GError **err)
{
    if (!dirs || !dirs[0]) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "pact tune merge: no folder to merge");
        return FALSE;
    }
    g_autofree char *yaml = NULL;
    g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; dirs[i]; i++) {
        g_autofree char *path = g_build_filename(dirs[i], "tune.yaml", NULL), *text = NULL;
        if (!g_file_get_contents(path, &text, NULL, NULL)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: not a pact tune folder (no tune.yaml)", dirs[i]);
            return FALSE;
        }
        if (!yaml)
            yaml = g_steal_pointer(&text);
        else if (strcmp(yaml, text)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: another tuning than %s/tune.yaml", path, dirs[0]);
            return FALSE;
        }
        g_autofree char *rd = g_build_filename(dirs[i], "runs", NULL);
        GDir *d = g_dir_open(rd, 0, NULL);
        for (const char *n; d && (n = g_dir_read_name(d));) {
            gboolean seen = FALSE;
            for (guint k = 0; k < runs->len; k++)
                seen |= !strcmp(runs->pdata[k], n);
            if (!seen)
                g_ptr_array_add(runs, g_strdup(n));
        }
        if (d)
            g_dir_close(d);
    }
    if (g_file_test(outdir, G_FILE_TEST_EXISTS)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s exists: pact tune merge writes a new folder", outdir);
        return FALSE;
    }
    g_ptr_array_sort(runs, cmp_names);
    /* every run folder of the tuning, joined as pact merge joins pact sim's shards (a folder every shard ran
     * whole, the model's, joins with itself), into a folder beside outdir renamed to it at the end: a failure
     * leaves nothing half-written */
    g_autofree char *part = g_strdup_printf("%s.merging-%d", outdir, (int)getpid());
    pact_rm_rf(part);
    for (guint k = 0; k < runs->len; k++) {
        g_autoptr(GPtrArray) from = g_ptr_array_new_with_free_func(g_free);
        for (int i = 0; dirs[i]; i++) {
            char *rd = g_build_filename(dirs[i], "runs", (char *)runs->pdata[k], NULL);
            if (g_file_test(rd, G_FILE_TEST_IS_DIR))
                g_ptr_array_add(from, rd);
            else
                g_free(rd);
        }
        g_ptr_array_add(from, NULL);
        g_autofree char *to = g_build_filename(part, "runs", (char *)runs->pdata[k], NULL);
        char *summary = NULL;
        gboolean ok = pact_experiment_merge(to, (char **)from->pdata, FALSE, &summary, err);
        g_free(summary);
        if (!ok) {
            g_prefix_error(err, "runs/%s: ", (char *)runs->pdata[k]);
            pact_rm_rf(part);
            return FALSE;
        }
    }
    g_autofree char *path = g_build_filename(part, "tune.yaml", NULL);
    if (g_mkdir_with_parents(part, 0755) != 0 || !write_atomic(path, yaml, err) || rename(part, outdir) != 0) {
        if (err && !*err)
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", outdir, g_strerror(errno));
        pact_rm_rf(part);
        return FALSE;
    }
    return TRUE;
}

gboolean pact_tune_run(pact_tune *t, char **summary, GError **err)
{
    gboolean ok = FALSE;
    g_autoptr(GPtrArray) colls = g_ptr_array_new();
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) patterns = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) grids = g_ptr_array_new_with_free_func((GDestroyNotify)pact_tune_grid_free);
    g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) cands = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    g_autofree char *tpath = g_build_filename(t->outdir, "table.csv", NULL);
    g_autofree char *spath = g_build_filename(t->outdir, "summary.txt", NULL);
    double *w = NULL;
    pact_table table;
    pact_table_init(&table);
    const char *cv = pact_exp_get(t->fields, "coll");
    g_autofree char *cwhat = pact_exp_what(t->fields, "coll");
    if (!pact_split_list(cv ? cv : all_colls, cwhat, names, err))
        goto out;
    for (guint i = 0; i < names->len; i++) {
        int c = pact_coll_from_name(names->pdata[i]);
        if (c < 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: unknown collective (%s)", cwhat,
                        (char *)names->pdata[i], pact_coll_list());
            goto out;
        }
        for (guint k = 0; k < colls->len; k++)
            if (GPOINTER_TO_INT(colls->pdata[k]) == c) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: given twice", cwhat, (char *)names->pdata[i]);
                goto out;
            }
        g_ptr_array_add(colls, GINT_TO_POINTER(c));
    }
    g_ptr_array_sort(colls, coll_order); /* the table's order: collectives.inc's */
    if (!algs_known(t, colls, err) || !patterns_of(t, patterns, err))
        goto out;
    if (!(w = weights_of(t, patterns, err)) && err && *err)
        goto out;
    t->pattern_w = w;
    GString *pj = g_string_new(NULL);
    for (guint p = 0; p < patterns->len; p++)
        g_string_append_printf(pj, "%s%s", p ? "," : "", (char *)patterns->pdata[p]);
    pact_exp_set(t->fields, "patterns", pj->str, pact_exp_origin(t->fields, "patterns"));
    g_string_free(pj, TRUE);
    if (!pact_exp_get(t->fields, "sizes"))
        pact_exp_set(t->fields, "sizes", "1..64M", NULL);
    /* one call per cell under SimGrid too: its simulation is deterministic, so a cell's further calls repeat
     * the first (within 1 ns: pact sim's smpi engine, 7 collectives, 2 calls a cell, 1,276 rows) and cost as
     * much (ring allreduce on 256 ranks, 1-8 MiB: 3.5-4.6 s a call) */
    if (!pact_exp_get(t->fields, "reps"))
        pact_exp_set(t->fields, "reps", "1", NULL);
    if (!pact_exp_get(t->fields, "dtype")) {
        /* sizes are bytes: whole doubles where they can be, else bytes (char) */
        g_autoptr(GArray) sz = g_array_new(FALSE, FALSE, sizeof(guint64));
        g_autofree char *sw = pact_exp_what(t->fields, "sizes");
        if (!pact_parse_size_list(pact_exp_get(t->fields, "sizes"), sw, sz, err))
            goto out;
        gboolean whole = TRUE;
        for (guint i = 0; i < sz->len; i++)
            whole &= g_array_index(sz, guint64, i) % 8 == 0;
        pact_exp_set(t->fields, "dtype", whole ? "double" : "char", NULL);
    }
    /* sizes MPICH's CSEL file cannot carry (its thresholds are ints), refused before anything runs; allgather's
     * scale by the process count when the grid says it (else the emitter refuses after the runs) */
    if (t->target == PACT_TUNE_MPICH) {
        g_autoptr(GArray) sz = g_array_new(FALSE, FALSE, sizeof(guint64));
        g_autofree char *sw = pact_exp_what(t->fields, "sizes");
        if (!pact_parse_size_list(pact_exp_get(t->fields, "sizes"), sw, sz, err))
            goto out;
        guint64 top = 0;
        for (guint i = 0; i < sz->len; i++)
            top = MAX(top, g_array_index(sz, guint64, i));
        long procs = 1;
        const char *nv = pact_exp_get(t->fields, "nodes"), *pv = pact_exp_get(t->fields, "ppn");
        if (nv && pv) {
            long mn = 0, mp = 0;
            g_auto(GStrv) ns = g_strsplit(nv, ",", -1), ps = g_strsplit(pv, ",", -1);
            for (char **x = ns; *x; x++)
                mn = MAX(mn, atol(*x));
            for (char **x = ps; *x; x++)
                mp = MAX(mp, atol(*x));
            procs = mn * mp > 0 ? mn * mp : 1;
        }
        for (guint i = 0; i < colls->len; i++) {
            pact_coll c = (pact_coll)GPOINTER_TO_INT(colls->pdata[i]);
            guint64 scale = c == PACT_COLL_ALLGATHER ? (guint64)procs : 1;
            if (top > 0 && (top - 1) * scale > (guint64)G_MAXINT) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: MPICH %s reads size thresholds as int: %s of %" G_GUINT64_FORMAT " B%s cannot be "
                            "written (tune smaller sizes, or --target pact)",
                            sw, pact_emit_mpich_version(), pact_coll_name(c), top,
                            scale > 1 ? " x the process count" : "");
                goto out;
            }
        }
    }
    const char *shard = pact_exp_get(t->fields, "shard");
    if (shard && t->source == PACT_TUNE_MODEL) {
        g_autofree char *sw = pact_exp_what(t->fields, "shard");
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "%s %s: shards deal SimGrid's runs (--source sim or hybrid); the model runs in one process", sw,
                    shard);
        goto out;
    }
    /* every candidate list is checked before anything runs */
    for (guint i = 0; i < colls->len; i++) {
        GPtrArray *a = pact_tune_candidates(t, (pact_coll)GPOINTER_TO_INT(colls->pdata[i]), err);
        if (!a)
            goto out;
        g_ptr_array_add(cands, a);
        if (!pact_tune_simulate(t, (pact_coll)GPOINTER_TO_INT(colls->pdata[i]), a,
                                t->source == PACT_TUNE_SIM ? "smpi" : "model", NULL, NULL, NULL, NULL, err))
            goto out;
        /* hybrid's SimGrid runs come after the model's: their fields (a --shard) checked now too */
        if (t->source == PACT_TUNE_HYBRID &&
            !pact_tune_simulate(t, (pact_coll)GPOINTER_TO_INT(colls->pdata[i]), a, "smpi", NULL, NULL, NULL,
                                NULL, err))
            goto out;
    }
    if (!claim_folder(t, err))
        goto out;
    int nd = -1;
    for (guint p = 0; p < patterns->len; p++)
        if (!strcmp(patterns->pdata[p], "no_delay"))
            nd = (int)p;
    for (guint i = 0; i < colls->len; i++) {
        pact_coll c = (pact_coll)GPOINTER_TO_INT(colls->pdata[i]);
        pact_tune_grid *g = g_new0(pact_tune_grid, 1);
        *g = (pact_tune_grid){.coll = c, .algs = g_ptr_array_ref(cands->pdata[i]), .patterns = patterns,
                              .na = ((GPtrArray *)cands->pdata[i])->len, .np = patterns->len, .nd = nd, .w = w};
        g->cells = g_array_new(FALSE, TRUE, sizeof(pact_tune_cell));
        g_ptr_array_add(grids, g);
        const char *engine = t->source == PACT_TUNE_SIM ? "smpi" : "model";
        g_autofree char *name = g_strdup_printf("%s-%s", engine, pact_coll_name(c));
        g_autofree char *dir = g_build_filename(t->outdir, "runs", name, NULL);
        g_autofree char *csv = g_build_filename(dir, "results.csv", NULL);
        if (!t->quiet)
            g_printerr("pact tune: %s: %u candidates on the %s engine\n", pact_coll_name(c), g->na, engine);
        if (!pact_tune_simulate(t, c, g->algs, engine, NULL, NULL, dir, NULL, err))
            goto out;
        if (shard && t->source == PACT_TUNE_SIM)
            continue; /* this shard's part of the runs is done; the table waits for all of them */
        if (!pact_tune_load(g, csv, err))
            goto out;
        if (t->source == PACT_TUNE_HYBRID) {
            pact_tune_grid *gs = NULL;
            if (!decide(t, g, err)) /* the model's own choices, compared with SimGrid's in the summary */
                goto out;
            if (!t->quiet)
                g_printerr("pact tune: %s: SimGrid re-runs the model's %d best per cell\n", pact_coll_name(c),
                           t->hybrid_k);
            gboolean hok = hybrid(t, g, &gs, err);
            g_ptr_array_index(grids, grids->len - 1) = gs;
            pact_tune_grid_free(g);
            g = gs;
            if (!hok)
                goto out;
            if (shard)
                continue;
        }
        if (!decide(t, g, err))
            goto out;
        to_table(t, g, &table);
    }
    if (shard) {
        *summary = g_strdup_printf("pact tune: shard %s of the SimGrid runs done in %s/runs; when every shard is "
                                   "done, join the folders with pact tune merge -o DIR and run this tuning again "
                                   "on DIR (without --shard) for the table\n",
                                   shard, t->outdir);
        ok = TRUE;
        goto out;
    }
    if (!pact_table_write(&table, tpath, err) || !emit(t, &table, written, err))
        goto out;
    *summary = pact_tune_summary(t, grids, &table);
    if (!write_atomic(spath, *summary, err))
        goto out;
    if (t->figures && !pact_tune_figures(t, grids, t->outdir, err))
        goto out;
    ok = TRUE;
out:
    t->pattern_w = NULL;
    g_free(w);
    pact_table_clear(&table);
    return ok;
}
