/* engines.c - a batch of cells under one engine: smpi (one smpirun of the bench driver), model (the
 * schedule evaluator, in this process) or replay (SMPI time-independent traces under smpirun -replay). */
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

void pact_sw_cell_reset(cell_t *c)
{
    g_array_set_size(c->last, 0);
    g_array_set_size(c->total, 0);
    g_ptr_array_set_size(c->status, 0);
}

/* Reads the driver's CSV (cell,rep,last,total,status) into the cells. */
static gboolean read_output(ctx_t *x, const char *path, GError **err)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, err))
        return FALSE;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (int i = 1; lines[i]; i++) {
        if (!*lines[i])
            continue;
        g_auto(GStrv) f = g_strsplit(lines[i], ",", 5);
        guint64 id;
        if (g_strv_length(f) != 5 || !g_ascii_string_to_unsigned(f[0], 10, 0, x->cells->len - 1, &id, NULL)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s:%d: malformed bench output", path, i + 1);
            return FALSE;
        }
        cell_t *c = x->cells->pdata[id];
        double l = *f[2] ? g_ascii_strtod(f[2], NULL) : NAN, t = *f[3] ? g_ascii_strtod(f[3], NULL) : NAN;
        g_array_append_val(c->last, l);
        g_array_append_val(c->total, t);
        g_ptr_array_add(c->status, g_strdup(f[4]));
    }
    return TRUE;
}

