/* sweep.c - `pact sim`: cells, plans, smpirun launches, results.csv and summary.txt. */
#include "pact_run.h"

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

typedef struct {
    guint alg, size, pat; /* indices into the sweep's lists */
    double skew_s;
    char *pattern_file;
    int phase;
    guint batch;          /* index into the experiment's batches */
    GArray *last, *total; /* double per rep */
    GPtrArray *status;    /* char * per rep */
    char *rows;           /* its results.csv rows, once it has all its repetitions */
} cell_t;

static const struct {
    const char *name;
    size_t size;
} dtype_sizes[] = {{"char", 1}, {"int", 4}, {"float", 4}, {"double", 8}};

size_t pact_dtype_size(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(dtype_sizes); i++)
        if (g_strcmp0(dtype_sizes[i].name, name) == 0)
            return dtype_sizes[i].size;
    return 0;
}

static void free_delays(gpointer p)
{
    if (p)
        g_array_unref(p);
}

void pact_sweep_init(pact_sweep *s)
{
    memset(s, 0, sizeof(*s));
    s->algs = g_ptr_array_new_with_free_func(g_free);
    s->patterns = g_ptr_array_new_with_free_func(g_free);
    s->pattern_data = g_ptr_array_new_with_free_func(free_delays);
    s->sizes = g_array_new(FALSE, FALSE, sizeof(guint64));
    s->reps = 5;
    s->gamma = -1;
    s->seed = 1;
    s->dtype = g_strdup("double");
    s->op = g_strdup("sum");
    s->mapping = PACT_MAP_BLOCK;
    s->rails = -1;
}

void pact_sweep_clear(pact_sweep *s)
{
    g_ptr_array_unref(s->algs);
    g_ptr_array_unref(s->patterns);
    g_ptr_array_unref(s->pattern_data);
    g_free(s->node_of);
    g_array_unref(s->sizes);
    g_free(s->dtype);
    g_free(s->op);
    g_free(s->bench);
    g_free(s->user_xml);
    g_free(s->user_hostfile);
    memset(s, 0, sizeof(*s));
}

static const char *const skew_modes[] = {"absolute", "mean_nodelay", "own_nodelay", "mif"};

const char *pact_skew_mode_name(pact_skew_mode m)
{
    return skew_modes[m];
}

int pact_skew_mode_parse(const char *name)
{
    for (guint i = 0; i < G_N_ELEMENTS(skew_modes); i++)
        if (!strcmp(skew_modes[i], name))
            return (int)i;
    return -1;
}

/* The skew needs the no-delay cells first. */
static gboolean skew_from_nodelay(pact_skew_mode m)
{
    return m == PACT_SKEW_MEAN_NODELAY || m == PACT_SKEW_OWN_NODELAY;
}

static const char *pattern_path(const char *pat)
{
    return g_str_has_prefix(pat, "file:") ? pat + 5 : NULL;
}

/* For "smpi:SPEC", SPEC: SimGrid's built-in NAME, optionally followed by :collective=NAME settings for the
 * collectives it calls (SimGrid's redbcast runs the selected reduce and bcast, for instance). */
static const char *smpi_name(const char *alg)
{
    return g_str_has_prefix(alg, "smpi:") ? alg + 5 : NULL;
}

static gboolean smpi_word(const char *w)
{
    return *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(w);
}

static gboolean smpi_spec_ok(const char *spec)
{
    g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
    if (!smpi_word(parts[0]))
        return FALSE;
    for (int i = 1; parts[i]; i++) {
        char *eq = strchr(parts[i], '=');
        if (!eq)
            return FALSE;
        *eq = 0;
        if (!smpi_word(parts[i]) || !smpi_word(eq + 1)) /* any SimGrid collective: gather, scatter... */
            return FALSE;
    }
    return TRUE;
}

/* An algorithm spec is NAME or NAME:param=value[:param=value]; values take K, M, G suffixes.  Checks it and,
 * when `params` is given, writes the overrides as the bench driver's "param=value,..." (or "-"). */
