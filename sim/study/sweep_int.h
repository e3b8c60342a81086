/*
 * sweep_int.h - what the files of pact sim's runner share: a study's context, its cells and their batches
 * (sweep.c runs an experiment, setup.c makes its studies, cells and batches, validate.c checks a study,
 * engines.c runs a batch of cells under the smpi, model or replay engine, cells.c writes and reads their
 * results.csv rows).
 */
#ifndef PACT_SWEEP_INT_H
#define PACT_SWEEP_INT_H

#include "pact_models.h"
#include "pact_run.h"

typedef struct cell_s cell_t;
/* cell_t.lbk and batch_t.bound: a bound wave gives the held cells pact_model_bounds_quick's bound (LB_QUICK),
 * or pact_model_bounds's to those marked LB_WANT (LB_FULL; the larger of the two is kept); a d^ already known
 * under the cell's arrivals (another algorithm's, built alike) is its exact bound (LB_FULL) */
enum { LB_NONE, LB_QUICK, LB_FULL, LB_WANT };
struct cell_s {
    guint alg, size, pat; /* indices into the sweep's lists */
    double skew_s;
    char *pattern_file;
    int phase;
    guint batch;          /* index into the experiment's batches */
    GArray *last, *total; /* double per rep */
    GPtrArray *status;    /* char * per rep */
    char *rows;           /* its results.csv rows, once it has all its repetitions */
    gboolean held;        /* pruning (pact_prune_fn): not to run until asked for */
    double lb;            /* pruning: a lower bound of its d^ (NAN: restricted) */
    guint8 lbk; /* pruning: what lb is: LB_NONE, LB_QUICK, LB_FULL, or LB_QUICK that wants LB_FULL */
    cell_t *twin;         /* pact_experiment.twins: the cell of an earlier algorithm that simulates the same
                           * schedule set under the same arrivals, whose rows it copies (NULL: none) */
};

/* engines.c: a schedule set kept between waves of the model engine, its digest and its bytes */
typedef struct {
    pact_model_sched *ms;
    char *digest;
    gsize bytes;
} kept_set;

typedef struct {
    pact_sweep *s;
    guint index;      /* of the study in the experiment */
    GPtrArray *cells; /* cell_t *, in report order: algorithm by size by pattern */
    char *run;        /* OUT/run/sK: platform, plans, patterns, logs */
    char *bench;      /* absolute path of pact-bench-smpi (smpi engine) */
    double gamma;
    pact_place place; /* the ranks' nodes, for the builders of the model and replay engines */
    /* the model engine: "DIGEST PATTERN-FILE" ("quick ..." and "bound ..." for bounds) -> double[2]: what
     * evaluating a schedule set under those arrivals gave (d^, d*), so that what two algorithms build alike
     * runs once */
    GMutex memo_lock;
    GHashTable *memo;
    GHashTable *arrivals; /* the model engine: pattern file -> GArray of its delays, read once (memo_lock) */
    gsize arrivals_bytes; /* what they hold, up to ARRIVALS_CACHE_BYTES (engines.c) */
    kept_set *kept;       /* the model engine: per (algorithm, size), a set kept between waves (engines.c) */
} ctx_t;

/* The cells that share one simulation. */
typedef struct {
    ctx_t *x;
    guint id;
    int phase;
    GArray *cells; /* guint: indices into x->cells */
    gboolean mine; /* run by this shard */
    GError *error;
    gint *cancel;
    GAsyncQueue *done;
    double seconds; /* wall time it took */
    int bound; /* the model engine: LB_QUICK or LB_FULL: lower bounds of its held cells' d^ (cell_t.lb), no
                * runs; LB_NONE: runs */
    guint prepared, reused; /* the model engine: schedule sets it prepared, and took kept (engines.c) */
    guint resized;          /* the model engine: schedule sets it made from another size's (engines.c) */
    guint bounded;          /* the model engine: cells it gave a bound (a bound wave) */
} batch_t;

typedef struct {
    ctx_t *x;
    cell_t *c;
} cell_ref;

/* validate.c */
gboolean pact_sw_skew_from_nodelay(pact_skew_mode m); /* the skew needs the no-delay cells first */
const char *pact_sw_smpi_name(const char *alg);          /* SPEC of "smpi:SPEC", else NULL */
gboolean pact_sw_alg_spec_params(pact_coll coll, const char *spec, GString *params, GError **err);
const char *pact_sw_platform_name(const pact_sweep *s);  /* the platform column */
pact_export_opts pact_sw_export_opts(const pact_sweep *s);
/* engines.c: run the cells of a batch, filling their values */
void pact_sw_cell_reset(cell_t *c);
gboolean pact_sw_launch(batch_t *b, GError **err);       /* smpi: one smpirun of the bench driver */
gboolean pact_sw_model_batch(batch_t *b, GError **err);  /* model: the schedule evaluator, in process */
void pact_sw_kept_drop(ctx_t *x); /* model: frees the schedule sets study x keeps between waves */
enum { PACT_SW_BOUNDS_BOTH, PACT_SW_BOUNDS_FULL, PACT_SW_BOUNDS_QUICK };
gboolean pact_sw_bounds_env(int *mode, GError **err); /* PACT_MODEL_BOUNDS (checked at start) */
void pact_sw_workspaces_drop(void); /* model: frees the workspaces kept between batches */
gboolean pact_sw_replay_batch(batch_t *b, GError **err); /* replay: SMPI time-independent traces */
/* smpi: sets cell_t.twin where an earlier algorithm builds the same schedule set (pact_experiment.twins) */
gboolean pact_sw_find_twins(GPtrArray *studies, GPtrArray *batches, GError **err);
/* cells.c: results.csv rows */
char *pact_sw_cell_rows(const ctx_t *x, const cell_t *c);
GHashTable *pact_sw_cell_index(GPtrArray *studies);
gboolean pact_sw_load_rows(GHashTable *index, const char *path, GError **err);
char *pact_sw_all_rows(GPtrArray *studies, guint *missing);

/* setup.c: studies, cells, batches */
GPtrArray *pact_sw_make_studies(pact_experiment *e, const char *out, GError **err);
GPtrArray *pact_sw_make_batches(pact_experiment *e, GPtrArray *studies);
cell_t *pact_sw_find_cell(ctx_t *x, guint alg, guint size, guint pat);
char *pact_sw_pattern_name(const ctx_t *x, const cell_t *c);
gboolean pact_sw_write_pattern(ctx_t *x, cell_t *c, GError **err);
double pact_sw_mean_of(const cell_t *c, gboolean last); /* mean of the reps that ran, NAN when none did */

#endif
