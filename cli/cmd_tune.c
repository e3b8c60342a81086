/* cmd_tune.c - pact tune: selection tables from the model and from simulation, emitted for Open MPI, MPICH
 * or libpact; and pact tune check, which validates such a file. */
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_emit.h"
#include "pact_host.h"
#include "pact_run.h"
#include "pact_table.h"
#include "pact_tune.h"

/* pact sim's fields that a tuning takes, and the tuner's own (objective, source, target, segsizes). */
static const struct {
    const char *name;
    const char *help, *arg;
} flags[] = {
    {"platform", "built-in machine (default generic32x32), platform YAML, or a SimGrid XML with --hostfile", "NAME"},
    {"hostfile", "with an XML --platform: one host per rank", "FILE"},
    {"nodes", "nodes (default 2); a list tunes each", "N[,N]"},
    {"ppn", "processes per node (default: every core); a list tunes each (one rules file per ppn)", "K[,K]"},
    {"mapping", "rank placement: block (default) or cyclic", "M"},
    {"coll", "collectives (default: all seven; pact list collectives)", "C[,C]"},
    {"algs", "candidates: all the target can run (default) or a list of NAME[:param=value]", "A,B"},
    {"sizes", "bytes per process (per block for alltoall, allgather): 8,1K,64K or 1..64M (default 1..64M)", "LIST"},
    {"patterns", "arrival patterns: all (default: the 11 shapes) or a list; no_delay is always added", "LIST"},
    {"skew", "maximum skew in seconds (instead of --skew-factor)", "S"},
    {"skew-factor", "maximum skew as a factor of what --skew-mode says (default 1.5)", "F"},
    {"skew-mode", "what the factor multiplies: mean_nodelay (default), own_nodelay or mif", "M"},
    {"seed", "seed of the random patterns (default 1)", "N"},
    {"gamma", "seconds charged per byte reduced (default: the platform's)", "G"},
    {"reps", "measured calls per cell under SimGrid (default 1: SimGrid is deterministic; the model runs one)",
     "R"},
    {"batch", "cells per SimGrid simulation: auto (default: size, or several sizes where they have few cells x "
              "ranks), alg, size or cell",
     "B"},
    {"objective",
     "no_delay, robust (default: least mean d^/best d^ over the patterns), regret (least worst d^/best d^), "
     "expected (mean d^; expected:PATTERN=W,... weighs the patterns; expected:file:PATH a recorded one)",
     "O"},
    {"source", "model (default), sim (SimGrid) or hybrid[:K] (the model ranks, SimGrid decides among its K best, "
               "default 3)",
     "S"},
    {"target", "pact (default: any pact algorithm, table.csv), ompi (ompi-rules.conf) or mpich (mpich-csel.json)",
     "T"},
    {"segsizes", "segment sizes tried besides the default for algorithms with one (not for mpich), e.g. 8K,64K",
     "LIST"},
    {"jobs", "simulations at once (default: the number of cores)", "J"},
    {"shard", "run only shard K of N of the SimGrid runs (sim, hybrid): join the folders with pact tune merge, "
              "then run the tuning again on the joined folder",
     "K/N"},
    {"output", "output folder (required); a folder of the same tuning resumes", "DIR"},
};

