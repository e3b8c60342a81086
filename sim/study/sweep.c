/* sweep.c - `pact sim`: an experiment's cells, batches and waves, run in parallel and resumable; results.csv
 * and summary.txt. */
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

/* ---- running
 * ----------------------------------------------------------------------------------------------- */

static void worker(gpointer data, gpointer user)
{
    (void)user;
    batch_t *b = data;
    gint64 t0 = g_get_monotonic_time();
    if (!g_atomic_int_get(b->cancel)) {
        pact_engine en = b->x->s->engine;
        gboolean ok = en == PACT_ENGINE_MODEL    ? pact_sw_model_batch(b, &b->error)
                      : en == PACT_ENGINE_REPLAY ? pact_sw_replay_batch(b, &b->error)
                                                 : pact_sw_launch(b, &b->error);
        if (!ok && !b->error)
            g_set_error(&b->error, PACT_ERROR, PACT_ERROR_RUN, "batch %u failed", b->id);
        if (en == PACT_ENGINE_MODEL)
            pact_model_cell_cache_clear();
    } else {
        g_set_error(&b->error, PACT_ERROR, PACT_ERROR_RUN, "cancelled");
    }
    b->seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    g_async_queue_push(b->done, b);
}

typedef struct {
    guint total, done;
    gint64 start;
    gboolean tty, quiet;
} progress_t;

static void fmt_duration(char *buf, size_t n, double s)
{
    if (s < 60)
        g_snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        g_snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        g_snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static void progress_show(progress_t *p, gboolean last)
{
    if (p->quiet || p->total == 0)
        return;
    double el = (double)(g_get_monotonic_time() - p->start) / 1e6;
    char eb[32], lb[32] = "?";
    fmt_duration(eb, sizeof eb, el);
    if (p->done > 0)
        fmt_duration(lb, sizeof lb, el / p->done * (p->total - p->done));
    int pct = (int)(100.0 * p->done / p->total);
    if (p->tty) {
        char bar[31];
        int w = (int)(30.0 * p->done / p->total);
        for (int i = 0; i < 30; i++)
            bar[i] = i < w ? '#' : '.';
        bar[30] = 0;
        fprintf(stderr, "\r\033[Kpact sim [%s] %u/%u cells %3d%%  %s elapsed, %s left", bar, p->done,
                p->total, pct, eb, lb);
        if (last)
            fputc('\n', stderr);
    } else {
        fprintf(stderr, "pact sim: %u/%u cells (%d%%), %s elapsed, %s left\n", p->done, p->total, pct, eb,
                lb);
    }
    fflush(stderr);
}

/* Appends all of a string with one write, then syncs: a kill leaves whole rows or a torn last line. */
static gboolean append_all(int fd, const char *text, const char *path, GError **err)
{
    size_t n = strlen(text), off = 0;
    while (off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", path, g_strerror(errno));
            return FALSE;
        }
        off += (size_t)w;
    }
    fsync(fd);
    return TRUE;
}

/* Where the time goes: OUT/run/batches.csv, a line per finished simulation (wall seconds, not part of the
 * results: scripts/bench-sim.sh sums it per algorithm), and for the model engine the schedule sets the batch
 * prepared, those it took as an earlier batch kept them and those it made from another size's set
 * (engines.c), and for a bound wave of pact tune's pruning the cells it bounded (quick or full: run_pruned).
 */
static void log_batch(const batch_t *b)
{
    g_autofree char *path = g_build_filename(b->x->run, "..", "batches.csv", NULL);
    gboolean fresh = !g_file_test(path, G_FILE_TEST_EXISTS);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    const cell_t *c0 = b->x->cells->pdata[g_array_index(b->cells, guint, 0)];
    if (fresh)
        fputs("study,collective,procs,phase,algorithm,bytes,cells,wall_s,sets_prepared,sets_reused,"
              "sets_resized,bounded_quick,bounded_full\n",
              f);
    fprintf(f, "%u,%s,%d,%d,%s,%" G_GUINT64_FORMAT ",%u,%.3f,%u,%u,%u,%u,%u\n", b->x->index,
            pact_coll_name(b->x->s->coll), b->x->s->procs, b->phase, (char *)b->x->s->algs->pdata[c0->alg],
            g_array_index(b->x->s->sizes, guint64, c0->size), b->cells->len, b->seconds, b->prepared,
            b->reused, b->resized, b->bound == LB_QUICK ? b->bounded : 0,
            b->bound == LB_FULL ? b->bounded : 0);
    fclose(f);
}