/* The smpi engine: the batch's cells in one smpirun of the bench driver. */
gboolean pact_sw_launch(batch_t *b, GError **err)
{
    ctx_t *x = b->x;
    pact_sweep *s = x->s;
    const char *smpi_alg =
        pact_sw_smpi_name(s->algs->pdata[((cell_t *)x->cells->pdata[g_array_index(b->cells, guint, 0)])->alg]);
    int P = s->procs;
    size_t es = pact_dtype_size(s->dtype);
    GString *plan = g_string_new(PACT_PLAN_HEADER);
    int n = 0;
    guint64 maxbuf = 0; /* the largest buffer of a rank, bytes */
    for (guint k = 0; k < b->cells->len; k++) {
        guint i = g_array_index(b->cells, guint, k);
        cell_t *c = x->cells->pdata[i];
        if (c->twin)
            continue; /* copies its twin's times (sweep.c) */
        const char *alg = s->algs->pdata[c->alg];
        const guint64 bytes = g_array_index(s->sizes, guint64, c->size);
        size_t ns, nr;
        pact_coll_buf_counts(s->coll, 0, P, 0, (size_t)(bytes / es), &ns, &nr);
        maxbuf = MAX(maxbuf, (guint64)MAX(ns, nr) * es);
        pact_sw_cell_reset(c);
        g_autoptr(GString) params = g_string_new(NULL);
        g_auto(GStrv) name = g_strsplit(alg, ":", 2);
        if (smpi_alg)
            g_string_assign(params, "-");
        else
            pact_sw_alg_spec_params(s->coll, alg, params, NULL); /* validated before */
        pact_plan_line l = {.coll = s->coll,
                            .count = (size_t)(g_array_index(s->sizes, guint64, c->size) / es),
                            .root = s->root,
                            .reps = s->reps,
                            .gamma = x->gamma};
        g_snprintf(l.id, sizeof l.id, "%u", i);
        g_strlcpy(l.alg, smpi_alg ? "mpi" : name[0], sizeof l.alg);
        g_strlcpy(l.dtype, s->dtype, sizeof l.dtype);
        g_strlcpy(l.op, s->op, sizeof l.op);
        g_strlcpy(l.pattern, c->pattern_file, sizeof l.pattern);
        g_strlcpy(l.params, strcmp(params->str, "-") ? params->str : "", sizeof l.params);
        char line[sizeof l.pattern + 512];
        if (pact_plan_line_format(&l, line, sizeof line) != PACT_OK) {
            g_string_free(plan, TRUE);
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "plan line of cell %u: too long or a blank in its path", i);
            return FALSE;
        }
        g_string_append(plan, line);
        n++;
    }
    if (n == 0) {
        g_string_free(plan, TRUE);
        return TRUE;
    }
    g_autofree char *tag = g_strdup_printf("b%u", b->id);
    g_autofree char *plan_name = g_strdup_printf("plan-%s.txt", tag);
    g_autofree char *out_name = g_strdup_printf("bench-%s.csv", tag);
    g_autofree char *plan_path = g_build_filename(x->run, plan_name, NULL);
    g_autofree char *out_path = g_build_filename(x->run, out_name, NULL);
    g_autofree char *log_path = g_strdup_printf("%s/smpirun-%s.log", x->run, tag);
    gboolean ok = g_file_set_contents(plan_path, plan->str, (gssize)plan->len, err);
    g_string_free(plan, TRUE);
    if (!ok)
        return FALSE;

    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup("smpirun"));
    g_ptr_array_add(argv, g_strdup("-np"));
    g_ptr_array_add(argv, g_strdup_printf("%d", P));
    g_ptr_array_add(argv, g_strdup("-platform"));
    g_ptr_array_add(argv, g_strdup("platform.xml"));
    g_ptr_array_add(argv, g_strdup("-hostfile"));
    g_ptr_array_add(argv, g_strdup("hostfile"));
    for (const char *const *c = pact_smpi_cfg(); *c; c++)
        g_ptr_array_add(argv, g_strdup(*c));
    /* Timing-only payloads are SMPI_SHARED_MALLOC'd: SMPI maps one block of smpi/shared-malloc-blocksize
     * bytes (1 MiB) over and over, one mapping per block, and aborts past vm.max_map_count (65530 by
     * default): 256 ranks x 256 MiB alltoall buffers are 131072 mappings.  Larger blocks keep all ranks'
     * buffers (send, receive, two scratch) under 32768 mappings; payload bytes never change simulated time.
     */
    guint64 block = 1u << 20;
    while (!s->check && (4 * (maxbuf / block + 1)) * (guint64)P > 32768)
        block *= 2;
    if (block > (1u << 20))
        g_ptr_array_add(argv,
                        g_strdup_printf("--cfg=smpi/shared-malloc-blocksize:%" G_GUINT64_FORMAT, block));
    if (smpi_alg) {
        g_auto(GStrv) parts = g_strsplit(smpi_alg, ":", -1);
        g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/%s:%s", pact_coll_name(s->coll), parts[0]));
        for (int i = 1; parts[i]; i++) { /* collective=NAME, validated */
            char *eq = strchr(parts[i], '=');
            *eq = 0;
            g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/%s:%s", parts[i], eq + 1));
        }
    }
    g_ptr_array_add(argv, g_strdup(x->bench));
    g_ptr_array_add(argv, g_strdup("--plan"));
    g_ptr_array_add(argv, g_strdup(plan_name));
    g_ptr_array_add(argv, g_strdup("--out"));
    g_ptr_array_add(argv, g_strdup(out_name));
    if (!s->check)
        g_ptr_array_add(argv, g_strdup("--timing-only"));
    g_ptr_array_add(argv, g_strdup("--no-warmup")); /* pact's algorithms: bench.c, run_cell */
    g_ptr_array_add(argv, NULL);

    /* pact-smpi-clock.so, built next to the bench driver, spares SMPI two system calls per MPI call (see
     * sim/smpi_clock.c), and the allocator (pact_smpi_malloc) SimGrid's walks of its lists; without them the
     * simulated times are the same, only slower to get. */
    g_autofree char *bench_dir = g_path_get_dirname(x->bench);
    g_autofree char *clock = g_build_filename(bench_dir, "pact-smpi-clock.so", NULL);
    g_autofree char *preload = NULL;
    char **envp = pact_smpi_environ(g_file_test(clock, G_FILE_TEST_IS_REGULAR) ? clock : NULL, &preload);
    g_autofree char *sout = NULL, *serr = NULL;
    int status = 0;
    GError *e = NULL;
    ok = g_spawn_sync(x->run, (char **)argv->pdata, envp, G_SPAWN_SEARCH_PATH, pact_child_setup, NULL, &sout,
                      &serr, &status, &e);
    g_strfreev(envp);
    g_autofree char *cmdline = g_strjoinv(" ", (char **)argv->pdata);
    g_ptr_array_unref(argv);
    g_autofree char *env = preload ? g_strdup_printf("LD_PRELOAD='%s' ", preload) : g_strdup("");
    g_autofree char *log = g_strdup_printf("$ %s%s\n%s%s", env, cmdline, sout ? sout : "", serr ? serr : "");
    g_file_set_contents(log_path, log, -1, NULL);
    if (!ok) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot run smpirun: %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_autofree char *cause = pact_smpirun_cause(log);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "smpirun failed: %s (log: %s)", cause, log_path);
        return FALSE;
    }
    return read_output(x, out_path, err);
}

void pact_sweep_build_args(const pact_sweep *s, const pact_place *place, const long *params, guint64 bytes,
                           pact_build_args *out)
{
    *out = (pact_build_args){.coll = s->coll,
                             .size = s->procs,
                             .root = s->root,
                             .commutative = 1,
                             .elem_size = pact_dtype_size(s->dtype),
                             .params = params,
                             .place = place};
    out->count = (size_t)(bytes / out->elem_size);
}

/* The build arguments of a cell of the model or replay engine (its spec was validated; *params holds the
 * parameter values, free() it); returns NULL when its algorithm applies, else the cell's status
 * "restricted:why". */
static char *cell_args(const ctx_t *x, const cell_t *c, const pact_alg **alg, pact_build_args *a, long **params)
{
    const pact_sweep *s = x->s;
    const char *why = NULL;
    char msg[256];
    pact_spec_parse(s->coll, s->algs->pdata[c->alg], alg, params, msg, sizeof msg);
    pact_sweep_build_args(s, &x->place, *params, g_array_index(s->sizes, guint64, c->size), a);
    if (pact_alg_applies(*alg, a, &why) == PACT_OK)
        return NULL;
    char *status = g_strdup_printf("restricted:%s", why);
    g_strdelimit(status + strlen("restricted:"), ", ", '_');
    return status;
}