static int tune_check(int argc, char **argv)
{
    char *format = NULL;
    GOptionEntry entries[] = {
        {"format", 0, 0, G_OPTION_ARG_STRING, &format, "ompi, mpich or pact (default: by the file's extension)",
         "F"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("FILE");
    g_option_context_set_summary(ctx, "Validates a selection file: Open MPI's coll_tuned rules (.conf), MPICH's CSEL\n"
                                      "JSON (.json) or a pact table (.csv): grammar, ids or names valid for that\n"
                                      "library version, order and coverage.  Exit 0 when valid, 2 with FILE:LINE\n"
                                      "messages when not.\n\nexample:\n  pact tune check results/tune/ompi-rules.conf");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 2) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "usage: pact tune check [--format F] FILE");
        rc = pact_cli_fail(err);
        goto out;
    }
    const char *path = argv[1];
    const char *f = format ? format
                    : g_str_has_suffix(path, ".conf") ? "ompi"
                    : g_str_has_suffix(path, ".json") ? "mpich"
                    : g_str_has_suffix(path, ".csv")  ? "pact"
                                                      : NULL;
    gboolean ok;
    if (!f) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "%s: say --format ompi, mpich or pact (extension unknown)",
                    path);
        ok = FALSE;
    } else if (!strcmp(f, "ompi"))
        ok = pact_check_ompi(path, &err);
    else if (!strcmp(f, "mpich"))
        ok = pact_check_mpich(path, &err);
    else if (!strcmp(f, "pact")) {
        pact_table t;
        pact_table_init(&t);
        ok = pact_table_read(path, &t, &err);
        pact_table_clear(&t);
    } else {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--format %s: expected ompi, mpich or pact", f);
        ok = FALSE;
    }
    if (!ok) {
        rc = pact_cli_fail(err);
        goto out;
    }
    printf("%s: valid %s file\n", path, !strcmp(f, "ompi") ? "Open MPI coll_tuned rules" : !strcmp(f, "mpich") ? "MPICH CSEL" : "pact table");
    rc = 0;
out:
    g_free(format);
    g_option_context_free(ctx);
    return rc;
}

/* pact tune emit TABLE.csv --target ompi|mpich [--ppn K] -o FILE: a table (tuned, or written by hand) as the
 * library's file, checked like the files pact tune writes. */
static int tune_emit(int argc, char **argv)
{
    char *target = NULL, *output = NULL;
    int ppn = 0;
    GOptionEntry entries[] = {
        {"target", 0, 0, G_OPTION_ARG_STRING, &target, "ompi (coll_tuned rules) or mpich (CSEL JSON)", "T"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &ppn, "processes per node the file serves (default: the table's, when it "
                                              "has one)", "K"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "the file to write", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("TABLE.csv");
    g_option_context_set_summary(ctx, "Writes a selection table (pact tune's table.csv, or one written by hand) as\n"
                                      "Open MPI's coll_tuned rules or MPICH's CSEL JSON, checked as pact tune\n"
                                      "checks its own.\n\nexample:\n"
                                      "  pact tune emit results/tune/table.csv --target mpich -o csel.json");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    pact_table t;
    pact_table_init(&t);
    GString *out = g_string_new(NULL);
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 2 || !target || !output) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "usage: pact tune emit TABLE.csv --target ompi|mpich [--ppn K] -o FILE");
        goto fail;
    }
    if (strcmp(target, "ompi") && strcmp(target, "mpich")) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--target %s: expected ompi or mpich", target);
        goto fail;
    }
    if (!pact_table_read(argv[1], &t, &err))
        goto fail;
    if (ppn == 0) {
        int first = g_array_index(t.rows, pact_table_row, 0).ppn;
        for (guint i = 0; i < t.rows->len; i++)
            if (g_array_index(t.rows, pact_table_row, i).ppn != first) {
                g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: rows for several ppn values: say which one the file serves (--ppn K)", argv[1]);
                goto fail;
            }
        ppn = first;
    } else if (ppn < 1) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--ppn %d: expected a positive number", ppn);
        goto fail;
    }
    if (!(strcmp(target, "ompi") ? pact_emit_mpich(&t, ppn, out, &err) : pact_emit_ompi(&t, ppn, out, &err)))
        goto fail;
    if (!g_file_set_contents(output, out->str, (gssize)out->len, &err)) {
        GError *e = err;
        err = NULL;
        g_set_error(&err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
        g_error_free(e);
        rc = pact_cli_fail(err);
        goto out;
    }
    printf("%s: %s for %d process%s per node, from %s\n", output,
           strcmp(target, "ompi") ? "MPICH CSEL JSON" : "Open MPI coll_tuned rules", ppn, ppn == 1 ? "" : "es",
           argv[1]);
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    g_string_free(out, TRUE);
    pact_table_clear(&t);
    g_free(target);
    g_free(output);
    g_option_context_free(ctx);
    return rc;
}

