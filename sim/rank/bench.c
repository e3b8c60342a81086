/*
 * bench.c - the bench driver: one source, built with smpicc (simulation) and with mpicc (real machines).
 *
 * For each call (Salimi Beni et al., Listing 1): synchronise, wait until the rank's arrival time, record
 * a_i, run the collective, record e_i; rank 0 gathers them and writes
 *     total delay d* = max(e_i) - min(a_i)      last delay d^ = max(e_i) - max(a_i).
 * In simulation all ranks share SimGrid's clock, so waiting is a simulated sleep to an absolute time; on
 * real machines clocks are aligned to rank 0 by ping-pong (the shortest of 20 round trips, midpoint rule, as
 * HCA-style and MPIX_Harmonize-style synchronisation do), all ranks agree on a common start (the latest
 * clock plus a margin), and each sleeps, then spins, until start + its delay.  A rank that reaches the
 * common start after its deadline marks the call late, and the call is repeated with a doubled margin; a
 * rank that overshoots its arrival by more than --arrival-tol (not scheduled in time) has the call
 * repeated too.  So recorded arrivals are the intended ones; "late" marks a call that never made it.
 *
 *   pact-bench --coll allreduce --alg ring --count 1024 [--dtype double] [--op sum] [--reps 5]
 *              [--pattern FILE] [--gamma G] [--check] [--out FILE] [--arrivals FILE]
 *   pact-bench --plan PLAN [--out FILE] [--arrivals FILE]     many cells in one launch
 *   pact-bench --matrix [--algs a,b] [--counts 0,1,P-1,1000] [--dtypes int,double] [--ops sum,max]
 *                                                             correctness against the library's collective
 *
 * A plan line is: cell coll alg count dtype op root reps gamma pattern-file|- [params|-]  ('#': comment);
 * params are the algorithm's parameter overrides, name=value,name=value.
 * alg "mpi" is the MPI library's own collective (under SMPI, the one smpirun's --cfg selects).
 */
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
#include <xbt/config.h>
#include <smpi/smpi.h>
#endif

#define MAX_TRIES 8
/* Real machines: a rank sleeps until SPIN_S before its arrival time, then spins; waits shorter than
 * SLEEP_MIN_S only spin.  nanosleep wakes up 50-100 us late on a loaded Linux box. */
#define SPIN_S 200e-6
#define SLEEP_MIN_S 300e-6

typedef enum { DT_CHAR, DT_INT, DT_FLOAT, DT_DOUBLE, DT_PAIR } dt_kind;

typedef struct {
    char name[16];
    dt_kind kind;
    MPI_Datatype type; /* DT_PAIR's is made at start-up */
    size_t size;
} dtype_desc;

/* "pair" is two unsigned ints (a, b) standing for the map x -> a*x + b; "compose" chains such maps in rank
 * order.  Associative, not commutative, exact in unsigned arithmetic: any reordering of operands shows. */
static dtype_desc dtypes[] = {
    {"int", DT_INT, MPI_INT, sizeof(int)},
    {"float", DT_FLOAT, MPI_FLOAT, sizeof(float)},
    {"double", DT_DOUBLE, MPI_DOUBLE, sizeof(double)},
    {"pair", DT_PAIR, MPI_DATATYPE_NULL, 2 * sizeof(unsigned)}, /* index 3: main() builds its type */
    {"char", DT_CHAR, MPI_UINT8_T, 1}, /* the seeds' 2 B..2 KiB studies; unsigned sums wrap in any order */
};

typedef struct {
    char name[16];
    MPI_Op op; /* "compose"'s is made at start-up */
    int commutative;
} op_desc;

static op_desc ops[] = {
    {"sum", MPI_SUM, 1},
    {"max", MPI_MAX, 1},
    {"min", MPI_MIN, 1},
    {"compose", MPI_OP_NULL, 0},
};

static void compose_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const unsigned *x = in;
    unsigned *y = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) { /* first x, then y: a2*(a1*v + b1) + b2 */
        unsigned a1 = x[2 * i], b1 = x[2 * i + 1], a2 = y[2 * i], b2 = y[2 * i + 1];
        y[2 * i] = a1 * a2;
        y[2 * i + 1] = b1 * a2 + b2;
    }
}

/* Only pairs compose, and pairs do nothing else. */
static int dt_op_ok(const dtype_desc *dt, const op_desc *op)
{
    return (dt->kind == DT_PAIR) == (op->op == ops[3].op);
}

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
    FILE *out, *arr;
    struct shm *shm; /* SMPI, ranks in one process: the protocol's shared state (NULL: MPI messages) */
} bench_t;

static const dtype_desc *find_dtype(const char *n)
{
    for (size_t i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
        if (strcmp(dtypes[i].name, n) == 0)
            return &dtypes[i];
    return NULL;
}

static const op_desc *find_op(const char *n)
{
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (strcmp(ops[i].name, n) == 0)
            return &ops[i];
    return NULL;
}

/* ---- time ---------------------------------------------------------------------------------------- */

static double now_global(const bench_t *b)
{
    return MPI_Wtime() + b->offset;
}

/* Waits until rank 0's clock reads `t`. */
static void wait_until(const bench_t *b, double t)
{
#ifdef PACT_SMPI
    /* Exact to the bit with smpi/wtime:0; nanosleep and usleep truncate. */
    if (t > now_global(b))
        sg_actor_sleep_until(t);
#else
    /* Sleep through all but the last SPIN_S, then spin: a long spin would take a core from the ranks that
     * are due earlier (fatal when ranks share cores), and a sleep alone wakes up tens of us late. */
    double left;
    while ((left = t - now_global(b)) > SLEEP_MIN_S) {
        double s = left - SPIN_S;
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&ts, NULL);
    }
    while (now_global(b) < t)
        sched_yield();
#endif
}

/* Estimates this rank's clock offset to rank 0: the sample with the shortest round trip of a few
 * ping-pongs, midpoint rule.  In simulation all clocks are one and the offset is 0. */
#ifndef PACT_SMPI
/* CLOCK_MONOTONIC - MPI_Wtime(), from the tightest of a few bracketing reads. */
static double mono_minus_wtime(void)
{
    double best = 1e30, d = 0;
    for (int k = 0; k < 10; k++) {
        struct timespec a, c;
        clock_gettime(CLOCK_MONOTONIC, &a);
        double w = MPI_Wtime();
        clock_gettime(CLOCK_MONOTONIC, &c);
        double ta = (double)a.tv_sec + a.tv_nsec * 1e-9, tc = (double)c.tv_sec + c.tv_nsec * 1e-9;
        if (tc - ta < best) {
            best = tc - ta;
            d = (ta + tc) / 2 - w;
        }
    }
    return d;
}
#endif