/* Larger studies first (more processes), then the experiment's order: a wave ends when its last batch does,
 * and where the largest came last (pact tune's process counts ascend) one job ran a 1024-rank batch alone
 * while the others had nothing left (pact tune's model table: user and system time 97.5% of twice its wall
 * time). */
static gint larger_first(gconstpointer a, gconstpointer b)
{
    const batch_t *x = *(batch_t *const *)a, *y = *(batch_t *const *)b;
    if (x->x->s->procs != y->x->s->procs)
        return x->x->s->procs > y->x->s->procs ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Runs the batches of one phase that are this shard's and still lack rows, J at a time (their held cells
 * wait), the larger studies' first; with `bound`, gives the held cells their lower bounds instead, and writes
 * nothing. */
static gboolean run_wave(pact_experiment *e, GPtrArray *batches, int phase, int bound, int fd,
                         const char *csv, progress_t *pr, GError **err)
{
    gint cancel = 0;
    GAsyncQueue *q = g_async_queue_new();
    GThreadPool *pool = g_thread_pool_new(worker, NULL, e->jobs, FALSE, NULL);
    guint sent = 0;
    g_autoptr(GPtrArray) order = g_ptr_array_new();
    for (guint i = 0; i < batches->len; i++)
        g_ptr_array_add(order, batches->pdata[i]);
    g_ptr_array_sort(order, larger_first);
    for (guint i = 0; i < order->len; i++) {
        batch_t *b = order->pdata[i];
        gboolean todo = FALSE;
        for (guint k = 0; k < b->cells->len; k++) {
            const cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
            todo |= c->rows == NULL && c->held == (bound != LB_NONE) && !c->twin &&
                    (bound != LB_FULL || c->lbk == LB_WANT);
        }
        if (b->phase != phase || !b->mine || !todo)
            continue;
        b->bound = bound;
        b->prepared = b->reused = b->resized = b->bounded = 0;
        b->cancel = &cancel;
        b->done = q;
        g_thread_pool_push(pool, b, NULL);
        sent++;
    }
    GError *first = NULL;
    for (guint n = 0; n < sent; n++) {
        batch_t *b = g_async_queue_pop(q);
        if (b->error) {
            if (!first && !g_atomic_int_get(&cancel))
                first = g_error_copy(b->error);
            g_atomic_int_set(&cancel, 1);
            continue;
        }
        if (bound != LB_NONE) { /* no rows */
            log_batch(b);
            continue;
        }
        GString *rows = g_string_new(NULL);
        for (guint k = 0; k < b->cells->len; k++) {
            cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
            if (c->rows || c->held || c->twin)
                continue; /* a resumed batch: the rows it already had are kept; a held cell waits; a twin
                           * copies its twin's rows (fill_twins) */
            c->rows = pact_sw_cell_rows(b->x, c);
            g_string_append(rows, c->rows);
            pr->done++;
        }
        if (!first && !append_all(fd, rows->str, csv, &first))
            g_atomic_int_set(&cancel, 1);
        g_string_free(rows, TRUE);
        log_batch(b);
        progress_show(pr, FALSE);
    }
    g_thread_pool_free(pool, FALSE, TRUE);
    g_async_queue_unref(q);
    if (first) {
        if (pr->tty && !pr->quiet)
            fputc('\n', stderr);
        g_propagate_error(err, first);
        return FALSE;
    }
    return TRUE;
}

/* A cell not run: rows "pruned" (no d^), appended to `rows`. */
static void set_pruned(ctx_t *x, cell_t *c, GString *rows, progress_t *pr)
{
    pact_sw_cell_reset(c);
    for (int rep = 0; rep < x->s->reps; rep++) {
        double nan = NAN;
        g_array_append_val(c->last, nan);
        g_array_append_val(c->total, nan);
        g_ptr_array_add(c->status, g_strdup("pruned"));
    }
    c->rows = pact_sw_cell_rows(x, c);
    g_string_append(rows, c->rows);
    pr->done++;
}

/* The twins (pact_experiment.twins) of one phase whose cell has run copy its times and status, and their rows
 * are written; a twin whose pattern's skew differs from its cell's (each algorithm's own no-delay time, where
 * those differ) is no twin and runs.  Called after each wave, so a resumed run fills what a killed one left.
 */
