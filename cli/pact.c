/* pact.c - the `pact` command line: dispatches to one file per command. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* glibc's malloc on transparent huge pages (hugetlb=1: it advises its heap and its large blocks with
 * MADV_HUGEPAGE), blocks up to 32 MiB from the heap (mmap_threshold, the most glibc takes), and the heap kept
 * whole once grown (trim_threshold, top_pad).  A model cell at 1024 ranks reaches its schedule, its workspace
 * and its message records a thousand ranks apart: on 4 KiB pages nearly every visit missed the TLB, and on
 * this project's virtual machine each page fault (one per 4 KiB page first touched, and again after each
 * block was given back) costs microseconds of nested paging.  Linear alltoall at 1024 ranks, 1 KiB, random
 * arrivals, 0.79 -> 0.29 s a cell; ring allreduce at 1 MiB 0.24 -> 0.13 s; pact tune's model table 0.76 of
 * its time; the same answers (results/reference/model-speed.md, session 41).  glibc reads its tunables once,
 * as the process starts, so pact starts again (/proc/self/exe: the same pid and arguments) with them in
 * GLIBC_TUNABLES, then gives the user's GLIBC_TUNABLES back for its children.  Where the user's
 * GLIBC_TUNABLES sets a glibc.malloc tunable, with PACT_HUGE_PAGES=0, or where the new start fails, pact runs
 * as started. */
#define HUGE_TUNABLES                                                                                        \
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967295:"    \
    "glibc.malloc.top_pad=67108864"
#define TUNABLES_BEFORE "PACT_GLIBC_TUNABLES_BEFORE" /* the user's: "=VALUE", or "-" where it was unset */

static void tunables_restore(const char *before)
{
    if (before[0] == '=')
        setenv("GLIBC_TUNABLES", before + 1, 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(TUNABLES_BEFORE);
}

/* 2: PACT_HUGE_PAGES is neither 0 nor 1 (said on stderr); else 0, after starting again where it does (the
 * commands that run the model engine: a start again costs a few milliseconds). */
static int huge_pages(int argc, char **argv)
{
    static const char *const heavy[] = {"model", "sim", "tune", "timeline"};
    const char *before = getenv(TUNABLES_BEFORE);
    if (before) { /* started again: the children get the user's tunables */
        char *b = g_strdup(before);
        tunables_restore(b);
        g_free(b);
        return 0;
    }
    const char *k = getenv("PACT_HUGE_PAGES");
    if (k && strcmp(k, "0") && strcmp(k, "1")) {
        fprintf(stderr, "pact: PACT_HUGE_PAGES=%s: expected 0 or 1\n", k);
        return 2;
    }
    const char *t = getenv("GLIBC_TUNABLES");
    gboolean runs_model = FALSE;
    for (size_t i = 0; i < G_N_ELEMENTS(heavy) && argc > 1; i++)
        runs_model |= !strcmp(argv[1], heavy[i]);
    if (!runs_model || (k && !strcmp(k, "0")) || (t && strstr(t, "glibc.malloc.")))
        return 0;
    /* the user's other tunables (none of them malloc's) after pact's */
    char *mine = t && *t ? g_strconcat(HUGE_TUNABLES ":", t, NULL) : g_strdup(HUGE_TUNABLES);
    char *keep = t ? g_strconcat("=", t, NULL) : g_strdup("-");
    setenv(TUNABLES_BEFORE, keep, 1);
    setenv("GLIBC_TUNABLES", mine, 1);
    execv("/proc/self/exe", argv);
    tunables_restore(keep); /* not started again (no /proc): as started */
    g_free(mine);
    g_free(keep);
    return 0;
}

int main(int argc, char **argv)
{
    if (huge_pages(argc, argv))
        return 2;
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
