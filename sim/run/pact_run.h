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
#include "pact_sim.h"

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
} pact_engine;

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
    char *outdir;
    char *bench; /* the SMPI build of the bench driver; NULL: next to the running executable */
} pact_sweep;

void pact_sweep_init(pact_sweep *s);
void pact_sweep_clear(pact_sweep *s);

/* Checks every name, size and count before anything is written. */
gboolean pact_sweep_validate(pact_sweep *s, GError **err);

/* Runs the sweep into s->outdir (which must not exist or be empty).  Output appears only when the whole
 * sweep succeeded: it is built in a sibling folder and renamed.  *summary receives summary.txt's text. */
gboolean pact_sweep_run(pact_sweep *s, char **summary, GError **err);

/* Element size of a dtype name, 0 when unknown. */
size_t pact_dtype_size(const char *name);

#endif