static gboolean alg_spec_params(pact_coll coll, const char *spec, GString *params, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
    const pact_alg *alg = pact_alg_find(coll, parts[0]);
    if (!alg) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--algs: unknown %s algorithm '%s' (pact list algorithms --coll %s)",
                    pact_coll_name(coll), parts[0], pact_coll_name(coll));
        return FALSE;
    }
    for (int i = 1; parts[i]; i++) {
        char *eq = strchr(parts[i], '=');
        guint64 v = 0;
        int k = 0;
        if (eq)
            *eq = 0;
        while (k < PACT_MAX_PARAMS && alg->params[k].name && strcmp(alg->params[k].name, parts[i]))
            k++;
        if (!eq || k == PACT_MAX_PARAMS || !alg->params[k].name || pact_parse_size(eq + 1, &v) != PACT_OK ||
            v > G_MAXLONG) {
            GString *names = g_string_new(NULL);
            for (int j = 0; j < PACT_MAX_PARAMS && alg->params[j].name; j++)
                g_string_append_printf(names, "%s%s", j ? ", " : "", alg->params[j].name);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "--algs %s: expected %s:param=value with param one of: %s", spec, parts[0],
                        names->len ? names->str : "(none)");
            g_string_free(names, TRUE);
            return FALSE;
        }
        if (params)
            g_string_append_printf(params, "%s%s=%" G_GUINT64_FORMAT, params->len ? "," : "", parts[i], v);
    }
    if (params && params->len == 0)
        g_string_append(params, "-");
    return TRUE;
}

/* The platform column: a built-in's name, or the user's XML file name without .xml. */
static const char *platform_name(const pact_sweep *s)
{
    static char buf[256];
    if (s->platform)
        return s->platform->name;
    g_autofree char *base = g_path_get_basename(s->user_xml);
    if (g_str_has_suffix(base, ".xml"))
        base[strlen(base) - 4] = 0;
    g_strlcpy(buf, base, sizeof buf);
    return buf;
}

static pact_export_opts export_opts(const pact_sweep *s)
{
    return (pact_export_opts){.nodes = s->nodes,
                              .ppn = s->ppn,
                              .mapping = s->mapping,
                              .ranks_on = s->ranks_on,
                              .rails = s->rails >= 0 ? (pact_rails)s->rails : s->platform->rails};
}

/* A user's XML: the hostfile gives the ranks (one host per line); nodes = distinct hosts. */
static gboolean read_user_hostfile(pact_sweep *s, GError **err)
{
    if (!s->user_hostfile) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--platform %s: a SimGrid XML needs --hostfile FILE",
                    s->user_xml);
        return FALSE;
    }
    if (!g_file_test(s->user_xml, G_FILE_TEST_IS_REGULAR)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--platform %s: no such file", s->user_xml);
        return FALSE;
    }
    g_autofree char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(s->user_hostfile, &text, NULL, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--hostfile: %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GHashTable *hosts = g_hash_table_new(g_str_hash, g_str_equal);
    GArray *node_of = g_array_new(FALSE, FALSE, sizeof(int));
    int procs = 0;
    for (int i = 0; lines[i]; i++) {
        char *h = g_strstrip(lines[i]);
        if (!*h || *h == '#')
            continue;
        if (strchr(h, ' ') || strchr(h, '\t')) {
            g_hash_table_destroy(hosts);
            g_array_unref(node_of);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s:%d: hostfile: one host name per line (one line per rank), got '%s'",
                        s->user_hostfile, i + 1, h);
            return FALSE;
        }
        /* Nodes numbered in order of first appearance. */
        gpointer n;
        if (!g_hash_table_lookup_extended(hosts, h, NULL, &n)) {
            n = GINT_TO_POINTER(g_hash_table_size(hosts));
            g_hash_table_insert(hosts, h, n);
        }
        int node = GPOINTER_TO_INT(n);
        g_array_append_val(node_of, node);
        procs++;
    }
    int nodes = (int)g_hash_table_size(hosts);
    g_hash_table_destroy(hosts);
    g_free(s->node_of);
    s->node_of = (int *)g_array_free(node_of, FALSE);
    if (procs < 1) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: hostfile lists no host", s->user_hostfile);
        return FALSE;
    }
    s->procs = procs;
    s->nodes = nodes;
    s->ppn = procs % nodes == 0 ? procs / nodes : 0; /* 0: uneven */
    return TRUE;
}

