/* setup.c - an experiment's studies, cells and batches: the run folder of each study (platform export,
 * bench driver), the cells in report order, their pattern files and skews, the batches dealt to shards. */
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

/* ---- files ---------------------------------------------------------------------------------------- */

static gboolean copy_file(const char *src, const char *dir, const char *name, GError **err)
{
    g_autofree char *text = NULL, *dst = g_build_filename(dir, name, NULL);
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(src, &text, &len, &e) || !g_file_set_contents(dst, text, (gssize)len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    return TRUE;
}

static char *find_bench(const pact_sweep *s, GError **err)
{
    if (s->bench)
        return g_strdup(s->bench);
    const char *env = g_getenv("PACT_BENCH_SMPI");
    if (env)
        return g_strdup(env);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    if (self) {
        g_autofree char *dir = g_path_get_dirname(self);
        char *p = g_build_filename(dir, "pact-bench-smpi", NULL);
        if (g_file_test(p, G_FILE_TEST_IS_EXECUTABLE))
            return p;
        g_free(p);
    }
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                "cannot find pact-bench-smpi next to pact; build it (make) or set PACT_BENCH_SMPI");
    return NULL;
}

static void cell_free(gpointer p)
{
    cell_t *c = p;
    g_free(c->pattern_file);
    g_free(c->rows);
    g_array_unref(c->last);
    g_array_unref(c->total);
    g_ptr_array_unref(c->status);
    g_free(c);
}

static void batch_free(gpointer p)
{
    batch_t *b = p;
    g_array_unref(b->cells);
    if (b->error)
        g_error_free(b->error);
    g_free(b);
}

