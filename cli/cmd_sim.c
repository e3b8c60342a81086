/* cmd_sim.c - pact sim: a what-if study under SimGrid/SMPI (or the replay and model engines), from an
 * experiment file and/or flags; and pact merge, which joins the folders of a sharded experiment. */
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_run.h"

/* Flags and experiment fields share their names; every flag is a string here and is checked, with the
 * file's fields, by pact_experiment_build. */
static const struct {
    const char *name;
    const char *help, *arg;
} flags[] = {
    {"platform",
     "built-in machine(s) (default generic32x32), platform YAML, or a SimGrid XML with --hostfile",
     "NAME[,NAME]"},
    {"hostfile", "with an XML --platform: one host per rank", "FILE"},
    {"ranks-on", "cores (default) or gpus (cedar, mist)", "WHERE"},
    {"rails", "several adapters per node: sharing or binding", "MODE"},
    {"nodes", "nodes used (default 2); a list makes one study per value", "N[,N]"},
    {"ppn", "processes per node (default: every core); a list makes one study per value", "K[,K]"},
    {"mapping", "rank placement: block (default) or cyclic", "M"},
    {"coll", "collective(s) (default allreduce; pact list collectives)", "C[,C]"},
    {"algs", "algorithms: all (default) or a list; smpi:NAME runs SimGrid's built-in NAME", "A,B"},
    {"sizes",
     "bytes per process (per block for alltoall, allgather): 8,1K,64K,1M or 8..1M (default 8,1K,64K,1M); a "
     "barrier ignores them (one 0-byte cell)",
     "LIST"},
    {"patterns", "arrival patterns: shapes (pact list patterns) or file:PATH (default no_delay,last_delayed)",
     "LIST"},
    {"skew", "maximum skew in seconds (1e-3, 1ms, 100us)", "S"},
    {"skew-factor", "maximum skew as a factor of what --skew-mode says (default 1.5)", "F"},
    {"skew-mode", "what the factor multiplies: mean_nodelay (default), own_nodelay or mif", "M"},
    {"reps",
     "measured calls per cell (default 5; one more warms up, but for pact's algorithms under SimGrid)", "R"},
    {"engine", "smpi (SimGrid, default), replay (SMPI trace replay: no payload) or model (no SimGrid)", "E"},
    {"seed", "seed of the random patterns (default 1)", "N"},
    {"gamma", "seconds charged per byte reduced (default: the platform's)", "G"},
    {"dtype", "char, int, float or double (default)", "T"},
    {"op", "sum (default), max or min", "OP"},
    {"root", "root of rooted collectives (default 0)", "R"},
    {"batch", "cells per simulation: auto (default: as size; under smpi, an algorithm's sizes while their cells x "
              "ranks stay within 4096), alg, size (an algorithm's patterns of one size) or cell",
     "B"},
    {"shard", "run only shard K of N (join the folders with pact merge)", "K/N"},
    {"jobs", "simulations at once (default: the number of cores)", "J"},
    {"output",
     "output folder (default results/sim-<timestamp>); an existing one of the same experiment "
     "resumes",
     "DIR"},
};

int pact_cmd_sim(int argc, char **argv)
{
    char *values[G_N_ELEMENTS(flags)] = {0};
    gboolean check = FALSE, quiet = FALSE, no_figures = FALSE;
    GOptionEntry entries[G_N_ELEMENTS(flags) + 4];
    memset(entries, 0, sizeof entries);
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        entries[i] = (GOptionEntry){flags[i].name,
                                    !strcmp(flags[i].name, "output") ? 'o' : 0,
                                    0,
                                    G_OPTION_ARG_STRING,
                                    &values[i],
                                    flags[i].help,
                                    flags[i].arg};
    entries[G_N_ELEMENTS(flags)] = (GOptionEntry){
        "check", 0, 0, G_OPTION_ARG_NONE, &check, "also check every result against the library's collective",
        NULL};
    entries[G_N_ELEMENTS(flags) + 1] =
        (GOptionEntry){"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress on stderr", NULL};
    entries[G_N_ELEMENTS(flags) + 2] = (GOptionEntry){
        "no-figures", 0, 0, G_OPTION_ARG_NONE, &no_figures, "summary.txt only, no gnuplot figures", NULL};
    GOptionContext *ctx = g_option_context_new("[EXPERIMENT.yaml]");
    g_option_context_set_summary(
        ctx,
        "Simulates collective algorithms under process arrival patterns and writes DIR/results.csv (one\n"
        "row per call), DIR/summary.txt and figures.  An experiment file holds the same fields as the flags\n"
        "(without --); flags override it.  Lists of platforms, nodes, ppn or collectives make one study\n"
        "each.  Rows are appended as simulations finish: run the same command again to resume.\n\n"
        "example:\n  pact sim --platform generic32x32 --nodes 2 --ppn 32 --coll allreduce,reduce \\\n"
        "      --sizes 8,64K,1M --patterns no_delay,last_delayed,random --skew-factor 1.5 -o results/demo");
    g_option_context_add_main_entries(ctx, entries, NULL);
    pact_experiment e;
    pact_experiment_init(&e);
    GHashTable *fields = pact_exp_new();
    GError *err = NULL;
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc > 2) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "unexpected argument '%s' (one experiment file)",
                    argv[2]);
        goto fail;
    }
    if (argc == 2 && !pact_exp_read(fields, argv[1], &err))
        goto fail;
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        if (values[i])
            pact_exp_set_flag(fields, flags[i].name, values[i]);
    if (check)
        pact_exp_set(fields, "check", "true", NULL);
    if (!g_hash_table_contains(fields, "jobs")) {
        g_autofree char *j = g_strdup_printf("%u", g_get_num_processors());
        pact_exp_set(fields, "jobs", j, NULL);
    }
    if (!pact_experiment_build(fields, &e, &err))
        goto fail;
    e.quiet = quiet;
    e.figures = !no_figures;
    char *summary = NULL;
    if (!pact_experiment_run(&e, &summary, &err))
        goto fail;
    fputs(summary, stdout);
    printf("\nresults: %s/results.csv, %s/summary.txt%s\n", e.outdir, e.outdir,
           e.figures ? ", figures *.png and *.svg" : "");
    g_free(summary);
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    pact_experiment_clear(&e);
    g_hash_table_destroy(fields);
    g_option_context_free(ctx);
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        g_free(values[i]);
    return rc;
}

int pact_cmd_merge(int argc, char **argv)
{
    char *outdir = NULL;
    gboolean no_figures = FALSE;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir, "the merged folder", "DIR"},
        {"no-figures", 0, 0, G_OPTION_ARG_NONE, &no_figures, "summary.txt only, no gnuplot figures", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("DIR...");
    g_option_context_set_summary(ctx,
                                 "Joins the output folders of pact sim --shard K/N runs of one experiment:\n"
                                 "results.csv in the experiment's order, summary.txt and figures.");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (!outdir || argc < 2) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "usage: pact merge -o OUT DIR...");
        rc = pact_cli_fail(err);
        goto out;
    }
    char *summary = NULL;
    if (!pact_experiment_merge(outdir, argv + 1, !no_figures, &summary, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    fputs(summary, stdout);
    printf("\nresults: %s/results.csv, %s/summary.txt\n", outdir, outdir);
    g_free(summary);
    rc = 0;
out:
    g_option_context_free(ctx);
    g_free(outdir);
    return rc;
}
