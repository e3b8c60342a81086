/*
 * pact_sim.h - the schedule IR, the algorithm registry and the schedule builders.
 *
 * A collective algorithm is written once, as a builder that emits, for one rank of a group of P ranks,
 * that rank's operations (send, recv, reduce, copy) on buffer slices, with dependencies between them.
 * The same schedule is run by the MPI executor (real MPI and SMPI, sim/pact_mpi.h), exported as SMPI
 * time-independent traces and evaluated by the cost models.  This header is plain C11 with no MPI and
 * no GLib, so host tools and rank code both include it.
 */
#ifndef PACT_SIM_H
#define PACT_SIM_H

#include <stddef.h>
#include <stdint.h>

#define PACT_OK 0
#define PACT_ERR_NOMEM 1
#define PACT_ERR_ARG 2
#define PACT_ERR_RESTRICTED 3 /* the algorithm does not apply to these arguments; not a failure */
#define PACT_ERR_MPI 4
#define PACT_ERR_CHECK 5 /* a result differs from the reference */

/* The bench driver's common start of a call is this long after the ranks met, and every rank then sleeps to
 * start + its delay; a replay sleeps this long plus the delay too.  SimGrid's times can depend on how
 * starts at one instant are ordered, and a trace whose ranks begin at time 0 without a sleep gave 8% less
 * than the same trace behind equal sleeps (reduce binary, generic32x32 8 x 4, 64 KiB). */
#define PACT_START_MARGIN 1e-4

/* ---- collectives ---------------------------------------------------------------------------- */

typedef enum {
    PACT_COLL_ALLREDUCE,
    PACT_COLL_REDUCE,
    PACT_COLL_BCAST,
    PACT_COLL_ALLTOALL,
    PACT_COLL_ALLGATHER,
    PACT_NCOLL
} pact_coll;

const char *pact_coll_name(pact_coll c);
/* Returns the collective of that name, or -1. */
int pact_coll_from_name(const char *name);
/* 1 when the collective takes a root. */
int pact_coll_rooted(pact_coll c);

/* ---- schedule IR ----------------------------------------------------------------------------- */

/* Buffers a schedule addresses.  SEND is the user's send buffer (read only; the executor aliases it to
 * RECV for MPI_IN_PLACE), RECV the user's receive buffer, TMP0/TMP1 scratch the builder sizes. */
enum { PACT_BUF_SEND, PACT_BUF_RECV, PACT_BUF_TMP0, PACT_BUF_TMP1, PACT_NBUF };

/* NOP does nothing; pact_fence() uses it to join everything emitted so far, so that a composition (reduce
 * then bcast, a hierarchical phase after another) starts its next part after the previous one. */
typedef enum { PACT_OP_SEND, PACT_OP_RECV, PACT_OP_REDUCE, PACT_OP_COPY, PACT_OP_NOP } pact_op_kind;

/* A run of `count` elements starting at element `off` of buffer `buf`. */
typedef struct {
    uint32_t buf;
    size_t off;
    size_t count;
} pact_slice;

/*
 * One operation.  send: `src` to `peer`; recv: from `peer` into `dst`; copy: dst <- src;
 * reduce: dst <- src (op) dst, i.e. MPI_Reduce_local(src, dst): `src` is the left operand, which matters
 * for non-commutative operations.  An operation starts once all its dependencies have completed.
 */
typedef struct {
    pact_op_kind kind;
    int32_t peer;
    int32_t tag; /* messages between one pair match in order per tag */
    pact_slice src;
    pact_slice dst;
    uint32_t dep_first; /* index of its first dependency in pact_sched.deps */
    uint32_t ndeps;
} pact_op;

typedef struct {
    int rank, size;
    size_t elem_size;            /* bytes of one element */
    int inplace;                 /* SEND aliases RECV: copies between identical slices are free */
    size_t buf_count[PACT_NBUF]; /* elements each buffer holds */
    pact_op *ops;
    size_t nops, cap_ops;
    uint32_t *deps;
    size_t ndeps, cap_deps;
    int err;   /* sticky: the first error of a builder call */
    int fence; /* the NOP of the last pact_fence(), which every later operation depends on; -1: none */
} pact_sched;

void pact_sched_init(pact_sched *s);
/* Empties the schedule for (rank, size), keeping its memory for the next build. */
void pact_sched_reset(pact_sched *s, int rank, int size, size_t elem_size);
void pact_sched_free(pact_sched *s);

