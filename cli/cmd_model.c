/* cmd_model.c - pact model predict | fit: closed forms and the schedule evaluator side by side; calibration.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_models.h"
#include "pact_patterns.h"
#include "pact_run.h"

typedef struct {
    char *coll, *alg, *size, *alpha, *beta, *gamma, *alpha_intra, *beta_intra, *platform, *pattern, *params,
        *loggp, *net, *envelope, *eager, *format, *rails, *mapping, *shape, *skew, *dtype;
    int P, ppn;
    size_t elem_size; /* of --dtype; 0: pact_model_cell_args's (doubles, or bytes off multiples of 8) */
    gint64 seed;
    gboolean timing;
} predict_opts;

/* Parameters for one algorithm: the platform's (or pure Hockney), then the fitted file's alpha_a, beta_a and
 * gamma, then explicit flags. */
static gboolean params_for(const predict_opts *o, const pact_platform *plat, const pact_model_fit *fit,
                           const pact_alg *a, pact_model_params *m, GError **err)
{
    if (plat) {
        pact_export_opts eo = {.nodes = 0, .ppn = o->ppn, .mapping = PACT_MAP_BLOCK, .rails = plat->rails};
        if (o->rails && !strcmp(o->rails, "binding"))
            eo.rails = PACT_RAILS_BINDING;
        else if (o->rails && !strcmp(o->rails, "sharing"))
            eo.rails = PACT_RAILS_SHARING;
        else if (o->rails) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--rails %s: expected sharing or binding",
                        o->rails);
            return FALSE;
        }
        if (o->mapping && !pact_mapping_parse(o->mapping, "--mapping", &eo.mapping, err))
            return FALSE;
        if (!pact_model_params_export(m, plat, &eo, err))
            return FALSE;
        g_autofree char *what = NULL;
        if (!pact_model_params_closed(m, o->P, &what, err))
            return FALSE;
    } else
        pact_model_params_hockney(m, 0, 0, 0);
    if (fit) {
        const pact_model_fit_alg *x = pact_model_fit_find(fit, a->coll, a->name);
        if (!x && !plat && !(o->alpha && o->beta)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--params %s: no entry for %s %s", o->params,
                        pact_coll_name(a->coll), a->name);
            return FALSE;
        }
        if (x) {
            m->alpha = x->alpha;
            m->beta = x->beta;
            if (!plat) {
                m->alpha_intra = x->alpha;
                m->beta_intra = x->beta;
            }
        }
        m->gamma = fit->gamma;
    }
    struct {
        const char *text, *what;
        double *dst;
    } flags[] = {
        {o->alpha, "--alpha", &m->alpha},
        {o->beta, "--beta", &m->beta},
        {o->gamma, "--gamma", &m->gamma},
        {o->alpha_intra, "--alpha-intra", &m->alpha_intra},
        {o->beta_intra, "--beta-intra", &m->beta_intra},
        {o->envelope, "--envelope", &m->envelope},
        {o->eager, "--eager", &m->eager_limit},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(flags); i++)
        if (flags[i].text && !pact_parse_number(flags[i].text, flags[i].what, flags[i].dst, err))
            return FALSE;
    if (!plat) {
        if (!o->alpha_intra && !fit)
            m->alpha_intra = m->alpha;
        if (!o->beta_intra && !fit)
            m->beta_intra = m->beta;
    }
    m->ppn = o->ppn > 1 ? o->ppn : 1;
    if (o->net) {
        if (!strcmp(o->net, "port"))
            m->net = PACT_NET_PORT;
        else if (!strcmp(o->net, "shared"))
            m->net = PACT_NET_SHARED;
        else {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--net %s: expected port or shared", o->net);
            return FALSE;
        }
    }
    if (o->loggp) {
        g_auto(GStrv) v = g_strsplit(o->loggp, ",", -1);
        if (g_strv_length(v) != 3 || !pact_parse_number(v[0], "--loggp o", &m->o, err) ||
            !pact_parse_number(v[1], "--loggp g", &m->g, err) ||
            !pact_parse_number(v[2], "--loggp G", &m->G, err)) {
            if (err && !*err)
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--loggp %s: expected o,g,G in seconds",
                            o->loggp);
            return FALSE;
        }
        m->net = PACT_NET_LOGGP;
    }
    if (!plat && !fit && !(o->alpha && o->beta)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "parameters: give --alpha and --beta (and --gamma), --platform NAME or --params FILE");
        return FALSE;
    }
    return TRUE;
}

