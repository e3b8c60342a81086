/* cmd_pattern.c - pact pattern gen: one delay in seconds per rank. */
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_patterns.h"

int pact_cmd_pattern(int argc, char **argv)
{
    char *shape = NULL, *skew = NULL, *out = NULL;
    int p = 0;
    gint64 seed = 1;
    GOptionEntry entries[] = {
        {"shape", 0, 0, G_OPTION_ARG_STRING, &shape, "pattern shape (pact list patterns)", "S"},
        {"procs", 'p', 0, G_OPTION_ARG_INT, &p, "number of processes", "P"},
        {"skew", 0, 0, G_OPTION_ARG_STRING, &skew, "maximum skew in seconds", "SECONDS"},
        {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "seed of the random shapes (default 1)", "N"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write to FILE instead of stdout", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("gen");
    g_option_context_set_summary(ctx, "Generates an arrival pattern: one delay in seconds per line.\n\n"
                                      "example: pact pattern gen --shape last_delayed -p 8 --skew 1");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    double s = 0;
    char *end = NULL;
    g_autofree double *d = NULL;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 2 || strcmp(argv[1], "gen")) {
        fprintf(stderr, "pact pattern: expected 'gen' (stats and plot come with the patterns issue)\n");
        goto out;
    }
    if (!shape || p < 1 || !skew) {
        fprintf(stderr, "pact pattern gen: --shape, -p (>= 1) and --skew are required\n");
        goto out;
    }
    s = g_ascii_strtod(skew, &end);
    if (end == skew || *end || !(s >= 0)) {
        fprintf(stderr, "pact pattern gen: --skew %s: expected seconds >= 0\n", skew);
        goto out;
    }
    d = g_new0(double, (gsize)p);
    if (!pact_pattern_gen(shape, p, s, (guint64)seed, d, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    if (out) {
        if (!pact_pattern_write(out, d, p, NULL, &err)) {
            g_prefix_error(&err, "%s: ", out);
            rc = 1;
            fprintf(stderr, "pact: %s\n", err->message);
            g_error_free(err);
            goto out;
        }
    } else {
        for (int i = 0; i < p; i++)
            printf("%.17g\n", d[i]);
    }
    rc = 0;
out:
    g_option_context_free(ctx);
    g_free(shape);
    g_free(skew);
    g_free(out);
    return rc;
}