gboolean pact_sweep_validate(pact_sweep *s, GError **err)
{
    if (s->user_xml) {
        if (!read_user_hostfile(s, err))
            return FALSE;
    } else {
        if (!s->platform) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--platform: missing");
            return FALSE;
        }
        pact_export_opts o = export_opts(s);
        if (!pact_platform_check(s->platform, &o, err))
            return FALSE;
        s->nodes = o.nodes;
        s->ppn = o.ppn;
        s->procs = o.nodes * o.ppn;
        g_free(s->node_of);
        s->node_of = g_new(int, (gsize)s->procs);
        for (int i = 0; i < s->procs; i++)
            s->node_of[i] = pact_rank_node(i, o.nodes, o.ppn, o.mapping);
    }
    int P = s->procs;
    size_t es = pact_dtype_size(s->dtype);
    if (!es) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--dtype %s: unknown (char, int, float, double)",
                    s->dtype);
        return FALSE;
    }
    if (strcmp(s->op, "sum") && strcmp(s->op, "max") && strcmp(s->op, "min")) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--op %s: unknown (sum, max, min)", s->op);
        return FALSE;
    }
    if (s->algs->len == 0 || s->sizes->len == 0 || s->patterns->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "need at least one algorithm, size and pattern");
        return FALSE;
    }
    for (guint i = 0; i < s->algs->len; i++) {
        const char *a = s->algs->pdata[i];
        const char *sm = smpi_name(a);
        if (sm) {
            if (!smpi_spec_ok(sm)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--algs %s: expected smpi:NAME or smpi:NAME:collective=NAME (e.g. "
                            "smpi:redbcast:reduce=ompi_basic_linear:bcast=flattree)",
                            a);
                return FALSE;
            }
        } else if (!alg_spec_params(s->coll, a, NULL, err)) {
            return FALSE;
        }
        for (guint j = 0; j < i; j++)
            if (!strcmp(a, s->algs->pdata[j])) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--algs: '%s' given twice", a);
                return FALSE;
            }
    }
    for (guint i = 0; i < s->sizes->len; i++) {
        guint64 b = g_array_index(s->sizes, guint64, i);
        if (b % es != 0 || b / es > G_MAXINT) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "--sizes: %" G_GUINT64_FORMAT " bytes is not a whole number of %s (%zu bytes each)",
                        b, s->dtype, es);
            return FALSE;
        }
    }
    g_ptr_array_set_size(s->pattern_data, 0);
    for (guint i = 0; i < s->patterns->len; i++) {
        const char *pat = s->patterns->pdata[i], *path = pattern_path(pat);
        GArray *d = NULL;
        for (guint j = 0; j < i; j++)
            if (!strcmp(pat, s->patterns->pdata[j])) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--patterns: '%s' given twice", pat);
                return FALSE;
            }
        if (path) {
            if (!*path || strpbrk(path, ",\"\n")) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--patterns %s: expected file:PATH, the path without commas or quotes", pat);
                return FALSE;
            }
            if (!(d = pact_pattern_load(path, P, NULL, err)))
                return FALSE;
        } else if (!pact_pattern_describe(pat) || !strcmp(pat, "file")) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "--patterns: unknown pattern '%s' (pact list patterns; a file is file:PATH)", pat);
            return FALSE;
        }
        g_ptr_array_add(s->pattern_data, d);
    }
    if (s->engine == PACT_ENGINE_MODEL) {
        const char *why = !s->platform                   ? "a SimGrid XML has no parameters for it"
                          : s->ranks_on != PACT_ON_CORES ? "ranks on GPUs: it has no GPU node model"
                                                         : NULL;
        for (guint i = 0; !why && i < s->algs->len; i++)
            if (smpi_name(s->algs->pdata[i]))
                why = "SimGrid's built-ins (smpi:NAME) run only under smpi";
        if (why) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--engine model: %s", why);
            return FALSE;
        }
    }
    if (s->engine == PACT_ENGINE_REPLAY)
        for (guint i = 0; i < s->algs->len; i++)
            if (smpi_name(s->algs->pdata[i])) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--engine replay: %s: SimGrid's built-ins (smpi:NAME) run only under smpi",
                            (char *)s->algs->pdata[i]);
                return FALSE;
            }
    if (s->skew_mode == PACT_SKEW_MIF && !s->platform) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--skew-mode mif: needs the one-message time alpha + beta x m of a built-in machine or a "
                    "platform YAML (a SimGrid XML has none)");
        return FALSE;
    }
    if (!(s->skew >= 0) || !isfinite(s->skew)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--skew/--skew-factor: must be a number >= 0");
        return FALSE;
    }
    if (s->reps < 1) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--reps %d: must be >= 1", s->reps);
        return FALSE;
    }
    if (pact_coll_rooted(s->coll) && (s->root < 0 || s->root >= P)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--root %d: must be in 0..%d", s->root, P - 1);
        return FALSE;
    }
    return TRUE;
}

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

/* ---- studies, cells and batches ------------------------------------------------------------------------ */

typedef struct {
    pact_sweep *s;
    guint index;      /* of the study in the experiment */
    GPtrArray *cells; /* cell_t *, in report order: algorithm by size by pattern */
    char *run;        /* OUT/run/sK: platform, plans, patterns, logs */
    char *bench;      /* absolute path of pact-bench-smpi (smpi engine) */
    double gamma;
} ctx_t;

/* The cells that share one simulation. */
typedef struct {
    ctx_t *x;
    guint id;
    int phase;
    GArray *cells; /* guint: indices into x->cells */
    gboolean mine; /* run by this shard */
    GError *error;
    gint *cancel;
    GAsyncQueue *done;
    double seconds; /* wall time it took */
} batch_t;

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

