/* cmd_pattern.c - pact pattern gen|stats|plot|from-trace: arrival patterns, their metrics and figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_patterns.h"
#include "pact_platforms.h"
#include "pact_coll.h"

typedef struct {
    char *shape, *skew, *out, *platform, *mapping, *msg_time, *bytes, *format, *title, *intra;
    int p, nodes, ppn;
    gint64 seed;
} opts_t;

/* The node of each rank from --nodes/--ppn/--mapping (either count may be left out when -p divides), NULL
 * when none is given.  --platform checks that the request fits the machine. */
static int *node_map(const opts_t *o, int p, GError **err)
{
    if (!o->nodes && !o->ppn && !o->mapping && !o->platform)
        return NULL;
    int nodes = o->nodes, ppn = o->ppn;
    if (nodes < 0 || ppn < 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--nodes/--ppn: must be >= 1");
        return NULL;
    }
    if (!nodes && ppn && p % ppn == 0)
        nodes = p / ppn;
    if (!ppn && nodes && p % nodes == 0)
        ppn = p / nodes;
    if (!nodes || !ppn || nodes * ppn != p) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--nodes %d x --ppn %d: must place the %d processes (nodes x ppn = P)", o->nodes, o->ppn,
                    p);
        return NULL;
    }
    pact_export_opts eo = {.nodes = nodes, .ppn = ppn, .mapping = PACT_MAP_BLOCK};
    if (o->mapping && !pact_mapping_parse(o->mapping, "--mapping", &eo.mapping, err))
        return NULL;
    if (o->platform) {
        const pact_platform *pf = pact_platform_get(o->platform, err);
        if (!pf)
            return NULL;
        eo.rails = pf->rails;
        if (!pact_platform_check(pf, &eo, err))
            return NULL;
    }
    int *node_of = g_new(int, (gsize)p);
    for (int i = 0; i < p; i++)
        node_of[i] = pact_rank_node(i, nodes, ppn, eo.mapping);
    return node_of;
}

static int cmd_gen(opts_t *o)
{
    GError *err = NULL;
    double s = 0, intra = -1;
    if (!o->shape || o->p < 1 || !o->skew) {
        fprintf(stderr, "pact pattern gen: --shape, -p (>= 1) and --skew are required\n");
        return 2;
    }
    if (!pact_parse_seconds(o->skew, "--skew", &s, &err) || !pact_skew_check(s, FALSE, "--skew", &err))
        return pact_cli_fail(err);
    if (o->intra) {
        char *end;
        intra = g_ascii_strtod(o->intra, &end);
        if (end == o->intra || *end || !(intra >= 0 && intra <= 1)) {
            fprintf(stderr, "pact pattern gen: --intra %s: expected a fraction in [0, 1]\n", o->intra);
            return 2;
        }
    }
    g_autofree int *node_of = node_map(o, o->p, &err);
    if (err)
        return pact_cli_fail(err);
    /* Without a placement every rank would be a node of its own: node_delayed would delay one rank. */
    if (!node_of && pact_pattern_uses_nodes(o->shape)) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--shape %s: delays whole nodes; give --nodes N and/or --ppn K (N x K = %d)", o->shape,
                    o->p);
        return pact_cli_fail(err);
    }
    pact_pattern_opts po = {.skew = s, .seed = (guint64)o->seed, .node_of = node_of, .intra = intra};
    g_autofree double *d = g_new0(double, (gsize)o->p);
    if (!pact_pattern_gen(o->shape, o->p, &po, d, &err))
        return pact_cli_fail(err);
    if (o->out) {
        g_autofree char *what =
            g_strdup_printf("%s, p=%d, skew %.17g s, seed %" G_GINT64_FORMAT, o->shape, o->p, s, o->seed);
        if (!pact_pattern_write(o->out, d, o->p, what, &err)) {
            g_prefix_error(&err, "%s: ", o->out);
            fprintf(stderr, "pact: %s\n", err->message);
            g_error_free(err);
            return 1;
        }
        return 0;
    }
    for (int i = 0; i < o->p; i++) {
        char b[G_ASCII_DTOSTR_BUF_SIZE];
        printf("%s\n", g_ascii_formatd(b, sizeof b, "%.17g", d[i]));
    }
    return 0;
}