static gboolean fill_twins(GPtrArray *studies, int phase, int fd, const char *csv, progress_t *pr,
                           GError **err)
{
    GString *rows = g_string_new(NULL);
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i], *t = c->twin;
            if (!t || c->rows || c->phase != phase || !t->rows)
                continue;
            pact_sw_cell_reset(c);
            for (guint r = 0; r < t->last->len; r++) {
                g_array_append_val(c->last, g_array_index(t->last, double, r));
                g_array_append_val(c->total, g_array_index(t->total, double, r));
                g_ptr_array_add(c->status, g_strdup(t->status->pdata[r]));
            }
            c->rows = pact_sw_cell_rows(x, c);
            g_string_append(rows, c->rows);
            pr->done++;
        }
    }
    gboolean ok = append_all(fd, rows->str, csv, err);
    g_string_free(rows, TRUE);
    return ok;
}

/* This shard's phase-2 cells that e->keep does not keep get rows "pruned" (no d^), written now; a kept twin
 * of a cell not kept runs itself. */
static gboolean apply_keep(pact_experiment *e, GPtrArray *studies, GPtrArray *batches, int fd,
                           const char *csv, progress_t *pr, GError **err)
{
    if (!e->keep)
        return TRUE;
    GString *rows = g_string_new(NULL);
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->phase != 2 || c->rows || !((batch_t *)batches->pdata[c->batch])->mine ||
                e->keep(e->keep_ctx, x->s, c->alg, c->size, c->pat))
                continue;
            set_pruned(x, c, rows, pr);
        }
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->twin && c->phase == 2 &&
                !e->keep(e->keep_ctx, x->s, c->twin->alg, c->twin->size, c->twin->pat))
                c->twin = NULL;
        }
    }
    gboolean ok = append_all(fd, rows->str, csv, err);
    g_string_free(rows, TRUE);
    return ok;
}

/* A resumed phase-2 cell whose rows say "pruned" but that e->keep keeps (hybrid's SimGrid runs resumed by a
 * pact that keeps more: since each pattern's best runs there, a folder of an earlier one) runs: its rows are
 * dropped before results.csv is written again.  Kept, they had left the cell without the d^ its decision
 * needs. */
static void unprune_kept(pact_experiment *e, GPtrArray *studies)
{
    if (!e->keep)
        return;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->phase != 2 || !c->rows || !c->status->len || strcmp(c->status->pdata[0], "pruned") ||
                !e->keep(e->keep_ctx, x->s, c->alg, c->size, c->pat))
                continue;
            g_free(c->rows);
            c->rows = NULL;
            pact_sw_cell_reset(c);
        }
    }
}

/* Before phase 2: a twin under another skew than its cell's is no twin (it runs). */
static void check_twin_skews(GPtrArray *studies)
{
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->twin && memcmp(&c->skew_s, &c->twin->skew_s, sizeof(double)))
                c->twin = NULL;
        }
    }
}

/* One call of e->prune per study of the model engine and size with held cells.  Without `want`, the cells it
 * needs are no longer held (returned: how many); with it, they stay held, and each candidate that it needs at
 * a size and that has cells bounded there by pact_model_bounds_quick alone has those cells marked for
 * pact_model_bounds (LB_WANT; returned: how many). */
static guint prune_round(pact_experiment *e, GPtrArray *studies, gboolean want)
{
    guint asked = 0;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        const pact_sweep *s = x->s;
        if (s->engine != PACT_ENGINE_MODEL)
            continue;
        guint na = s->algs->len, np = s->patterns->len;
        int nd = -1;
        for (guint p = 0; p < np; p++)
            if (!strcmp(s->patterns->pdata[p], "no_delay"))
                nd = (int)p;
        const size_t n = (size_t)na * np;
        g_autofree double *d = g_new(double, n), *lb = g_new(double, n);
        g_autofree guint8 *known = g_new(guint8, n), *need = g_new(guint8, n);
        for (guint z = 0; z < s->sizes->len; z++) {
            gboolean any = FALSE;
            for (guint a = 0; a < na; a++)
                for (guint p = 0; p < np; p++) {
                    const cell_t *c = pact_sw_find_cell(x, a, z, p);
                    guint i = a * np + p;
                    known[i] = !c->held;
                    d[i] = c->held ? NAN : pact_sw_mean_of(c, TRUE);
                    lb[i] = c->held ? c->lb : NAN;
                    need[i] = 0;
                    any |= c->held;
                }
            if (!any)
                continue;
            e->prune(e->prune_ctx, na, np, nd, d, lb, known, need);
            for (guint a = 0; a < na; a++) {
                gboolean needed = FALSE;
                for (guint p = 0; p < np; p++)
                    needed |= need[a * np + p];
                for (guint p = 0; p < np && needed; p++) {
                    cell_t *c = pact_sw_find_cell(x, a, z, p);
                    if (!c->held)
                        continue;
                    if (!want && need[a * np + p]) {
                        c->held = FALSE;
                        asked++;
                    } else if (want && c->lbk == LB_QUICK) {
                        c->lbk = LB_WANT;
                        asked++;
                    }
                }
            }
        }
    }
    return asked;
}