static const char *net_name(const pact_model_params *m)
{
    return m->net == PACT_NET_SHARED ? "shared links" : m->net == PACT_NET_LOGGP ? "LogGP" : "single port";
}

/* The node of each rank where the evaluator puts it (--ppn K: P/K nodes of K ranks, block or with --platform
 * the --mapping); *node_of NULL without --ppn, a rank per node. */
static gboolean node_map(const predict_opts *o, int **node_of, GError **err)
{
    pact_mapping map = PACT_MAP_BLOCK;
    *node_of = NULL;
    if (o->platform && o->mapping && !pact_mapping_parse(o->mapping, "--mapping", &map, err))
        return FALSE;
    if (o->ppn > 1) {
        *node_of = g_new(int, (gsize)o->P);
        for (int i = 0; i < o->P; i++)
            (*node_of)[i] = pact_rank_node(i, o->P / o->ppn, o->ppn, map);
    }
    return TRUE;
}

/* --shape: the patterns library's delays for the P ranks, on the nodes the evaluator puts them on. */
static GArray *shape_arrivals(const predict_opts *o, GError **err)
{
    double s = 0;
    if (!pact_parse_seconds(o->skew, "--skew", &s, err) || !pact_skew_check(s, FALSE, "--skew", err))
        return NULL;
    g_autofree int *node_of = NULL;
    if (!node_map(o, &node_of, err))
        return NULL;
    pact_pattern_opts po = {.skew = s, .seed = (guint64)o->seed, .node_of = node_of, .intra = -1};
    GArray *d = g_array_sized_new(FALSE, TRUE, sizeof(double), (guint)o->P);
    g_array_set_size(d, (guint)o->P);
    if (!pact_pattern_gen(o->shape, o->P, &po, (double *)d->data, err)) {
        g_prefix_error(err, "--shape %s: ", o->shape);
        g_array_free(d, TRUE);
        return NULL;
    }
    return d;
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What --timing reports of one cell. */
typedef struct {
    double prepare_s, evaluate_s, cpu_s; /* wall (CLOCK_MONOTONIC) build and evaluation; process CPU */
    size_t messages, events;
    int direct;      /* pact_model_result.direct: 1 the direct path (models/direct.c), 2 the posted path */
    long maxrss_kib; /* the process's peak resident set after the cell: cumulative over --alg lists */
} cell_timing;

/* One cell as pact_model_cell computes it (default parameters, root 0, doubles summed, bytes not a multiple
 * of 8 as bytes), but built and evaluated here so that the two can be timed apart, and the schedule freed
 * before the next algorithm. */
static gboolean timed_cell(const pact_alg *a, int P, uint64_t bytes, size_t elem_size,
                           const pact_place *place, const double *arr, const pact_model_params *m,
                           pact_model_eval *w, double *ds, double *dh, cell_timing *t, GError **err)
{
    pact_build_args args;
    pact_model_cell_args(a, P, (size_t)bytes, &args);
    if (elem_size) {
        args.elem_size = elem_size;
        args.count = (size_t)bytes / elem_size;
    }
    args.place = place; /* for the algorithms that need the nodes (MPICH's smp) */
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), t0 = clock_s(CLOCK_MONOTONIC);
    pact_model_sched *s = pact_model_prepare(a, &args, err);
    double t1 = clock_s(CLOCK_MONOTONIC);
    pact_model_result res = {0};
    gboolean ok = s && pact_model_evaluate(w, s, arr, m, &res, err);
    double t2 = clock_s(CLOCK_MONOTONIC);
    *t = (cell_timing){.prepare_s = t1 - t0,
                       .evaluate_s = s ? t2 - t1 : 0,
                       .cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0,
                       .messages = s ? pact_model_sched_messages(s) : 0,
                       .events = res.events,
                       .direct = ok ? res.direct : 0};
    if (ok) {
        *ds = res.dstar;
        *dh = res.dhat;
    }
    pact_model_sched_free(s);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        t->maxrss_kib = ru.ru_maxrss; /* KiB on Linux */
    return ok;
}

