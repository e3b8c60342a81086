/*
 * pact_run.h - the sweep runner behind `pact sim`: expands a study into cells, writes the plans,
 * patterns and platform files, launches smpirun with the bench driver, and collects results.csv and
 * summary.txt.  Layer 4: uses the registry (1), patterns and platforms (2).
 */
#ifndef PACT_RUN_H
#define PACT_RUN_H

#include <glib.h>

#include "pact_patterns.h"
#include "pact_platforms.h"
#include "pact_coll.h"

typedef enum {
    PACT_SKEW_ABSOLUTE,     /* skew in seconds */
    PACT_SKEW_MEAN_NODELAY, /* factor x mean no-delay d^ of all algorithms of the cell (Salimi Beni) */
    PACT_SKEW_OWN_NODELAY,  /* factor x the algorithm's own no-delay d^ (Salimi Beni's robustness study) */
    PACT_SKEW_MIF,          /* factor x one message of the cell's size, alpha + beta x m (Alizadeh's MIF) */
} pact_skew_mode;

/* "absolute", "mean_nodelay", "own_nodelay", "mif"; pact_skew_mode_parse returns -1 for an unknown name. */
const char *pact_skew_mode_name(pact_skew_mode m);
int pact_skew_mode_parse(const char *name);

typedef enum {
    PACT_ENGINE_SMPI,  /* smpirun with the bench driver: SimGrid's flow model, contention included */
    PACT_ENGINE_MODEL, /* the schedule evaluator of models/ (shared node links): no SimGrid, milliseconds */
    PACT_ENGINE_REPLAY, /* the schedule as SMPI time-independent traces under smpirun -replay: no payload */
} pact_engine;

/* Which cells share one simulation (one smpirun): those of an algorithm (all sizes and patterns of a phase),
 * of an (algorithm, size), or each cell alone; auto (the default) is size, except that under the smpi engine
 * an algorithm's consecutive sizes of a phase share one while their cells x ranks stay within
 * PACT_BATCH_AUTO_RANK_CELLS (setup.c).  Part of the experiment, since it decides the last bits of SimGrid's
 * clock arithmetic: resumed and sharded runs keep it to stay byte-identical. */
typedef enum { PACT_BATCH_ALG, PACT_BATCH_SIZE, PACT_BATCH_CELL, PACT_BATCH_AUTO } pact_batch;
#define PACT_BATCH_AUTO_RANK_CELLS 4096

typedef struct {
    const pact_platform *platform;  /* NULL with user_xml */
    char *user_xml, *user_hostfile; /* a user's own SimGrid platform and hostfile (one host per rank) */
    int nodes, ppn;
    int procs; /* set by validate: nodes x ppn, or the hostfile's lines */
    pact_mapping mapping;
    pact_ranks_on ranks_on;
    int rails; /* pact_rails, or -1: the platform's default */
    pact_coll coll;
    GPtrArray *algs;         /* registry names, or "smpi:NAME" for SimGrid's built-in NAME */
    GArray *sizes;           /* guint64 bytes per process */
    GPtrArray *patterns;     /* shape names, or "file:PATH" for a pattern file or an arrival trace */
    GPtrArray *pattern_data; /* set by validate: per pattern, a GArray of P delays for files, else NULL */
    int *node_of;            /* set by validate: the node of each rank (node_delayed, two_level) */
    pact_skew_mode skew_mode;
    double skew; /* seconds, or the factor */
    int reps;
    pact_engine engine;
    double gamma; /* s/byte charged per reduced byte; < 0: the platform's default */
    guint64 seed;
    char *dtype, *op;
    int root;
    gboolean check; /* also compare each cell's result with the library's collective */
    char *bench; /* the SMPI build of the bench driver; NULL: next to the running executable */
} pact_sweep;

void pact_sweep_init(pact_sweep *s);
void pact_sweep_clear(pact_sweep *s);

/* Checks every name, size and count before anything is written. */
gboolean pact_sweep_validate(pact_sweep *s, GError **err);

/* ---- experiments: several studies, run in parallel, resumable, shardable ---------------------------- */

/* pact tune's say in which of the model engine's phase-2 cells (under a pattern) run, per study and size,
 * from what is known: na x np cells (algorithm a under pattern p at a * np + p, in the sweep's orders; nd:
 * the no_delay pattern, -1: none).  known[i]: cell i ran or cannot (d[i] is its d^, NAN when it failed or is
 * restricted); else lb[i] is a lower bound of its d^ (pact_model_bound), NAN in the first call, made before
 * any bound.  Sets need[i] for the unknown cells to run now.  After the first call's runs the cells still
 * unknown get their bounds; then it is called again after each round of runs until it sets none, and the
 * cells still unknown are not run (status "pruned"). */
typedef void (*pact_prune_fn)(void *ctx, guint na, guint np, int nd, const double *d, const double *lb,
                              const guint8 *known, guint8 *need);

/* pact tune's hybrid: whether study s runs algorithm `alg` (an index into s->algs) at size `size` (an index
 * into s->sizes) under pattern `pat` (an index into s->patterns; phase 2); the cells it does not are not run
 * (status "pruned").  The no-delay cells all run: the skews come from them. */
typedef gboolean (*pact_keep_fn)(void *ctx, const pact_sweep *s, guint alg, guint size, guint pat);