static inline pact_slice pact_sl(uint32_t buf, size_t off, size_t count)
{
    pact_slice x = {buf, off, count};
    return x;
}

/* Builder API.  Each call appends one operation and returns its index (or -1 once an error is sticky);
 * pact_after() adds a dependency to the operation appended last.  Negative indices are ignored, so
 * "no previous operation" needs no special case. */
int pact_send(pact_sched *s, int peer, pact_slice src);
int pact_recv(pact_sched *s, int peer, pact_slice dst);
int pact_reduce(pact_sched *s, pact_slice dst, pact_slice src);
int pact_copy(pact_sched *s, pact_slice dst, pact_slice src);
void pact_after(pact_sched *s, int dep);
void pact_set_tag(pact_sched *s, int tag);
/* Appends a NOP that depends on every operation emitted so far that nothing depends on yet; every operation
 * appended afterwards depends on it.  Use it between the parts of a composition. */
int pact_fence(pact_sched *s);
/* Scratch buffer `buf` (PACT_BUF_TMP0/1) must hold at least `count` elements. */
void pact_need(pact_sched *s, uint32_t buf, size_t count);

static inline const uint32_t *pact_op_deps(const pact_sched *s, size_t i)
{
    return s->deps + s->ops[i].dep_first;
}

/* The dependency graph turned around, for executors: pending[i] is the number of dependencies of operation i
 * and succ[first[i] .. first[i+1]) the operations that depend on it.  The three arrays are allocated here
 * (free() each); PACT_ERR_NOMEM leaves them NULL. */
int pact_sched_successors(const pact_sched *s, uint32_t **pending, uint32_t **first, uint32_t **succ);

/* Checks one rank's schedule: slices inside their buffers, dependencies pointing backwards, peers in
 * range, sends and receives never on the read-only SEND buffer as a destination.  Returns PACT_OK or
 * PACT_ERR_ARG with a message in `why` (may be NULL). */
int pact_sched_validate(const pact_sched *s, char *why, size_t whylen);

/* Bytes an operation moves or reduces. */
static inline size_t pact_op_bytes(const pact_sched *s, const pact_op *o)
{
    return (o->kind == PACT_OP_RECV ? o->dst.count : o->src.count) * s->elem_size;
}

/* ---- the program: a rank's MPI calls for one schedule, in order (program.c) -------------------- */

/* POST: start the send or receive `op`; COMPUTE: run reduction or copy `op`; WAIT: wait for request `op`
 * (joined: the next WAIT belongs to the same wait, nothing can start between them); WAITALL: wait for
 * every request still outstanding (op unused). */
typedef enum { PACT_ACT_POST, PACT_ACT_COMPUTE, PACT_ACT_WAIT, PACT_ACT_WAITALL } pact_act_kind;

typedef struct {
    uint32_t op;
    uint8_t kind; /* pact_act_kind */
    uint8_t joined;
} pact_act;

typedef struct {
    pact_act *acts;
    size_t nacts;
    size_t nposts; /* requests posted */
} pact_program;

#define PACT_PROG_DATA 1u   /* reductions and copies touch data (not a timing-only run) */
#define PACT_PROG_CHARGE 2u /* reductions charge simulated compute time (gamma > 0) */

/* The executor's order of calls for schedule `s` (program.c says which).  A reduction or copy appears only
 * when it does something under `flags`.  PACT_ERR_ARG: the schedule cannot run (a cycle through
 * receives), *stalled is the first operation that cannot start. */
int pact_program_build(const pact_sched *s, unsigned flags, pact_program *g, size_t *stalled);
void pact_program_free(pact_program *g);

/* ---- algorithms -------------------------------------------------------------------------------- */

/* Restrictions, checked in one place (pact_build) before a builder runs. */
#define PACT_R_POF2 (1u << 0)        /* P must be a power of two */
#define PACT_R_COMMUTATIVE (1u << 1) /* the operation must be commutative */
#define PACT_R_COUNT_GE_P (1u << 2)  /* count >= P */
#define PACT_R_NOT_INPLACE (1u << 3) /* no MPI_IN_PLACE (Open MPI runs a dedicated algorithm then) */

#define PACT_MAX_PARAMS 4

typedef struct {
    const char *name;
    long def;
    const char *help;
} pact_param_desc;

typedef struct {
    pact_coll coll;
    int rank, size, root;
    size_t count;     /* elements: per process (allreduce, reduce, bcast), per block (alltoall, allgather) */
    size_t elem_size; /* bytes of one element */
    int commutative;
    int inplace;
    long params[PACT_MAX_PARAMS]; /* by position of the algorithm's parameter descriptions */
} pact_build_args;