static int predict(predict_opts *o)
{
    GError *err = NULL;
    const pact_platform *plat = NULL;
    pact_model_fit fit = {0}, *fitp = NULL;
    GArray *arr = NULL;
    GPtrArray *algs = g_ptr_array_new();
    GString *timings = g_string_new(NULL);
    pact_model_eval *w = NULL;
    pact_place place;
    gboolean placed = FALSE;
    int *node_of = NULL;   /* freed at out: a g_autofree declared below a goto would be freed uninitialised */
    char *arrivals = NULL; /* what the header says of them */
    int rc = 2;
    uint64_t bytes = 0;
    int c = o->coll ? pact_coll_from_name(o->coll) : -1;
    gboolean csv = o->format && !strcmp(o->format, "csv");
    if (c < 0) {
        fprintf(stderr, "pact model predict: --coll %s: expected one of %s\n",
                o->coll ? o->coll : "(missing)", pact_coll_list());
        goto out;
    }
    /* a collective without data (barrier): -m is optional and ignored, the cell is 0 bytes */
    const int dataless = pact_coll_dataless((pact_coll)c);
    if (!o->alg || o->P < 1 || (!o->size && !dataless)) {
        fprintf(stderr, "pact model predict: --alg, -P (>= 1) and -m are required (-m: not for barrier)\n");
        goto out;
    }
    if (!dataless && pact_parse_size(o->size, &bytes) != PACT_OK) {
        fprintf(stderr, "pact model predict: -m %s: expected a size such as 8, 64K, 1M\n", o->size);
        goto out;
    }
    if (o->dtype && !(o->elem_size = pact_dtype_size(o->dtype))) {
        fprintf(stderr, "pact model predict: --dtype %s: expected char, int, float or double\n", o->dtype);
        goto out;
    }
    if (o->elem_size && bytes % o->elem_size) {
        fprintf(stderr, "pact model predict: -m %s is not a whole number of %s elements (%zu bytes each)\n",
                o->size, o->dtype, o->elem_size);
        goto out;
    }
    if (o->format && !csv && strcmp(o->format, "table")) {
        fprintf(stderr, "pact model predict: --format %s: expected table or csv\n", o->format);
        goto out;
    }
    if (o->shape && o->pattern) {
        fprintf(stderr, "pact model predict: --shape and --pattern exclude each other: give one\n");
        goto out;
    }
    if (!o->shape != !o->skew) {
        fprintf(stderr, "pact model predict: --shape NAME and --skew SECONDS go together\n");
        goto out;
    }
    if (o->ppn < 0) {
        fprintf(stderr, "pact model predict: --ppn %d: expected a number of ranks per node >= 1\n", o->ppn);
        goto out;
    }
    if (o->ppn > 1 && o->P % o->ppn) {
        fprintf(stderr, "pact model predict: --ppn %d does not divide -P %d\n", o->ppn, o->P);
        goto out;
    }
    if (o->seed < 0) { /* as pact sim's seed: an unsigned number */
        fprintf(stderr, "pact model predict: --seed %" G_GINT64_FORMAT ": expected a number >= 0\n", o->seed);
        goto out;
    }
    if (!strcmp(o->alg, "all")) {
        for (size_t i = 0; i < pact_alg_count(); i++)
            if (pact_alg_at(i)->coll == (pact_coll)c)
                g_ptr_array_add(algs, (gpointer)pact_alg_at(i));
    } else {
        g_auto(GStrv) names = g_strsplit(o->alg, ",", -1);
        for (int i = 0; names[i]; i++) {
            const pact_alg *a = pact_alg_find((pact_coll)c, names[i]);
            if (!a) {
                fprintf(stderr, "pact model predict: --alg %s: no such %s algorithm (pact list algorithms)\n",
                        names[i], o->coll);
                goto out;
            }
            g_ptr_array_add(algs, (gpointer)a);
        }
    }
    if (o->platform && !(plat = pact_platform_get(o->platform, &err)))
        goto fail;
    if (plat) { /* the ranks on the platform's nodes and cores, as pact sim places them */
        int ppn = o->ppn > 1 ? o->ppn : 1, cores = plat->sockets * plat->cores_per_socket;
        if (ppn > cores) {
            fprintf(stderr, "pact model predict: --ppn %d: %s has %d cores per node (%s)\n", ppn, plat->name,
                    cores, plat->file ? plat->file : "built in");
            goto out;
        }
        if (o->P / ppn > plat->nodes) {
            int least = (o->P + plat->nodes - 1) / plat->nodes;
            g_autofree char *hint = least <= cores ? g_strdup_printf("--ppn %d to %d", least, cores)
                                                   : g_strdup_printf("at most %d ranks (%d x %d)",
                                                                     plat->nodes * cores, plat->nodes, cores);
            fprintf(stderr, "pact model predict: -P %d at --ppn %d needs %d nodes: %s has %d (%s): %s\n",
                    o->P, ppn, o->P / ppn, plat->name, plat->nodes, plat->file ? plat->file : "built in",
                    hint);
            goto out;
        }
    }
    if (o->params) {
        if (!pact_model_fit_read(o->params, &fit, &err))
            goto fail;
        fitp = &fit;
    }
    if (o->pattern && !(arr = pact_pattern_load(o->pattern, o->P, NULL, &err)))
        goto fail;
    if (o->shape && !(arr = shape_arrivals(o, &err)))
        goto fail;
    const double *a0 = arr ? (const double *)arr->data : NULL;
    if (!node_map(o, &node_of, &err))
        goto fail;
    if (pact_place_init(&place, o->P, node_of) != PACT_OK) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        goto fail;
    }
    placed = TRUE;
    pact_model_params m;
    if (!params_for(o, plat, fitp, algs->pdata[0], &m, &err))
        goto fail;
    arrivals = o->shape
                   ? g_strdup_printf("%s (skew %s, seed %" G_GINT64_FORMAT ")", o->shape, o->skew, o->seed)
                   : g_strdup(o->pattern ? o->pattern : "none (no_delay)");
    const char *pattern = o->shape ? o->shape : o->pattern ? o->pattern : "no_delay";
    if (csv) {
        printf("collective,algorithm,procs,ppn,bytes,pattern,closed_s,total_delay_s,last_delay_s,status\n");
    } else {
        g_autofree char *nodes = m.ppn > 1 ? g_strdup_printf(" (%d per node)", m.ppn) : g_strdup("");
        printf("# %s on %d ranks%s, %" PRIu64 " bytes per process, %s, arrivals %s\n", o->coll, o->P, nodes,
               bytes, net_name(&m), arrivals);
        printf("# alpha %.4g s, beta %.4g s/B, gamma %.4g s/B", m.alpha, m.beta, m.gamma);
        if (m.ppn > 1)
            printf(", intra-node alpha %.4g s, beta %.4g s/B", m.alpha_intra, m.beta_intra);
        printf(", envelope %g B, eager below %g B%s\n", m.envelope, m.eager_limit,
               fitp ? " (alpha, beta per algorithm from --params)" : "");
        g_autofree char *what = NULL;
        pact_model_params copy = m;
        if (plat && pact_model_params_closed(&copy, o->P, &what, NULL) && what)
            printf("# %s: %s%s (%s, %s mapping)\n",
                   m.net == PACT_NET_SHARED ? "closed forms" : "closed forms and the evaluator", what,
                   m.net == PACT_NET_SHARED ? "; the evaluator follows every route" : "",
                   m.rails == PACT_RAILS_BINDING ? "rails bound" : "rails shared",
                   m.mapping == PACT_MAP_BLOCK ? "block" : "cyclic");
        printf("%-24s %12s %12s %12s %8s  %s\n", "algorithm", "closed_us", "eval_d*_us", "eval_d^_us",
               "cl/ev", "closed form");
    }
    int failed = 0;
    if (!(w = pact_model_eval_new())) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        goto fail;
    }
    for (guint i = 0; i < algs->len; i++) {
        const pact_alg *a = algs->pdata[i];
        if (!params_for(o, plat, fitp, a, &m, &err))
            goto fail;
        double ds = NAN, dh = NAN;
        const char *src = NULL;
        pact_model_terms t;
        double c0 = clock_s(CLOCK_MONOTONIC);
        pact_model_terms_of(a, o->P, (double)bytes, &t, &src);
        double cl = pact_model_closed(a, o->P, (double)bytes, &m);
        double closed_s = clock_s(CLOCK_MONOTONIC) - c0;
        const char *status = "ok";
        GError *e = NULL;
        cell_timing tm;
        if (!timed_cell(a, o->P, bytes, o->elem_size, &place, a0, &m, w, &ds, &dh, &tm, &e)) {
            status = e->domain == PACT_ERROR && e->code == PACT_ERROR_INPUT ? "skipped" : "failed";
            failed += status[0] == 'f';
            fprintf(stderr, "pact: %s\n", e->message); /* with csv too: stdout stays one CSV */
            g_error_free(e);
        }
        if (csv)
            printf("%s,%s,%d,%d,%" PRIu64 ",%s,%.17g,%.17g,%.17g,%s\n", o->coll, a->name, o->P, m.ppn, bytes,
                   pattern, cl, ds, dh, status);
        else
            printf("%-24s %12.3f %12.3f %12.3f %8.3f  %s%s\n", a->name, cl * 1e6, ds * 1e6, dh * 1e6, cl / dh,
                   m.ppn > 1 && pact_model_has_two_level(a) ? "two-level, Tran et al. 2.2; one-level: " : "",
                   src ? src : "");
        g_string_append_printf(
            timings,
            "timing: coll=%s alg=%s P=%d bytes=%" PRIu64 " pattern=%s closed_s=%.3g prepare_s=%.6f "
            "evaluate_s=%.6f total_s=%.6f cpu_s=%.6f messages=%zu events=%zu direct=%d "
            "maxrss_kib=%ld status=%s\n",
            o->coll, a->name, o->P, bytes, pattern, closed_s, tm.prepare_s, tm.evaluate_s,
            tm.prepare_s + tm.evaluate_s, tm.cpu_s, tm.messages, tm.events, tm.direct, tm.maxrss_kib, status);
    }
    /* After the table; with csv on stderr, so that stdout stays one CSV. */
    if (o->timing)
        fputs(timings->str, csv ? stderr : stdout);
    rc = failed ? 1 : 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    if (fitp)
        pact_model_fit_clear(&fit);
    if (arr)
        g_array_free(arr, TRUE);
    g_ptr_array_free(algs, TRUE);
    g_string_free(timings, TRUE);
    g_free(arrivals);
    pact_model_eval_free(w);
    if (placed)
        pact_place_free(&place);
    g_free(node_of);
    return rc;
}

