/*
 * pact_report.h - the report of a sweep from its results.csv alone: summary.txt (best algorithm per size and
 * pattern, robustness table, robustness score) and gnuplot figures, after Salimi Beni, Cosenza and Hunold,
 * "MPI Collective Algorithm Selection in the Presence of Process Arrival Patterns" (Figs. 4, 5, 6 and 8).
 * Working from the CSV only, a resumed, sharded or merged sweep reports exactly what one run would.
 * Layer 4, beside the sweep runner; uses GLib only.
 *
 * A results.csv may hold several studies: one per distinct (platform, nodes, ppn, procs, collective,
 * engine), reported in the order they first appear.  Rows that repeat the header (files joined with cat) are
 * skipped.
 */
#ifndef PACT_REPORT_H
#define PACT_REPORT_H

#include <glib.h>

typedef struct pact_report pact_report;

/* Parses a results.csv held in memory; `name` (the file name) starts every message, as NAME:LINE: column
 * COLUMN: ...  Errors are PACT_ERROR_INPUT. */
pact_report *pact_report_parse(const char *text, gsize len, const char *name, GError **err);

/* Reads and parses a results.csv. */
pact_report *pact_report_load(const char *csv_path, GError **err);

void pact_report_free(pact_report *r);

/* summary.txt: per study the best algorithm per (size, pattern), the robustness table and the robustness
 * score.  The same CSV gives byte-identical text. */
char *pact_report_summary(const pact_report *r);

/* Figures, per study, into DIR: heatmap-STEM, robustness-STEM and score-STEM, each .png and .svg, where STEM
 * is COLL-PLATFORM-PROCS (then -NODESxPPN and -ENGINE when needed to tell studies apart).  Their gnuplot
 * data and scripts go to DIR/plots/ first (cd there and run gnuplot on a script to redraw it); every file
 * appears under its final name only when complete.  Without gnuplot the scripts are still written and the
 * error (PACT_ERROR_RUN) says so.  `written`, when not NULL, receives the figures' paths (g_free). */
gboolean pact_report_figures(const pact_report *r, const char *dir, GPtrArray *written, GError **err);

/* Reads DIR/results.csv, writes DIR/summary.txt and, with `figures`, the figures.  *summary_text (when not
 * NULL) receives summary.txt's text as soon as it is written, even when the figures then fail. */
gboolean pact_report_dir(const char *dir, gboolean figures, char **summary_text, GError **err);

#endif
