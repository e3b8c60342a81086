/* validate.c - a study's settings checked before anything is written: platform, names, sizes, patterns,
 * algorithm specs and what each engine can run. */
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
gboolean pact_sw_skew_from_nodelay(pact_skew_mode m)
{
    return m == PACT_SKEW_MEAN_NODELAY || m == PACT_SKEW_OWN_NODELAY;
}

static const char *pattern_path(const char *pat)
{
    return g_str_has_prefix(pat, "file:") ? pat + 5 : NULL;
}

/* For "smpi:SPEC", SPEC: SimGrid's built-in NAME, optionally followed by :collective=NAME settings for the
 * collectives it calls (SimGrid's redbcast runs the selected reduce and bcast, for instance). */
const char *pact_sw_smpi_name(const char *alg)
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

/* SimGrid's algorithm names of a collective, as the installed SimGrid gives them: smpirun with
 * --cfg=smpi/COLL:help aborts at once with "Valid algorithms: a, b, c." (0.2 s).  Asking it, rather than a
 * table of 3.32's names here, keeps the check right for the SimGrid that will run the cells.  NULL when
 * smpirun cannot say (not installed, another message): the check is skipped and a run reports SimGrid's
 * own line.  Cached per collective for the process. */
static char **smpi_valid_names(const char *coll)
{
    static GMutex lock;
    static GHashTable *cache;
    g_mutex_lock(&lock);
    if (!cache)
        cache = g_hash_table_new(g_str_hash, g_str_equal);
    char **names = NULL;
    g_autofree char *dir = NULL;
    if (g_hash_table_lookup_extended(cache, coll, NULL, (gpointer *)&names))
        goto out;
    if ((dir = g_dir_make_tmp("pact-smpi-names-XXXXXX", NULL))) {
        g_autofree char *xml = g_build_filename(dir, "p.xml", NULL),
                        *hosts = g_build_filename(dir, "h", NULL);
        g_autofree char *cfg = g_strdup_printf("--cfg=smpi/%s:help", coll);
        g_autofree char *sout = NULL, *serr = NULL;
        const char *plat =
            "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"h\" "
            "speed=\"1Gf\"/></zone></platform>\n";
        char *argv[] = {"smpirun", "-np", "1", "-platform", xml, "-hostfile", hosts, cfg, "/bin/true", NULL};
        if (g_file_set_contents(xml, plat, -1, NULL) && g_file_set_contents(hosts, "h\n", -1, NULL) &&
            g_spawn_sync(dir, argv, NULL, G_SPAWN_SEARCH_PATH, pact_child_setup, NULL, &sout, &serr, NULL,
                         NULL)) {
            const char *v = serr ? strstr(serr, "Valid algorithms: ") : NULL;
            if (v) {
                v += strlen("Valid algorithms: ");
                g_autofree char *list = g_strndup(v, strcspn(v, ".\n"));
                names = g_strsplit(list, ", ", -1);
            }
        }
        pact_rm_rf(dir);
    }
    g_hash_table_insert(cache, g_strdup(coll), names);
out:
    g_mutex_unlock(&lock);
    return names;
}

/* smpi:NAME[:collective=NAME...]: every NAME one SimGrid has for its collective (exit 2 with the list). */
static gboolean smpi_names_ok(pact_coll coll, const char *alg, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(alg + strlen("smpi:"), ":", -1);
    for (int i = 0; parts[i]; i++) {
        const char *c = pact_coll_name(coll), *name = parts[i];
        g_autofree char *cc = NULL;
        if (i > 0) {
            char *eq = strchr(parts[i], '=');
            cc = g_strndup(parts[i], (gsize)(eq - parts[i]));
            c = cc;
            name = eq + 1;
        }
        char **valid = smpi_valid_names(c);
        if (valid && !g_strv_contains((const char *const *)valid, name)) {
            g_autofree char *list = g_strjoinv(", ", valid);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "--algs %s: SimGrid has no %s algorithm '%s' (its %s algorithms: %s)", alg, c, name,
                        c, list);
            return FALSE;
        }
    }
    return TRUE;
}

/* An algorithm spec NAME[:param=value...] (the one parser, sim/coll/spec.c).  Checks it and, when `params` is
 * given, writes the parameters that differ from the defaults as the plan file's "param=value,..." (or "-"). */
gboolean pact_sw_alg_spec_params(pact_coll coll, const char *spec, GString *params, GError **err)
{
    const pact_alg *alg;
    long *values = NULL;
    char why[256], buf[512];
    if (pact_spec_parse(coll, spec, &alg, &values, why, sizeof why) != PACT_OK ||
        pact_params_format(alg, values, buf, sizeof buf) != PACT_OK) {
        free(values);
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--algs %s: %s", spec, values ? "too long" : why);
        return FALSE;
    }
    free(values);
    if (params)
        g_string_append(params, *buf ? buf : "-");
    return TRUE;
}

