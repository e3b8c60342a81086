/*
 * pact_ir.h - the schedule IR: one rank's operations (send, recv, reduce, copy) on buffer slices with their
 * dependencies, the builder API that appends them, and the program (the order of MPI calls a schedule makes).
 *
 * A collective algorithm is written once, as a builder (sim/coll/) that emits one rank's schedule; the MPI
 * executor (sim/rank/), the trace replay (sim/engines/) and the cost models (models/) all consume this IR.
 * Plain C11: no MPI, no GLib, so host tools, rank programs and libpact all include it.
 */
#ifndef PACT_IR_H
#define PACT_IR_H

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

/*
 * A sub-group of a schedule's group, for compositions: a hierarchical algorithm runs one builder on the ranks
 * of each node, another on the node leaders.  While a map is pushed (pact_sched_push), the operations a
 * builder appends name sub-group ranks, sub-schedule buffers and tags, which the schedule translates to ranks
 * of the enclosing group, slices of the enclosing buffers and tags of their own; maps nest.
 */
typedef struct pact_rank_map {
    const int *ranks;        /* sub-group rank -> rank of the enclosing group; NULL: the same ranks */
    int size, rank;          /* the sub-group's size and this rank's index in it */
    uint32_t buf[PACT_NBUF]; /* the sub-schedule's buffer b is the enclosing buffer buf[b] ... */
    size_t off[PACT_NBUF];   /* ... from element off[b] on */
    int tag;                 /* added to the sub-schedule's tags, so its messages match only each other */
    const struct pact_rank_map *outer; /* the enclosing map, set by pact_sched_push */
} pact_rank_map;

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
    const pact_rank_map *map; /* the innermost pushed map, NULL: builders address the group itself */
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
int pact_append_slow(pact_sched *s, pact_op_kind kind, int peer, pact_slice dst, pact_slice src);
void pact_after_slow(pact_sched *s, int dep);

/* The calls below inline their common case (no map, no error, room left), which is what building costs at
 * scale: 1024 ranks of ring allreduce append 5.2 million operations, and the calls were an eighth of
 * preparing and evaluating that schedule set once (results/reference/model-speed.md); the rest goes the
 * whole way (sched.c).  After a fence each operation takes its dependency here too: modified Bruck alltoall
 * fences each step, and its 3,100 operations a rank at 1024 ranks went the whole way. */
static inline void pact_after(pact_sched *s, int dep)
{
    if (dep >= 0 && s->err == PACT_OK && (size_t)dep + 1 < s->nops && s->ndeps < s->cap_deps) {
        s->deps[s->ndeps++] = (uint32_t)dep;
        s->ops[s->nops - 1].ndeps++;
        return;
    }
    pact_after_slow(s, dep);
}

static inline int pact_append(pact_sched *s, pact_op_kind kind, int peer, pact_slice dst, pact_slice src)
{
    if (s->map || s->err != PACT_OK || s->nops >= s->cap_ops)
        return pact_append_slow(s, kind, peer, dst, src);
    pact_op *o = &s->ops[s->nops];
    o->kind = kind;
    o->peer = peer;
    o->tag = 0;
    o->src = src;
    o->dst = dst;
    o->dep_first = (uint32_t)s->ndeps;
    o->ndeps = 0;
    const int idx = (int)s->nops++;
    if (s->fence >= 0)
        pact_after(s, s->fence);
    return idx;
}

static inline int pact_send(pact_sched *s, int peer, pact_slice src)
{
    return pact_append(s, PACT_OP_SEND, peer, (pact_slice){0, 0, 0}, src);
}

static inline int pact_recv(pact_sched *s, int peer, pact_slice dst)
{
    return pact_append(s, PACT_OP_RECV, peer, dst, (pact_slice){0, 0, 0});
}

static inline int pact_reduce(pact_sched *s, pact_slice dst, pact_slice src)
{
    return pact_append(s, PACT_OP_REDUCE, -1, dst, src);
}

static inline int pact_copy(pact_sched *s, pact_slice dst, pact_slice src)
{
    return pact_append(s, PACT_OP_COPY, -1, dst, src);
}

void pact_set_tag(pact_sched *s, int tag);
/* Appends a NOP that depends on every operation emitted so far that nothing depends on yet; every operation
 * appended afterwards depends on it.  Use it between the parts of a composition. */
int pact_fence(pact_sched *s);
/* Scratch buffer `buf` (PACT_BUF_TMP0/1) must hold at least `count` elements. */
void pact_need(pact_sched *s, uint32_t buf, size_t count);
/* Pushes a sub-group map (m->outer is set here; m must live until pact_sched_pop) and pops it. */
void pact_sched_push(pact_sched *s, pact_rank_map *m);
void pact_sched_pop(pact_sched *s);

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

#endif