static int clock_sync(bench_t *b)
{
    int rc = PACT_OK;
    b->offset = 0;
#ifndef PACT_SMPI
    enum { ROUNDS = 100 };
    for (int r = 1; r < b->size; r++) {
        for (int k = 0; k < ROUNDS; k++) {
            if (b->rank == 0) {
                double t;
                PACT_MPI_CHECK(MPI_Recv(&t, 1, MPI_DOUBLE, r, 1, b->comm, MPI_STATUS_IGNORE));
                t = MPI_Wtime();
                PACT_MPI_CHECK(MPI_Send(&t, 1, MPI_DOUBLE, r, 2, b->comm));
            } else if (b->rank == r) {
                static double best_rtt = 1e30;
                if (k == 0)
                    best_rtt = 1e30;
                double t1 = MPI_Wtime(), t0;
                PACT_MPI_CHECK(MPI_Send(&t1, 1, MPI_DOUBLE, 0, 1, b->comm));
                PACT_MPI_CHECK(MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 2, b->comm, MPI_STATUS_IGNORE));
                double t2 = MPI_Wtime();
                if (t2 - t1 < best_rtt) {
                    best_rtt = t2 - t1;
                    b->offset = t0 - (t1 + t2) / 2;
                }
            }
        }
    }
    /* The true offset where ranks share a machine: CLOCK_MONOTONIC is one clock for all its processes, so
     * (monotonic - MPI_Wtime) of this rank minus rank 0's is what the ping-pong estimates.  Recorded next
     * to the estimate so that a run on one machine can tell how well the synchronisation worked. */
    double m = mono_minus_wtime(), m0 = m;
    PACT_MPI_CHECK(MPI_Bcast(&m0, 1, MPI_DOUBLE, 0, b->comm));
    b->mono_offset = m - m0;
#endif
    goto out;
out:
    return rc;
}

/* ---- data ------------------------------------------------------------------------------------------ */

static long seed_value(int rank, size_t i)
{
    return (long)(((size_t)rank * 37 + i * 11) % 199) - 99;
}

/* Element i of the input of rank `rank`. */
static void put(void *buf, size_t i, const dtype_desc *dt, int rank, size_t gi)
{
    long v = seed_value(rank, gi);
    switch (dt->kind) {
    case DT_CHAR:
        ((unsigned char *)buf)[i] = (unsigned char)(v + 99);
        break;
    case DT_INT:
        ((int *)buf)[i] = (int)v;
        break;
    case DT_FLOAT:
        ((float *)buf)[i] = (float)(v / 7.0);
        break;
    case DT_DOUBLE:
        ((double *)buf)[i] = v / 7.0;
        break;
    case DT_PAIR:
        ((unsigned *)buf)[2 * i] = 2u * (unsigned)(v + 99) + 1u;
        ((unsigned *)buf)[2 * i + 1] = (unsigned)rank * 7u + (unsigned)gi;
        break;
    }
}

static void fill(void *buf, const dtype_desc *dt, int rank, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(buf, i, dt, rank, i);
}

/* Number of elements that differ beyond rounding; sums of P values below 100/7 in magnitude. */
static size_t compare(const void *got, const void *want, const dtype_desc *dt, size_t n, int P)
{
    size_t bad = 0;
    double tol = dt->kind == DT_FLOAT ? 1e-5 * 15.0 * P : 1e-12 * 15.0 * P;
    for (size_t i = 0; i < n; i++) {
        switch (dt->kind) {
        case DT_CHAR:
            bad += ((const unsigned char *)got)[i] != ((const unsigned char *)want)[i];
            break;
        case DT_INT:
            bad += ((const int *)got)[i] != ((const int *)want)[i];
            break;
        case DT_FLOAT:
            bad += !(fabs((double)((const float *)got)[i] - (double)((const float *)want)[i]) <= tol);
            break;
        case DT_DOUBLE:
            bad += !(fabs(((const double *)got)[i] - ((const double *)want)[i]) <= tol);
            break;
        case DT_PAIR:
            bad += memcmp((const char *)got + i * dt->size, (const char *)want + i * dt->size, dt->size) != 0;
            break;
        }
    }
    return bad;
}

/* ---- running one collective -------------------------------------------------------------------------- */

typedef struct {
    const pact_alg *alg; /* NULL: the MPI library's own collective */
    pact_sched sched;
    pact_plan *plan; /* sched prepared once for all its calls */
    pact_exec_ctx x;
    void *send, *recv;
    int inplace;
    long *params;  /* the algorithm's parameter values */
    char msg[160]; /* why set-up failed, when that is not static text */
} call_t;

static int library_call(const cell_t *c, call_t *k, MPI_Comm comm)
{
    int rc = PACT_OK, n = (int)c->count, rank;
    MPI_Datatype t = c->dt->type;
    void *sb = k->inplace ? MPI_IN_PLACE : k->send;
    MPI_Comm_rank(comm, &rank);
    switch (c->coll) {
    case PACT_COLL_ALLREDUCE:
        PACT_MPI_CHECK(MPI_Allreduce(sb, k->recv, n, t, c->op->op, comm));
        break;
    case PACT_COLL_REDUCE:
        PACT_MPI_CHECK(MPI_Reduce(k->inplace && rank == c->root ? MPI_IN_PLACE : k->send, k->recv, n, t,
                                  c->op->op, c->root, comm));
        break;
    case PACT_COLL_BCAST:
        PACT_MPI_CHECK(MPI_Bcast(k->recv, n, t, c->root, comm));
        break;
    case PACT_COLL_ALLTOALL:
        PACT_MPI_CHECK(MPI_Alltoall(sb, n, t, k->recv, n, t, comm));
        break;
    case PACT_COLL_ALLGATHER:
        PACT_MPI_CHECK(MPI_Allgather(sb, n, t, k->recv, n, t, comm));
        break;
    case PACT_COLL_BARRIER:
        PACT_MPI_CHECK(MPI_Barrier(comm));
        break;
    case PACT_COLL_REDUCE_SCATTER: { /* recvcounts: the traits' split of the vector */
        int size;
        MPI_Comm_size(comm, &size);
        int *counts = malloc(sizeof(int) * (size_t)size);
        if (!counts) {
            rc = PACT_ERR_NOMEM;
            goto out;
        }
        for (int i = 0; i < size; i++) {
            size_t ns, nr;
            pact_coll_buf_counts(c->coll, i, size, 0, c->count, &ns, &nr);
            counts[i] = (int)nr;
        }
        int err = MPI_Reduce_scatter(sb, k->recv, counts, t, c->op->op, comm);
        free(counts);
        PACT_MPI_CHECK(err);
        break;
    }
    default:
        rc = PACT_ERR_ARG;
    }
out:
    return rc;
}