typedef int (*pact_builder_fn)(pact_sched *s, const pact_build_args *a);

typedef struct {
    pact_coll coll;
    const char *name;
    pact_builder_fn build;
    unsigned restrictions;   /* PACT_R_* */
    int ompi_id;             /* Open MPI coll_tuned algorithm id, 0 when Open MPI has none */
    const char *mpich;       /* MPICH algorithm name, NULL when none */
    const char *smpi;        /* SimGrid 3.32's built-in of the same algorithm, NULL when none; may carry
                              * :collective=NAME settings it depends on (pact sim's smpi: syntax) */
    const char *smpi_params; /* pact parameters that reproduce SimGrid's hard-coded ones ("segsize=1K"),
                              * used when comparing with `smpi`; NULL: the defaults */
    const char *source;      /* provenance: the library function or paper section it follows */
    const char *cost;        /* Hockney cost, m = bytes per process */
    pact_param_desc params[PACT_MAX_PARAMS];
} pact_alg;

size_t pact_alg_count(void);
const pact_alg *pact_alg_at(size_t i);
/* The algorithm `name` of collective `c`, or NULL. */
const pact_alg *pact_alg_find(pact_coll c, const char *name);
/* The algorithm of collective `c` with Open MPI coll_tuned id `id`, or NULL. */
const pact_alg *pact_alg_find_ompi(pact_coll c, int id);

/* Fills args->params with the algorithm's defaults. */
void pact_args_defaults(const pact_alg *a, pact_build_args *args);
/* PACT_OK when the algorithm applies, else PACT_ERR_RESTRICTED with the reason in *why (static text). */
int pact_alg_applies(const pact_alg *a, const pact_build_args *args, const char **why);
/* Checks restrictions, sizes the user buffers, runs the builder. */
int pact_build(const pact_alg *a, const pact_build_args *args, pact_sched *s);

/* Elements of the send and receive buffers a rank passes to the collective. */
void pact_coll_buf_counts(pact_coll c, int rank, int size, int root, size_t count, size_t *send,
                          size_t *recv);

/* ---- helpers shared by builders ------------------------------------------------------------------ */

static inline int pact_is_pof2(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* Largest power of two <= n (n >= 1). */
static inline int pact_pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* Parses a size: digits with an optional K, M or G suffix (powers of 1024) and an optional B.
 * Returns PACT_OK or PACT_ERR_ARG. */
int pact_parse_size(const char *s, uint64_t *out);

/* Builders, one per file under sim/coll/<collective>/<algorithm>.c, registered in that folder's algs.inc.
 * A builder appends to `s` (never resets it), so one builder may call another for a composition. */
int pact_allreduce_basic_linear_build(pact_sched *s, const pact_build_args *a);
int pact_allreduce_nonoverlapping_build(pact_sched *s, const pact_build_args *a);
int pact_allreduce_recursive_doubling_build(pact_sched *s, const pact_build_args *a);
int pact_allreduce_ring_build(pact_sched *s, const pact_build_args *a);
int pact_allreduce_segmented_ring_build(pact_sched *s, const pact_build_args *a);
int pact_allreduce_rabenseifner_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_linear_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_chain_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_pipeline_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_binary_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_binomial_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_in_order_binary_build(pact_sched *s, const pact_build_args *a);
int pact_reduce_rabenseifner_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_basic_linear_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_chain_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_pipeline_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_split_binary_tree_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_binary_tree_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_binomial_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_knomial_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_scatter_allgather_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_scatter_allgather_ring_build(pact_sched *s, const pact_build_args *a);
int pact_alltoall_linear_build(pact_sched *s, const pact_build_args *a);
int pact_alltoall_pairwise_build(pact_sched *s, const pact_build_args *a);
int pact_alltoall_modified_bruck_build(pact_sched *s, const pact_build_args *a);
int pact_alltoall_linear_sync_build(pact_sched *s, const pact_build_args *a);
int pact_allgather_linear_build(pact_sched *s, const pact_build_args *a);
int pact_allgather_bruck_build(pact_sched *s, const pact_build_args *a);
int pact_allgather_recursive_doubling_build(pact_sched *s, const pact_build_args *a);
int pact_allgather_ring_build(pact_sched *s, const pact_build_args *a);
int pact_allgather_neighbor_build(pact_sched *s, const pact_build_args *a);

#endif