static void cell_reset(cell_t *c)
{
    g_array_set_size(c->last, 0);
    g_array_set_size(c->total, 0);
    g_ptr_array_set_size(c->status, 0);
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
    if (x->cells)
        g_ptr_array_unref(x->cells);
    g_free(x->run);
    g_free(x->bench);
    g_free(x);
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
static gboolean launch(batch_t *b, GError **err)
{
    ctx_t *x = b->x;
    pact_sweep *s = x->s;
    const char *smpi_alg =
        smpi_name(s->algs->pdata[((cell_t *)x->cells->pdata[g_array_index(b->cells, guint, 0)])->alg]);
    int P = s->procs;
    size_t es = pact_dtype_size(s->dtype);
    GString *plan = g_string_new("# cell coll alg count dtype op root reps gamma pattern params\n");
    int n = 0;
    guint64 maxbuf = 0; /* the largest buffer of a rank, bytes */
    for (guint k = 0; k < b->cells->len; k++) {
        guint i = g_array_index(b->cells, guint, k);
        cell_t *c = x->cells->pdata[i];
        const char *alg = s->algs->pdata[c->alg];
        const guint64 bytes = g_array_index(s->sizes, guint64, c->size);
        maxbuf = MAX(maxbuf, s->coll >= PACT_COLL_ALLTOALL ? bytes * (guint64)P : bytes);
        cell_reset(c);
        g_autoptr(GString) params = g_string_new(NULL);
        g_auto(GStrv) name = g_strsplit(alg, ":", 2);
        if (smpi_alg)
            g_string_assign(params, "-");
        else
            alg_spec_params(s->coll, alg, params, NULL); /* validated before */
        g_string_append_printf(plan, "%u %s %s %" G_GUINT64_FORMAT " %s %s %d %d %.17g %s %s\n", i,
                               pact_coll_name(s->coll), smpi_alg ? "mpi" : name[0],
                               g_array_index(s->sizes, guint64, c->size) / es, s->dtype, s->op, s->root,
                               s->reps, x->gamma, c->pattern_file, params->str);
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
    g_ptr_array_add(argv, NULL);

    /* pact-smpi-clock.so, built next to the bench driver, spares SMPI two system calls per MPI call (see
     * sim/smpi_clock.c); without it the simulated times are the same, only slower to get. */
    g_autofree char *bench_dir = g_path_get_dirname(x->bench);
    g_autofree char *clock = g_build_filename(bench_dir, "pact-smpi-clock.so", NULL);
    g_autofree char *preload = NULL;
    char **envp = g_get_environ();
    if (g_file_test(clock, G_FILE_TEST_IS_REGULAR)) {
        const char *was = g_environ_getenv(envp, "LD_PRELOAD");
        preload = was && *was ? g_strconcat(clock, " ", was, NULL) : g_strdup(clock);
        envp = g_environ_setenv(envp, "LD_PRELOAD", preload, TRUE);
    }
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
        /* The driver's own message is the most useful line; keep the last few. */
        g_auto(GStrv) lines = g_strsplit(serr ? serr : "", "\n", -1);
        guint nl = g_strv_length(lines), from = nl > 6 ? nl - 6 : 0;
        g_autofree char *tail = g_strjoinv("\n  ", lines + from);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "smpirun failed:\n  %s", tail);
        return FALSE;
    }
    return read_output(x, out_path, err);
}

/* The build arguments of an algorithm spec NAME[:param=value...] (validated) for one cell. */
static void spec_args(const pact_sweep *s, const char *spec, guint64 bytes, pact_build_args *a)
{
    g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
    const pact_alg *alg = pact_alg_find(s->coll, parts[0]);
    *a = (pact_build_args){.coll = s->coll, .size = s->procs, .root = s->root, .commutative = 1};
    a->elem_size = pact_dtype_size(s->dtype);
    a->count = (size_t)(bytes / a->elem_size);
    pact_args_defaults(alg, a);
    for (int i = 1; parts[i]; i++) {
        char *eq = strchr(parts[i], '=');
        uint64_t v = 0;
        *eq = 0;
        pact_parse_size(eq + 1, &v);
        for (int k = 0; k < PACT_MAX_PARAMS && alg->params[k].name; k++)
            if (!strcmp(alg->params[k].name, parts[i]))
                a->params[k] = (long)v;
    }
}

/* The build arguments of a cell of the model or replay engine; returns NULL when its algorithm applies,
 * else the cell's status "restricted:why". */