/* Pruning (pact tune): the model engine's phase-2 cells without rows are held; per study and size, e->prune
 * says which to run (first without bounds), they run, the cells still held get a lower bound of their d^
 * (once), and it is asked again after each round until it asks for none.  Those still held are written by
 * write_pruned.  The bounds come in two waves: pact_model_bounds_quick's for every held cell, then
 * pact_model_bounds's for the candidates that e->prune still needs with those (LB_WANT): at 1024 ranks a ring
 * allreduce's full bound (10 patterns) costs three evaluations of it, the quick one a sixth of that.  What
 * e->prune no longer needs it never needs again: a cell's bound only rises as it runs, the best d^ under a
 * pattern and the value it is weighed against only fall as others run, so no later round asks for a cell the
 * quick bound left held; and a candidate bounded in full has the larger of its two bounds.  So no cell runs
 * that the full bounds alone would have left held. */
static gboolean run_pruned(pact_experiment *e, GPtrArray *studies, GPtrArray *batches, int fd,
                           const char *csv, progress_t *pr, GError **err)
{
    guint held = 0;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        if (x->s->engine != PACT_ENGINE_MODEL)
            continue;
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            c->held = c->phase == 2 && !c->rows && ((batch_t *)batches->pdata[c->batch])->mine;
            c->lb = NAN;
            c->lbk = LB_NONE;
            held += c->held;
        }
    }
    int mode;
    if (!held)
        return TRUE;
    if (!pact_sw_bounds_env(&mode, err))
        return FALSE;
    for (gboolean bounded = FALSE;;) {
        guint asked = prune_round(e, studies, FALSE);
        if (asked && !run_wave(e, batches, 2, LB_NONE, fd, csv, pr, err))
            return FALSE;
        if (!bounded) {
            bounded = TRUE;
            if (mode == PACT_SW_BOUNDS_FULL) /* every held cell bounded in full */
                for (guint k = 0; k < studies->len; k++) {
                    ctx_t *x = studies->pdata[k];
                    for (guint i = 0; i < x->cells->len; i++)
                        ((cell_t *)x->cells->pdata[i])->lbk = LB_WANT;
                }
            else if (!run_wave(e, batches, 2, LB_QUICK, fd, csv, pr, err))
                return FALSE;
            if (mode != PACT_SW_BOUNDS_QUICK &&
                (mode == PACT_SW_BOUNDS_FULL || prune_round(e, studies, TRUE)) &&
                !run_wave(e, batches, 2, LB_FULL, fd, csv, pr, err))
                return FALSE;
        } else if (!asked) {
            return TRUE;
        }
    }
}

/* The cells pruning left held: rows with status "pruned" (no d^: a lower bound proved them useless). */
static gboolean write_pruned(GPtrArray *studies, int fd, const char *csv, progress_t *pr, GError **err)
{
    GString *rows = g_string_new(NULL);
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (!c->held || c->rows)
                continue;
            c->held = FALSE;
            set_pruned(x, c, rows, pr);
        }
    }
    gboolean ok = append_all(fd, rows->str, csv, err);
    g_string_free(rows, TRUE);
    return ok;
}

/* Phase 2's skews from the no-delay cells: mean_nodelay, the mean no-delay d^ over the algorithms of the
 * size (Salimi Beni et al. III-B); own_nodelay, the algorithm's own (their robustness study).  An algorithm
 * that does not apply has no no-delay time: it does not count, and gets skew 0. */