/* A pattern from a pattern file or, for an arrival trace, its per-rank mean delay; *trace is filled then. */
static double *load(const char *path, int *p, pact_trace *trace, GError **err)
{
    GArray *a = pact_pattern_load(path, 0, trace, err);
    if (!a)
        return NULL;
    *p = (int)a->len;
    return (double *)g_array_free(a, FALSE);
}

/* The time of one message: --msg-time, or the platform's alpha + beta x bytes; 0 when neither is given. */
static gboolean msg_time(const opts_t *o, double *t, GError **err)
{
    *t = 0;
    if (o->msg_time && (o->bytes || o->platform)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--msg-time or --platform with -m: give one of them");
        return FALSE;
    }
    if (o->msg_time)
        return pact_parse_seconds(o->msg_time, "--msg-time", t, err);
    if (!o->bytes)
        return TRUE;
    uint64_t m;
    if (pact_parse_size(o->bytes, &m) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "-m %s: expected bytes (8, 64K, 1M)", o->bytes);
        return FALSE;
    }
    if (!o->platform) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "-m %s: needs --platform NAME for alpha and beta",
                    o->bytes);
        return FALSE;
    }
    const pact_platform *pf = pact_platform_get(o->platform, err);
    if (!pf)
        return FALSE;
    *t = pf->alpha + pf->beta * (double)m;
    return TRUE;
}

static void stat_row(GString *out, gboolean csv, const char *scope, const char *what, pact_imbalance m,
                     double t)
{
    if (csv) {
        char b[4][G_ASCII_DTOSTR_BUF_SIZE] = {"", "", "", ""};
        g_ascii_formatd(b[0], sizeof b[0], "%.17g", m.worst);
        g_ascii_formatd(b[1], sizeof b[1], "%.17g", m.avg);
        if (t > 0) {
            g_ascii_formatd(b[2], sizeof b[2], "%.17g", m.worst / t);
            g_ascii_formatd(b[3], sizeof b[3], "%.17g", m.avg / t);
        }
        g_string_append_printf(out, "%s,%s,%s,%s,%s,%s\n", scope, what, b[0], b[1], b[2], b[3]);
        return;
    }
    g_string_append_printf(out, "%-8s %-14s %14.3f %14.3f", scope, what, m.worst * 1e6, m.avg * 1e6);
    if (t > 0)
        g_string_append_printf(out, " %14.3f %14.3f", m.worst / t, m.avg / t);
    g_string_append_c(out, '\n');
}