/* The platform column: a built-in's name, or the user's XML file name without .xml. */
const char *pact_sw_platform_name(const pact_sweep *s)
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

pact_export_opts pact_sw_export_opts(const pact_sweep *s)
{
    return (pact_export_opts){.nodes = s->nodes,
                              .ppn = s->ppn,
                              .mapping = s->mapping,
                              .ranks_on = s->ranks_on,
                              .rails = s->rails >= 0 ? (pact_rails)s->rails : s->platform->rails};
}

/* ---- a user's SimGrid XML: its hosts, read before smpirun so a mistake is named against the user's file
 * (smpirun would report pact's copy run/sK/platform.xml, after the backtrace) ---------------------------- */

typedef struct {
    GHashTable *hosts; /* names */
    GPtrArray *order;  /* the first few, for messages */
} xml_hosts;

static void xml_add(xml_hosts *h, char *name)
{
    if (h->order->len < 4)
        g_ptr_array_add(h->order, g_strdup(name));
    g_hash_table_add(h->hosts, name);
}

/* <host id>, and <cluster>/<cabinet> prefix + each number of radical ("0-31,40") + suffix: the elements of
 * SimGrid 3.32's platform format (4.1) that make hosts. */
static void xml_start(GMarkupParseContext *ctx, const char *el, const char **names, const char **values,
                      gpointer user, GError **err)
{
    (void)ctx;
    (void)err;
    xml_hosts *h = user;
    const char *id = NULL, *prefix = "", *suffix = "", *radical = NULL;
    for (int i = 0; names[i]; i++) {
        if (!strcmp(names[i], "id"))
            id = values[i];
        else if (!strcmp(names[i], "prefix"))
            prefix = values[i];
        else if (!strcmp(names[i], "suffix"))
            suffix = values[i];
        else if (!strcmp(names[i], "radical"))
            radical = values[i];
    }
    if (!strcmp(el, "host") && id) {
        xml_add(h, g_strdup(id));
    } else if ((!strcmp(el, "cluster") || !strcmp(el, "cabinet")) && radical) {
        g_auto(GStrv) parts = g_strsplit(radical, ",", -1);
        for (int i = 0; parts[i]; i++) {
            long lo = 0, hi = 0;
            char dash = 0;
            int n = sscanf(parts[i], "%ld%c%ld", &lo, &dash, &hi);
            if (n == 1)
                hi = lo;
            else if (n != 3 || dash != '-')
                continue; /* SimGrid refuses it; it will say so */
            for (long k = lo; k <= hi && k - lo < (1L << 20); k++)
                xml_add(h, g_strdup_printf("%s%ld%s", prefix, k, suffix));
        }
    }
}

/* Reads the XML's host names; an error names the file and line. */
static gboolean xml_read_hosts(const char *path, xml_hosts *h, GError **err)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, &len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--platform: %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    GMarkupParser parser = {.start_element = xml_start};
    GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, h, NULL);
    gboolean ok =
        g_markup_parse_context_parse(ctx, text, (gssize)len, &e) && g_markup_parse_context_end_parse(ctx, &e);
    if (!ok) {
        int line = 0;
        g_markup_parse_context_get_position(ctx, &line, NULL);
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: platform: not well-formed XML (%s)", path,
                    line, e->message);
        g_error_free(e);
    }
    g_markup_parse_context_free(ctx);
    return ok;
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
    xml_hosts xh = {g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                    g_ptr_array_new_with_free_func(g_free)};
    gboolean xml_ok = xml_read_hosts(s->user_xml, &xh, err);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (int i = 0; xml_ok && lines[i]; i++) {
        char *h = g_strstrip(lines[i]);
        if (*h && *h != '#' && !strpbrk(h, " \t") && !g_hash_table_contains(xh.hosts, h)) {
            g_ptr_array_add(xh.order, NULL);
            g_autofree char *some = g_strjoinv(", ", (char **)xh.order->pdata);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s:%d: hostfile: host '%s' is not in %s (%u hosts: %s%s)", s->user_hostfile, i + 1,
                        h, s->user_xml, g_hash_table_size(xh.hosts), some,
                        g_hash_table_size(xh.hosts) > 4 ? ", ..." : "");
            xml_ok = FALSE;
        }
    }
    g_hash_table_destroy(xh.hosts);
    g_ptr_array_unref(xh.order);
    if (!xml_ok)
        return FALSE;
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