static void phase2_skews(ctx_t *x)
{
    pact_sweep *s = x->s;
    guint nd = 0;
    while (strcmp(s->patterns->pdata[nd], "no_delay"))
        nd++;
    for (guint z = 0; z < s->sizes->len; z++) {
        double sum = 0;
        int n = 0;
        for (guint a = 0; a < s->algs->len; a++) {
            double m = pact_sw_mean_of(pact_sw_find_cell(x, a, z, nd), TRUE);
            if (!isnan(m)) {
                sum += m;
                n++;
            }
        }
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->size != z || c->phase != 2)
                continue;
            double own = pact_sw_mean_of(pact_sw_find_cell(x, c->alg, z, nd), TRUE);
            if (s->skew_mode == PACT_SKEW_OWN_NODELAY)
                c->skew_s = isnan(own) ? 0 : s->skew * own;
            else
                c->skew_s = n ? s->skew * (sum / n) : 0;
        }
    }
}

/* The seconds a study's skew came to, per size, on stderr: a factor of the mean no-delay d^ can be far from
 * what a user expects (4.68 ms on cedar, 11x ring's own time), and this is where it is known. */
static void print_skews(ctx_t *x)
{
    pact_sweep *s = x->s;
    GString *o = g_string_new(NULL);
    for (guint z = 0; z < s->sizes->len; z++) {
        double k = -1;
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->size == z && !s->pattern_data->pdata[c->pat] &&
                strcmp(s->patterns->pdata[c->pat], "no_delay"))
                k = fmax(k, c->skew_s); /* generated shapes; a file's span is its own */
        }
        if (k >= 0)
            g_string_append_printf(o, "%s %" G_GUINT64_FORMAT " B %.4g us", o->len ? "," : "",
                                   g_array_index(s->sizes, guint64, z), k * 1e6);
    }
    if (o->len) {
        g_autofree char *how = s->skew_mode == PACT_SKEW_ABSOLUTE
                                   ? g_strdup("absolute")
                                   : g_strdup_printf("%s x %g", pact_skew_mode_name(s->skew_mode), s->skew);
        fprintf(stderr, "pact sim: %s %s %d x %d: skew %s%s:%s\n", pact_sw_platform_name(s), pact_coll_name(s->coll),
                s->nodes, s->ppn, how, s->skew_mode == PACT_SKEW_OWN_NODELAY ? " (largest)" : "", o->str);
    }
    g_string_free(o, TRUE);
}

/* The pattern files of this phase's cells: each file once, where every cell that shares it (the algorithms of
 * a size, pact_sw_pattern_name) wrote it again, an fsync and a rename each while the workers waited (a tune
 * table's reduce on one node: 10,395 writes of 1,485 files, 4.4 s of a run whose cells took 0.05 s).  Cells
 * that share a file share its skew, which is checked: two skews for one file would give one of them the
 * other's arrivals. */
static gboolean write_patterns(GPtrArray *batches, int phase, GError **err)
{
    GHashTable *written = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free); /* -> skew */
    gboolean ok = TRUE;
    for (guint i = 0; ok && i < batches->len; i++) {
        batch_t *b = batches->pdata[i];
        if (b->phase != phase || !b->mine)
            continue;
        for (guint k = 0; ok && k < b->cells->len; k++) {
            cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
            if (c->pattern_file)
                continue;
            c->pattern_file = pact_sw_pattern_name(b->x, c);
            char *key = g_strdup_printf("%s/%s", b->x->run, c->pattern_file);
            const double *skew = g_hash_table_lookup(written, key);
            if (skew && memcmp(skew, &c->skew_s, sizeof(double))) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                            "%s: two skews for one pattern file (%.17g and %.17g s): a defect of pact", key,
                            *skew, c->skew_s);
                ok = FALSE;
            } else if (!skew && (ok = pact_sw_write_pattern(b->x, c, err))) {
                g_hash_table_insert(written, key, g_memdup2(&c->skew_s, sizeof(double)));
                key = NULL;
            }
            g_free(key);
        }
    }
    g_hash_table_destroy(written);
    return ok;
}

/* results.csv in order, summary.txt and the figures. */
static gboolean finish_outputs(GPtrArray *studies, const char *out, gboolean partial_ok, gboolean figures,
                               char **summary, GError **err)
{
    guint missing = 0;
    g_autofree char *csv = pact_sw_all_rows(studies, &missing);
    if (missing && !partial_ok) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%u cells have no results", missing);
        return FALSE;
    }
    g_autofree char *csv_path = g_build_filename(out, "results.csv", NULL);
    if (!g_file_set_contents(csv_path, csv, -1, err))
        return FALSE;
    return pact_report_dir(out, figures, summary, err); /* summary.txt and figures from results.csv alone */
}