/* A deterministic engine simulates one call: it serves every repetition (rows still come one per rep). */
static void cell_set(cell_t *c, int reps, double l, double t, const char *status)
{
    pact_sw_cell_reset(c);
    for (int rep = 0; rep < reps; rep++) {
        g_array_append_val(c->last, l);
        g_array_append_val(c->total, t);
        g_ptr_array_add(c->status, g_strdup(status));
    }
}

/* The arrivals of the cell's pattern file, a new reference, read once per study: its cells share a file per
 * pattern and size, which each cell read and parsed again (1,024 lines at 1,024 ranks).  The file's values,
 * so the model evaluates what the file says, as SimGrid's runs read it.  Kept up to ARRIVALS_CACHE_BYTES a
 * study (a tune table at 1,024 ranks: 297 files, 2.4 MB); past that, read for each cell as before (at 2^20
 * ranks a file is 8 MB, and its parse a small part of an evaluation). */
#define ARRIVALS_CACHE_BYTES ((gsize)64 << 20)
static GArray *model_arrivals(ctx_t *x, const cell_t *c, GError **err)
{
    g_mutex_lock(&x->memo_lock);
    GArray *d = g_hash_table_lookup(x->arrivals, c->pattern_file);
    if (d)
        g_array_ref(d);
    g_mutex_unlock(&x->memo_lock);
    if (d)
        return d;
    g_autofree char *path = g_build_filename(x->run, c->pattern_file, NULL);
    if (!(d = pact_pattern_read(path, x->s->procs, err)))
        return NULL;
    gsize bytes = (gsize)d->len * sizeof(double);
    g_mutex_lock(&x->memo_lock);
    if (x->arrivals_bytes + bytes <= ARRIVALS_CACHE_BYTES &&
        !g_hash_table_contains(x->arrivals, c->pattern_file)) {
        g_hash_table_insert(x->arrivals, g_strdup(c->pattern_file), g_array_ref(d));
        x->arrivals_bytes += bytes;
    }
    g_mutex_unlock(&x->memo_lock);
    return d;
}

/* ---- schedule sets kept between waves ----
 *
 * A run of the model engine prepares each (algorithm, size) in every wave that has one of its cells to run:
 * without delay (phase 1), then under the patterns, and under pact tune's pruning again for its bounds and
 * for each round that asks for its cells; at 1024 ranks a set takes 20-230 ms to prepare (modified Bruck
 * alltoall the most) and a table prepared each about twice.  So a batch done with a set keeps it, with its
 * digest, while a cell of that (algorithm, size) has no value yet, and the next batch of that (algorithm,
 * size) takes it instead of preparing it again (prepare is deterministic: the same arrays).  Sets kept by all
 * studies of the process hold at most kept_cap bytes: PACT_MODEL_KEEP_MIB, else a sixteenth of the memory, at
 * most 1 GiB.  A set that does not fit is freed, as before. */
static GMutex kept_lock;
static gsize kept_total, kept_cap;
static gboolean kept_cap_set;
/* the base sets that others are resized from (below): per study and algorithm the BASES last prepared, the
 * oldest first; under kept_lock, within kept_cap with the kept sets */
typedef struct {
    ctx_t *x;
    guint alg;
    pact_model_sched *ms;
    gsize bytes;
} base_t;
static GPtrArray *bases;

/* PACT_MODEL_KEEP_MIB: a number of MiB, 0 (keep none) .. 2^20 (unset or empty: the default, as the other
 * PACT_MODEL_ variables); FALSE with a message otherwise. */
static gboolean keep_env(gsize *cap, GError **err)
{
    const char *v = g_getenv("PACT_MODEL_KEEP_MIB");
    guint64 mib;
    if (!v || !*v)
        return TRUE;
    if (!g_ascii_string_to_unsigned(v, 10, 0, (guint64)1 << 20, &mib, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "environment variable PACT_MODEL_KEEP_MIB=%s: not a number of MiB (0..%u) for the model "
                    "engine's schedule sets kept between waves",
                    v, 1u << 20);
        return FALSE;
    }
    *cap = (gsize)mib << 20;
    return TRUE;
}

/* PACT_MODEL_BOUNDS: which lower bounds pact tune's pruning gives the held cells (sweep.c, run_pruned):
 * "both" (unset or empty: pact_model_bounds_quick's, then pact_model_bounds's where those do not suffice),
 * "full" (pact_model_bounds's alone) or "quick" (the quick one alone); FALSE with a message otherwise.  The
 * tables are the same bytes whichever (tests/integration/tune.sh). */