static int run_call(const cell_t *c, call_t *k, MPI_Comm comm)
{
    if (!k->alg)
        return library_call(c, k, comm);
    return pact_plan_run(k->plan, &k->x);
}

static void *balloc(const bench_t *b, size_t bytes)
{
#ifdef PACT_SMPI
    if (b->timing_only)
        return SMPI_SHARED_MALLOC(bytes + 16);
#endif
    (void)b;
    return calloc(1, bytes + 16);
}

static void bfree(const bench_t *b, void *p)
{
    if (!p)
        return;
#ifdef PACT_SMPI
    if (b->timing_only) {
        SMPI_SHARED_FREE(p);
        return;
    }
#endif
    (void)b;
    free(p);
}

static void call_free(const bench_t *b, call_t *k)
{
    bfree(b, k->send);
    bfree(b, k->recv);
    for (int i = PACT_BUF_TMP0; i < PACT_NBUF; i++)
        bfree(b, k->x.buf[i]);
    pact_plan_free(k->plan);
    pact_sched_free(&k->sched);
    free(k->params);
    memset(k, 0, sizeof(*k));
}

/* Builds the schedule and allocates buffers for a cell.  PACT_ERR_RESTRICTED leaves `why` set; the
 * restriction is agreed over all ranks, since reduce's root alone may be in place. */
static int call_setup(const bench_t *b, const cell_t *c, call_t *k, int inplace, const char **why)
{
    memset(k, 0, sizeof(*k));
    pact_sched_init(&k->sched);
    k->inplace = pact_coll_rank_inplace(c->coll, b->rank, c->root, inplace);
    *why = NULL;
    size_t ns, nr, es = c->dt->size;
    pact_coll_buf_counts(c->coll, b->rank, b->size, c->root, c->count, &ns, &nr);
    if (strcmp(c->alg, "mpi") != 0) {
        k->alg = pact_alg_find(c->coll, c->alg);
        if (!k->alg) {
            *why = "unknown algorithm";
            return PACT_ERR_ARG;
        }
        pact_build_args a = {.coll = c->coll,
                             .rank = b->rank,
                             .size = b->size,
                             .root = c->root,
                             .count = c->count,
                             .elem_size = es,
                             .commutative = c->op->commutative,
                             .inplace = k->inplace};
        if (!(k->params = calloc(pact_alg_nparams(k->alg) + 1, sizeof(long))))
            return PACT_ERR_NOMEM;
        pact_params_defaults(k->alg, k->params);
        if (pact_params_parse(k->alg, c->params, ',', k->params, k->msg, sizeof k->msg) != PACT_OK) {
            *why = k->msg;
            return PACT_ERR_ARG;
        }
        a.params = k->params;
        const char *mine = NULL;
        int restricted = pact_alg_applies(k->alg, &a, &mine) == PACT_ERR_RESTRICTED, any = 0;
        MPI_Allreduce(&restricted, &any, 1, MPI_INT, MPI_MAX, b->comm);
        if (any) {
            static const char elsewhere[] = "restricted on another rank";
            *why = mine ? mine : elsewhere;
            return PACT_ERR_RESTRICTED;
        }
        int rc = pact_build(k->alg, &a, &k->sched);
        if (rc != PACT_OK) {
            *why = "schedule builder failed";
            return rc;
        }
    }
    if (k->inplace && pact_coll_inplace_whole(c->coll) && ns > nr)
        nr = ns; /* reduce_scatter in place: the receive buffer holds the whole input vector */
    k->send = balloc(b, ns * es);
    k->recv = balloc(b, nr * es);
    if (!k->send || !k->recv)
        return PACT_ERR_NOMEM;
    k->x.comm = b->comm;
    k->x.dtype = c->dt->type;
    k->x.op = c->op->op;
    k->x.tag = 100;
    k->x.gamma = c->gamma;
    k->x.no_compute = b->timing_only;
    k->x.buf[PACT_BUF_SEND] = k->send;
    if (k->inplace) /* the input sits in RECV: all of it, or this rank's block for allgather */
        k->x.buf[PACT_BUF_SEND] = (char *)k->recv + pact_coll_inplace_offset(c->coll, b->rank, b->size, c->count) * es;
    k->x.buf[PACT_BUF_RECV] = k->recv;
    for (int i = PACT_BUF_TMP0; i < PACT_NBUF; i++)
        if (k->sched.buf_count[i] > 0 && !(k->x.buf[i] = balloc(b, k->sched.buf_count[i] * es)))
            return PACT_ERR_NOMEM;
    if (k->alg) {
        int rc = pact_plan_new(&k->sched, &k->x, &k->plan);
        if (rc != PACT_OK)
            return rc;
    }
    pact_sched_free(&k->sched); /* the plan has what the calls need: keep each rank's memory small */
    return PACT_OK;
}

/* Puts the input seeded by `seed` (this rank's, for the checked run) where the call reads it: SEND, or
 * RECV (in place, bcast's root).  Bcast's non-roots start from a receive buffer of zeros. */
static void stage_input(const bench_t *b, const cell_t *c, void *send, void *recv, int inplace, int seed)
{
    size_t ns, nr, es = c->dt->size;
    pact_coll_buf_counts(c->coll, b->rank, b->size, c->root, c->count, &ns, &nr);
    memset(recv, 0, nr * es);
    if (pact_coll_traits_of(c->coll)->send == PACT_SHAPE_NONE) { /* bcast: the root's RECV is the input */
        if (b->rank == c->root)
            fill(recv, c->dt, seed, nr);
    } else if (!inplace) {
        fill(send, c->dt, seed, ns);
    } else {
        fill((char *)recv + pact_coll_inplace_offset(c->coll, b->rank, b->size, c->count) * es, c->dt, seed, ns);
    }
}