/* pact tune merge -o OUT DIR...: the folders of a tuning run with --shard K/N, joined. */
static int tune_merge(int argc, char **argv)
{
    char *output = NULL;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "the joined folder (new)", "DIR"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("-o OUT DIR...");
    g_option_context_set_summary(ctx, "Joins the folders of one pact tune run with --shard K/N (each shard's runs/), "
                                      "checking that every\ncell has its results; the same pact tune command on OUT "
                                      "then builds the table without\nsimulating.\n\nexample:\n"
                                      "  pact tune ... --source sim --shard 1/2 -o t1   (and 2/2 -o t2, elsewhere)\n"
                                      "  pact tune merge -o t t1 t2\n  pact tune ... --source sim -o t");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (!output || argc < 2) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "usage: pact tune merge -o OUT DIR...");
        rc = pact_cli_fail(err);
        goto out;
    }
    if (!pact_tune_merge(output, argv + 1, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    printf("pact tune merge: %d folders joined into %s; run the tuning again with -o %s for its table\n", argc - 1,
           output, output);
    rc = 0;
out:
    g_option_context_free(ctx);
    g_free(output);
    return rc;
}

int pact_cmd_tune(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check"))
        return tune_check(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "emit"))
        return tune_emit(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return tune_merge(argc - 1, argv + 1);
    char *values[G_N_ELEMENTS(flags)] = {0};
    gboolean quiet = FALSE, no_figures = FALSE, exhaustive = FALSE;
    GOptionEntry entries[G_N_ELEMENTS(flags) + 4];
    memset(entries, 0, sizeof entries);
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        entries[i] = (GOptionEntry){flags[i].name, !strcmp(flags[i].name, "output") ? 'o' : 0, 0, G_OPTION_ARG_STRING,
                                    &values[i], flags[i].help, flags[i].arg};
    entries[G_N_ELEMENTS(flags)] =
        (GOptionEntry){"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress on stderr", NULL};
    entries[G_N_ELEMENTS(flags) + 1] = (GOptionEntry){"no-figures", 0, 0, G_OPTION_ARG_NONE, &no_figures,
                                                      "summary.txt only, no gnuplot figures", NULL};
    static const char exhaustive_help[] =
        "every candidate runs under every pattern (default: the model skips what lower bounds prove cannot "
        "change the table, SimGrid runs once what two candidates build alike and, for hybrid, only the "
        "model's K best under the patterns, and each pattern's best there: the same table)";
    entries[G_N_ELEMENTS(flags) + 2] =
        (GOptionEntry){"exhaustive", 0, 0, G_OPTION_ARG_NONE, &exhaustive, exhaustive_help, NULL};
    GOptionContext *ctx = g_option_context_new("[EXPERIMENT.yaml] | check FILE | emit TABLE.csv | merge -o OUT DIR...");
    g_option_context_set_summary(
        ctx,
        "Builds algorithm-selection tables that hold up when processes do not arrive together: every\n"
        "candidate the target library can run is simulated at every process count, ppn and size under the\n"
        "arrival patterns, the objective picks one per cell (Salimi Beni et al.: robust is the least mean\n"
        "over the patterns of d^ / the best d^), adjacent sizes with the same choice merge into ranges.\n"
        "DIR gets table.csv (collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,\n"
        "runner_up,runner_up_value; a row of several sizes gives its worst size's: the choice's value\n"
        "there, that size's runner-up and its value), ompi-rules.conf or mpich-csel.json for those targets\n"
        "(one per ppn when several), summary.txt, decision-COLL and gain-COLL figures, and runs/ (the\n"
        "simulations' results.csv: run the same command again to resume).  An experiment file holds the\n"
        "same fields as the flags.\n"
        "pact tune check FILE validates a rules file, a CSEL JSON or a table; pact tune emit TABLE.csv\n"
        "--target ompi|mpich -o FILE writes a table (tuned or by hand) as the library's file; --shard K/N\n"
        "deals the SimGrid runs to N machines, pact tune merge -o DIR joins their folders.\n\n"
        "example:\n  pact tune --platform generic32x32 --nodes 1,2,4,8 --ppn 4 --coll allreduce,reduce \\\n"
        "      --sizes 8..1M --objective robust --source model --target ompi -o results/tune\n"
        "  mpirun --mca coll_tuned_use_dynamic_rules 1 \\\n"
        "      --mca coll_tuned_dynamic_rules_filename results/tune/ompi-rules.conf ./app");
    g_option_context_add_main_entries(ctx, entries, NULL);
    pact_tune t;
    pact_tune_init(&t);
    GError *err = NULL;
    int rc = 2;
    const char *v;
    g_autofree char *w = NULL;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc > 2) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "unexpected argument '%s' (one experiment file)", argv[2]);
        goto fail;
    }
    if (argc == 2 && !pact_exp_read(t.fields, argv[1], &err))
        goto fail;
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        if (values[i])
            pact_exp_set_flag(t.fields, flags[i].name, values[i]);
    /* the tuner's own fields, from the file or the flags */
    if ((v = pact_exp_get(t.fields, "objective")) &&
        !pact_tune_set_objective(&t, v, (w = pact_exp_what(t.fields, "objective")), &err))
        goto fail;
    g_clear_pointer(&w, g_free);
    if ((v = pact_exp_get(t.fields, "source")) &&
        !pact_tune_set_source(&t, v, (w = pact_exp_what(t.fields, "source")), &err))
        goto fail;
    g_clear_pointer(&w, g_free);
    if ((v = pact_exp_get(t.fields, "target")) &&
        !pact_tune_set_target(&t, v, (w = pact_exp_what(t.fields, "target")), &err))
        goto fail;
    g_clear_pointer(&w, g_free);
    if ((v = pact_exp_get(t.fields, "segsizes")) &&
        !pact_parse_size_list(v, (w = pact_exp_what(t.fields, "segsizes")), t.segsizes, &err))
        goto fail;
    if ((v = pact_exp_get(t.fields, "jobs"))) {
        char *end;
        long j = strtol(v, &end, 10);
        if (*end || j < 1 || j > 1024) {
            g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--jobs %s: expected a number from 1 to 1024", v);
            goto fail;
        }
        t.jobs = (int)j;
    }
    g_hash_table_remove(t.fields, "jobs");
    if (!(v = pact_exp_get(t.fields, "output"))) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "-o DIR is required (the folder of the table and its runs)");
        goto fail;
    }
    t.outdir = g_strdup(v);
    g_hash_table_remove(t.fields, "output");
    t.quiet = quiet;
    t.figures = !no_figures;
    t.exhaustive = exhaustive;
    char *summary = NULL;
    if (!pact_tune_run(&t, &summary, &err))
        goto fail;
    fputs(summary, stdout);
    if (pact_exp_get(t.fields, "shard")) {
        g_free(summary);
        rc = 0;
        goto out;
    }
    printf("\ntable: %s/table.csv%s, summary: %s/summary.txt\n", t.outdir,
           t.target == PACT_TUNE_OMPI    ? " and ompi-rules.conf"
           : t.target == PACT_TUNE_MPICH ? " and mpich-csel.json"
                                         : "",
           t.outdir);
    g_free(summary);
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    pact_tune_clear(&t);
    g_option_context_free(ctx);
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        g_free(values[i]);
    return rc;
}