static int cmd_stats(opts_t *o, const char *path)
{
    GError *err = NULL;
    pact_trace tr;
    int p = 0;
    double t = 0;
    gboolean csv = o->format && !strcmp(o->format, "csv");
    if (o->format && !csv && strcmp(o->format, "table")) {
        fprintf(stderr, "pact pattern stats: --format %s: expected table or csv\n", o->format);
        return 2;
    }
    if (!msg_time(o, &t, &err))
        return pact_cli_fail(err);
    g_autofree double *d = load(path, &p, &tr, &err);
    if (!d)
        return pact_cli_fail(err);
    g_autofree int *node_of = node_map(o, p, &err);
    if (err) {
        pact_trace_free(&tr);
        return pact_cli_fail(err);
    }
    GString *out = g_string_new(NULL);
    if (csv) {
        g_string_append(out, "scope,of,worst_s,avg_s,worst_factor,avg_factor\n");
    } else {
        g_string_append_printf(out, "%s: %d ranks", path, p);
        if (tr.calls)
            g_string_append_printf(out,
                                   ", an arrival trace of %d calls (pattern: mean delay after the first "
                                   "arrival of each call)",
                                   tr.calls);
        if (t > 0)
            g_string_append_printf(out, "; one message: %.3f us", t * 1e6);
        g_string_append_printf(out,
                               "\nworst = max - min, avg = mean |a_i - mean a| (Alizadeh et al. 2.2)%s\n\n",
                               node_of ? "; node: the mean over nodes of each node's metrics" : "");
        g_string_append_printf(out, "%-8s %-14s %14s %14s", "scope", "of", "worst_us", "avg_us");
        if (t > 0)
            g_string_append_printf(out, " %14s %14s", "worst_factor", "avg_factor");
        g_string_append_c(out, '\n');
    }
    stat_row(out, csv, "cluster", "pattern", pact_imbalance_of(d, p), t);
    if (node_of)
        stat_row(out, csv, "node", "pattern", pact_imbalance_nodes(d, p, node_of), t);
    if (tr.calls) {
        /* Per call, then averaged over the calls (seed 000, Tables 1 and 2), and the worst call. */
        pact_imbalance mean = {0, 0}, worst = {0, 0}, nmean = {0, 0};
        for (int c = 0; c < tr.calls; c++) {
            const double *a = tr.a + (gsize)c * (gsize)p;
            pact_imbalance m = pact_imbalance_of(a, p);
            mean.worst += m.worst / tr.calls;
            mean.avg += m.avg / tr.calls;
            worst.worst = fmax(worst.worst, m.worst);
            worst.avg = fmax(worst.avg, m.avg);
            if (node_of) {
                pact_imbalance n = pact_imbalance_nodes(a, p, node_of);
                nmean.worst += n.worst / tr.calls;
                nmean.avg += n.avg / tr.calls;
            }
        }
        stat_row(out, csv, "cluster", "calls_mean", mean, t);
        stat_row(out, csv, "cluster", "calls_max", worst, t);
        if (node_of)
            stat_row(out, csv, "node", "calls_mean", nmean, t);
    }
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
    pact_trace_free(&tr);
    return 0;
}

static int cmd_plot(opts_t *o, const char *path)
{
    GError *err = NULL;
    pact_trace tr;
    int p = 0;
    if (!o->out) {
        fprintf(stderr, "pact pattern plot: -o FILE.png is required\n");
        return 2;
    }
    g_autofree double *d = load(path, &p, &tr, &err);
    pact_trace_free(&tr);
    if (!d)
        return pact_cli_fail(err);
    g_autofree char *base = g_path_get_basename(path);
    if (!pact_pattern_plot(d, p, o->title ? o->title : base, o->out, &err))
        return pact_cli_fail(err);
    return 0;
}

static int cmd_from_trace(opts_t *o, const char *path)
{
    GError *err = NULL;
    pact_trace tr;
    if (!pact_trace_read(path, &tr, &err))
        return pact_cli_fail(err);
    g_autofree double *d = g_new(double, (gsize)tr.ranks);
    pact_trace_to_pattern(&tr, d);
    g_autofree char *what = g_strdup_printf("from-trace %s: %d ranks, %d calls, mean delay after the first "
                                            "arrival of each call",
                                            path, tr.ranks, tr.calls);
    int rc = 0;
    if (o->out) {
        if (!pact_pattern_write(o->out, d, tr.ranks, what, &err)) {
            g_prefix_error(&err, "%s: ", o->out);
            fprintf(stderr, "pact: %s\n", err->message);
            g_error_free(err);
            rc = 1;
        }
    } else {
        printf("# %s\n", what);
        for (int i = 0; i < tr.ranks; i++) {
            char b[G_ASCII_DTOSTR_BUF_SIZE];
            printf("%s\n", g_ascii_formatd(b, sizeof b, "%.17g", d[i]));
        }
    }
    pact_trace_free(&tr);
    return rc;
}