gboolean pact_sw_bounds_env(int *mode, GError **err)
{
    const char *v = g_getenv("PACT_MODEL_BOUNDS");
    *mode = PACT_SW_BOUNDS_BOTH;
    if (!v || !*v || !strcmp(v, "both"))
        return TRUE;
    if (!strcmp(v, "full") || !strcmp(v, "quick")) {
        *mode = v[0] == 'f' ? PACT_SW_BOUNDS_FULL : PACT_SW_BOUNDS_QUICK;
        return TRUE;
    }
    g_set_error(
        err, PACT_ERROR, PACT_ERROR_INPUT,
        "environment variable PACT_MODEL_BOUNDS=%s: not both, full or quick (the lower bounds of pact "
        "tune's pruning)",
        v);
    return FALSE;
}

/* PACT_MODEL_RESIZE: "on" (unset or empty) or "off": whether the model engine makes a set from another
 * size's (pact_model_resize) before it prepares one; FALSE with a message otherwise.  The results are the
 * same bytes either way (tests/integration/tune.sh). */
static gboolean resize_env(gboolean *on, GError **err)
{
    const char *v = g_getenv("PACT_MODEL_RESIZE");
    *on = TRUE;
    if (!v || !*v || !strcmp(v, "on"))
        return TRUE;
    if (!strcmp(v, "off")) {
        *on = FALSE;
        return TRUE;
    }
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                "environment variable PACT_MODEL_RESIZE=%s: not on or off (the model engine's schedule sets "
                "made from another size's)",
                v);
    return FALSE;
}

gboolean pact_sw_env_check(GError **err)
{
    gsize cap;
    int mode;
    gboolean on;
    g_autofree char *lib = NULL;
    return keep_env(&cap, err) && pact_sw_bounds_env(&mode, err) && resize_env(&on, err) &&
           pact_smpi_malloc(&lib, err);
}

/* The cap, from the environment (checked at start: pact_sw_env_check) or the memory; under kept_lock. */
static gsize keep_cap(void)
{
    if (!kept_cap_set) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        gsize mem = pages > 0 && page > 0 ? (gsize)pages * (gsize)page : 0;
        kept_cap = MIN(mem / 16, (gsize)1 << 30);
        if (!keep_env(&kept_cap, NULL))
            kept_cap = 0;
        kept_cap_set = TRUE;
    }
    return kept_cap;
}

/* Whether a cell of (alg, size) of study x that this shard runs has no value yet (held, or in a wave to
 * come). */
static gboolean kept_wanted(const ctx_t *x, guint alg, guint size)
{
    for (guint p = 0; p < x->s->patterns->len; p++) {
        const cell_t *c = pact_sw_find_cell((ctx_t *)x, alg, size, p);
        if (c && !c->rows && c->last->len == 0 && !c->twin)
            return TRUE;
    }
    return FALSE;
}

/* The set of (alg, size) kept, into *ms and *digest (taken: no longer kept); FALSE when none is. */
static gboolean kept_take(ctx_t *x, guint alg, guint size, pact_model_sched **ms, char **digest)
{
    const gsize i = (gsize)alg * x->s->sizes->len + size;
    g_mutex_lock(&kept_lock);
    gboolean have = x->kept && x->kept[i].ms;
    if (have) {
        *ms = x->kept[i].ms;
        *digest = x->kept[i].digest;
        kept_total -= x->kept[i].bytes;
        x->kept[i] = (kept_set){NULL, NULL, 0};
    }
    g_mutex_unlock(&kept_lock);
    return have;
}

/* Whether batch b holds every cell of (alg, size) of its phase: then no other batch runs them while it runs,
 * and the cells of the other phase wait for another wave (batches of a cell each, --batch cell, run one
 * (algorithm, size) in several batches at once, whose cells kept_wanted must not read while they are set). */
static gboolean batch_whole(const batch_t *b, guint alg, guint size)
{
    guint mine = 0, all = 0;
    for (guint k = 0; k < b->cells->len; k++) {
        const cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
        mine += c->alg == alg && c->size == size;
    }
    for (guint p = 0; p < b->x->s->patterns->len; p++) {
        const cell_t *c = pact_sw_find_cell(b->x, alg, size, p);
        all += c && c->phase == b->phase;
    }
    return mine == all;
}

/* Batch b is done with the set ms of (alg, size) (NULL: none): kept while a cell of it has no value and it
 * fits, else freed. */
static void kept_put(batch_t *b, guint alg, guint size, pact_model_sched *ms, char *digest)
{
    if (!ms)
        return;
    ctx_t *x = b->x;
    const gsize bytes = pact_model_sched_bytes(ms);
    const gboolean whole = batch_whole(b, alg, size);
    g_mutex_lock(&kept_lock);
    const gsize i = (gsize)alg * x->s->sizes->len + size;
    gboolean keep =
        whole && bytes <= keep_cap() && kept_total <= kept_cap - bytes && kept_wanted(x, alg, size);
    if (keep && !x->kept)
        x->kept = g_new0(kept_set, (gsize)x->s->algs->len * x->s->sizes->len);
    keep = keep && !x->kept[i].ms;
    if (keep) {
        x->kept[i] = (kept_set){ms, digest, bytes};
        kept_total += bytes;
    }
    g_mutex_unlock(&kept_lock);
    if (!keep) {
        pact_model_sched_free(ms);
        g_free(digest);
    }
}

