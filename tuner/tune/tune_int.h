/* tune_int.h - what the files of tuner/tune share: the grid of one collective's cells and its choices. */
#ifndef PACT_TUNE_INT_H
#define PACT_TUNE_INT_H

#include "pact_tune.h"

#define PACT_TUNE_NSHAPES 11
extern const char *const pact_tune_shapes[PACT_TUNE_NSHAPES];

/* One collective's cells: d^ of every candidate under every pattern, and what the objective chose. */
typedef struct {
    pact_coll coll;
    GPtrArray *algs;     /* candidate specs, owned */
    GPtrArray *patterns; /* pattern names, borrowed (the run's) */
    unsigned na, np;
    int nd;             /* the no_delay pattern's index */
    const double *w;    /* expected: weight per pattern; NULL: uniform */
    GArray *cells;      /* pact_tune_cell, by procs, ppn, bytes */
    unsigned *choice, *runner, *nodelay; /* per cell: the objective's choice, its runner-up, the no-delay choice */
    double *value, *runner_value;        /* per cell: their objective values */
    unsigned unreliable;                 /* rows read with status late or wrong (left out) */
    unsigned *model_choice;              /* hybrid: per cell the model's own choice (PACT_OBJ_NONE: none), else NULL */
} pact_tune_grid;

GPtrArray *pact_tune_candidates(pact_tune *t, pact_coll c, GError **err);
/* Runs candidates `algs` of collective c on `engine` ("model" or "smpi") into `dir` (resumed when it holds
 * the same experiment); nodes and ppn (NULL: the fields') narrow the grid; `keep` (NULL: all), a set of
 * "ALG BYTES" or "ALG BYTES PATTERN", says which (algorithm, size) run under every pattern or under that one,
 * the others' rows being "pruned". */
gboolean pact_tune_simulate(pact_tune *t, pact_coll c, GPtrArray *algs, const char *engine, const char *nodes,
                            const char *ppn, const char *dir, GHashTable *keep, GError **err);
/* A key of that set: algorithm spec `alg` at `bytes` under every pattern (pattern NULL) or under the pattern
 * of that name alone (g_free it). */
char *pact_tune_keep_key(const char *alg, guint64 bytes, const char *pattern);
char *pact_tune_canonical(pact_coll c, const char *spec);
/* Reads d^ of g's candidates and patterns from a results.csv into g->cells (appending cells not yet seen). */
gboolean pact_tune_load(pact_tune_grid *g, const char *csv, GError **err);
void pact_tune_grid_free(pact_tune_grid *g);

/* output.c: summary.txt's text for the grids, and the figures into dir. */
char *pact_tune_summary(const pact_tune *t, GPtrArray *grids, const pact_table *table);
gboolean pact_tune_figures(const pact_tune *t, GPtrArray *grids, const char *dir, GError **err);

#endif