/* A new or empty folder, or one holding the same experiment (resumed). */
static gboolean prepare_out(pact_experiment *e, const char *out, gboolean *resume, GError **err)
{
    g_autofree char *exp = g_build_filename(out, "experiment.yaml", NULL);
    *resume = FALSE;
    if (g_file_test(out, G_FILE_TEST_EXISTS)) {
        if (!g_file_test(out, G_FILE_TEST_IS_DIR)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "-o %s: exists and is not a folder", e->outdir);
            return FALSE;
        }
        g_autofree char *old = NULL;
        if (g_file_get_contents(exp, &old, NULL, NULL)) {
            if (!pact_exp_same(old, e->text, e->outdir, FALSE, err))
                return FALSE;
            *resume = TRUE;
        } else {
            GDir *d = g_dir_open(out, 0, NULL);
            gboolean empty = d && !g_dir_read_name(d);
            if (d)
                g_dir_close(d);
            if (!empty) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "-o %s: exists and is neither empty nor a pact sim folder to resume", e->outdir);
                return FALSE;
            }
        }
    } else if (g_mkdir_with_parents(out, 0755) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot create %s: %s", e->outdir, g_strerror(errno));
        return FALSE;
    }
    return *resume || g_file_set_contents(exp, e->text, -1, err);
}

/* The default folder results/sim-<timestamp> of a run without -o, created here: two runs started in the
 * same second would otherwise share (and resume) one folder.  mkdir is atomic: the first run gets the name,
 * the next one -2, -3 ... */
static gboolean unique_outdir(pact_experiment *e, GError **err)
{
    g_autofree char *parent = g_path_get_dirname(e->outdir);
    if (g_mkdir_with_parents(parent, 0755) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot create %s: %s", parent, g_strerror(errno));
        return FALSE;
    }
    for (int k = 1; k < 1000; k++) {
        g_autofree char *name = k == 1 ? g_strdup(e->outdir) : g_strdup_printf("%s-%d", e->outdir, k);
        if (g_mkdir(name, 0755) == 0) {
            g_free(e->outdir);
            e->outdir = g_steal_pointer(&name);
            return TRUE;
        }
        if (errno != EEXIST)
            break;
    }
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot create a new folder %s[-N]: %s", e->outdir,
                g_strerror(errno));
    return FALSE;
}

gboolean pact_experiment_run(pact_experiment *e, char **summary, GError **err)
{
    gboolean ok = FALSE, resume = FALSE;
    int fd = -1;
    GPtrArray *studies = NULL, *batches = NULL;
    GHashTable *index = NULL;
    if (e->outdir_default && !unique_outdir(e, err))
        return FALSE;
    g_autofree char *out = g_canonicalize_filename(e->outdir, NULL);
    g_autofree char *csv = g_build_filename(out, "results.csv", NULL);
    g_autofree char *kept = NULL;
    if (!prepare_out(e, out, &resume, err))
        return FALSE;
    if (!(studies = pact_sw_make_studies(e, out, err)))
        goto done;
    batches = pact_sw_make_batches(e, studies);
    if (e->twins && !pact_sw_find_twins(studies, batches, err))
        goto done;
    index = pact_sw_cell_index(studies);
    if (resume && g_file_test(csv, G_FILE_TEST_EXISTS)) {
        if (!pact_sw_load_rows(index, csv, err))
            goto done;
        unprune_kept(e, studies);
    }
    /* Start from the complete cells only: drops a torn end and rows of half-written batches. */
    guint missing = 0;
    kept = pact_sw_all_rows(studies, &missing);
    if (!g_file_set_contents(csv, kept, -1, err))
        goto done;
    if ((fd = open(csv, O_WRONLY | O_APPEND)) < 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", csv, g_strerror(errno));
        goto done;
    }
    progress_t pr = {.start = g_get_monotonic_time(), .tty = isatty(2), .quiet = e->quiet};
    guint have = 0;
    for (guint i = 0; i < batches->len; i++) {
        batch_t *b = batches->pdata[i];
        for (guint k = 0; b->mine && k < b->cells->len; k++) {
            cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
            c->rows ? have++ : pr.total++;
        }
    }
    if (!e->quiet)
        fprintf(stderr, "pact sim: %u studies, %u cells to run%s (%u already in %s), %d jobs\n", studies->len,
                pr.total, e->shard_n ? " in this shard" : "", have, e->outdir, e->jobs);
    if (!write_patterns(batches, 1, err) || !run_wave(e, batches, 1, LB_NONE, fd, csv, &pr, err) ||
        !fill_twins(studies, 1, fd, csv, &pr, err))
        goto done;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        if (pact_sw_skew_from_nodelay(x->s->skew_mode))
            phase2_skews(x);
        if (!e->quiet)
            print_skews(x);
    }
    check_twin_skews(studies);
    if (!apply_keep(e, studies, batches, fd, csv, &pr, err) || !write_patterns(batches, 2, err) ||
        (e->prune && !run_pruned(e, studies, batches, fd, csv, &pr, err)) ||
        !run_wave(e, batches, 2, LB_NONE, fd, csv, &pr, err) || !fill_twins(studies, 2, fd, csv, &pr, err))
        goto done;
    if (e->prune && !write_pruned(studies, fd, csv, &pr, err))
        goto done;
    if (pr.tty && !e->quiet && pr.total)
        progress_show(&pr, TRUE);
    close(fd);
    fd = -1;
    ok = finish_outputs(studies, out, e->shard_n > 0, e->figures, summary, err);