static int fit_cmd(const char *path, const char *out)
{
    GError *err = NULL;
    GArray *pts = pact_model_points_read(path, &err);
    if (!pts)
        return pact_cli_fail(err);
    pact_model_fit f;
    pact_model_fit_init(&f);
    f.source = g_strdup(path);
    GArray *res = g_array_new(FALSE, FALSE, sizeof(double));
    int rc = 0;
    if (!pact_model_fit_points(pts, &f, res, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    printf("# pact model fit: %u measurements (no_delay, status ok) from %s\n", pts->len, path);
    printf("# T = a(P)*alpha_a + b(P,m)*beta_a + c(P,m)*gamma, non-negative least squares on relative "
           "residuals\n");
    printf("gamma %.6g s/B\n", f.gamma);
    printf("%-10s %-30s %12s %12s %9s %6s\n", "collective", "algorithm", "alpha_s", "beta_s_per_B", "R2",
           "points");
    for (guint i = 0; i < f.algs->len; i++) {
        const pact_model_fit_alg *a = &g_array_index(f.algs, pact_model_fit_alg, i);
        printf("%-10s %-30s %12.5g %12.5g %9.6f %6d\n", pact_coll_name(a->coll), a->alg, a->alpha, a->beta,
               a->r2, a->points);
    }
    /* A parameter at its bound 0 is one the data would rather have negative: say so, since it is a sign of
     * a model that does not fit the algorithm (or of too few shapes of (P, m)). */
    for (guint i = 0; i < f.algs->len; i++) {
        const pact_model_fit_alg *a = &g_array_index(f.algs, pact_model_fit_alg, i);
        if (a->alpha == 0 || a->beta == 0)
            printf("note: %s %s: %s held at 0 (the unconstrained fit makes it negative)\n",
                   pact_coll_name(a->coll), a->alg,
                   a->alpha == 0 && a->beta == 0 ? "alpha and beta"
                   : a->alpha == 0               ? "alpha"
                                                 : "beta");
    }
    gboolean any_c = FALSE; /* gamma is fitted only when some point reduces bytes */
    for (guint i = 0; i < pts->len; i++) {
        const pact_model_point *p = &g_array_index(pts, pact_model_point, i);
        pact_model_terms t;
        any_c |= pact_model_terms_of(p->alg, p->P, p->m, &t, NULL) && t.c != 0;
    }
    if (any_c && f.gamma == 0)
        printf("note: gamma held at 0 (the unconstrained fit makes it negative)\n");
    /* The worst points, by relative residual. */
    guint n = res->len, *order = g_new(guint, n + 1);
    for (guint i = 0; i < n; i++)
        order[i] = i;
    for (guint i = 0; i < n && i < 5; i++)
        for (guint j = i + 1; j < n; j++)
            if (fabs(g_array_index(res, double, order[j])) > fabs(g_array_index(res, double, order[i]))) {
                guint t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    printf("worst residuals (model / measured - 1):\n");
    for (guint i = 0; i < n && i < 5; i++) {
        const pact_model_point *p = &g_array_index(pts, pact_model_point, order[i]);
        double r = g_array_index(res, double, order[i]);
        printf("  %s:%d %s %s P=%d m=%.0f measured %.4g s model %.4g s  %+.2f%%\n", path, p->line,
               pact_coll_name(p->alg->coll), p->alg->name, p->P, p->m, p->t, p->t * (1 + r), 100 * r);
    }
    g_free(order);
    if (out) {
        if (!pact_model_fit_write(out, &f, &err)) {
            rc = pact_cli_fail(err);
            goto out;
        }
        printf("wrote %s\n", out);
    }
out:
    g_array_free(res, TRUE);
    g_array_free(pts, TRUE);
    pact_model_fit_clear(&f);
    return rc;
}

/* pact model bench: the evaluator's simulated messages per second and the closed forms' predictions per
 * second, in CPU seconds of one thread (scripts/bench-model.sh also pins it to one core). */
/* CPU time of the calling thread: the figures do not depend on what else runs on the machine. */
static double now_s(void)
{
    return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static int bench(double seconds)
{
    static const struct {
        pact_coll coll;
        const char *alg;
        int P;
        size_t bytes;
    } cases[] = {
        {PACT_COLL_ALLREDUCE, "ring", 256, 1 << 20},
        {PACT_COLL_ALLREDUCE, "recursive_doubling", 1024, 8},
        {PACT_COLL_ALLREDUCE, "rabenseifner", 1024, 1 << 20},
        {PACT_COLL_BCAST, "binomial", 1024, 65536},
        {PACT_COLL_REDUCE, "binomial", 1024, 65536},
        {PACT_COLL_ALLGATHER, "ring", 256, 1024},
        {PACT_COLL_ALLTOALL, "pairwise", 128, 1024},
        {PACT_COLL_ALLTOALL, "linear", 64, 1024},
    };
    GError *err = NULL;
    pact_model_eval *w = pact_model_eval_new();
    GRand *rng = g_rand_new_with_seed(1);
    double tot_msgs[2] = {0, 0}, tot_time[2] = {0, 0};
    printf("%-10s %-30s %6s %9s %-12s %10s %8s %14s\n", "collective", "algorithm", "P", "bytes", "network",
           "messages", "evals", "messages_per_s");
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const pact_alg *a = pact_alg_find(cases[i].coll, cases[i].alg);
        pact_build_args args = {0};
        args.coll = a->coll;
        args.size = cases[i].P;
        args.elem_size = 8;
        args.count = cases[i].bytes / 8;
        args.commutative = 1;
        pact_model_sched *s = pact_model_prepare(a, &args, &err);
        if (!s) {
            g_rand_free(rng);
            pact_model_eval_free(w);
            return pact_cli_fail(err);
        }
        double *arr = g_new(double, (gsize)cases[i].P);
        for (int net = 0; net < 2; net++) {
            pact_model_params m;
            pact_model_params_hockney(&m, 2e-6, 8e-10, 2e-10);
            m.net = net ? PACT_NET_SHARED : PACT_NET_PORT;
            long evals = 0;
            double t0 = now_s(), t = t0;
            while (t - t0 < seconds / (2.0 * G_N_ELEMENTS(cases))) {
                for (int r = 0; r < cases[i].P; r++)
                    arr[r] = g_rand_double_range(rng, 0, 1e-4);
                pact_model_result res;
                if (!pact_model_evaluate(w, s, arr, &m, &res, &err)) {
                    g_free(arr);
                    pact_model_sched_free(s);
                    g_rand_free(rng);
                    pact_model_eval_free(w);
                    return pact_cli_fail(err);
                }
                evals++;
                t = now_s();
            }
            double msgs = (double)pact_model_sched_messages(s) * (double)evals;
            tot_msgs[net] += msgs;
            tot_time[net] += t - t0;
            printf("%-10s %-30s %6d %9zu %-12s %10zu %8ld %14.4g\n", pact_coll_name(a->coll), a->name,
                   cases[i].P, cases[i].bytes, net ? "shared" : "single_port", pact_model_sched_messages(s),
                   evals, msgs / (t - t0));
        }
        g_free(arr);
        pact_model_sched_free(s);
    }
    g_rand_free(rng);
    pact_model_eval_free(w);
    printf("evaluator, single port: %.4g messages/s\n", tot_msgs[0] / tot_time[0]);
    printf("evaluator, shared links: %.4g messages/s\n", tot_msgs[1] / tot_time[1]);
    /* Closed forms: every algorithm at P = 2..1024 and m = 8 B..4 MiB, round robin. */
    pact_model_params m;
    pact_model_params_hockney(&m, 2e-6, 8e-10, 2e-10);
    double sink = 0, t0 = now_s(), t = t0;
    long n = 0, nan = 0; /* NaN: an algorithm that does not apply (barrier two_proc beyond 2 ranks) */
    while (t - t0 < seconds / 4) {
        for (size_t i = 0; i < pact_alg_count(); i++)
            for (int P = 2; P <= 1024; P *= 2)
                for (double bytes = 8; bytes <= 4 << 20; bytes *= 8) {
                    double v = pact_model_closed(pact_alg_at(i), P + (int)(n & 1), bytes, &m);
                    if (isnan(v))
                        nan++;
                    else
                        sink += v;
                    n++;
                }
        t = now_s();
    }
    printf("closed forms: %.4g predictions/s (%ld predictions, checksum %.6g, %ld not applicable)\n",
           (double)n / (t - t0), n, sink, nan);
    return 0;
}

int pact_cmd_model(int argc, char **argv)
{
    predict_opts o = {.seed = 1};
    char *out = NULL;
    double seconds = 8;
    GOptionEntry entries[] = {
        {"coll", 0, 0, G_OPTION_ARG_STRING, &o.coll, "predict: collective", "C"},
        {"alg", 0, 0, G_OPTION_ARG_STRING, &o.alg, "predict: algorithm, a,b,... or all", "A"},
        {"procs", 'P', 0, G_OPTION_ARG_INT, &o.P, "predict: number of processes", "N"},
        {"size", 'm', 0, G_OPTION_ARG_STRING, &o.size, "predict: bytes per process (8, 64K, 1M)", "BYTES"},
        {"dtype", 0, 0, G_OPTION_ARG_STRING, &o.dtype,
         "predict: the elements' type, char, int, float or double (default: double where -m is a multiple of "
         "8, else char); MPICH's byte-split broadcasts need blocks of whole elements",
         "T"},
        {"alpha", 0, 0, G_OPTION_ARG_STRING, &o.alpha, "latency, s", "A"},
        {"beta", 0, 0, G_OPTION_ARG_STRING, &o.beta, "seconds per byte", "B"},
        {"gamma", 0, 0, G_OPTION_ARG_STRING, &o.gamma, "seconds per reduced byte", "G"},
        {"alpha-intra", 0, 0, G_OPTION_ARG_STRING, &o.alpha_intra, "latency within a node (with --ppn)", "A"},
        {"beta-intra", 0, 0, G_OPTION_ARG_STRING, &o.beta_intra, "s/B within a node (with --ppn)", "B"},
        {"platform", 0, 0, G_OPTION_ARG_STRING, &o.platform,
         "parameters of a built-in or YAML platform, as SimGrid runs it: network and shared-memory latency "
         "and bandwidth, shared links, 16-byte envelope",
         "NAME"},
        {"params", 0, 0, G_OPTION_ARG_FILENAME, &o.params, "alpha_a, beta_a, gamma fitted by pact model fit",
         "FILE"},
        {"pattern", 0, 0, G_OPTION_ARG_FILENAME, &o.pattern,
         "a pattern file or an arrival trace (default: none)", "FILE"},
        {"shape", 0, 0, G_OPTION_ARG_STRING, &o.shape,
         "predict: generated arrivals instead of --pattern, a shape of pact list patterns (with --skew)",
         "NAME"},
        {"skew", 0, 0, G_OPTION_ARG_STRING, &o.skew, "predict: the shape's skew s, e.g. 1e-4 or 100us", "S"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &o.seed, "predict: seed of random, node_delayed, two_level (1)",
         "N"},
        {"timing", 0, 0, G_OPTION_ARG_NONE, &o.timing,
         "predict: after the table, a line per algorithm: wall seconds (CLOCK_MONOTONIC) of the closed form, "
         "pact_model_prepare and pact_model_evaluate, process CPU seconds, messages, events, peak RSS in KiB "
         "(of the process so "
         "far: cumulative over several algorithms; scripts/bench-model.sh runs one per process); on stderr "
         "with --format csv",
         NULL},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &o.ppn, "ranks per node (block mapping): two-level costs", "K"},
        {"rails", 0, 0, G_OPTION_ARG_STRING, &o.rails,
         "with --platform: several adapters per node, sharing or binding (default: the platform's)", "MODE"},
        {"mapping", 0, 0, G_OPTION_ARG_STRING, &o.mapping, "with --platform: block (default) or cyclic", "M"},
        {"net", 0, 0, G_OPTION_ARG_STRING, &o.net,
         "port (Hockney single port; default without --platform) or shared (SimGrid's links)", "NET"},
        {"loggp", 0, 0, G_OPTION_ARG_STRING, &o.loggp, "evaluate under LogGP with L = alpha", "o,g,G"},
        {"envelope", 0, 0, G_OPTION_ARG_STRING, &o.envelope, "bytes added to each message", "B"},
        {"eager", 0, 0, G_OPTION_ARG_STRING, &o.eager, "sends below B bytes complete at once (65536)", "B"},
        {"format", 0, 0, G_OPTION_ARG_STRING, &o.format, "table (default) or csv", "F"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "fit: write the parameter file (YAML)", "FILE"},
        {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "bench: how long to measure (default 8)", "S"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("predict | fit RESULTS.csv | bench");
    g_option_context_set_summary(
        ctx,
        "predict: closed-form Hockney cost and the schedule evaluator (d*, d^) side by side.\n"
        "fit: least-squares alpha_a, beta_a per algorithm and a common gamma from a results.csv of pact "
        "sim (no_delay rows).\nbench: evaluator messages per second, closed-form predictions per second.\n\n"
        "examples:\n"
        "  pact model predict --coll allreduce --alg ring -P 32 -m 1M --alpha 2e-6 --beta 8e-10 --gamma "
        "2e-10\n"
        "  pact model predict --coll bcast --alg all -P 32 -m 64K --platform generic32x32 --pattern "
        "late.txt\n"
        "  pact model fit results/run/results.csv -o params.yaml\n"
        "  pact model predict --coll allreduce --alg ring -P 64 -m 1M --params params.yaml\n"
        "  pact model predict --coll allreduce --alg ring -P 1024 --ppn 32 -m 1M --platform generic32x32 "
        "--shape random --skew 1e-4 --timing\n"
        "  pact model predict --coll bcast --alg binomial -P 1048576 -m 64K --net shared --alpha 2e-6 --beta "
        "8e-10 --gamma 2e-10 --timing");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc == 2 && !strcmp(argv[1], "predict")) {
        rc = predict(&o);
    } else if (argc == 2 && !strcmp(argv[1], "bench")) {
        rc = bench(seconds);
    } else if (argc == 3 && !strcmp(argv[1], "fit")) {
        rc = fit_cmd(argv[2], out);
    } else {
        fprintf(stderr, "pact model: expected 'predict [options]' or 'fit RESULTS.csv [-o FILE]' (--help)\n");
    }
out:
    g_option_context_free(ctx);
    char *strs[] = {o.coll,       o.alg,      o.size,    o.alpha,  o.beta,  o.gamma, o.alpha_intra,
                    o.beta_intra, o.platform, o.pattern, o.params, o.loggp, o.net,   o.envelope,
                    o.eager,      o.format,   o.shape,   o.skew,   out};
    for (size_t i = 0; i < G_N_ELEMENTS(strs); i++)
        g_free(strs[i]);
    return rc;
}
