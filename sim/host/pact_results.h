/*
 * pact_results.h - the results.csv schema, its one writer and its one reader (results.c): pact sim writes
 * it, resume and merge read it back, pact report and pact model fit read it, the tuner will.  Host side.
 *
 * One row per measured call: the cell (platform .. pattern), how its skew was set, the repetition, the
 * engine, d^ (last_delay_s: last exit - last arrival) and d* (total_delay_s: last exit - first arrival),
 * and a status: ok, wrong (the result differed from the library's), late (arrivals missed), or
 * restricted:WHY (the algorithm does not apply; no times).
 */
#ifndef PACT_RESULTS_H
#define PACT_RESULTS_H

#include <glib.h>

typedef enum {
    PACT_COL_PLATFORM,
    PACT_COL_NODES,
    PACT_COL_PPN,
    PACT_COL_PROCS,
    PACT_COL_COLL,
    PACT_COL_ALG,
    PACT_COL_BYTES,
    PACT_COL_PATTERN,
    PACT_COL_SKEW_MODE,
    PACT_COL_SKEW_FACTOR,
    PACT_COL_SKEW_S,
    PACT_COL_REP,
    PACT_COL_ENGINE,
    PACT_COL_LAST,
    PACT_COL_TOTAL,
    PACT_COL_STATUS,
    PACT_NCOLS
} pact_col;

/* The column names, in order; the header line is them joined by commas. */
extern const char *const pact_results_columns[PACT_NCOLS];
/* "platform,nodes,...,status" (static). */
const char *pact_results_header(void);

/* The first PACT_COL_PATTERN + 1 columns name a cell; the strings are borrowed. */
typedef struct {
    const char *platform;
    int nodes, ppn, procs;
    const char *coll, *alg;
    guint64 bytes;
    const char *pattern, *skew_mode;
    double skew_factor; /* NAN: empty (no factor) */
    double skew_s;
    int rep;
    const char *engine;
    double last, total; /* NAN: empty (the call did not run) */
    const char *status;
    const char *const *field; /* reading: the text of each column, as in the file */
} pact_result_row;

/* Appends one row and its newline, numbers at full precision in the C locale, NAN as an empty field. */
void pact_results_append(GString *out, const pact_result_row *r);

/* Reads the rows of a results.csv held in memory; `name` (the file) starts every message, as NAME:LINE:
 * column COLUMN: 'VALUE': problem, or NAME:LINE: N columns.  The first line must be the header; blank lines
 * and lines repeating the header (files joined with cat) are skipped.  With `torn_ok`, a last line without
 * its newline (the torn end of a killed writer) is dropped instead of read.  `fn` gets each row with its
 * line text and number; returning FALSE (with err set) stops.  Errors are PACT_ERROR_INPUT. */
typedef gboolean (*pact_results_fn)(const pact_result_row *row, const char *line, int lineno, gpointer user,
                                    GError **err);
gboolean pact_results_parse(const char *text, gsize len, const char *name, gboolean torn_ok,
                            pact_results_fn fn, gpointer user, GError **err);

#endif