/* What a non-commutative reduction must give: every rank's element folded in rank order, for the n elements
 * from element `first` of the vector on. */
static void expected_fold(const cell_t *c, int P, void *want, size_t first, size_t n)
{
    unsigned x[2];
    for (size_t i = 0; i < n; i++) {
        put(want, i, c->dt, 0, first + i);
        for (int r = 1; r < P; r++) {
            int one = 1;
            put(x, 0, c->dt, r, first + i);
            compose_fn((char *)want + i * c->dt->size, x, &one, NULL);
            memcpy((char *)want + i * c->dt->size, x, c->dt->size);
        }
    }
}

/* A clock all ranks share: SimGrid's in simulation; on a real machine CLOCK_MONOTONIC, one clock for the
 * processes of one node (the barrier check below is exact there, and meaningless across nodes). */
static double shared_clock(void)
{
#ifdef PACT_SMPI
    return MPI_Wtime();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
#endif
}

static void sleep_for(double sec)
{
#ifdef PACT_SMPI
    sg_actor_sleep_for(sec);
#else
    struct timespec ts = {(time_t)sec, (long)((sec - (double)(time_t)sec) * 1e9)};
    nanosleep(&ts, NULL);
#endif
}

/* What a barrier must do: no rank leaves before the last one has arrived.  Ranks 0, P/2 and P-1 in turn
 * arrive late (1 ms simulated, 2 ms real) while the others call at once; *bad counts the ranks that left
 * before the late one arrived, summed over the three runs. */
static int barrier_check(const bench_t *b, const cell_t *c, call_t *k, size_t *bad)
{
    int rc = PACT_OK;
    const int late[3] = {b->size - 1, 0, b->size / 2};
    unsigned long mine = 0, all = 0;
#ifdef PACT_SMPI
    const double delay = 1e-3;
#else
    const double delay = 2e-3;
#endif
    for (int i = 0; i < 3; i++) {
        if ((i == 1 && late[1] == late[0]) || (i == 2 && (late[2] == late[0] || late[2] == late[1])))
            continue;
        double arrived = 0;
        PACT_MPI_CHECK(MPI_Barrier(b->comm));
        if (b->rank == late[i]) {
            sleep_for(delay);
            arrived = shared_clock();
        }
        if ((rc = run_call(c, k, b->comm)) != PACT_OK)
            goto out;
        double left = shared_clock();
        PACT_MPI_CHECK(MPI_Bcast(&arrived, 1, MPI_DOUBLE, late[i], b->comm));
        mine += left < arrived;
    }
    PACT_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, b->comm));
    *bad = all;
out:
    return rc;
}

/* Runs the cell once on seeded data and compares with the library's collective (for the non-commutative
 * "compose", with the rank-order fold computed here).  *bad: elements wrong, summed over ranks.  A
 * collective without data (barrier) has barrier_check() instead. */
static int check_call(const bench_t *b, const cell_t *c, call_t *k, size_t *bad)
{
    if (pact_coll_dataless(c->coll))
        return barrier_check(b, c, k, bad);
    int rc = PACT_OK;
    size_t ns, nr, es = c->dt->size;
    pact_coll_buf_counts(c->coll, b->rank, b->size, c->root, c->count, &ns, &nr);
    void *want = calloc(nr + 1, es), *input = calloc(ns + 1, es);
    unsigned long mine = 0, all = 0;
    if (!want || !input) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    if (c->op->commutative || !pact_coll_traits_of(c->coll)->reduces) {
        call_t ref = {.send = input, .recv = want, .inplace = 0};
        stage_input(b, c, input, want, 0, b->rank);
        if ((rc = library_call(c, &ref, b->comm)) != PACT_OK)
            goto out;
    } else if (nr > 0) { /* a result of one block: this rank's block of the vector */
        size_t first = 0;
        for (int r = 0; pact_coll_traits_of(c->coll)->recv == PACT_SHAPE_MY_BLOCK && r < b->rank; r++) {
            size_t s_, n_;
            pact_coll_buf_counts(c->coll, r, b->size, c->root, c->count, &s_, &n_);
            first += n_;
        }
        expected_fold(c, b->size, want, first, nr);
    }
    if (b->check_twice) { /* a plan's second run must not see its first run's data */
        stage_input(b, c, k->send, k->recv, k->inplace, (b->rank + 1) % b->size);
        if ((rc = run_call(c, k, b->comm)) != PACT_OK)
            goto out;
    }
    stage_input(b, c, k->send, k->recv, k->inplace, b->rank);
    if ((rc = run_call(c, k, b->comm)) != PACT_OK)
        goto out;
    mine = (unsigned long)compare(k->recv, want, c->dt, nr, b->size);
    PACT_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, b->comm));
    *bad = all;
out:
    free(want);
    free(input);
    return rc;
}

/* ---- measuring ------------------------------------------------------------------------------------ */

/* Reads the pattern file on rank 0 and scatters one delay to each rank.  A missing file means no delay. */
static int read_delay(const bench_t *b, const cell_t *c, double *delay)
{
    int rc = PACT_OK, ok = 1;
    double *all = NULL;
    *delay = 0;
    if (strcmp(c->pattern, "-") == 0 || c->pattern[0] == 0)
        return PACT_OK;
    if (b->rank == 0) {
        all = calloc((size_t)b->size, sizeof(double));
        FILE *f = fopen(c->pattern, "r");
        char line[256];
        int n = 0, lineno = 0;
        if (!all || !f) {
            fprintf(stderr, "pact-bench: %s: cannot read pattern file\n", c->pattern);
            ok = 0;
        }
        while (ok && fgets(line, sizeof(line), f)) {
            lineno++;
            char *p = line, *end;
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '#' || *p == 0)
                continue;
            errno = 0;
            double v = strtod(p, &end);
            while (isspace((unsigned char)*end))
                end++;
            if (end == p || errno || (*end && *end != '#') || !(v >= 0) || !isfinite(v) || n >= b->size) {
                fprintf(stderr, "pact-bench: %s:%d: expected one delay >= 0 in seconds per rank (%d ranks)\n",
                        c->pattern, lineno, b->size);
                ok = 0;
                break;
            }
            all[n++] = v;
        }
        if (ok && n != b->size) {
            fprintf(stderr, "pact-bench: %s: %d delays for %d ranks\n", c->pattern, n, b->size);
            ok = 0;
        }
        if (f)
            fclose(f);
    }
    PACT_MPI_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, b->comm));
    if (!ok) {
        rc = PACT_ERR_ARG;
        goto out;
    }
    PACT_MPI_CHECK(MPI_Scatter(all, 1, MPI_DOUBLE, delay, 1, MPI_DOUBLE, 0, b->comm));
