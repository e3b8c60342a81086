/*
 * bench_int.h - what the files of the bench driver share: bench.c (cells, calls, the measurement, main),
 * bench_data.c (datatypes, operations, seeded data), bench_time.c (clocks, arrivals and the measurement
 * protocol), bench_check.c (the library's own collective as the reference, correctness checks, the matrix).
 * Rank side: C11 + MPI.
 */
#ifndef PACT_BENCH_INT_H
#define PACT_BENCH_INT_H

#include "pact_mpi.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>

#ifdef PACT_SMPI
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/semaphore.h>
#include <xbt/config.h>
#include <smpi/smpi.h>
#endif

#define MAX_TRIES 8
/* Real machines: a rank sleeps until SPIN_S before its arrival time, then spins; waits shorter than
 * SLEEP_MIN_S only spin.  nanosleep wakes up 50-100 us late on a loaded Linux box. */
#define SPIN_S 200e-6
#define SLEEP_MIN_S 300e-6

/* What each rank reports per call: arrival, exit (both after the common reference), late flag (1: missed the
 * start, 2: overslept), estimated clock offset, offset by the machine's monotonic clock. */
#define NREC 5

typedef enum { DT_CHAR, DT_INT, DT_FLOAT, DT_DOUBLE, DT_PAIR } dt_kind;

typedef struct {
    char name[16];
    dt_kind kind;
    MPI_Datatype type; /* DT_PAIR's is made at start-up */
    size_t size;
} dtype_desc;

typedef struct {
    char name[16];
    MPI_Op op; /* "compose"'s is made at start-up */
    int commutative;
} op_desc;

/* One cell: a collective call measured `reps` times under one arrival pattern. */
typedef struct {
    char id[64];
    pact_coll coll;
    char alg[64];
    size_t count;
    const dtype_desc *dt;
    const op_desc *op;
    int root;
    int reps, warmup;
    double gamma;
    char pattern[4096];
    char params[256]; /* "name=value,..." overriding the algorithm's parameter defaults, or "" */
    int check;
} cell_t;

typedef struct {
    MPI_Comm comm;
    int rank, size;
    double offset; /* add to MPI_Wtime() to get rank 0's clock */
    double margin; /* time between the common reference and the earliest arrival */
    double tol;    /* real machines: the most an arrival may overshoot its time before the call is redone */
    double mono_offset; /* the true offset when all ranks share one machine's CLOCK_MONOTONIC (0 in SMPI) */
    int timing_only;
    int check_twice; /* checks run each plan once on other input first (persistent requests reused) */
    int detached;    /* PACT_BENCH_DETACHED=1: no pact_exec_ctx.late_sends (the tests compare both) */
    int any_order;   /* PACT_BENCH_ANY_ORDER=1: SMPI, the start barrier's own order (bench_time.c) */
    int no_warmup; /* --no-warmup: a pact algorithm's cells without their warm-up call (bench.c: run_cell) */
    FILE *out, *arr;
    struct shm *shm; /* SMPI, ranks in one process: the protocol's shared state (NULL: MPI messages) */
    double last_ref; /* the common reference of the last timed call, on rank 0's clock */
} bench_t;

typedef struct {
    const pact_alg *alg; /* NULL: the MPI library's own collective */
    pact_sched sched;
    pact_plan *plan; /* sched prepared once for all its calls */
    pact_exec_ctx x;
    void *send, *recv;
    int inplace;
    long *params;  /* the algorithm's parameter values */
    pact_place place; /* where the ranks run, for algorithms that need it (PACT_R_PLACE) */
    char msg[160]; /* why set-up failed, when that is not static text */
} call_t;

typedef struct {
    const char *colls, *algs, *counts, *dtypes, *ops, *roots;
    double max_bytes; /* skip cells whose receive buffer would be larger */
} matrix_opts;

/* bench_data.c */
extern dtype_desc pb_dtypes[];
extern op_desc pb_ops[];
extern const size_t pb_ndtypes, pb_nops;
void pb_compose_fn(void *in, void *inout, int *len, MPI_Datatype *dt);
int pb_dt_op_ok(const dtype_desc *dt, const op_desc *op);
const dtype_desc *pb_find_dtype(const char *n);
const op_desc *pb_find_op(const char *n);
void pb_put(void *buf, size_t i, const dtype_desc *dt, int rank, size_t gi);
void pb_fill(void *buf, const dtype_desc *dt, int rank, size_t n);
size_t pb_compare(const void *got, const void *want, const dtype_desc *dt, size_t n, int P);
void pb_expected_fold(const cell_t *c, int P, void *want, size_t first, size_t n);
/* bench_time.c */
double pb_now_global(const bench_t *b);
void pb_wait_until(const bench_t *b, double t);
int pb_clock_sync(bench_t *b);
int pb_shm_setup(bench_t *b);
void pb_shm_free(bench_t *b);
int pb_proto_start(bench_t *b, double *ref);
int pb_proto_gather(bench_t *b, const double *mine, double *gathered);
int pb_proto_share(bench_t *b, int *v);
/* bench_check.c */
int pb_library_call(const cell_t *c, call_t *k, MPI_Comm comm);
void pb_stage_input(const bench_t *b, const cell_t *c, void *send, void *recv, int inplace, int seed);
int pb_check_call(const bench_t *b, const cell_t *c, call_t *k, size_t *bad);
int pb_run_matrix(bench_t *b, const matrix_opts *m);
/* bench.c */
int pb_run_call(const cell_t *c, call_t *k, MPI_Comm comm);
int pb_call_setup(const bench_t *b, const cell_t *c, call_t *k, int inplace, const char **why);
void pb_call_free(const bench_t *b, call_t *k);
/* Where the ranks of b->comm run: the node of a rank is the lowest rank that shares its memory
 * (MPI_COMM_TYPE_SHARED: a host under SMPI, a machine otherwise). */
int pb_place(const bench_t *b, pact_place *p);
/* A count: digits only, no sign, no suffix; 1 when it is one. */
int pb_parse_size(const char *s, size_t *out);

#endif