void pact_sw_kept_drop(ctx_t *x)
{
    g_mutex_lock(&kept_lock);
    for (gsize i = 0; x->kept && i < (gsize)x->s->algs->len * x->s->sizes->len; i++) {
        pact_model_sched_free(x->kept[i].ms);
        g_free(x->kept[i].digest);
        kept_total -= x->kept[i].bytes;
    }
    for (guint i = bases ? bases->len : 0; i-- > 0;) {
        base_t *e = bases->pdata[i];
        if (e->x == x) {
            pact_model_sched_free(e->ms);
            kept_total -= e->bytes;
            g_ptr_array_remove_index(bases, i); /* in order: the oldest first */
            g_free(e);
        }
    }
    g_clear_pointer(&x->kept, g_free);
    g_mutex_unlock(&kept_lock);
}

/* ---- sets made from another size's ----
 *
 * Most algorithms build one structure for many sizes: the same operations, peers, tags and dependencies,
 * other bytes (modified Bruck alltoall at every size; ring allreduce wherever P divides the count).  Each
 * study keeps, per algorithm, the two sets it prepared last (bases, within kept_cap with the kept sets), and
 * a batch that has no kept set of its (algorithm, size) first asks pact_model_resize for one made from
 * either: the builds at the new size, checked against the base's, and the base's arrays shared, where
 * preparing would make them again (modified Bruck at 1024 ranks: 0.2 s a size, 17 sizes).  Where the
 * structure differs (segmented ring where its segments' count changes, a size below P) the set is prepared
 * and becomes the base. */
static gboolean resize_on(void)
{
    static gsize once;
    static gboolean on;
    if (g_once_init_enter(&once)) {
        if (!resize_env(&on, NULL))
            on = FALSE;
        g_once_init_leave(&once, 1);
    }
    return on;
}

/* Bases per study and algorithm: ring allreduce at 96, 192 and 768 ranks (3 x 2^k) builds two structures,
 * one at every other size of a power of two (the blocks that take one more element than the others change),
 * and with one base each size prepared again. */
#define BASES 2

/* Algorithm alg's k-th base in study x (from the newest), or NULL; under kept_lock. */
static base_t *base_find(const ctx_t *x, guint alg, guint k)
{
    for (guint i = bases ? bases->len : 0; i-- > 0;) {
        base_t *e = bases->pdata[i];
        if (e->x == x && e->alg == alg && k-- == 0)
            return e;
    }
    return NULL;
}

/* Another hold of algorithm alg's k-th base set in study x, or NULL. */
static pact_model_sched *based_share(ctx_t *x, guint alg, guint k)
{
    g_mutex_lock(&kept_lock);
    const base_t *e = base_find(x, alg, k);
    pact_model_sched *t = e ? pact_model_sched_share(e->ms) : NULL;
    g_mutex_unlock(&kept_lock);
    return t;
}

/* ms, just prepared, becomes algorithm alg's newest base set in study x, in place of its oldest where it has
 * BASES; the oldest bases (of any study) make room for it under kept_cap (its arrays are counted whole,
 * though the sets resized from it share them). */
static void based_set(ctx_t *x, guint alg, const pact_model_sched *ms)
{
    const gsize bytes = pact_model_sched_bytes(ms);
    GPtrArray *gone = g_ptr_array_new();
    g_mutex_lock(&kept_lock);
    if (!bases)
        bases = g_ptr_array_new();
    base_t *e = base_find(x, alg, BASES - 1);
    if (e) {
        g_ptr_array_add(gone, e->ms);
        kept_total -= e->bytes;
        g_ptr_array_remove(bases, e);
        g_free(e);
    }
    if (bytes <= keep_cap()) {
        while (kept_total > kept_cap - bytes && bases->len > 0) {
            base_t *o = bases->pdata[0];
            g_ptr_array_add(gone, o->ms);
            kept_total -= o->bytes;
            g_ptr_array_remove_index(bases, 0);
            g_free(o);
        }
        pact_model_sched *t = kept_total <= kept_cap - bytes ? pact_model_sched_share(ms) : NULL;
        if (t) {
            base_t *n = g_new(base_t, 1);
            *n = (base_t){x, alg, t, bytes};
            g_ptr_array_add(bases, n);
            kept_total += bytes;
        }
    }
    g_mutex_unlock(&kept_lock);
    for (guint i = 0; i < gone->len; i++)
        pact_model_sched_free(gone->pdata[i]);
    g_ptr_array_free(gone, TRUE);
}

/* ---- workspaces kept between batches ----
 *
 * Each batch took a new workspace and freed it: at 1024 ranks its arrays are 100-300 MB (a rank's operations,
 * flows and classes, a bound's times per operation and pattern), and the kernel zeroed every page again at
 * each batch's first touch (pact tune's model table: 21-35 s of system time).  A batch now takes one that an
 * earlier batch gave back (at most one per job exists at once: each batch holds one while it runs), and the
 * run frees them at its end (pact_sw_workspaces_drop).  A workspace is reusable by design: an evaluation or a
 * bound sets up whatever it reads (pact_models.h). */
