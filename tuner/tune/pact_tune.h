/*
 * pact_tune.h - pact tune: algorithm-selection tables that hold up when processes do not arrive together
 * (Salimi Beni, Cosenza and Hunold, seeds/002 sections IV-V).  For every collective, process count,
 * processes per node and size of a grid, the candidates a target library can run are simulated under a set
 * of arrival patterns (the model engine, SimGrid, or both: the model ranks and SimGrid decides among the K
 * best), an objective picks one, adjacent sizes with the same choice merge into ranges, and the table is
 * written as table.csv (libpact), Open MPI's coll_tuned rules and MPICH's CSEL JSON, with a summary and
 * figures.  Host side (GLib); runs its simulations through pact sim's experiments (sim/study), which makes
 * them parallel, resumable and shardable.
 */
#ifndef PACT_TUNE_H
#define PACT_TUNE_H

#include <glib.h>

#include "pact_coll.h"
#include "pact_table.h"

typedef enum {
    PACT_TUNE_NO_DELAY, /* least d^ without delay: what libraries tuned on synchronized benchmarks pick */
    PACT_TUNE_ROBUST,   /* least mean over the patterns of d^ / the best d^ under that pattern (Fig. 8) */
    PACT_TUNE_REGRET,   /* least worst-case d^ / best d^ over the patterns (minimax regret) */
    PACT_TUNE_EXPECTED, /* least mean d^ under pattern weights (or under one recorded pattern) */
} pact_tune_objective;

typedef enum { PACT_TUNE_MODEL, PACT_TUNE_SIM, PACT_TUNE_HYBRID } pact_tune_source;
typedef enum { PACT_TUNE_PACT, PACT_TUNE_OMPI, PACT_TUNE_MPICH } pact_tune_target;

typedef struct {
    GHashTable *fields; /* pact sim's experiment fields (platform, nodes, ppn, coll, sizes, patterns, skew ...);
                         * algs restricts the candidates; engine, reps, output and shard are the tuner's */
    pact_tune_objective objective;
    char *objective_text; /* as given ("expected:random=2,no_delay=1") */
    GHashTable *weights;  /* expected: pattern -> gdouble* weight; NULL: uniform */
    char *expected_file;  /* expected:file:PATH: the recorded pattern (absolute path), NULL: none */
    pact_tune_source source;
    int hybrid_k;
    pact_tune_target target;
    GArray *segsizes; /* guint64: segment sizes tried besides the default, for algorithms with a segsize */
    char *outdir;
    int jobs;
    gboolean quiet, figures;
    gboolean exhaustive;     /* every cell runs; else the model skips those its bounds prove useless, SimGrid
                              * copies twins (pact_experiment.twins) and hybrid's cells outside the K best */
    const double *pattern_w; /* set by pact_tune_run: the expected objective's weights (NULL: uniform) */
} pact_tune;

void pact_tune_init(pact_tune *t);
void pact_tune_clear(pact_tune *t);

/* "no_delay", "robust", "regret", "expected[:NAME=W,...]" or "expected:file:PATH"; errors name `what`. */
gboolean pact_tune_set_objective(pact_tune *t, const char *text, const char *what, GError **err);
/* "model", "sim", "hybrid" (K = 3) or "hybrid:K". */
gboolean pact_tune_set_source(pact_tune *t, const char *text, const char *what, GError **err);
/* "ompi", "mpich" or "pact". */
gboolean pact_tune_set_target(pact_tune *t, const char *text, const char *what, GError **err);
const char *pact_tune_target_name(pact_tune_target t);
const char *pact_tune_source_name(pact_tune_source s);

/* Whether the target library can run algorithm a (Open MPI: a coll_tuned id; MPICH: an MPICH name; pact:
 * any). */
gboolean pact_tune_target_runs(pact_tune_target t, const pact_alg *a);

/* Runs the whole tuning into t->outdir: simulations (resumed when the folder holds the same tuning), then
 * table.csv, the target's rules file, summary.txt and figures.  *summary gets summary.txt's text. */
gboolean pact_tune_run(pact_tune *t, char **summary, GError **err);
/* pact tune merge: joins the folders of one tuning run with --shard K/N (the same tune.yaml) into the new folder
 * outdir, each runs/ folder as pact merge joins pact sim's; the tuning run again on outdir then builds the
 * table without simulating. */
gboolean pact_tune_merge(const char *outdir, char **dirs, GError **err);

/* ---- the selection, on d^ tables (select.c) ---------------------------------------------------------- */

/* One cell of the grid: d^ (mean over repetitions; NAN: did not run) of na candidates under np patterns. */
typedef struct {
    pact_coll coll;
    int procs, ppn;
    guint64 bytes;
    double *d; /* na x np, d[a * np + p] */
} pact_tune_cell;

/* The objective's value of candidate a in a cell (lower is better), NAN where it cannot be computed (a
 * pattern without a run).  `w` holds the expected objective's weights per pattern (NULL: uniform). */
double pact_tune_value(pact_tune_objective o, const double *d, unsigned na, unsigned np, int nd, const double *w,
                       unsigned a);
/* The best candidate by value (first listed wins within a relative 1e-9), PACT_OBJ_NONE if none ran;
 * `allowed` (NULL: all) masks candidates; `except` (PACT_OBJ_NONE: none) is left out (runner-up). */
unsigned pact_tune_pick(pact_tune_objective o, const double *d, unsigned na, unsigned np, int nd, const double *w,
                        const gboolean *allowed, unsigned except, double *value);

/* Pruning (pact_prune_fn): which unknown cells of one (procs, ppn, size) to evaluate, given the known d^ and
 * lower bounds of the others (known, d, lb, need: na x np).  A candidate whose objective, bounded from below
 * by its bounds, may reach the `keep`-th best value of the candidates known everywhere (the choice,
 * runner-up and hybrid's K best are exact), or that is the no-delay choice (the summary's gains), is asked
 * for everywhere; any other only under the patterns where its bound does not exceed the best known d^ (so
 * the best d^ of every pattern, which normalizes robust and regret, is exact).  Margins of 1e-6 relative
 * keep pact_tune_pick's ties unchanged.  A call before the bounds (some unknown cell's lb is NAN) asks only
 * for the no-delay choice and the next candidates by no-delay d^, until keep are known everywhere: values to
 * prune against; the others are bounded first. */
void pact_tune_prune(pact_tune_objective o, const double *w, unsigned keep, unsigned na, unsigned np, int nd,
                     const double *d, const double *lb, const guint8 *known, guint8 *need);

#endif