out:
    free(all);
    return rc;
}

/* What each rank reports per call: arrival, exit (both after the common reference), late flag (1: missed the
 * start, 2: overslept), estimated clock offset, offset by the machine's monotonic clock. */
#define NREC 5

/* ---- the measurement protocol: agree on a start, gather the records, share the verdict ---------------
 *
 * On a real machine these are MPI calls.  Under SMPI they would be simulated messages too, and the records
 * that ranks leaving the call early send to rank 0, then the next call's barrier, would share links with
 * the ranks still inside it: d^ up to 3.3% off the replay's (generic32x32 4 x 4, root 5: 203 of 620 cells of
 * tests/data/equivalence/eq-a.yaml beyond 1e-12).  The ranks of one smpirun are actors of one process
 * (smpi/privatization:no, pact_smpi_cfg), so under SMPI the records go to memory they share and the ranks
 * meet at a SimGrid barrier, which costs no simulated time and sends nothing: the network carries the
 * collective alone, as in a replay. */
#ifdef PACT_SMPI
struct shm {
    sg_bar_t bar;
    int verdict;
    double rec[]; /* NREC per rank */
};

/* Rank 0 makes the shared state and every rank takes its address from rank 0's copy of `made`; a rank of
 * a privatized run (its own globals) sees NULL, and then all ranks keep to MPI messages. */
static struct shm *made;

static int shm_setup(bench_t *b)
{
    int rc = PACT_OK, seen, all = 0;
    if (b->rank == 0 && (made = malloc(sizeof(*made) + NREC * sizeof(double) * (size_t)b->size)))
        made->bar = sg_barrier_init((unsigned)b->size);
    PACT_MPI_CHECK(MPI_Barrier(b->comm));
    seen = made != NULL;
    PACT_MPI_CHECK(MPI_Allreduce(&seen, &all, 1, MPI_INT, MPI_MIN, b->comm));
    if (all)
        b->shm = made;
    else if (b->rank == 0)
        fprintf(stderr,
                "pact-bench: ranks do not share memory (smpi/privatization on?): the records go by "
                "MPI messages, which share links with ranks still in the call (d^ up to ~1%% high)\n");
out:
    return rc;
}

/* After the last call: every rank is past its last use (main's final MPI_Allreduce). */
static void shm_free(bench_t *b)
{
    if (b->rank == 0 && made) {
        sg_barrier_destroy(made->bar);
        free(made);
        made = NULL;
    }
    b->shm = NULL;
}
#endif

/* Waits for every rank and returns the common reference time, `margin` after the last rank came. */
static int proto_start(bench_t *b, double *ref)
{
    int rc = PACT_OK;
    double t;
#ifdef PACT_SMPI
    if (b->shm) { /* all ranks leave the barrier at once, on one clock */
        sg_barrier_wait(b->shm->bar);
        *ref = now_global(b) + b->margin;
        goto out;
    }
#endif
    PACT_MPI_CHECK(MPI_Barrier(b->comm));
    t = now_global(b);
    PACT_MPI_CHECK(MPI_Allreduce(&t, ref, 1, MPI_DOUBLE, MPI_MAX, b->comm));
    *ref += b->margin;
out:
    return rc;
}

/* Rank 0 gets every rank's NREC records in rank order. */
static int proto_gather(bench_t *b, const double *mine, double *gathered)
{
    int rc = PACT_OK;
#ifdef PACT_SMPI
    if (b->shm) { /* the barrier waits until every rank has left the call and written its records */
        memcpy(b->shm->rec + NREC * (size_t)b->rank, mine, NREC * sizeof(double));
        sg_barrier_wait(b->shm->bar);
        if (b->rank == 0)
            memcpy(gathered, b->shm->rec, NREC * sizeof(double) * (size_t)b->size);
        goto out;
    }
#endif
    PACT_MPI_CHECK(MPI_Gather(mine, NREC, MPI_DOUBLE, gathered, NREC, MPI_DOUBLE, 0, b->comm));
out:
    return rc;
}

/* Every rank gets rank 0's *v. */
static int proto_share(bench_t *b, int *v)
{
    int rc = PACT_OK;
#ifdef PACT_SMPI
    if (b->shm) {
        if (b->rank == 0)
            b->shm->verdict = *v;
        sg_barrier_wait(b->shm->bar);
        *v = b->shm->verdict; /* read before rank 0 can write the next one: that takes two more barriers */
        goto out;
    }
#endif
    PACT_MPI_CHECK(MPI_Bcast(v, 1, MPI_INT, 0, b->comm));
out:
    return rc;
}

/* One measured call: returns through *late whether any rank reached its start after its deadline. */
static int timed_call(bench_t *b, const cell_t *c, call_t *k, double delay, double *res, double *gathered,
                      int *late)
{
    int rc = PACT_OK;
    double ref;
    if ((rc = proto_start(b, &ref)) != PACT_OK)
        goto out;
    double mine[NREC];
    mine[2] = now_global(b) > ref + delay;
    mine[3] = b->offset;
    mine[4] = b->mono_offset;
    wait_until(b, ref + delay);
    mine[0] = now_global(b);
    /* Overslept (a rank that shares a core is not scheduled in time): the arrival is not the pattern's. */
    if (!mine[2] && mine[0] - (ref + delay) > b->tol)
        mine[2] = 2;
    if ((rc = run_call(c, k, b->comm)) != PACT_OK)
        goto out;
    mine[1] = now_global(b);
    mine[0] -= ref;
    mine[1] -= ref;
    if ((rc = proto_gather(b, mine, gathered)) != PACT_OK)
        goto out;
    int l = 0;
    if (b->rank == 0) {
        double amin = gathered[0], amax = gathered[0], emax = gathered[1];
        for (int i = 0; i < b->size; i++) {
            amin = fmin(amin, gathered[NREC * i]);
            amax = fmax(amax, gathered[NREC * i]);
            emax = fmax(emax, gathered[NREC * i + 1]);
            l = l > (int)gathered[NREC * i + 2] ? l : (int)gathered[NREC * i + 2];
        }
        res[0] = emax - amax;
        res[1] = emax - amin;
    }
    if ((rc = proto_share(b, &l)) != PACT_OK)
        goto out;
    *late = l;
out:
    return rc;
}