static char *cell_args(const ctx_t *x, const cell_t *c, const pact_alg **alg, pact_build_args *a)
{
    const pact_sweep *s = x->s;
    const char *spec = s->algs->pdata[c->alg], *why = NULL;
    g_auto(GStrv) name = g_strsplit(spec, ":", 2);
    *alg = pact_alg_find(s->coll, name[0]);
    spec_args(s, spec, g_array_index(s->sizes, guint64, c->size), a);
    if (pact_alg_applies(*alg, a, &why) == PACT_OK)
        return NULL;
    char *status = g_strdup_printf("restricted:%s", why);
    g_strdelimit(status + strlen("restricted:"), ", ", '_');
    return status;
}

/* A deterministic engine simulates one call: it serves every repetition (rows still come one per rep). */
static void cell_set(cell_t *c, int reps, double l, double t, const char *status)
{
    cell_reset(c);
    for (int rep = 0; rep < reps; rep++) {
        g_array_append_val(c->last, l);
        g_array_append_val(c->total, t);
        g_ptr_array_add(c->status, g_strdup(status));
    }
}

/* The model engine: every cell of the batch through the schedule evaluator, in this process.  Cells come
 * algorithm by size by pattern, so one prepared schedule set serves all patterns of an (algorithm, size).
 * The model is deterministic: one evaluation serves all repetitions; rows still come one per repetition. */
static gboolean model_batch(batch_t *b, GError **err)
{
    ctx_t *x = b->x;
    pact_sweep *s = x->s;
    pact_model_params prm;
    pact_export_opts eo = export_opts(s);
    if (!pact_model_params_export(&prm, s->platform, &eo, err))
        return FALSE;
    prm.gamma = x->gamma;
    pact_model_eval *w = pact_model_eval_new();
    pact_model_sched *ms = NULL;
    guint ms_alg = G_MAXUINT, ms_size = G_MAXUINT;
    gboolean ok = FALSE;
    for (guint k = 0; k < b->cells->len; k++) {
        cell_t *c = x->cells->pdata[g_array_index(b->cells, guint, k)];
        const pact_alg *alg;
        pact_build_args a;
        g_autofree char *restricted = cell_args(x, c, &alg, &a);
        if (restricted) {
            cell_set(c, s->reps, NAN, NAN, restricted);
            continue;
        }
        if (!ms || ms_alg != c->alg || ms_size != c->size) {
            pact_model_sched_free(ms);
            if (!(ms = pact_model_prepare(alg, &a, err)))
                goto out;
            ms_alg = c->alg;
            ms_size = c->size;
        }
        g_autofree char *path = g_build_filename(x->run, c->pattern_file, NULL);
        GArray *d = pact_pattern_read(path, s->procs, err);
        pact_model_result r;
        gboolean done = d && pact_model_evaluate(w, ms, (double *)d->data, &prm, &r, err);
        if (d)
            g_array_unref(d);
        if (!done)
            goto out;
        cell_set(c, s->reps, r.dhat, r.dstar, "ok");
    }
    ok = TRUE;
out:
    pact_model_sched_free(ms);
    pact_model_eval_free(w);
    return ok;
}

/* Mean of the reps that ran ("ok" or "wrong"), NAN when none did. */
static double mean_of(const cell_t *c, gboolean last)
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

/* The cell's pattern file in the run folder.  Cells that share a pattern share the file; with own_nodelay
 * each algorithm has its own skew, hence its own file. */
static gboolean write_pattern(ctx_t *x, cell_t *c, GError **err)
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
    /* Relative to the run folder, smpirun's working directory, so the folder can move. */
    g_autofree char *alg =
        s->skew_mode == PACT_SKEW_OWN_NODELAY ? g_strdup_printf("-a%u", c->alg) : g_strdup("");
    c->pattern_file = g_strdup_printf("pattern-%u-%" G_GUINT64_FORMAT "%s.txt", c->pat,
                                      g_array_index(s->sizes, guint64, c->size), alg);
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

static cell_t *find_cell(ctx_t *x, guint alg, guint size, guint pat)
{
    for (guint i = 0; i < x->cells->len; i++) {
        cell_t *c = x->cells->pdata[i];
        if (c->alg == alg && c->size == size && c->pat == pat)
            return c;
    }
    return NULL;
}

/* The replay engine: each cell's schedule as SMPI time-independent traces under smpirun -replay.  Replay is
 * deterministic: one simulated call serves all repetitions (rows still come one per repetition). */
static gboolean replay_batch(batch_t *b, GError **err)
{
    ctx_t *x = b->x;
    pact_sweep *s = x->s;
    for (guint k = 0; k < b->cells->len; k++) {
        guint i = g_array_index(b->cells, guint, k);
        cell_t *c = x->cells->pdata[i];
        const pact_alg *alg;
        pact_build_args a;
        g_autofree char *restricted = cell_args(x, c, &alg, &a);
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
                               .delays = (const double *)d->data};
        double l, t;
        if (!pact_replay_write(&rc, dir, err) || !pact_replay_run(dir, xml, hosts, s->procs, &l, &t, err))
            return FALSE;
        if (!g_getenv("PACT_KEEP_TRACES"))
            pact_rm_rf(dir); /* traces of 1024 ranks are large; PACT_KEEP_TRACES keeps them */
        cell_set(c, s->reps, l, t, "ok");
    }
    return TRUE;
}

