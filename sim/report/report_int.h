/* report_int.h - what the parts of the report share (report.c reads results.csv into studies, summary.c
 * writes summary.txt, figures.c the figures): a study's tables and the objectives at one of its sizes. */
#ifndef PACT_REPORT_INT_H
#define PACT_REPORT_INT_H

#include <math.h>

#include "pact_objectives.h"
#include "pact_report.h"

/* Robustness beyond which Fig. 6 colours a cell, in %; the robustness figure's colour scale stops there. */
#define SIGNIFICANT 25.0
/* Fig. 5: algorithms within 5% of the fastest are as good as the fastest. */
#define NEAR 1.05

typedef struct {
    guint alg, pat, size; /* size: index into the sorted sizes, set by study_finish */
    guint64 bytes;
    double last, skew;
    gboolean ran, restricted;
} row_t;

typedef struct {
    char *platform, *coll, *engine, *stem;
    int nodes, ppn, procs;
    GPtrArray *algs, *pats;      /* names in order of first appearance (pats: no_delay first once finished) */
    GHashTable *alg_ix, *pat_ix; /* name -> index + 1 */
    GArray *rows;                /* row_t in CSV order */
    GPtrArray *skews;            /* "mean_nodelay x 1.5", ... in order of first appearance */
    GPtrArray *statuses;         /* status words other than ok and restricted, first appearance */
    GArray *status_n;            /* int per statuses entry */
    GPtrArray *why;              /* per algorithm: the first restriction reason, or NULL */
    /* set by study_finish */
    GArray *sizes; /* guint64, ascending */
    guint na, nz, np;
    int nd;                 /* index of no_delay in pats, -1 when the study has none */
    double *mean;           /* [a][z][p] mean d^, NAN when no repetition ran */
    double *lo, *hi;        /* [a][z][p] the least and the largest d^ of the repetitions that ran */
    guint8 *restr;          /* [a][z][p] rows exist and all are restricted */
    double *skew;           /* [z][p] the largest skew_s */
    int min_reps, max_reps; /* rows per cell that has rows */
} study_t;

struct pact_report {
    GPtrArray *studies; /* study_t, first appearance */
};

static inline gsize ix(const study_t *s, guint a, guint z, guint p)
{
    return ((gsize)a * s->nz + z) * s->np + p;
}

static inline double mean_at(const study_t *s, guint a, guint z, guint p)
{
    return s->mean[ix(s, a, z, p)];
}

/* How far the d^ of one cell's calls lie apart, (largest - least) / mean: 0 for one call, NAN for none. */
static inline double spread_at(const study_t *s, guint a, guint z, guint p)
{
    gsize k = ix(s, a, z, p);
    return (s->hi[k] - s->lo[k]) / s->mean[k];
}

/* The table of one size, for the objectives (tuner/objectives): the definitions are at the top of report.c. */
static inline pact_obj_table table_at(const study_t *s, guint z)
{
    return (pact_obj_table){.na = s->na, .np = s->np, .d = s->mean + (gsize)z * s->np,
                            .stride = (size_t)s->nz * s->np, .nd = s->nd};
}

static inline guint best_of(const study_t *s, guint z, guint p)
{
    pact_obj_table t = table_at(s, z);
    return pact_obj_best(&t, p, PACT_OBJ_NONE);
}

static inline guint choice_of(const study_t *s, guint z)
{
    pact_obj_table t = table_at(s, z);
    return pact_obj_choice(&t);
}

static inline double robustness(const study_t *s, guint a, guint z, guint p)
{
    pact_obj_table t = table_at(s, z);
    return pact_obj_robustness(&t, a, p);
}

static inline double normalized(const study_t *s, guint a, guint z, guint p)
{
    pact_obj_table t = table_at(s, z);
    return pact_obj_normalized(&t, a, p);
}

static inline double score_of(const study_t *s, guint a, guint z, guint *missing)
{
    pact_obj_table t = table_at(s, z);
    return pact_obj_score(&t, a, missing);
}

static inline guint64 size_at(const study_t *s, guint z)
{
    return g_array_index(s->sizes, guint64, z);
}

/* ---- summary.txt --------------------------------------------------------------------------------------- */

/* Helpers of summary.c that figures.c uses too: "s" unless n is 1; the widest name (at least `least`); a
 * robustness in % as text. */
const char *pact_report_plural(guint n);
int pact_report_width_of(GPtrArray *names, int least);
char *pact_report_pct(double v);

#endif