static void csv_status(FILE *f, const char *why)
{
    fputs("restricted:", f);
    for (const char *p = why; *p; p++)
        fputc(*p == ',' ? ';' : (*p == ' ' ? '_' : *p), f);
}

static int run_cell(bench_t *b, const cell_t *c)
{
    int rc = PACT_OK;
    call_t k;
    const char *why = NULL;
    double delay = 0, *gathered = NULL;
    if ((rc = read_delay(b, c, &delay)) != PACT_OK)
        return rc;
    rc = call_setup(b, c, &k, 0, &why);
    if (rc == PACT_ERR_RESTRICTED) {
        if (b->rank == 0)
            for (int r = 0; r < c->reps; r++) {
                fprintf(b->out, "%s,%d,,,", c->id, r);
                csv_status(b->out, why);
                fputc('\n', b->out);
            }
        rc = PACT_OK;
        goto out;
    }
    if (rc != PACT_OK) {
        fprintf(stderr, "pact-bench: cell %s: %s\n", c->id, why ? why : "set-up failed");
        goto out;
    }
    if (b->rank == 0 && !(gathered = malloc(NREC * sizeof(double) * (size_t)b->size))) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    const char *status = "ok";
    if (c->check && !b->timing_only) {
        size_t bad = 0;
        if ((rc = check_call(b, c, &k, &bad)) != PACT_OK)
            goto out;
        if (bad)
            status = "wrong";
    }
    for (int r = -c->warmup; r < c->reps; r++) {
        double res[2] = {0, 0};
        int late = 1;
        for (int tries = 0; late && tries < MAX_TRIES; tries++) {
            if ((rc = timed_call(b, c, &k, delay, res, gathered, &late)) != PACT_OK)
                goto out;
            if (late == 1) /* the common start came too soon for some rank: give it more time */
                b->margin *= 2;
        }
        if (r < 0 || b->rank != 0)
            continue;
        fprintf(b->out, "%s,%d,%.17g,%.17g,%s\n", c->id, r, res[0], res[1], late ? "late" : status);
        if (b->arr)
            for (int i = 0; i < b->size; i++)
                fprintf(b->arr, "%s,%d,%d,%.17g,%.17g,%.17g,%.17g\n", c->id, r, i, gathered[NREC * i],
                        gathered[NREC * i + 1], gathered[NREC * i + 3], gathered[NREC * i + 4]);
    }
    if (b->rank == 0) {
        fflush(b->out);
        if (b->arr)
            fflush(b->arr);
    }
out:
    free(gathered);
    call_free(b, &k);
    return rc;
}

/* ---- plan files and options ------------------------------------------------------------------------- */

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || errno || s[0] == '-')
        return 0;
    *out = (size_t)v;
    return 1;
}

/* Parses "cell coll alg count dtype op root reps gamma pattern [params]". */
static int parse_plan_line(char *line, cell_t *c, const char *file, int lineno)
{
    char coll[32], alg[64], count[32], dt[32], op[32], pat[4096], params[256] = "-";
    int root, reps, n;
    double gamma;
    memset(c, 0, sizeof(*c));
    n = sscanf(line, "%63s %31s %63s %31s %31s %31s %d %d %lf %4095s %255s", c->id, coll, alg, count, dt, op,
               &root, &reps, &gamma, pat, params);
    if (n < 10 || pact_coll_from_name(coll) < 0 || !parse_size(count, &c->count) ||
        !(c->dt = find_dtype(dt)) || !(c->op = find_op(op)) || reps < 1 || !(gamma >= 0)) {
        fprintf(stderr, "pact-bench: %s:%d: malformed plan line\n", file, lineno);
        return PACT_ERR_ARG;
    }
    c->coll = (pact_coll)pact_coll_from_name(coll);
    snprintf(c->alg, sizeof(c->alg), "%s", alg);
    snprintf(c->pattern, sizeof(c->pattern), "%s", pat);
    snprintf(c->params, sizeof(c->params), "%s", strcmp(params, "-") ? params : "");
    c->root = root;
    c->reps = reps;
    c->gamma = gamma;
    c->warmup = 1;
    return PACT_OK;
}

static int run_plan(bench_t *b, const char *file)
{
    int rc = PACT_OK;
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "pact-bench: %s: %s\n", file, strerror(errno));
        return PACT_ERR_ARG;
    }
    char line[8192];
    int lineno = 0;
    while (fgets(line, sizeof(line), f)) {
        lineno++;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#' || *p == 0)
            continue;
        cell_t c;
        if ((rc = parse_plan_line(p, &c, file, lineno)) != PACT_OK)
            break;
        if ((rc = run_cell(b, &c)) != PACT_OK)
            break;
    }
    fclose(f);
    return rc;
}

/* Expands a comma list of counts; "P-1", "P+1", "P" stand for the communicator size. */
static int parse_counts(const char *list, int P, size_t *out, int max)
{
    int n = 0;
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
        if (t[0] == 'P') {
            long d = t[1] ? strtol(t + 1, NULL, 10) : 0;
            if ((long)P + d < 0)
                continue;
            out[n++] = (size_t)((long)P + d);
        } else if (!parse_size(t, &out[n++])) {
            return -1;
        }
    }
    return n;
}

static int in_list(const char *list, const char *name)
{
    if (!list || strcmp(list, "all") == 0)
        return 1;
    size_t l = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += l)
        if ((p == list || p[-1] == ',') && (p[l] == ',' || p[l] == 0))
            return 1;
    return 0;
}

typedef struct {
    const char *colls, *algs, *counts, *dtypes, *ops, *roots;
    double max_bytes; /* skip cells whose receive buffer would be larger */
} matrix_opts;

/* Roots to try: a comma list of numbers and P-1, P/2; duplicates dropped. */
static int parse_roots(const char *list, int P, int *out, int max)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
        int r = !strcmp(t, "P-1") ? P - 1 : !strcmp(t, "P/2") ? P / 2 : atoi(t);
        if (r < 0 || r >= P)
            continue;
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= out[i] == r;
        if (!dup)
            out[n++] = r;
    }
    return n;
}