done:
    if (fd >= 0)
        close(fd);
    if (index)
        g_hash_table_destroy(index);
    if (batches)
        g_ptr_array_unref(batches);
    if (studies)
        g_ptr_array_unref(studies);
    pact_sw_workspaces_drop();
    return ok;
}

gboolean pact_experiment_merge(const char *outdir, char **dirs, gboolean figures, char **summary,
                               GError **err)
{
    gboolean ok = FALSE;
    GHashTable *fields = NULL, *index = NULL;
    GPtrArray *studies = NULL;
    pact_experiment e;
    pact_experiment_init(&e);
    g_autofree char *text = NULL, *out = NULL;
    if (!dirs || !dirs[0]) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "pact merge: no folder to merge");
        goto done;
    }
    for (int i = 0; dirs[i]; i++) {
        g_autofree char *exp = g_build_filename(dirs[i], "experiment.yaml", NULL);
        GHashTable *f = pact_exp_new();
        if (!pact_exp_read(f, exp, err)) {
            g_hash_table_destroy(f);
            goto done;
        }
        g_autofree char *t = pact_exp_dump(f, FALSE);
        if (!text) {
            text = g_steal_pointer(&t);
            fields = f;
        } else {
            g_hash_table_destroy(f);
            if (strcmp(t, text)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: another experiment than %s/experiment.yaml (only the shard may differ)", exp,
                            dirs[0]);
                goto done;
            }
        }
    }
    g_hash_table_remove(fields, "shard");
    if (!pact_experiment_build(fields, &e, err))
        goto done;
    for (int i = 0; dirs[i]; i++) { /* a shard run on other contents of a platform or pattern file */
        g_autofree char *exp = g_build_filename(dirs[i], "experiment.yaml", NULL), *raw = NULL;
        if (g_file_get_contents(exp, &raw, NULL, NULL) && !pact_exp_same(raw, e.text, dirs[i], TRUE, err))
            goto done;
    }
    g_free(e.outdir);
    e.outdir = g_strdup(outdir);
    studies = pact_sw_make_studies(&e, NULL, err);
    index = pact_sw_cell_index(studies);
    for (int i = 0; dirs[i]; i++) {
        g_autofree char *csv = g_build_filename(dirs[i], "results.csv", NULL);
        if (!pact_sw_load_rows(index, csv, err))
            goto done;
    }
    guint missing = 0;
    g_free(pact_sw_all_rows(studies, &missing));
    if (missing) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "pact merge: %u cells have no results in these folders (a shard missing or unfinished)",
                    missing);
        goto done;
    }
    out = g_canonicalize_filename(outdir, NULL);
    gboolean resume = FALSE;
    if (!prepare_out(&e, out, &resume, err))
        goto done;
    ok = finish_outputs(studies, out, FALSE, figures, summary, err);
done:
    if (index)
        g_hash_table_destroy(index);
    if (studies)
        g_ptr_array_unref(studies);
    if (fields)
        g_hash_table_destroy(fields);
    pact_experiment_clear(&e);
    return ok;
}