int pact_cmd_pattern(int argc, char **argv)
{
    opts_t o = {.seed = 1};
    GOptionEntry entries[] = {
        {"shape", 0, 0, G_OPTION_ARG_STRING, &o.shape, "gen: pattern shape (pact list patterns)", "S"},
        {"procs", 'p', 0, G_OPTION_ARG_INT, &o.p, "gen: number of processes", "P"},
        {"skew", 0, 0, G_OPTION_ARG_STRING, &o.skew, "gen: maximum skew (1e-3, 1ms, 100us)", "SECONDS"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &o.seed,
         "gen: seed of random, node_delayed, two_level (default 1)", "N"},
        {"intra", 0, 0, G_OPTION_ARG_STRING, &o.intra,
         "gen two_level: node-wide spread as a fraction of the cluster-wide one (default 0.25)", "F"},
        {"platform", 0, 0, G_OPTION_ARG_STRING, &o.platform,
         "a built-in machine or YAML: checks --nodes/--ppn; stats: alpha + beta x -m is one message", "NAME"},
        {"nodes", 0, 0, G_OPTION_ARG_INT, &o.nodes, "ranks on nodes: node count", "N"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &o.ppn, "ranks on nodes: processes per node", "K"},
        {"mapping", 0, 0, G_OPTION_ARG_STRING, &o.mapping, "ranks on nodes: block (default) or cyclic", "M"},
        {"msg-time", 0, 0, G_OPTION_ARG_STRING, &o.msg_time, "stats: time of one message, for the factors",
         "SECONDS"},
        {"bytes", 'm', 0, G_OPTION_ARG_STRING, &o.bytes, "stats: message size, with --platform", "BYTES"},
        {"format", 0, 0, G_OPTION_ARG_STRING, &o.format, "stats: table (default) or csv", "F"},
        {"title", 0, 0, G_OPTION_ARG_STRING, &o.title, "plot: figure title (default: the file name)", "T"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out,
         "gen, from-trace: FILE instead of stdout; plot: PNG", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("gen | stats FILE | plot FILE -o PNG | from-trace TRACE.csv");
    g_option_context_set_summary(
        ctx,
        "Arrival patterns: one delay in seconds per rank and line ('#' comments).  An arrival trace is a CSV "
        "rank,call,arrival_s\nwith one row per rank per call; stats and plot take either.\n\nexamples:\n"
        "  pact pattern gen --shape last_delayed -p 8 --skew 1\n"
        "  pact pattern gen --shape node_delayed --nodes 4 --ppn 8 -p 32 --skew 100us --seed 3\n"
        "  pact pattern stats pattern.txt --platform generic32x32 -m 64K --nodes 4 --ppn 8\n"
        "  pact pattern plot pattern.txt -o pattern.png\n"
        "  pact pattern from-trace trace.csv -o ft-scenario.txt");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc == 2 && !strcmp(argv[1], "gen"))
        rc = cmd_gen(&o);
    else if (argc == 3 && !strcmp(argv[1], "stats"))
        rc = cmd_stats(&o, argv[2]);
    else if (argc == 3 && !strcmp(argv[1], "plot"))
        rc = cmd_plot(&o, argv[2]);
    else if (argc == 3 && !strcmp(argv[1], "from-trace"))
        rc = cmd_from_trace(&o, argv[2]);
    else
        fprintf(stderr,
                "pact pattern: expected 'gen', 'stats FILE', 'plot FILE -o PNG' or 'from-trace TRACE'\n");
out:
    g_option_context_free(ctx);
    g_free(o.shape);
    g_free(o.skew);
    g_free(o.out);
    g_free(o.platform);
    g_free(o.mapping);
    g_free(o.msg_time);
    g_free(o.bytes);
    g_free(o.format);
    g_free(o.title);
    g_free(o.intra);
    return rc;
}
