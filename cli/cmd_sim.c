/* cmd_sim.c - pact sim: a what-if study under SimGrid/SMPI, driven by flags. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_run.h"

int pact_cmd_sim(int argc, char **argv)
{
    char *platform = NULL, *coll = NULL, *algs = NULL, *sizes = NULL, *patterns = NULL, *skew = NULL,
         *skew_factor = NULL, *skew_mode = NULL, *engine = NULL, *outdir = NULL, *mapping = NULL,
         *dtype = NULL, *op = NULL, *gamma = NULL, *hostfile = NULL, *ranks_on = NULL, *rails = NULL;
    int nodes = 2, ppn = -1, reps = 5, jobs = 1, root = 0, check = 0;
    gint64 seed = 1;
    GOptionEntry entries[] = {
        {"platform", 0, 0, G_OPTION_ARG_STRING, &platform,
         "built-in machine (default generic32x32), a platform YAML, or a SimGrid XML with --hostfile",
         "NAME|FILE"},
        {"hostfile", 0, 0, G_OPTION_ARG_FILENAME, &hostfile, "with an XML --platform: one host per rank",
         "FILE"},
        {"ranks-on", 0, 0, G_OPTION_ARG_STRING, &ranks_on, "cores (default) or gpus (cedar, mist)", "WHERE"},
        {"rails", 0, 0, G_OPTION_ARG_STRING, &rails, "several adapters per node: sharing or binding", "MODE"},
        {"nodes", 0, 0, G_OPTION_ARG_INT, &nodes, "nodes used (default 2)", "N"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &ppn, "processes per node (default: every core)", "K"},
        {"mapping", 0, 0, G_OPTION_ARG_STRING, &mapping, "rank placement: block (default) or cyclic", "M"},
        {"coll", 0, 0, G_OPTION_ARG_STRING, &coll, "collective (default allreduce)", "C"},
        {"algs", 0, 0, G_OPTION_ARG_STRING, &algs,
         "algorithms: all (default) or a list; smpi:NAME runs SimGrid's built-in NAME", "A,B"},
        {"sizes", 0, 0, G_OPTION_ARG_STRING, &sizes,
         "bytes per process: 8,1K,64K,1M or 8..1M (default 8,1K,64K,1M)", "LIST"},
        {"patterns", 0, 0, G_OPTION_ARG_STRING, &patterns,
         "arrival patterns: shapes (pact list patterns) or file:PATH (default no_delay,last_delayed)",
         "LIST"},
        {"skew", 0, 0, G_OPTION_ARG_STRING, &skew, "maximum skew in seconds (1e-3, 1ms, 100us)", "S"},
        {"skew-factor", 0, 0, G_OPTION_ARG_STRING, &skew_factor,
         "maximum skew as a factor of what --skew-mode says (default 1.5)", "F"},
        {"skew-mode", 0, 0, G_OPTION_ARG_STRING, &skew_mode,
         "what the factor multiplies: mean_nodelay (default), own_nodelay or mif", "M"},
        {"reps", 0, 0, G_OPTION_ARG_INT, &reps, "measured calls per cell (default 5; one more warms up)",
         "R"},
        {"engine", 0, 0, G_OPTION_ARG_STRING, &engine,
         "smpi (SimGrid, default) or model (the schedule evaluator: no SimGrid)", "E"},
        {"jobs", 0, 0, G_OPTION_ARG_INT, &jobs, "parallel simulations (only 1 so far)", "J"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the random patterns (default 1)", "N"},
        {"gamma", 0, 0, G_OPTION_ARG_STRING, &gamma,
         "seconds charged per byte reduced (default: the platform's)", "G"},
        {"dtype", 0, 0, G_OPTION_ARG_STRING, &dtype, "int, float or double (default)", "T"},
        {"op", 0, 0, G_OPTION_ARG_STRING, &op, "sum (default), max or min", "OP"},
        {"root", 0, 0, G_OPTION_ARG_INT, &root, "root of rooted collectives (default 0)", "R"},
        {"check", 0, 0, G_OPTION_ARG_NONE, &check, "also check every result against the library's collective",
         NULL},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "output folder (default results/sim-<timestamp>)",
         "DIR"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("");
    g_option_context_set_summary(
        ctx,
        "Simulates collective algorithms under process arrival patterns with SimGrid/SMPI and writes\n"
        "DIR/results.csv (one row per call) and DIR/summary.txt (best algorithm per size and pattern).\n\n"
        "example:\n  pact sim --platform generic32x32 --nodes 2 --ppn 32 --coll allreduce \\\n"
        "      --algs recursive_doubling,ring,smpi:lr --sizes 8,64K,1M --patterns no_delay,last_delayed \\\n"
        "      --skew-factor 1.5 -o results/demo");
    g_option_context_add_main_entries(ctx, entries, NULL);
    pact_sweep s;
    pact_sweep_init(&s);
    GError *err = NULL;
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc > 1) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "unexpected argument '%s' (experiment files come later)", argv[1]);
        goto fail;
    }
    if (platform && g_str_has_suffix(platform, ".xml")) {
        s.user_xml = g_strdup(platform);
        s.user_hostfile = g_strdup(hostfile);
    } else if (hostfile) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--hostfile goes with a SimGrid XML --platform");
        goto fail;
    } else if (!(s.platform = pact_platform_get(platform ? platform : "generic32x32", &err))) {
        goto fail;
    }
    if (nodes < 1 || ppn == 0) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    nodes < 1 ? "--nodes %d: at least 1" : "--ppn %d: at least 1", nodes < 1 ? nodes : ppn);
        goto fail;
    }
    s.nodes = nodes;
    s.ppn = ppn < 0 ? 0 : ppn; /* 0: every core (or GPU) */
    if (ranks_on && strcmp(ranks_on, "cores") && strcmp(ranks_on, "gpus")) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--ranks-on %s: expected cores or gpus", ranks_on);
        goto fail;
    }
    s.ranks_on = ranks_on && !strcmp(ranks_on, "gpus") ? PACT_ON_GPUS : PACT_ON_CORES;
    if (rails && strcmp(rails, "sharing") && strcmp(rails, "binding")) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--rails %s: expected sharing or binding", rails);
        goto fail;
    }
    if (rails)
        s.rails = !strcmp(rails, "binding") ? PACT_RAILS_BINDING : PACT_RAILS_SHARING;
    if (mapping && !pact_mapping_parse(mapping, "--mapping", &s.mapping, &err))
        goto fail;
    int c = pact_coll_from_name(coll ? coll : "allreduce");
    if (c < 0) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--coll %s: unknown collective (allreduce, reduce, bcast, alltoall, allgather)", coll);
        goto fail;
    }
    s.coll = (pact_coll)c;
    if (!algs || !strcmp(algs, "all")) {
        for (size_t i = 0; i < pact_alg_count(); i++)
            if (pact_alg_at(i)->coll == s.coll)
                g_ptr_array_add(s.algs, g_strdup(pact_alg_at(i)->name));
    } else if (!pact_split_list(algs, "--algs", s.algs, &err)) {
        goto fail;
    }
    if (!pact_parse_size_list(sizes ? sizes : "8,1K,64K,1M", "--sizes", s.sizes, &err) ||
        !pact_split_list(patterns ? patterns : "no_delay,last_delayed", "--patterns", s.patterns, &err))
        goto fail;
    if (skew && skew_factor) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--skew and --skew-factor: give one of them");
        goto fail;
    }
    if (skew && skew_mode) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--skew-mode %s: goes with --skew-factor (--skew is absolute seconds)", skew_mode);
        goto fail;
    }
    if (skew) {
        s.skew_mode = PACT_SKEW_ABSOLUTE;
        if (!pact_parse_seconds(skew, "--skew", &s.skew, &err))
            goto fail;
    } else {
        /* A factor: of the mean no-delay d^ by default (the seeds' procedure), or --skew-mode's base. */
        int m = skew_mode ? pact_skew_mode_parse(skew_mode) : PACT_SKEW_MEAN_NODELAY;
        if (m <= PACT_SKEW_ABSOLUTE) {
            g_set_error(
                &err, PACT_ERROR, PACT_ERROR_INPUT,
                "--skew-mode %s: expected mean_nodelay, own_nodelay or mif (absolute seconds: --skew)",
                skew_mode);
            goto fail;
        }
        s.skew_mode = (pact_skew_mode)m;
        char *end = NULL;
        s.skew = skew_factor ? g_ascii_strtod(skew_factor, &end) : 1.5;
        if (skew_factor && (end == skew_factor || *end || !(s.skew >= 0) || !isfinite(s.skew))) {
            g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--skew-factor %s: expected a number >= 0",
                        skew_factor);
            goto fail;
        }
    }
    if (engine && strcmp(engine, "smpi") && strcmp(engine, "model")) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--engine %s: expected smpi or model (replay comes with the scale issue)", engine);
        goto fail;
    }
    s.engine = engine && !strcmp(engine, "model") ? PACT_ENGINE_MODEL : PACT_ENGINE_SMPI;
    if (jobs < 1) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--jobs %d: must be >= 1", jobs);
        goto fail;
    }
    if (gamma && !pact_parse_seconds(gamma, "--gamma", &s.gamma, &err))
        goto fail;
    s.reps = reps;
    s.seed = (guint64)seed;
    s.root = root;
    s.check = check;
    if (dtype) {
        g_free(s.dtype);
        s.dtype = g_strdup(dtype);
    }
    if (op) {
        g_free(s.op);
        s.op = g_strdup(op);
    }
    if (outdir) {
        s.outdir = g_strdup(outdir);
    } else {
        g_autoptr(GDateTime) now = g_date_time_new_now_local();
        g_autofree char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
        s.outdir = g_strdup_printf("results/sim-%s", stamp);
    }
    char *summary = NULL;
    if (!pact_sweep_run(&s, &summary, &err))
        goto fail;
    fputs(summary, stdout);
    printf("\nresults: %s/results.csv, %s/summary.txt\n", s.outdir, s.outdir);
    g_free(summary);
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    pact_sweep_clear(&s);
    g_option_context_free(ctx);
    g_free(platform);
    g_free(coll);
    g_free(algs);
    g_free(sizes);
    g_free(patterns);
    g_free(skew);
    g_free(skew_factor);
    g_free(skew_mode);
    g_free(engine);
    g_free(outdir);
    g_free(mapping);
    g_free(dtype);
    g_free(op);
    g_free(gamma);
    g_free(hostfile);
    g_free(ranks_on);
    g_free(rails);
    return rc;
}
