/*
 * lp_int.h - what the files of libpact share: table.c (table.csv, read without GLib), libpact.c (the
 * wrappers, routing, fallbacks and counts), trace.c (the arrival tracer).  Rank side: C11 + MPI, no GLib.
 */
#ifndef LP_INT_H
#define LP_INT_H

#include "pact_mpi.h"

#include <stdint.h>

#include "libpact.h"

/* ---- table.c: table.csv as pact tune writes it (tuner/table/pact_table.h says the format) ------------ */

#define LP_TABLE_HEADER                                                                                      \
    "collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value"

typedef struct {
    pact_coll coll;
    int procs, ppn;
    uint64_t min_bytes, max_bytes; /* inclusive; UINT64_MAX: open */
    const pact_alg *alg;
    long *params; /* pact_alg_nparams(alg) values (defaults, then the row's) */
    int line;
} lp_row;

typedef struct {
    lp_row *rows;
    size_t n;
} lp_table;

/* Reads `path`; on error returns PACT_ERR_ARG with "PATH:LINE: ..." in `why` and leaves *t empty. */
int lp_table_read(const char *path, lp_table *t, char *why, size_t whylen);
void lp_table_free(lp_table *t);
/* The row for (coll, procs, ppn, bytes) by table.csv's matching rule, or NULL. */
const lp_row *lp_table_lookup(const lp_table *t, pact_coll coll, int procs, int ppn, uint64_t bytes);

/* ---- trace.c ---------------------------------------------------------------------------------------- */

/* Reads PACT_TRACE*, synchronises clocks with rank 0 (collective over MPI_COMM_WORLD). */
int lp_trace_init(void);
/* Records an arrival of collective `c` on `comm` (`world`: comm has MPI_COMM_WORLD's group, in its order)
 * at rank 0's time `t`. */
void lp_trace_arrive(pact_coll c, int world, uint64_t bytes, double wtime);
/* Gathers the records on rank 0, which writes the trace (collective over MPI_COMM_WORLD). */
int lp_trace_finalize(void);
int lp_tracing(void);

#endif