/* One cell of the matrix: PACT_OK, or PACT_ERR_RESTRICTED (counted as skipped), or an error. */
static int matrix_cell(bench_t *b, cell_t *c, int inplace, long *passed, long *failed, long *skipped)
{
    call_t k;
    const char *why;
    int rc = call_setup(b, c, &k, inplace, &why);
    if (rc == PACT_ERR_RESTRICTED) {
        (*skipped)++;
        rc = PACT_OK;
    } else if (rc == PACT_OK) {
        size_t bad = 0;
        if ((rc = check_call(b, c, &k, &bad)) == PACT_OK) {
            if (bad) {
                (*failed)++;
                if (b->rank == 0 && pact_coll_dataless(c->coll))
                    printf("WRONG %s %s P=%d: %zu ranks left before the late rank arrived\n",
                           pact_coll_name(c->coll), c->alg, b->size, bad);
                else if (b->rank == 0)
                    printf("WRONG %s %s P=%d count=%zu %s %s root=%d%s: %zu elements differ\n",
                           pact_coll_name(c->coll), c->alg, b->size, c->count, c->dt->name, c->op->name,
                           c->root, inplace ? " in-place" : "", bad);
            } else {
                (*passed)++;
            }
        }
    }
    call_free(b, &k);
    return rc;
}

/* Every algorithm of the chosen collectives x counts x dtypes x ops x roots x {out of place, in place}, each
 * compared with the library's collective.  One line per failure and a total; PACT_ERR_CHECK if any failed. */
static int run_matrix(bench_t *b, const matrix_opts *m)
{
    int rc = PACT_OK, roots[8], nroots = parse_roots(m->roots, b->size, roots, 8);
    size_t cnt[32];
    long passed = 0, failed = 0, skipped = 0, big = 0;
    int nc = parse_counts(m->counts, b->size, cnt, 32);
    if (nc < 0) {
        if (b->rank == 0)
            fprintf(stderr, "pact-bench: --counts: malformed list '%s'\n", m->counts);
        return PACT_ERR_ARG;
    }
    for (size_t ai = 0; ai < pact_alg_count(); ai++) {
        const pact_alg *a = pact_alg_at(ai);
        pact_coll coll = a->coll;
        if (!in_list(m->colls, pact_coll_name(coll)) || !in_list(m->algs, a->name))
            continue;
        const pact_coll_traits *ct = pact_coll_traits_of(coll);
        int reduces = ct->reduces;
        /* a collective without data (barrier): one cell, count 0, the first datatype, out of place */
        const int dataless = pact_coll_dataless(coll), ncounts = dataless ? 1 : nc;
        int first_dt = 1;
        for (int ci = 0; ci < ncounts; ci++)
            for (size_t di = 0; di < sizeof(dtypes) / sizeof(dtypes[0]); di++) {
                if (!in_list(m->dtypes, dtypes[di].name) || (dataless && !first_dt))
                    continue;
                first_dt = 0;
                size_t ns, nr;
                pact_coll_buf_counts(coll, 0, b->size, 0, cnt[ci], &ns, &nr);
                size_t nbuf = (ns > nr ? ns : nr) * dtypes[di].size;
                for (size_t oi = 0; oi < sizeof(ops) / sizeof(ops[0]); oi++) {
                    /* data-moving collectives need one pass per dtype, whatever the op */
                    if (reduces ? !in_list(m->ops, ops[oi].name) || !dt_op_ok(&dtypes[di], &ops[oi])
                                : oi != (dtypes[di].kind == DT_PAIR ? 3u : 0u))
                        continue;
                    /* the rank-order fold of "compose" is computed here, P x count per rank: keep it small */
                    if ((double)nbuf > m->max_bytes ||
                        (reduces && dtypes[di].kind == DT_PAIR && cnt[ci] > 4096)) {
                        big++;
                        continue;
                    }
                    for (int ri = 0; ri < (pact_coll_rooted(coll) ? nroots : 1); ri++)
                        for (int inplace = 0; inplace < (ct->inplace == PACT_INPLACE_NONE ? 1 : 2); inplace++) {
                            cell_t c = {.coll = coll,
                                        .count = dataless ? 0 : cnt[ci],
                                        .dt = &dtypes[di],
                                        .op = &ops[oi],
                                        .root = pact_coll_rooted(coll) ? roots[ri] : 0};
                            snprintf(c.alg, sizeof(c.alg), "%s", a->name);
                            if ((rc = matrix_cell(b, &c, inplace, &passed, &failed, &skipped)) != PACT_OK)
                                return rc;
                        }
                }
            }
    }
    if (b->rank == 0)
        printf("pact-bench matrix %s P=%d: %ld right, %ld wrong, %ld restricted, %ld over %.0f bytes\n",
               m->colls, b->size, passed, failed, skipped, big, m->max_bytes);
    return failed ? PACT_ERR_CHECK : PACT_OK;
}

static void usage(void)
{
    fputs("usage: pact-bench --coll C --alg A --count N [--dtype int|float|double] [--op sum|max|min]\n"
          "                  [--root R] [--reps R] [--pattern FILE] [--gamma G] [--check] [--timing-only]\n"
          "                  [--params segsize=64K,fanout=4]\n"
          "       pact-bench --plan FILE [--timing-only]\n"
          "       pact-bench --matrix [--coll C,D|all] [--algs a,b|all] [--counts 0,1,P-1,P+1,1000]\n"
          "                  [--dtypes int,float,double,pair] [--ops sum,max,compose] [--roots 0,P-1,P/2]\n"
          "                  [--max-bytes B]\n"
          "  checks: [--check-twice] (each plan runs once on other input before the checked run)\n"
          "  common: [--out FILE] [--arrivals FILE] [--arrival-tol SECONDS (default 5e-6)]\n",
          stderr);
}