static GMutex ws_lock;
static GPtrArray *ws_free;

static pact_model_eval *ws_take(void)
{
    pact_model_eval *w = NULL;
    g_mutex_lock(&ws_lock);
    if (ws_free && ws_free->len > 0)
        w = g_ptr_array_steal_index_fast(ws_free, ws_free->len - 1);
    g_mutex_unlock(&ws_lock);
    return w ? w : pact_model_eval_new();
}

static void ws_give(pact_model_eval *w)
{
    g_mutex_lock(&ws_lock);
    if (!ws_free)
        ws_free = g_ptr_array_new();
    g_ptr_array_add(ws_free, w);
    g_mutex_unlock(&ws_lock);
}

void pact_sw_workspaces_drop(void)
{
    g_mutex_lock(&ws_lock);
    for (guint i = 0; ws_free && i < ws_free->len; i++)
        pact_model_eval_free(ws_free->pdata[i]);
    if (ws_free)
        g_ptr_array_set_size(ws_free, 0);
    g_mutex_unlock(&ws_lock);
}

/* The memo's key of a bound of kind k begins with this. */
static const char *bound_prefix(int k)
{
    return k == LB_QUICK ? "quick" : "bound";
}

/* A bound batch's cells waiting for their bounds: up to PACT_MODEL_BOUND_LANES of one schedule set, bounded
 * in one pass (pact_model_bounds), with their arrivals and memo keys. */
typedef struct {
    cell_t *c[PACT_MODEL_BOUND_LANES];
    GArray *d[PACT_MODEL_BOUND_LANES];
    char *key[PACT_MODEL_BOUND_LANES];
    unsigned n;
} bound_group;

/* A cell's bound of kind k (LB_QUICK, LB_FULL) becomes its lb: the larger of its two bounds. */
static void lb_set(cell_t *c, int k, double lb)
{
    c->lb = k == LB_FULL && c->lbk != LB_NONE && c->lb > lb ? c->lb : lb;
    c->lbk = (guint8)k;
}

/* The group's bounds of kind k under schedule set ms (a set no bound covers is simply not pruned: 0), into
 * the cells and the memo; the group emptied. */
static void bound_flush(ctx_t *x, pact_model_eval *w, const pact_model_sched *ms,
                        const pact_model_params *prm, int k, bound_group *g)
{
    if (g->n == 0)
        return;
    const double *arr[PACT_MODEL_BOUND_LANES];
    double lb[PACT_MODEL_BOUND_LANES];
    for (unsigned i = 0; i < g->n; i++)
        arr[i] = (const double *)g->d[i]->data;
    GError *e = NULL;
    if (!(k == LB_QUICK ? pact_model_bounds_quick : pact_model_bounds)(w, ms, arr, g->n, prm, lb, &e)) {
        for (unsigned i = 0; i < g->n; i++)
            lb[i] = 0;
        g_clear_error(&e);
    }
    for (unsigned i = 0; i < g->n; i++) {
        lb_set(g->c[i], k, lb[i]);
        double *v = g_new(double, 2);
        v[0] = lb[i];
        v[1] = NAN;
        g_mutex_lock(&x->memo_lock);
        g_hash_table_replace(x->memo, g->key[i], v);
        g_mutex_unlock(&x->memo_lock);
        g_array_unref(g->d[i]);
    }
    g->n = 0;
}

/* The patterns a bound pass of kind k over schedule set ms takes at once: all of a cell's (the 11 shapes:
 * pruning bounds each (algorithm, size) once), where the pass's arrays of a time per pattern stay within
 * BOUND_PASS_BYTES: per operation and per message between nodes for pact_model_bounds, per message (and one
 * rank's operations) for the quick one; fewer where a set is that large (at least one).  A pass reads the
 * schedules once whatever its patterns: pairwise alltoall at 1024 ranks took 0.3 s a pass for 4 patterns and
 * 0.55 s for 10, where 10 in fours took three passes, 1 s; ring reduce-scatter at 1024 ranks, 7 patterns a
 * full pass, took two quick passes a size where one does. */
#define BOUND_PASS_BYTES ((size_t)256 << 20)
static unsigned bound_lanes(const pact_model_sched *ms, int kind)
{
    const size_t ops = kind == LB_QUICK
                           ? (size_t)pact_model_sched_ops(ms) / (size_t)pact_model_sched_ranks(ms)
                           : (size_t)pact_model_sched_ops(ms);
    size_t per = 8 * (ops + 1 + pact_model_sched_messages(ms));
    size_t k = BOUND_PASS_BYTES / per;
    return k < 1 ? 1 : k > PACT_MODEL_BOUND_LANES ? PACT_MODEL_BOUND_LANES : (unsigned)k;
}