/* Parameter values a builder refuses (knomial:radix=1, a fanout past Open MPI's limit) would fail inside
 * smpirun with "schedule builder failed": build the root's and the last rank's schedules here first. */
static gboolean params_build(const pact_sweep *s, const char *spec, GError **err)
{
    gboolean ok = TRUE;
    pact_sched sc;
    pact_sched_init(&sc);
    const pact_alg *alg;
    long *params = NULL;
    char why[256];
    if (pact_spec_parse(s->coll, spec, &alg, &params, why, sizeof why) != PACT_OK)
        return TRUE; /* alg_spec_params says what is wrong */
    for (guint z = 0; ok && z < s->sizes->len; z++) {
        guint64 bytes = g_array_index(s->sizes, guint64, z);
        pact_build_args a = {.coll = s->coll,
                             .size = s->procs,
                             .root = s->root,
                             .commutative = 1,
                             .elem_size = pact_dtype_size(s->dtype),
                             .params = params};
        a.count = (size_t)(bytes / a.elem_size);
        if (pact_alg_applies(alg, &a, NULL) != PACT_OK)
            continue; /* a restricted cell is a row, not an error */
        int ranks[2] = {pact_coll_rooted(s->coll) ? s->root : 0, s->procs - 1};
        for (int k = 0; ok && k < 2; k++) {
            a.rank = ranks[k];
            if (pact_build(alg, &a, &sc) == PACT_ERR_ARG) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--algs %s: the %s builder refuses these parameter values (%d processes, "
                            "%" G_GUINT64_FORMAT " bytes; pact list algorithms --coll %s)",
                            spec, alg->name, s->procs, bytes, pact_coll_name(s->coll));
                ok = FALSE;
            }
        }
    }
    pact_sched_free(&sc);
    free(params);
    return ok;
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
        pact_export_opts o = pact_sw_export_opts(s);
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
        const char *sm = pact_sw_smpi_name(a);
        if (sm) {
            if (!smpi_spec_ok(sm)) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--algs %s: expected smpi:NAME or smpi:NAME:collective=NAME (e.g. "
                            "smpi:redbcast:reduce=ompi_basic_linear:bcast=flattree)",
                            a);
                return FALSE;
            }
            if (!smpi_names_ok(s->coll, a, err))
                return FALSE;
        } else if (!pact_sw_alg_spec_params(s->coll, a, NULL, err)) {
            return FALSE;
        }
        for (guint j = 0; j < i; j++)
            if (!strcmp(a, s->algs->pdata[j])) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--algs: '%s' given twice", a);
                return FALSE;
            }
    }
    if (pact_coll_dataless(s->coll)) { /* a barrier moves nothing: whatever the sizes, one 0-byte cell */
        guint64 zero = 0;
        g_array_set_size(s->sizes, 0);
        g_array_append_val(s->sizes, zero);
    }
    for (guint i = 0; i < s->sizes->len; i++) {
        guint64 b = g_array_index(s->sizes, guint64, i);
        if (b % es != 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "--sizes: %" G_GUINT64_FORMAT " bytes is not a whole number of %s (%zu bytes each)",
                        b, s->dtype, es);
            return FALSE;
        }
        if (b / es > G_MAXINT) { /* the limit is MPI's int count, not the datatype */
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "--sizes: %" G_GUINT64_FORMAT " bytes is %" G_GUINT64_FORMAT
                        " elements of %s: an MPI count is an int, at most %d elements (%" G_GUINT64_FORMAT
                        " bytes of %s)",
                        b, b / es, s->dtype, G_MAXINT, (guint64)G_MAXINT * es, s->dtype);
            return FALSE;
        }
    }
    for (guint i = 0; i < s->algs->len; i++)
        if (!pact_sw_smpi_name(s->algs->pdata[i]) && strchr(s->algs->pdata[i], ':') &&
            !params_build(s, s->algs->pdata[i], err))
            return FALSE;
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
            if (pact_sw_smpi_name(s->algs->pdata[i]))
                why = "SimGrid's built-ins (smpi:NAME) run only under smpi";
        if (why) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--engine model: %s", why);
            return FALSE;
        }
    }
    if (s->engine == PACT_ENGINE_REPLAY)
        for (guint i = 0; i < s->algs->len; i++)
            if (pact_sw_smpi_name(s->algs->pdata[i])) {
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
    /* experiment.c checks the fields; this holds for every caller (pattern files: pact_pattern_load) */
    if (!pact_skew_check(s->skew, s->skew_mode != PACT_SKEW_ABSOLUTE,
                         s->skew_mode == PACT_SKEW_ABSOLUTE ? "--skew" : "--skew-factor", err))
        return FALSE;
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