static void ctx_free(gpointer p)
{
    ctx_t *x = p;
    pact_sw_kept_drop(x);
    if (x->cells)
        g_ptr_array_unref(x->cells);
    g_free(x->run);
    g_free(x->bench);
    pact_place_free(&x->place);
    if (x->memo)
        g_hash_table_destroy(x->memo);
    if (x->arrivals)
        g_hash_table_destroy(x->arrivals);
    g_mutex_clear(&x->memo_lock);
    g_free(x);
}
/* Mean of the reps that ran ("ok" or "wrong"), NAN when none did. */
double pact_sw_mean_of(const cell_t *c, gboolean last)
{
    double sum = 0;
    int n = 0;
    for (guint r = 0; r < c->last->len; r++) {
        const char *st = c->status->pdata[r];
        double v = g_array_index(last ? c->last : c->total, double, r);
        if ((!strcmp(st, "ok") || !strcmp(st, "wrong")) && !isnan(v)) {
            sum += v;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* The name of the cell's pattern file in the run folder, relative to it (smpirun's working directory, so the
 * folder can move).  Cells that share a pattern and a size share the file (their skew is the same: a factor
 * of the size's mean no-delay time, or absolute); with own_nodelay each algorithm has its own skew, hence
 * its own file. */
char *pact_sw_pattern_name(const ctx_t *x, const cell_t *c)
{
    const pact_sweep *s = x->s;
    g_autofree char *alg =
        s->skew_mode == PACT_SKEW_OWN_NODELAY ? g_strdup_printf("-a%u", c->alg) : g_strdup("");
    return g_strdup_printf("pattern-%u-%" G_GUINT64_FORMAT "%s.txt", c->pat,
                           g_array_index(s->sizes, guint64, c->size), alg);
}

/* Writes the cell's pattern file, c->pattern_file (pact_sw_pattern_name). */
gboolean pact_sw_write_pattern(ctx_t *x, cell_t *c, GError **err)
{
    pact_sweep *s = x->s;
    int P = s->procs;
    const char *shape = s->patterns->pdata[c->pat];
    GArray *file = s->pattern_data->pdata[c->pat];
    g_autofree double *d = g_new0(double, (gsize)P);
    pact_pattern_opts po = {.skew = c->skew_s, .seed = s->seed, .node_of = s->node_of, .intra = -1};
    if (file)
        memcpy(d, file->data, sizeof(double) * (gsize)P);
    else if (!pact_pattern_gen(shape, P, &po, d, err))
        return FALSE;
    g_autofree char *path = g_build_filename(x->run, c->pattern_file, NULL);
    g_autofree char *comment =
        g_strdup_printf("%s, p=%d, skew %.17g s, seed %" G_GUINT64_FORMAT, shape, P, c->skew_s, s->seed);
    return pact_pattern_write(path, d, P, comment, err);
}

/* The skew of a delayed cell that does not wait for the no-delay cells: absolute, mif, or a file's span. */
static double direct_skew(ctx_t *x, const cell_t *c)
{
    pact_sweep *s = x->s;
    GArray *file = s->pattern_data->pdata[c->pat];
    if (file) {
        pact_imbalance m = pact_imbalance_of((double *)file->data, (int)file->len);
        return m.worst;
    }
    if (s->skew_mode == PACT_SKEW_MIF) /* Alizadeh et al.: MIF x the time of one message of that size */
        return s->skew *
               (s->platform->alpha + s->platform->beta * (double)g_array_index(s->sizes, guint64, c->size));
    return s->skew;
}

cell_t *pact_sw_find_cell(ctx_t *x, guint alg, guint size, guint pat)
{
    /* cells come algorithm by size by pattern: look there first (pruning asks for every cell each round) */
    guint at = (alg * x->s->sizes->len + size) * x->s->patterns->len + pat;
    if (at < x->cells->len) {
        cell_t *c = x->cells->pdata[at];
        if (c->alg == alg && c->size == size && c->pat == pat)
            return c;
    }
    for (guint i = 0; i < x->cells->len; i++) {
        cell_t *c = x->cells->pdata[i];
        if (c->alg == alg && c->size == size && c->pat == pat)
            return c;
    }
    return NULL;
}

/* ---- setting up ------------------------------------------------------------------------------------------
 */

/* The study's cells in report order; with a skew factor the no-delay cells come first (phase 1) and set the
 * skew of the others (phase 2). */
static void make_cells(ctx_t *x)
{
    pact_sweep *s = x->s;
    x->gamma = s->gamma >= 0 ? s->gamma : s->platform ? s->platform->gamma : 0;
    x->cells = g_ptr_array_new_with_free_func(cell_free);
    gboolean factor = pact_sw_skew_from_nodelay(s->skew_mode);
    if (factor) {
        gboolean has_nd = FALSE;
        for (guint p = 0; p < s->patterns->len; p++)
            has_nd |= !strcmp(s->patterns->pdata[p], "no_delay");
        if (!has_nd) { /* needed to derive the skews; reported too */
            g_ptr_array_insert(s->patterns, 0, g_strdup("no_delay"));
            g_ptr_array_insert(s->pattern_data, 0, NULL);
        }
    }
    for (guint a = 0; a < s->algs->len; a++)
        for (guint z = 0; z < s->sizes->len; z++)
            for (guint p = 0; p < s->patterns->len; p++) {
                cell_t *c = g_new0(cell_t, 1);
                gboolean nd = !strcmp(s->patterns->pdata[p], "no_delay");
                gboolean later = factor && !nd && !s->pattern_data->pdata[p];
                c->alg = a;
                c->size = z;
                c->pat = p;
                c->phase = later ? 2 : 1;
                c->skew_s = nd ? 0 : later ? NAN : direct_skew(x, c);
                c->last = g_array_new(FALSE, FALSE, sizeof(double));
                c->total = g_array_new(FALSE, FALSE, sizeof(double));
                c->status = g_ptr_array_new_with_free_func(g_free);
                g_ptr_array_add(x->cells, c);
            }
}

/* --batch auto under the smpi engine: group[a * nsizes + z], the batch of algorithm a's cells of size z in
 * this phase, counted per algorithm from 0: its consecutive sizes share one while their cells x ranks stay
 * within PACT_BATCH_AUTO_RANK_CELLS.  A smpirun costs 0.1-0.2 s before its first cell on this project's VM
 * (SimGrid's library loaded, the platform built: 0.13 s for one 1-byte cell on 2 ranks), where a cell of a
 * few ranks simulates in milliseconds: pact tune --source hybrid:3 on one node (2..32 ranks, allreduce, 27
 * sizes) made 914 calls, nearly all of it starts.  A size of 11 patterns at 256 ranks (2,816) stays alone,
 * as under size, so the large studies keep as many batches to share among the jobs.  Only the experiment
 * decides it (sizes in the experiment's order), so shards and resumed runs group alike. */
static guint *auto_groups(const ctx_t *x, int phase)
{
    guint na = x->s->algs->len, nz = x->s->sizes->len;
    guint *n = g_new0(guint, (gsize)na * nz), *group = g_new0(guint, (gsize)na * nz);
    for (guint i = 0; i < x->cells->len; i++) {
        const cell_t *c = x->cells->pdata[i];
        if (c->phase == phase)
            n[c->alg * nz + c->size]++;
    }
    for (guint a = 0; a < na; a++) {
        guint64 load = 0;
        guint g = 0;
        for (guint z = 0; z < nz; z++) {
            guint64 w = (guint64)n[a * nz + z] * (guint64)x->s->procs;
            if (!w)
                continue;
            if (load > 0 && load + w > PACT_BATCH_AUTO_RANK_CELLS) {
                g++;
                load = 0;
            }
            load += w;
            group[a * nz + z] = g;
        }
    }
    g_free(n);
    return group;
}

/* Groups the cells into batches (see pact_batch) and deals them to the shards.  A study whose skews come
 * from its no-delay cells needs all of them in every shard, so its phase-1 batches run everywhere (merge
 * checks the copies agree); all other batches go round-robin. */
GPtrArray *pact_sw_make_batches(pact_experiment *e, GPtrArray *studies)
{
    GPtrArray *batches = g_ptr_array_new_with_free_func(batch_free);
    guint dealt = 0;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (int phase = 1; phase <= 2; phase++) {
            GHashTable *open = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
            g_autofree guint *group = e->batch == PACT_BATCH_AUTO && x->s->engine == PACT_ENGINE_SMPI
                                          ? auto_groups(x, phase)
                                          : NULL;
            for (guint i = 0; i < x->cells->len; i++) {
                cell_t *c = x->cells->pdata[i];
                if (c->phase != phase)
                    continue;
                char *key =
                    group ? g_strdup_printf("%u/g%u", c->alg, group[c->alg * x->s->sizes->len + c->size])
                    : e->batch == PACT_BATCH_ALG ? g_strdup_printf("%u", c->alg)
                    : e->batch == PACT_BATCH_SIZE || e->batch == PACT_BATCH_AUTO
                        ? g_strdup_printf("%u/%u", c->alg, c->size)
                        : g_strdup_printf("%u", i);
                batch_t *b = g_hash_table_lookup(open, key);
                if (!b) {
                    b = g_new0(batch_t, 1);
                    b->x = x;
                    b->id = batches->len;
                    b->phase = phase;
                    b->cells = g_array_new(FALSE, FALSE, sizeof(guint));
                    gboolean everywhere = phase == 1 && pact_sw_skew_from_nodelay(x->s->skew_mode);
                    b->mine =
                        e->shard_n == 0 || everywhere || (int)(dealt++ % (guint)e->shard_n) == e->shard_k - 1;
                    g_ptr_array_add(batches, b);
                    g_hash_table_insert(open, key, b);
                } else {
                    g_free(key);
                }
                g_array_append_val(b->cells, i);
                c->batch = b->id;
            }
            g_hash_table_destroy(open);
        }
    }
    return batches;
}

/* Builds every study's cells; for a run, also its folder OUT/run/sK with the platform. */
GPtrArray *pact_sw_make_studies(pact_experiment *e, const char *out, GError **err)
{
    GPtrArray *studies = g_ptr_array_new_with_free_func(ctx_free);
    for (guint k = 0; k < e->studies->len; k++) {
        ctx_t *x = g_new0(ctx_t, 1);
        x->s = e->studies->pdata[k];
        x->index = k;
        g_mutex_init(&x->memo_lock);
        x->memo = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        x->arrivals = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
        g_ptr_array_add(studies, x);
        make_cells(x);
        if (pact_place_init(&x->place, x->s->procs, x->s->node_of) != PACT_OK) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "out of memory");
            g_ptr_array_unref(studies);
            return NULL;
        }
        if (!out)
            continue;
        x->run = g_strdup_printf("%s/run/s%u", out, k);
        if (g_mkdir_with_parents(x->run, 0755) != 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot create %s: %s", x->run, g_strerror(errno));
            g_ptr_array_unref(studies);
            return NULL;
        }
        gboolean ok;
        if (x->s->user_xml) {
            ok = copy_file(x->s->user_xml, x->run, "platform.xml", err) &&
                 copy_file(x->s->user_hostfile, x->run, "hostfile", err);
        } else {
            pact_export_opts o = pact_sw_export_opts(x->s);
            ok = pact_platform_export(x->s->platform, &o, x->run, err);
        }
        if (ok && x->s->engine == PACT_ENGINE_SMPI) {
            g_autofree char *bench = find_bench(x->s, err);
            ok = bench != NULL;
            if (ok)
                x->bench = g_canonicalize_filename(bench, NULL);
        }
        if (!ok) {
            g_ptr_array_unref(studies);
            return NULL;
        }
    }
    return studies;
}