int main(int argc, char **argv)
{
    int rc = PACT_OK;
    bench_t b = {.comm = MPI_COMM_WORLD, .margin = PACT_START_MARGIN, .tol = 5e-6, .out = stdout};
    cell_t one = {.coll = PACT_COLL_ALLREDUCE, .reps = 5, .warmup = 1, .pattern = "-"};
    const char *plan = NULL, *outf = NULL, *arrf = NULL;
    matrix_opts mx = {.colls = NULL,
                      .algs = "all",
                      .counts = "0,1,P-1,P+1,1000",
                      .dtypes = "int,float,double,pair",
                      .ops = "sum,max,compose",
                      .roots = "0,P-1,P/2",
                      .max_bytes = 64.0 * 1024 * 1024};
    int matrix = 0, bad_args = 0;
    snprintf(one.id, sizeof(one.id), "0");
    snprintf(one.alg, sizeof(one.alg), "mpi");
    one.dt = find_dtype("double");
    one.op = find_op("sum");

    MPI_Init(&argc, &argv);
#ifdef PACT_SMPI
    if (pact_smpi_clock_freeze && !sg_cfg_get_boolean("smpi/simulate-computation"))
        pact_smpi_clock_freeze(1);
#endif
    MPI_Comm_rank(b.comm, &b.rank);
    MPI_Comm_size(b.comm, &b.size);
    /* Once per process: under SMPI without privatization (pact_smpi_cfg) all ranks share these tables, and
     * an SMPI datatype or operation serves every rank.  Nothing else in the rank programs is global. */
    if (dtypes[3].type == MPI_DATATYPE_NULL) {
        MPI_Type_contiguous(2, MPI_UNSIGNED, &dtypes[3].type);
        MPI_Type_commit(&dtypes[3].type);
        MPI_Op_create(compose_fn, 0, &ops[3].op);
    }

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (!strcmp(o, "--check"))
            one.check = 1, used = 0;
        else if (!strcmp(o, "--check-twice"))
            b.check_twice = 1, used = 0;
        else if (!strcmp(o, "--timing-only"))
            b.timing_only = 1, used = 0;
        else if (!strcmp(o, "--matrix"))
            matrix = 1, used = 0;
        else if (!v)
            bad_args = 1;
        else if (!strcmp(o, "--coll"))
            mx.colls = v, one.coll = (pact_coll)pact_coll_from_name(v);
        else if (!strcmp(o, "--alg"))
            snprintf(one.alg, sizeof(one.alg), "%s", v);
        else if (!strcmp(o, "--count"))
            bad_args |= !parse_size(v, &one.count);
        else if (!strcmp(o, "--dtype"))
            bad_args |= !(one.dt = find_dtype(v));
        else if (!strcmp(o, "--op"))
            bad_args |= !(one.op = find_op(v));
        else if (!strcmp(o, "--root"))
            one.root = atoi(v);
        else if (!strcmp(o, "--reps"))
            bad_args |= (one.reps = atoi(v)) < 1;
        else if (!strcmp(o, "--params"))
            snprintf(one.params, sizeof(one.params), "%s", v);
        else if (!strcmp(o, "--pattern"))
            snprintf(one.pattern, sizeof(one.pattern), "%s", v);
        else if (!strcmp(o, "--gamma"))
            one.gamma = atof(v);
        else if (!strcmp(o, "--plan"))
            plan = v;
        else if (!strcmp(o, "--out"))
            outf = v;
        else if (!strcmp(o, "--arrivals"))
            arrf = v;
        else if (!strcmp(o, "--arrival-tol"))
            bad_args |= !((b.tol = atof(v)) >= 0);
        else if (!strcmp(o, "--algs"))
            mx.algs = v;
        else if (!strcmp(o, "--counts"))
            mx.counts = v;
        else if (!strcmp(o, "--dtypes"))
            mx.dtypes = v;
        else if (!strcmp(o, "--ops"))
            mx.ops = v;
        else if (!strcmp(o, "--roots"))
            mx.roots = v;
        else if (!strcmp(o, "--max-bytes"))
            bad_args |= !((mx.max_bytes = atof(v)) > 0);
        else
            bad_args = 1;
        i += used;
        if (bad_args) {
            if (b.rank == 0) {
                fprintf(stderr, "pact-bench: bad option or value: %s\n", o);
                usage();
            }
            rc = PACT_ERR_ARG;
            goto out;
        }
    }
    if (b.rank == 0 && outf && !(b.out = fopen(outf, "w"))) {
        fprintf(stderr, "pact-bench: %s: %s\n", outf, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    if (b.rank == 0 && arrf && !(b.arr = fopen(arrf, "w"))) {
        fprintf(stderr, "pact-bench: %s: %s\n", arrf, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, b.comm);
    if (rc != PACT_OK)
        goto out;

    if (!matrix && mx.colls && pact_coll_from_name(mx.colls) < 0) {
        if (b.rank == 0)
            fprintf(stderr, "pact-bench: --coll %s: expected one collective\n", mx.colls);
        rc = PACT_ERR_ARG;
        goto out;
    }
    if (!mx.colls)
        mx.colls = "all";
#ifdef PACT_SMPI
    /* SimGrid lays the ranks' stacks out alike, so the lines a context switch saves and restores sit at
     * the same offset in each and crowd into few cache sets: at 256 ranks they evict each other.  Each
     * rank starts its calls 64 bytes further down than the one before (perf, allgather neighbor 8 B at
     * 256 ranks: time in raw_swapcontext 93-106 ms -> 58-62 ms, total -5 to -10%, either engine). */
    volatile char *stagger = __builtin_alloca(64 * (size_t)(b.rank % 256) + 1);
    stagger[0] = 0;
#endif
    if (matrix) {
        rc = run_matrix(&b, &mx);
    } else {
        if ((rc = clock_sync(&b)) != PACT_OK)
            goto out;
#ifdef PACT_SMPI
        if ((rc = shm_setup(&b)) != PACT_OK)
            goto out;
#endif
        if (b.rank == 0)
            fprintf(b.out, "cell,rep,last_delay_s,total_delay_s,status\n");
        if (b.rank == 0 && b.arr)
            fprintf(b.arr, "cell,rep,rank,arrival_s,exit_s,clock_offset_s,mono_offset_s\n");
        rc = plan ? run_plan(&b, plan) : run_cell(&b, &one);
    }
out:
    if (b.rank == 0 && b.out && b.out != stdout)
        fclose(b.out);
    if (b.rank == 0 && b.arr)
        fclose(b.arr);
    {
        int any = rc != PACT_OK, all = 0;
        MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, b.comm);
        if (all && rc == PACT_OK)
            rc = PACT_ERR_CHECK;
    }
#ifdef PACT_SMPI
    shm_free(&b);
#endif
    MPI_Finalize();
    return rc == PACT_OK ? 0 : (rc == PACT_ERR_ARG ? 2 : 1);
}