/* ---- rows -------------------------------------------------------------------------------------------------
 */

static const char *const csv_header =
    "platform,nodes,ppn,procs,collective,algorithm,bytes,pattern,skew_mode,skew_factor,skew_s,rep,engine,"
    "last_delay_s,total_delay_s,status\n";

static const char *engine_name(pact_engine e)
{
    return e == PACT_ENGINE_MODEL ? "model" : e == PACT_ENGINE_REPLAY ? "replay" : "smpi";
}

/* The first eight columns, which name the cell. */
static char *cell_key(const ctx_t *x, const cell_t *c)
{
    const pact_sweep *s = x->s;
    return g_strdup_printf("%s,%d,%d,%d,%s,%s,%" G_GUINT64_FORMAT ",%s", platform_name(s), s->nodes, s->ppn,
                           s->procs, pact_coll_name(s->coll), (char *)s->algs->pdata[c->alg],
                           g_array_index(s->sizes, guint64, c->size), (char *)s->patterns->pdata[c->pat]);
}

static char *cell_rows(const ctx_t *x, const cell_t *c)
{
    const pact_sweep *s = x->s;
    const char *pat = s->patterns->pdata[c->pat];
    gboolean nodelay = !strcmp(pat, "no_delay"), file = s->pattern_data->pdata[c->pat] != NULL;
    g_autofree char *key = cell_key(x, c);
    GString *o = g_string_new(NULL);
    for (guint r = 0; r < c->last->len; r++) {
        double l = g_array_index(c->last, double, r), t = g_array_index(c->total, double, r);
        char lb[32] = "", tb[32] = "", fb[32] = "";
        if (!isnan(l))
            g_ascii_formatd(lb, sizeof(lb), "%.17g", l);
        if (!isnan(t))
            g_ascii_formatd(tb, sizeof(tb), "%.17g", t);
        if (s->skew_mode != PACT_SKEW_ABSOLUTE && !nodelay && !file)
            g_ascii_formatd(fb, sizeof(fb), "%.17g", s->skew);
        g_string_append_printf(o, "%s,%s,%s,%.17g,%u,%s,%s,%s,%s\n", key,
                               nodelay ? "none"
                               : file  ? "file"
                                       : pact_skew_mode_name(s->skew_mode),
                               fb, c->skew_s, r, engine_name(s->engine), lb, tb, (char *)c->status->pdata[r]);
    }
    return g_string_free(o, FALSE);
}

/* Fills a cell's values from its rows (a resumed or merged cell). */
static void cell_parse_rows(cell_t *c)
{
    cell_reset(c);
    g_auto(GStrv) lines = g_strsplit(c->rows, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        if (!*lines[i])
            continue;
        g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
        double l = *f[13] ? g_ascii_strtod(f[13], NULL) : NAN, t = *f[14] ? g_ascii_strtod(f[14], NULL) : NAN;
        g_array_append_val(c->last, l);
        g_array_append_val(c->total, t);
        g_ptr_array_add(c->status, g_strdup(f[15]));
        c->skew_s = g_ascii_strtod(f[10], NULL);
    }
}

typedef struct {
    ctx_t *x;
    cell_t *c;
} cell_ref;

/* Index of every cell of the experiment by its key. */
static GHashTable *cell_index(GPtrArray *studies)
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

/* Reads the rows of a results.csv into the cells they belong to.  A cell takes its rows only when all its
 * repetitions are there (a killed run may have written part of the last batch; a line without its newline
 * is the torn end of a write).  A cell that already has rows (another shard's copy) must get the same. */