typedef struct {
    GPtrArray *studies; /* pact_sweep *, validated */
    char *outdir;
    gboolean outdir_default; /* no -o: outdir is results/sim-<timestamp>, made unique when the run starts */
    char *text;              /* the canonical experiment.yaml */
    int jobs;
    int shard_k, shard_n; /* this run does shard K of N; 0: all */
    pact_batch batch;
    gboolean quiet;   /* no progress on stderr */
    gboolean figures; /* draw the figures (gnuplot) besides summary.txt */
    pact_prune_fn prune; /* the model engine: run only the phase-2 cells it asks for (NULL: all) */
    void *prune_ctx;
    /* the smpi engine: a cell whose schedule set an earlier algorithm of its study builds alike (the same
     * operations, sizes, dependencies and messages: pact_model_sched_digest) under the same arrivals copies
     * that cell's simulated times instead of running SimGrid again (SimGrid is deterministic); not in check
     * mode, where each builder's data is checked */
    gboolean twins;
    pact_keep_fn keep; /* NULL: every cell runs */
    void *keep_ctx;
} pact_experiment;

/* Experiment fields: a table of name -> value that a YAML file and flags fill (flags last: they override).
 * Names are pact sim's long flags without "--" (a file may write skew_factor for skew-factor); lists are
 * comma-separated.  `origin` is "FILE:LINE" for a file's field, NULL for a flag. */
GHashTable *pact_exp_new(void);
gboolean pact_exp_known(const char *name);
/* TRUE for pact tune's own fields (objective, source, target, segsizes): pact sim refuses them. */
gboolean pact_exp_tune_field(const char *name);
/* A copy of the fields (with pact tune's own only if `tune_fields`). */
GHashTable *pact_exp_copy(GHashTable *f, gboolean tune_fields);
/* A field's value, or NULL when neither file nor flag set it. */
const char *pact_exp_get(GHashTable *f, const char *name);
/* How messages name a field: "--sizes" for a flag, "exp.yaml:7: sizes" for a file's field. */
char *pact_exp_what(GHashTable *f, const char *name);
/* "FILE:LINE" of a field read from a file, NULL for a flag or an unset field. */
const char *pact_exp_origin(GHashTable *f, const char *name);
void pact_exp_set(GHashTable *fields, const char *name, const char *value, const char *origin);
/* A flag's value: relative paths (platform files, hostfile, file:PATH patterns) made absolute. */
void pact_exp_set_flag(GHashTable *fields, const char *name, const char *value);
gboolean pact_exp_read(GHashTable *fields, const char *path, GError **err);
/* The canonical experiment.yaml (without jobs and output; with the shard field only if `with_shard`). */
char *pact_exp_dump(GHashTable *fields, gboolean with_shard);

/* Whether experiment.yaml's text `old` (an output folder's) and `now` are the same experiment, on the same
 * files (with `files_only`, only the files: a shard's folder against the merged experiment): an error
 * naming the folder, or the file whose SHA-256 changed. */
gboolean pact_exp_same(const char *old, const char *now, const char *outdir, gboolean files_only,
                       GError **err);

void pact_experiment_init(pact_experiment *e);
void pact_experiment_clear(pact_experiment *e);
/* Checks every field and expands platform x nodes x ppn x coll into validated studies.  Errors name the
 * file and line of a field read from a file. */
gboolean pact_experiment_build(GHashTable *fields, pact_experiment *e, GError **err);

/* Runs the experiment into e->outdir: a new or empty folder, or one that holds the same experiment, whose
 * results.csv it resumes (cells already there are kept, the others run).  Rows are appended as simulations
 * finish; at the end results.csv is rewritten in the experiment's order, and summary.txt and the figures
 * are written.  *summary receives summary.txt's text. */
gboolean pact_experiment_run(pact_experiment *e, char **summary, GError **err);

/* The environment variables of experiments' runs, checked before anything runs (pact's main):
 * PACT_MODEL_KEEP_MIB, the model engine's schedule sets kept between waves (sim/study/engines.c). */
gboolean pact_sw_env_check(GError **err);

/* Merges the output folders of a sharded experiment (same experiment.yaml but for the shard) into outdir:
 * results.csv in the experiment's order (a cell found twice must be identical), summary and figures. */
gboolean pact_experiment_merge(const char *outdir, char **dirs, gboolean figures, char **summary, GError **err);

/* Element size of a dtype name, 0 when unknown. */
size_t pact_dtype_size(const char *name);

/* The build arguments of sweep s's cell of `bytes` with parameter values `params`, the ranks where `place` puts
 * them, as every engine builds them (root, datatype, a commutative operation, not in place). */
void pact_sweep_build_args(const pact_sweep *s, const pact_place *place, const long *params, guint64 bytes,
                           pact_build_args *out);

/* ---- one cell, every operation (pact timeline) ------------------------------------------------------- */

typedef struct {
    int rank, peer; /* peer: the other end of a message, -1 for local work */
    pact_op_kind kind;
    double bytes, start, end; /* seconds from the first arrival's time 0, as the pattern's delays */
    long match;               /* the operation at the other end of the message, -1: none */
} pact_timeline_op;

typedef struct {
    int P;
    guint64 bytes;
    double *arrival, *exit; /* P each */
    int *node_of;           /* P */
    double dhat, dstar;
    size_t nops;
    pact_timeline_op *ops; /* rank by rank, each in schedule order */
} pact_timeline;

/* Algorithm alg_i at size size_i under pattern pat_i of a validated sweep, through the model engine as pact
 * sim --engine model runs it (same parameters, gamma, pattern and schedules), with every operation's times.
 * Shapes need an absolute skew.  Errors are PACT_ERROR_INPUT (one line) or PACT_ERROR_RUN. */
gboolean pact_timeline_model(const pact_sweep *s, guint alg_i, guint size_i, guint pat_i, pact_timeline *t,
                             GError **err);
void pact_timeline_clear(pact_timeline *t);

#endif