/* The group's cells left without bounds (an error elsewhere): their arrivals and keys freed. */
static void bound_drop(bound_group *g)
{
    for (unsigned i = 0; i < g->n; i++) {
        g_array_unref(g->d[i]);
        g_free(g->key[i]);
    }
    g->n = 0;
}

/* The model engine: every cell of the batch through the schedule evaluator, in this process.  Cells come
 * algorithm by size by pattern, so one prepared schedule set serves all patterns of an (algorithm, size).
 * The model is deterministic: one evaluation serves all repetitions; rows still come one per repetition.
 * Held cells wait (pruning); a bound batch gives its held cells a lower bound of their d^ instead (cell_t.lb,
 * pact_model_bounds: the patterns of an (algorithm, size) at once, bound_lanes), or settles those whose
 * algorithm does not apply. */
gboolean pact_sw_model_batch(batch_t *b, GError **err)
{
    ctx_t *x = b->x;
    pact_sweep *s = x->s;
    pact_model_params prm;
    pact_export_opts eo = pact_sw_export_opts(s);
    if (!pact_model_params_export(&prm, s->platform, &eo, err))
        return FALSE;
    prm.gamma = x->gamma;
    pact_model_eval *w = ws_take();
    pact_model_sched *ms = NULL;
    g_autofree char *digest = NULL;
    guint ms_alg = G_MAXUINT, ms_size = G_MAXUINT;
    bound_group g = {.n = 0};
    gboolean ok = FALSE;
    for (guint k = 0; k < b->cells->len; k++) {
        cell_t *c = x->cells->pdata[g_array_index(b->cells, guint, k)];
        if (c->rows || c->held != (b->bound != LB_NONE) || (b->bound == LB_FULL && c->lbk != LB_WANT))
            continue;
        const pact_alg *alg;
        pact_build_args a;
        g_autofree long *params = NULL;
        g_autofree char *restricted = cell_args(x, c, &alg, &a, &params);
        if (restricted) {
            cell_set(c, s->reps, NAN, NAN, restricted);
            c->held = FALSE; /* known: it cannot run */
            continue;
        }
        if (!ms || ms_alg != c->alg || ms_size != c->size) {
            bound_flush(x, w, ms, &prm, b->bound, &g);
            kept_put(b, ms_alg, ms_size, ms, g_steal_pointer(&digest));
            ms = NULL;
            if (kept_take(x, c->alg, c->size, &ms, &digest)) {
                b->reused++;
            } else {
                for (guint k = 0; k < BASES && !ms && resize_on(); k++) {
                    pact_model_sched *from = based_share(x, c->alg, k);
                    if (!from)
                        break;
                    GError *e = NULL;
                    ms = pact_model_resize(from, alg, &a, &e);
                    pact_model_sched_free(from);
                    if (e) {
                        g_propagate_error(err, e);
                        goto out;
                    }
                }
                if (ms) {
                    b->resized++;
                } else {
                    if (!(ms = pact_model_prepare(alg, &a, err)))
                        goto out;
                    b->prepared++;
                    if (resize_on())
                        based_set(x, c->alg, ms);
                }
                digest = pact_model_sched_digest(ms);
            }
            ms_alg = c->alg;
            ms_size = c->size;
        }
        /* a schedule set evaluated under these arrivals already (another algorithm that builds it alike): its
         * d^, or for a bound its d^ (the exact bound: segmented ring allreduce at 1024 ranks took 3 s of
         * bounds where ring's evaluations were known) or that bound */
        g_autofree char *run_key = g_strdup_printf("%s %s", digest, c->pattern_file);
        g_autofree char *key = b->bound == LB_NONE
                                   ? g_strdup(run_key)
                                   : g_strdup_printf("%s %s", bound_prefix(b->bound), run_key);
        g_mutex_lock(&x->memo_lock);
        const double *ran = b->bound == LB_NONE ? NULL : g_hash_table_lookup(x->memo, run_key);
        const double *seen = ran ? ran : g_hash_table_lookup(x->memo, key);
        double memo[2] = {seen ? seen[0] : NAN, seen ? seen[1] : NAN};
        g_mutex_unlock(&x->memo_lock);
        b->bounded += b->bound != LB_NONE;
        if (seen) {
            if (b->bound != LB_NONE)
                lb_set(c, ran ? LB_FULL : b->bound, memo[0]);
            else
                cell_set(c, s->reps, memo[0], memo[1], "ok");
            continue;
        }
        GArray *d = model_arrivals(x, c, err);
        if (!d)
            goto out;
        if (b->bound != LB_NONE) {
            g.c[g.n] = c;
            g.d[g.n] = d;
            g.key[g.n++] = g_steal_pointer(&key);
            if (g.n == bound_lanes(ms, b->bound))
                bound_flush(x, w, ms, &prm, b->bound, &g);
            continue;
        }
        pact_model_result r;
        gboolean done = pact_model_evaluate(w, ms, (double *)d->data, &prm, &r, err);
        g_array_unref(d);
        if (!done)
            goto out;
        cell_set(c, s->reps, r.dhat, r.dstar, "ok");
        double *v = g_new(double, 2);
        v[0] = r.dhat;
        v[1] = r.dstar;
        g_mutex_lock(&x->memo_lock);
        g_hash_table_replace(x->memo, g_steal_pointer(&key), v);
        g_mutex_unlock(&x->memo_lock);
    }
    bound_flush(x, w, ms, &prm, b->bound, &g);
    ok = TRUE;
out:
    bound_drop(&g);
    if (ok) { /* kept for the next batch of its set, and the next batch */
        kept_put(b, ms_alg, ms_size, ms, g_steal_pointer(&digest));
        ws_give(w);
    } else {
        pact_model_sched_free(ms);
        pact_model_eval_free(w);
    }
    return ok;
}