static gboolean load_rows(GHashTable *index, const char *path, GError **err)
{
    g_autofree char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    if (!g_str_has_prefix(text, csv_header)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:1: not a pact sim results.csv (header differs)",
                    path);
        return FALSE;
    }
    g_autoptr(GHashTable) pending =
        g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_ptr_array_unref);
    char *line = text + strlen(csv_header);
    int ln = 1;
    gboolean ok = TRUE;
    while (*line && ok) {
        char *nl = strchr(line, '\n');
        ln++;
        if (!nl)
            break; /* torn */
        *nl = 0;
        g_auto(GStrv) f = g_strsplit(line, ",", -1);
        guint64 rep = 0;
        cell_ref *r = NULL;
        if (g_strv_length(f) == 16) {
            g_autofree char *key =
                g_strjoinv(",", (char *[]){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], NULL});
            r = g_hash_table_lookup(index, key);
        }
        if (!r || !g_ascii_string_to_unsigned(f[11], 10, 0, (guint64)r->x->s->reps - 1, &rep, NULL)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s", path, ln,
                        r ? "rep: out of range" : "a row of another experiment (or a malformed row)");
            ok = FALSE;
            break;
        }
        GPtrArray *reps = g_hash_table_lookup(pending, r);
        if (!reps) {
            reps = g_ptr_array_new_with_free_func(g_free);
            g_ptr_array_set_size(reps, r->x->s->reps);
            g_hash_table_insert(pending, r, reps);
        }
        g_free(reps->pdata[rep]);
        reps->pdata[rep] = g_strconcat(line, "\n", NULL);
        line = nl + 1;
    }
    if (!ok)
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
static char *all_rows(GPtrArray *studies, guint *missing)
{
    GString *o = g_string_new(csv_header);
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

/* ---- setting up ------------------------------------------------------------------------------------------
 */

/* The study's cells in report order; with a skew factor the no-delay cells come first (phase 1) and set the
 * skew of the others (phase 2). */
static void make_cells(ctx_t *x)
{
    pact_sweep *s = x->s;
    x->gamma = s->gamma >= 0 ? s->gamma : s->platform ? s->platform->gamma : 0;
    x->cells = g_ptr_array_new_with_free_func(cell_free);
    gboolean factor = skew_from_nodelay(s->skew_mode);
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

/* Groups the cells into batches (see pact_batch) and deals them to the shards.  A study whose skews come
 * from its no-delay cells needs all of them in every shard, so its phase-1 batches run everywhere (merge
 * checks the copies agree); all other batches go round-robin. */
static GPtrArray *make_batches(pact_experiment *e, GPtrArray *studies)
{
    GPtrArray *batches = g_ptr_array_new_with_free_func(batch_free);
    guint dealt = 0;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        for (int phase = 1; phase <= 2; phase++) {
            GHashTable *open = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
            for (guint i = 0; i < x->cells->len; i++) {
                cell_t *c = x->cells->pdata[i];
                if (c->phase != phase)
                    continue;
                char *key = e->batch == PACT_BATCH_ALG    ? g_strdup_printf("%u", c->alg)
                            : e->batch == PACT_BATCH_SIZE ? g_strdup_printf("%u/%u", c->alg, c->size)
                                                          : g_strdup_printf("%u", i);
                batch_t *b = g_hash_table_lookup(open, key);
                if (!b) {
                    b = g_new0(batch_t, 1);
                    b->x = x;
                    b->id = batches->len;
                    b->phase = phase;
                    b->cells = g_array_new(FALSE, FALSE, sizeof(guint));
                    gboolean everywhere = phase == 1 && skew_from_nodelay(x->s->skew_mode);
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
static GPtrArray *make_studies(pact_experiment *e, const char *out, GError **err)
{
    GPtrArray *studies = g_ptr_array_new_with_free_func(ctx_free);
    for (guint k = 0; k < e->studies->len; k++) {
        ctx_t *x = g_new0(ctx_t, 1);
        x->s = e->studies->pdata[k];
        x->index = k;
        g_ptr_array_add(studies, x);
        make_cells(x);
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
            pact_export_opts o = export_opts(x->s);
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

/* ---- running
 * ----------------------------------------------------------------------------------------------- */

static void worker(gpointer data, gpointer user)
{
    (void)user;
    batch_t *b = data;
    gint64 t0 = g_get_monotonic_time();
    if (!g_atomic_int_get(b->cancel)) {
        pact_engine en = b->x->s->engine;
        gboolean ok = en == PACT_ENGINE_MODEL    ? model_batch(b, &b->error)
                      : en == PACT_ENGINE_REPLAY ? replay_batch(b, &b->error)
                                                 : launch(b, &b->error);
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
 * results: scripts/bench-sim.sh sums it per algorithm). */
static void log_batch(const batch_t *b)
{
    g_autofree char *path = g_build_filename(b->x->run, "..", "batches.csv", NULL);
    gboolean fresh = !g_file_test(path, G_FILE_TEST_EXISTS);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    const cell_t *c0 = b->x->cells->pdata[g_array_index(b->cells, guint, 0)];
    if (fresh)
        fputs("study,collective,procs,phase,algorithm,bytes,cells,wall_s\n", f);
    fprintf(f, "%u,%s,%d,%d,%s,%" G_GUINT64_FORMAT ",%u,%.3f\n", b->x->index, pact_coll_name(b->x->s->coll),
            b->x->s->procs, b->phase, (char *)b->x->s->algs->pdata[c0->alg],
            g_array_index(b->x->s->sizes, guint64, c0->size), b->cells->len, b->seconds);
    fclose(f);
}

/* Runs the batches of one phase that are this shard's and still lack rows, J at a time. */
static gboolean run_wave(pact_experiment *e, GPtrArray *batches, int phase, int fd, const char *csv,
                         progress_t *pr, GError **err)
{
    gint cancel = 0;
    GAsyncQueue *q = g_async_queue_new();
    GThreadPool *pool = g_thread_pool_new(worker, NULL, e->jobs, FALSE, NULL);
    guint sent = 0;
    for (guint i = 0; i < batches->len; i++) {
        batch_t *b = batches->pdata[i];
        gboolean todo = FALSE;
        for (guint k = 0; k < b->cells->len; k++)
            todo |= ((cell_t *)b->x->cells->pdata[g_array_index(b->cells, guint, k)])->rows == NULL;
        if (b->phase != phase || !b->mine || !todo)
            continue;
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
        GString *rows = g_string_new(NULL);
        for (guint k = 0; k < b->cells->len; k++) {
            cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
            if (c->rows)
                continue; /* a resumed batch: the rows it already had are kept */
            c->rows = cell_rows(b->x, c);
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
            double m = mean_of(find_cell(x, a, z, nd), TRUE);
            if (!isnan(m)) {
                sum += m;
                n++;
            }
        }
        for (guint i = 0; i < x->cells->len; i++) {
            cell_t *c = x->cells->pdata[i];
            if (c->size != z || c->phase != 2)
                continue;
            double own = mean_of(find_cell(x, c->alg, z, nd), TRUE);
            if (s->skew_mode == PACT_SKEW_OWN_NODELAY)
                c->skew_s = isnan(own) ? 0 : s->skew * own;
            else
                c->skew_s = n ? s->skew * (sum / n) : 0;
        }
    }
}

static gboolean write_patterns(GPtrArray *studies, GPtrArray *batches, int phase, GError **err)
{
    for (guint i = 0; i < batches->len; i++) {
        batch_t *b = batches->pdata[i];
        if (b->phase != phase || !b->mine)
            continue;
        for (guint k = 0; k < b->cells->len; k++) {
            cell_t *c = b->x->cells->pdata[g_array_index(b->cells, guint, k)];
            if (!c->pattern_file && !write_pattern(b->x, c, err))
                return FALSE;
        }
    }
    (void)studies;
    return TRUE;
}

/* results.csv in order, summary.txt and the figures. */
static gboolean finish_outputs(GPtrArray *studies, const char *out, gboolean partial_ok, gboolean figures,
                               char **summary, GError **err)
{
    guint missing = 0;
    g_autofree char *csv = all_rows(studies, &missing);
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
            if (strcmp(old, e->text)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "-o %s: holds another experiment (its experiment.yaml differs from this one); "
                            "choose another folder, or give the same settings to resume it",
                            e->outdir);
                return FALSE;
            }
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

gboolean pact_experiment_run(pact_experiment *e, char **summary, GError **err)
{
    gboolean ok = FALSE, resume = FALSE;
    int fd = -1;
    GPtrArray *studies = NULL, *batches = NULL;
    GHashTable *index = NULL;
    g_autofree char *out = g_canonicalize_filename(e->outdir, NULL);
    g_autofree char *csv = g_build_filename(out, "results.csv", NULL);
    g_autofree char *kept = NULL;
    if (!prepare_out(e, out, &resume, err))
        return FALSE;
    if (!(studies = make_studies(e, out, err)))
        goto done;
    batches = make_batches(e, studies);
    index = cell_index(studies);
    if (resume && g_file_test(csv, G_FILE_TEST_EXISTS)) {
        if (!load_rows(index, csv, err))
            goto done;
    }
    /* Start from the complete cells only: drops a torn end and rows of half-written batches. */
    guint missing = 0;
    kept = all_rows(studies, &missing);
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
    if (!write_patterns(studies, batches, 1, err) || !run_wave(e, batches, 1, fd, csv, &pr, err))
        goto done;
    for (guint k = 0; k < studies->len; k++) {
        ctx_t *x = studies->pdata[k];
        if (skew_from_nodelay(x->s->skew_mode))
            phase2_skews(x);
    }
    if (!write_patterns(studies, batches, 2, err) || !run_wave(e, batches, 2, fd, csv, &pr, err))
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
    g_free(e.outdir);
    e.outdir = g_strdup(outdir);
    studies = make_studies(&e, NULL, err);
    index = cell_index(studies);
    for (int i = 0; dirs[i]; i++) {
        g_autofree char *csv = g_build_filename(dirs[i], "results.csv", NULL);
        if (!load_rows(index, csv, err))
            goto done;
    }
    guint missing = 0;
    g_free(all_rows(studies, &missing));
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
