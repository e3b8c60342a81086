/*
 * pact_table.h - a selection table (tuner/table/table.c): which algorithm, with which parameters, a
 * collective runs at a process count, processes per node and size.  `pact tune` fills it, writes it as
 * table.csv (the file libpact reads) and hands it to the emitters (tuner/emit: Open MPI's coll_tuned rules,
 * MPICH's CSEL JSON).  Host side (GLib).
 *
 * table.csv: a header line, then one row per (collective, procs, ppn, size range):
 *   collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value
 * bytes as pact counts sizes: per process (allreduce, reduce, bcast, reduce_scatter), per block (alltoall,
 * allgather); barrier has one row, 0..inf.  max_bytes is inclusive; the last range of a (collective,
 * procs, ppn) is open ("inf").  params: "name=value;name=value" (';' so the field needs no quoting), the
 * values that differ from the algorithm's defaults, "" for none; expected:WEIGHTS's ',' is written ';'
 * too.  value: the objective's value of the
 * choice (robust: mean normalized d^; regret: worst normalized d^; no_delay and expected: seconds) over the
 * range's tuned sizes (the worst of them); runner_up: the second best algorithm spec at the range's first
 * size, "" when none.
 *
 * Order: collectives in the order of sim/coll/collectives.inc, then procs, ppn, min_bytes ascending.  A
 * (collective, procs, ppn) group's ranges start at 0 and follow one another without gap or overlap.
 *
 * Matching (pact_table_lookup, libpact): the group of the largest tuned procs <= the communicator's size
 * (the smallest tuned procs when the communicator is smaller), then among its ppn values the largest <= the
 * actual ppn (else the smallest), then the range holding the size.  Open MPI's rules and MPICH's CSEL match
 * process counts their own way (tuner/emit says how).
 */
#ifndef PACT_TABLE_H
#define PACT_TABLE_H

#include <glib.h>
#include <stdint.h>

#include "pact_coll.h"

#define PACT_TABLE_HEADER                                                                                     \
    "collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value"
#define PACT_TABLE_INF UINT64_MAX /* max_bytes of an open last range */

typedef struct {
    pact_coll coll;
    int procs, ppn;
    uint64_t min_bytes, max_bytes; /* inclusive; max_bytes PACT_TABLE_INF: no upper bound */
    const pact_alg *alg;
    long *params;       /* pact_alg_nparams(alg) values (g_malloc'd), or NULL: the defaults */
    char *objective;    /* "robust", "regret", "no_delay", "expected" (or "expected:..."), as given */
    double value;       /* NAN: not known (a table read from a file may leave it empty) */
    char *runner_up;    /* spec "NAME[:p=v:...]", or NULL */
    double runner_up_value;
    int line;           /* line in the file it was read from, 0 when built in memory */
} pact_table_row;

typedef struct {
    GArray *rows;  /* pact_table_row, in the order above */
    char *source;  /* the file it was read from, or NULL */
} pact_table;

void pact_table_init(pact_table *t);
void pact_table_clear(pact_table *t);
/* Appends a copy of *r (params, objective and runner_up duplicated). */
void pact_table_add(pact_table *t, const pact_table_row *r);

/* Order and coverage as described above, and each row's algorithm of its collective with parameters it
 * knows; errors name the row (FILE:LINE when read from a file, else "row N") and are PACT_ERROR_INPUT. */
gboolean pact_table_check(const pact_table *t, GError **err);

/* table.csv's text (g_free it). */
char *pact_table_format(const pact_table *t);
/* Reads table.csv's text; `name` starts every message (NAME:LINE: column COLUMN: 'VALUE': problem), then
 * pact_table_check.  On error *t holds what was read so far (clear it either way). */
gboolean pact_table_parse(const char *text, gsize len, const char *name, pact_table *t, GError **err);
gboolean pact_table_read(const char *path, pact_table *t, GError **err);
/* Writes to PATH.tmp, then renames: no half-written file. */
gboolean pact_table_write(const pact_table *t, const char *path, GError **err);

/* The row that applies to (coll, procs, ppn, bytes) by the matching rule above, or NULL (no row for coll). */
const pact_table_row *pact_table_lookup(const pact_table *t, pact_coll coll, int procs, int ppn, uint64_t bytes);

/* "NAME" or "NAME:p=v:p=v" (the spec syntax) of a row's choice (static buffer of the calling thread). */
const char *pact_table_spec(const pact_table_row *r);

#endif
