/*
 * pact_patterns.h - process arrival patterns: rank i arrives d_i in [0, s] after the earliest, s the
 * maximum skew (DESIGN.md "Arrival patterns").  Host side; the bench driver reads the files these write.
 *
 * Generators (shapes.c), pattern files and arrival traces (file.c), imbalance metrics (metrics.c) and a
 * gnuplot figure of a pattern (plot.c).
 */
#ifndef PACT_PATTERNS_H
#define PACT_PATTERNS_H

#include <glib.h>

/* ---- generators ------------------------------------------------------------------------------------ */

/* Names of the generated shapes, NULL-terminated, in DESIGN.md's order ("file" is not one: it is read). */
const char *const *pact_pattern_shapes(void);
/* One line describing a shape (or "file"), or NULL for an unknown name. */
const char *pact_pattern_describe(const char *shape);
/* TRUE for the shapes that place ranks on nodes (node_delayed, two_level). */
gboolean pact_pattern_uses_nodes(const char *shape);

/* Node-wide imbalance of two_level as a fraction of the cluster-wide one when none is given: Alizadeh et
 * al. (seed 000, Tables 1 and 2) measure node-wide worst-case factors of 0.23 (all sizes) to 0.31 (large
 * messages) of the cluster-wide ones. */
#define PACT_TWO_LEVEL_INTRA 0.25

typedef struct {
    double skew;        /* s: seconds >= 0 */
    guint64 seed;       /* drives random, node_delayed (which node) and two_level */
    const int *node_of; /* node of each rank, 0-based; NULL: every rank on a node of its own */
    double intra;       /* two_level: node-wide spread / cluster-wide spread in [0, 1]; < 0: the default */
} pact_pattern_opts;

/* Fills d[0..p-1] for `shape`.  Every shape but no_delay spans exactly [0, s] when it can (p >= 2, and for
 * the node shapes at least two nodes). */
gboolean pact_pattern_gen(const char *shape, int p, const pact_pattern_opts *o, double *d, GError **err);

/* ---- files ----------------------------------------------------------------------------------------- */

/* Writes one delay per line (full precision) to `path`, atomically. */
gboolean pact_pattern_write(const char *path, const double *d, int p, const char *comment, GError **err);

/* Reads a pattern file: one delay >= 0 in seconds per line, '#' starts a comment.  `p` > 0 demands exactly
 * that many delays.  Errors name the file and line.  Returns a GArray of double. */
GArray *pact_pattern_read(const char *path, int p, GError **err);

/* An arrival trace: CSV with the header rank,call,arrival_s and one row per rank per call (what a PMPI
 * tracer writes).  Calls are numbered by the tracer (any non-negative integers, sampled calls may skip
 * numbers); every call must have every rank 0..ranks-1 exactly once. */
typedef struct {
    int ranks, calls;
    gint64 *call_id; /* calls, ascending */
    double *a;       /* a[call * ranks + rank] */
} pact_trace;

gboolean pact_trace_read(const char *path, pact_trace *t, GError **err);
void pact_trace_free(pact_trace *t);
/* The seeds' FT-scenario (Salimi Beni et al. V-A): per call, each rank's delay after the first arrival;
 * d[rank] = the mean of those over the calls. */
void pact_trace_to_pattern(const pact_trace *t, double *d);

/* A pattern file, or an arrival trace turned into its pattern (pact_trace_to_pattern); `p` > 0 demands that
 * many ranks.  The file is read once (a pipe will do).  Returns a GArray of double; `trace`, if not NULL,
 * receives the trace (calls = 0 for a pattern file; pact_trace_free it). */
GArray *pact_pattern_load(const char *path, int p, pact_trace *trace, GError **err);

/* ---- limits ---------------------------------------------------------------------------------------- */

/* d^ is the difference of two clock readings taken after the last arrival, when the simulated clock (a
 * double, in seconds) stands at about the skew s: each reading is rounded to s x DBL_EPSILON (2.2e-16 s per
 * second of skew), so d^ needs s x DBL_EPSILON << d^.  A skew of 1e30 s makes every d^ exactly 0.
 * PACT_SKEW_MAX_S caps a delay in seconds (a skew, a pattern file's line): at 1000 s a reading is exact to
 * 2.2e-13 s, 1e-6 of a 0.22 us d^, below any link's latency.  PACT_SKEW_FACTOR_MAX caps a skew given as a
 * factor of a time T (no-delay d^ or one message): d^ ~ T keeps 1e6 x DBL_EPSILON = 2.2e-10 relative. */
#define PACT_SKEW_MAX_S 1e3
#define PACT_SKEW_FACTOR_MAX 1e6

/* FALSE with "WHAT VALUE: ..." when a delay in seconds (factor: a skew factor) exceeds its cap above. */
gboolean pact_skew_check(double v, gboolean factor, const char *what, GError **err);

/* ---- metrics --------------------------------------------------------------------------------------- */

/* Alizadeh et al. (seed 000) 2.2: worst-case imbalance time max(a) - min(a) and average-case imbalance time
 * mean |a_i - mean(a)|; divided by the time of one message of the collective's size they are the
 * worst-case and average-case imbalance factors. */
typedef struct {
    double worst, avg;
} pact_imbalance;

pact_imbalance pact_imbalance_of(const double *a, int p);
/* Node-wide metrics: the metrics of each node's ranks, averaged over the nodes (seed 000, Table 2). */
pact_imbalance pact_imbalance_nodes(const double *a, int p, const int *node_of);

/* ---- figures --------------------------------------------------------------------------------------- */

/* Draws delay per rank as a PNG with gnuplot (written to a temporary name, then renamed). */
gboolean pact_pattern_plot(const double *d, int p, const char *title, const char *png, GError **err);

#endif
