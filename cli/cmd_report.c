/* cmd_report.c - pact report DIR: summary.txt and figures from DIR/results.csv alone. */
#include <stdio.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_report.h"

int pact_cmd_report(int argc, char **argv)
{
    gboolean no_figures = FALSE;
    GOptionEntry entries[] = {
        {"no-figures", 0, 0, G_OPTION_ARG_NONE, &no_figures, "write summary.txt only (no gnuplot needed)",
         NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("DIR");
    g_option_context_set_summary(
        ctx,
        "Reads DIR/results.csv (one or several studies, as pact sim writes it, or several joined) and "
        "writes\n"
        "DIR/summary.txt (printed too) and, per study, the figures of Salimi Beni et al. as PNG and SVG:\n"
        "  heatmap-STEM     best algorithm per pattern and size, d^ relative to the no-delay choice (Fig. "
        "4)\n"
        "  robustness-STEM  d^_pattern / d^_no_delay - 1 per algorithm, sizes stacked (Fig. 6)\n"
        "  score-STEM       robustness score: average normalized d^ per algorithm and size (Fig. 8)\n"
        "with STEM = COLL-PLATFORM-PROCS.  Their gnuplot data and scripts stay in DIR/plots/ to edit and "
        "redraw.\n\n"
        "example:\n"
        "  pact sim --engine model --nodes 32 --ppn 32 --coll reduce --sizes 8..2K \\\n"
        "      --patterns no_delay,last_delayed,random --skew-factor 1.5 -o results/reduce\n"
        "  pact report results/reduce");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 2) {
        fprintf(stderr, "pact report: expected one folder holding results.csv\n");
        goto out;
    }
    GError *err = NULL;
    char *summary = NULL;
    gboolean ok = pact_report_dir(argv[1], !no_figures, &summary, &err);
    if (summary) {
        fputs(summary, stdout);
        g_free(summary);
    }
    if (!ok) {
        rc = pact_cli_fail(err);
        goto out;
    }
    fprintf(stderr, "report: %s/summary.txt%s\n", argv[1],
            no_figures ? "" : ", figures (PNG, SVG) beside it, their gnuplot scripts in plots/");
    rc = 0;
out:
    g_option_context_free(ctx);
    return rc;
}
