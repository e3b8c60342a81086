/* pact.c - the `pact` command line: dispatches to one file per command. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_models.h"
#include "pact_run.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} commands[] = {
    {"list", pact_cmd_list, "list algorithms, platforms or patterns"},
    {"platform", pact_cmd_platform, "show or export a built-in machine"},
    {"pattern", pact_cmd_pattern, "generate arrival patterns"},
    {"model", pact_cmd_model, "predict with cost models; fit their parameters to measurements"},
    {"sim", pact_cmd_sim, "simulate collective algorithms under arrival patterns (SimGrid/SMPI)"},
    {"replay", pact_cmd_replay, "one collective call as SMPI time-independent traces, replayed"},
    {"report", pact_cmd_report, "summary and figures from a results.csv (best algorithm, robustness)"},
    {"tune", pact_cmd_tune, "selection tables for Open MPI, MPICH or libpact, robust to arrival patterns"},
    {"timeline", pact_cmd_timeline, "one call rank by rank: arrivals, operations, waits, messages (csv, txt, svg)"},
    {"explain", pact_cmd_explain, "an algorithm's steps for P ranks in words, with the buffers after each step"},
    {"merge", pact_cmd_merge, "join the output folders of a sharded pact sim experiment"},
};

static void usage(FILE *f)
{
    fputs("usage: pact <command> [options]     (pact <command> --help for details)\n\ncommands:\n", f);
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].what);
    fputs(
        "\nexample: pact sim --platform generic32x32 --nodes 2 --ppn 32 --coll allreduce --algs all \\\n"
        "             --sizes 8,64K,1M --patterns no_delay,last_delayed --skew-factor 1.5 -o results/demo\n",
        f);
}

int pact_cli_fail(GError *err)
{
    int st = pact_exit_status(err);
    fprintf(stderr, "pact: %s\n", err->message);
    g_error_free(err);
    return st;
}

gboolean pact_cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
    GError *err = NULL;
    if (g_option_context_parse(ctx, argc, argv, &err))
        return TRUE;
    fprintf(stderr, "pact: %s\n", err->message);
    g_error_free(err);
    return FALSE;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "C");
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    GError *err = NULL;
    if (!pact_model_env_check(&err) || !pact_sw_env_check(&err)) { /* before any command writes anything */
        fprintf(stderr, "pact: %s\n", err->message);
        g_error_free(err);
        return 2;
    }
    /* read by the SMPI bench driver (sim/rank/bench.c), whose refusal only the smpirun log would show */
    static const char *const bench_flags[] = {"PACT_BENCH_DETACHED", "PACT_BENCH_ANY_ORDER"};
    for (size_t i = 0; i < G_N_ELEMENTS(bench_flags); i++) {
        const char *v = g_getenv(bench_flags[i]);
        if (v && strcmp(v, "0") && strcmp(v, "1")) {
            fprintf(stderr, "pact: %s=%s: expected 0 or 1\n", bench_flags[i], v);
            return 2;
        }
    }
    for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "pact: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