/* Twins (pact_experiment.twins): per size, each algorithm's schedule set is built as the model engine builds
 * it and digested; an algorithm whose digest an earlier one of the study has (ring and segmented ring
 * allreduce with their default parameters, linear and linear_sync alltoall at 256 and 512 ranks, an algorithm
 * and the one it falls back to) gets, under each pattern, that algorithm's cell as twin, when this shard runs
 * both. SimGrid's own algorithms (smpi:NAME) have no pact schedule and no twin; the skews are compared when
 * the twins are filled (sweep.c), so a pattern that differs still runs. */
gboolean pact_sw_find_twins(GPtrArray *studies, GPtrArray *batches, GError **err)
{
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        const pact_sweep *s = x->s;
        if (s->engine != PACT_ENGINE_SMPI || s->check)
            continue;
        for (guint z = 0; z < s->sizes->len; z++) {
            g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
            for (guint a = 0; a < s->algs->len; a++) {
                if (pact_sw_smpi_name(s->algs->pdata[a]))
                    continue;
                cell_t *c0 = pact_sw_find_cell(x, a, z, 0);
                const pact_alg *alg;
                pact_build_args ba;
                g_autofree long *params = NULL;
                g_autofree char *restricted = cell_args(x, c0, &alg, &ba, &params);
                if (restricted)
                    continue;
                pact_model_sched *ms = pact_model_prepare(alg, &ba, err);
                if (!ms)
                    return FALSE;
                char *digest = pact_model_sched_digest(ms);
                pact_model_sched_free(ms);
                gpointer first;
                if (!g_hash_table_lookup_extended(seen, digest, NULL, &first)) {
                    g_hash_table_insert(seen, digest, GUINT_TO_POINTER(a));
                    continue;
                }
                g_free(digest);
                for (guint p = 0; p < s->patterns->len; p++) {
                    cell_t *c = pact_sw_find_cell(x, a, z, p),
                           *src = pact_sw_find_cell(x, GPOINTER_TO_UINT(first), z, p);
                    if (((batch_t *)batches->pdata[src->batch])->mine &&
                        ((batch_t *)batches->pdata[c->batch])->mine)
                        c->twin = src;
                }
            }
        }
    }
    return TRUE;
}

/* The replay engine: each cell's schedule as SMPI time-independent traces under smpirun -replay.  Replay is
 * deterministic: one simulated call serves all repetitions (rows still come one per repetition). */
gboolean pact_sw_replay_batch(batch_t *b, GError **err)
{
    ctx_t *x = b->x;
    pact_sweep *s = x->s;
    for (guint k = 0; k < b->cells->len; k++) {
        guint i = g_array_index(b->cells, guint, k);
        cell_t *c = x->cells->pdata[i];
        const pact_alg *alg;
        pact_build_args a;
        g_autofree long *params = NULL;
        g_autofree char *restricted = cell_args(x, c, &alg, &a, &params);
        if (restricted) {
            cell_set(c, s->reps, NAN, NAN, restricted);
            continue;
        }
        g_autofree char *path = g_build_filename(x->run, c->pattern_file, NULL);
        g_autoptr(GArray) d = pact_pattern_read(path, s->procs, err);
        if (!d)
            return FALSE;
        g_autofree char *dir = g_strdup_printf("%s/replay-%u", x->run, i);
        g_autofree char *xml = g_build_filename(x->run, "platform.xml", NULL);
        g_autofree char *hosts = g_build_filename(x->run, "hostfile", NULL);
        pact_replay_cell rc = {.coll = s->coll,
                               .alg = s->algs->pdata[c->alg],
                               .P = s->procs,
                               .root = s->root,
                               .count = a.count,
                               .elem_size = a.elem_size,
                               .commutative = 1, /* sum, max and min */
                               .gamma = x->gamma,
                               .delays = (const double *)d->data,
                               .place = &x->place};
        double l, t;
        if (!pact_replay_write(&rc, dir, err) || !pact_replay_run(dir, xml, hosts, s->procs, &l, &t, err))
            return FALSE;
        if (!g_getenv("PACT_KEEP_TRACES"))
            pact_rm_rf(dir); /* traces of 1024 ranks are large; PACT_KEEP_TRACES keeps them */
        cell_set(c, s->reps, l, t, "ok");
    }
    return TRUE;
}

