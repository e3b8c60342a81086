/*
 * pact_coll.h - the collectives, the algorithm registry and the schedule builders (layer 1, above the IR).
 *
 * Each algorithm is one builder, sim/coll/<collective>/<algorithm>.c, registered in that folder's algs.inc;
 * the registry (registry.c) is the one table every consumer looks algorithms up in, by name.  Plain C11.
 */
#ifndef PACT_COLL_H
#define PACT_COLL_H

#include "pact_ir.h"

/* ---- collectives ---------------------------------------------------------------------------- */

/* The collectives, one row each in collectives.inc. */
typedef enum {
#define PACT_COLLECTIVE(name, ENUM, ...) PACT_COLL_##ENUM,
#include "collectives.inc"
#undef PACT_COLLECTIVE
    PACT_NCOLL
} pact_coll;

/* Buffer shapes and in-place rules of the traits table (see collectives.inc). */
typedef enum { PACT_SHAPE_NONE, PACT_SHAPE_VECTOR, PACT_SHAPE_AT_ROOT, PACT_SHAPE_BLOCKS, PACT_SHAPE_MY_BLOCK } pact_shape;
typedef enum {
    PACT_INPLACE_NONE,
    PACT_INPLACE_ALL,
    PACT_INPLACE_ROOT,
    PACT_INPLACE_MY_BLOCK,
    PACT_INPLACE_WHOLE
} pact_inplace;
typedef enum { PACT_PER_PROCESS, PACT_PER_BLOCK } pact_size_unit;

typedef struct {
    const char *name;
    int rooted, reduces;
    pact_shape send, recv;
    pact_inplace inplace;
    pact_size_unit size_per;
    const char *mpi;  /* the reference MPI call */
    int ompi_coll_id; /* coll_tuned dynamic rules id */
} pact_coll_traits;

/* The traits of collective c (NULL for a value out of range). */
const pact_coll_traits *pact_coll_traits_of(pact_coll c);
const char *pact_coll_name(pact_coll c);
/* Returns the collective of that name, or -1. */
int pact_coll_from_name(const char *name);
/* 1 when the collective takes a root. */
int pact_coll_rooted(pact_coll c);
/* Whether `rank` passes MPI_IN_PLACE when a call is in place (reduce: the root only; bcast: nobody). */
int pact_coll_rank_inplace(pact_coll c, int rank, int root, int inplace);
/* Element offset in RECV of the input of an in-place call (allgather: this rank's block). */
size_t pact_coll_inplace_offset(pact_coll c, int rank, int size, size_t count);
/* "allreduce, reduce, bcast, ..." (static). */
const char *pact_coll_list(void);
/* 1 when a count (pact sim's --sizes, a cost's m) is one block of a buffer of P blocks (alltoall,
 * allgather), 0 when it is a process's whole buffer (the traits' size_per). */
int pact_coll_m_per_block(pact_coll c);
/* 1 when the collective moves no data (barrier): sizes do not apply, counts are 0. */
int pact_coll_dataless(pact_coll c);
/* 1 when, in place, the receive buffer holds the whole input, larger than the result (reduce_scatter). */
int pact_coll_inplace_whole(pact_coll c);

/* ---- algorithms -------------------------------------------------------------------------------- */

/* Restrictions, checked in one place (pact_build) before a builder runs. */
#define PACT_R_POF2 (1u << 0)        /* P must be a power of two */
#define PACT_R_COMMUTATIVE (1u << 1) /* the operation must be commutative */
#define PACT_R_COUNT_GE_P (1u << 2)  /* count >= P */
#define PACT_R_NOT_INPLACE (1u << 3) /* no MPI_IN_PLACE (Open MPI runs a dedicated algorithm then) */
#define PACT_R_TWO_PROCS (1u << 4)   /* P <= 2 (Open MPI's two_procs barrier refuses more) */
#define PACT_R_PLACE (1u << 5)       /* needs args->place (hierarchical algorithms) */
#define PACT_R_ORDER (1u << 6)       /* needs args->order (schedules built from the arrival order) */
#define PACT_R_INPLACE (1u << 7)     /* MPI_IN_PLACE only (MPICH's pairwise_sendrecv_replace alltoall) */
#define PACT_R_NODES (1u << 8)       /* with PACT_R_PLACE: a node holds two ranks or more (MPICH's smp) */
/* The buffer splits into P blocks of ceil(bytes/P) bytes, as MPICH splits a contiguous buffer, which must be
 * whole elements for a schedule to say it (always so for one-byte elements) */
#define PACT_R_BYTE_SPLIT (1u << 9)

/* A tunable parameter of an algorithm (segment size, fan-out, radix ...); an algorithm has any number, listed
 * in its registry entry as an array ending with {NULL}. */
typedef struct {
    const char *name;
    long def;
    const char *help;
} pact_param_desc;

/*
 * Where the ranks of a group run, as builders see it (place.c): the node of every rank, the ranks of every
 * node, and where a machine has them, the network adapter (rail) and GPU of each rank.  One constructor
 * (pact_place_init) fills it for every consumer: the bench driver and libpact from MPI_COMM_TYPE_SHARED,
 * the sweep, the replay writer and the models from the platform's rank-to-node mapping.
 */
typedef struct {
    int size, nnodes;
    int *node_of;    /* size: the node of each rank, nodes numbered 0.. in order of their first rank */
    int *local_rank; /* size: the rank's index among the ranks of its node */
    int *node_first; /* nnodes + 1: node n's ranks are node_ranks[node_first[n] .. node_first[n+1]) */
    int *node_ranks; /* size: the ranks of each node, ascending; the first is the node's leader */
    int *rail_of;    /* size or NULL: the network adapter a rank is bound to (multi-rail machines) */
    int *gpu_of;     /* size or NULL: the GPU a rank drives, -1 for none */
} pact_place;

/* Fills `p` for `size` ranks; node_of[r] is any id of rank r's node (NULL: every rank on a node of its own).
 * PACT_ERR_NOMEM or PACT_ERR_ARG (size < 1) leave nothing to free. */
int pact_place_init(pact_place *p, int size, const int *node_of);
void pact_place_free(pact_place *p);
static inline int pact_place_leader(const pact_place *p, int node)
{
    return p->node_ranks[p->node_first[node]];
}
static inline int pact_place_local_size(const pact_place *p, int rank)
{
    int n = p->node_of[rank];
    return p->node_first[n + 1] - p->node_first[n];
}

typedef struct {
    pact_coll coll;
    int rank, size, root;
    size_t count;     /* elements: per process (allreduce, reduce, bcast), per block (alltoall, allgather) */
    size_t elem_size; /* bytes of one element */
    int commutative;
    int inplace;
    const long *params;      /* by position of the algorithm's parameter descriptions; NULL: the defaults */
    const pact_place *place; /* where the ranks run; NULL: unknown (algorithms with PACT_R_PLACE refuse) */
    const int *order;        /* the arrival order (rank of the i-th arrival), for arrival-order-dependent
                              * algorithms (PACT_R_ORDER); NULL: not known */
} pact_build_args;

typedef int (*pact_builder_fn)(pact_sched *s, const pact_build_args *a);

/* An algorithm's closed-form Hockney cost at P ranks and m bytes (a size as pact counts it): T = a*alpha +
 * b*beta + c*gamma, linear in the parameters so that calibration is a linear least-squares problem; for
 * root 0 and the default parameters.  Written next to the builder, from the same schedule: where a textbook
 * formula assumes something the schedule does not do, the form follows the schedule and says so. */
typedef struct {
    double a, b, c;
} pact_cost;
/* Fills t for P >= 2 ranks and m > 0 bytes (m = 0 only for collectives that move no data; one rank moves
 * nothing, models/closed.c says so); *source gets where the form comes from.  Returns 0 where the algorithm
 * has no closed form at (P, m). */
typedef int (*pact_cost_fn)(int P, double m, pact_cost *t, const char **source);

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
    const char *cost;        /* Hockney cost, m = count x element size: bytes per process, or per block
                              * (alltoall, allgather: pact_coll_m_per_block) */
    pact_cost_fn terms;      /* the same cost as terms (models/closed.c evaluates it) */
    const pact_param_desc *params; /* ends with {NULL}; NULL: none */
    /* PACT_TURN_ADD where every rank's schedule is rank 0's turned by its rank: the same operations, sizes,
     * tags and dependencies, each send's and receive's peer p at (p + rank) mod P (pairwise exchange, rings
     * of equal blocks); PACT_TURN_XOR where that peer is p XOR rank (P a power of two: MPICH's pairwise
     * exchange); 0 where neither holds.  The model then builds rank 0 (and three ranks to check) and turns it
     * for the others (models/prepare.c); test_models compares every such schedule set with one built rank by
     * rank.  NULL: never. */
    int (*rotates)(const pact_build_args *a);
} pact_alg;

/* pact_alg.rotates: how rank r's peers are rank 0's peers p */
enum { PACT_TURN_ADD = 1, PACT_TURN_XOR = 2 };

size_t pact_alg_count(void);
const pact_alg *pact_alg_at(size_t i);
/* The algorithm `name` of collective `c`, or NULL. */
const pact_alg *pact_alg_find(pact_coll c, const char *name);
/* The algorithm of collective `c` with Open MPI coll_tuned id `id`, or NULL. */
const pact_alg *pact_alg_find_ompi(pact_coll c, int id);

/* The algorithm's parameters: how many, the index of `name` (its first `len` characters; -1: none), and
 * their defaults written to values[0 .. pact_alg_nparams(a)). */
size_t pact_alg_nparams(const pact_alg *a);
int pact_alg_param(const pact_alg *a, const char *name, size_t len);
void pact_params_defaults(const pact_alg *a, long *values);

/* The one parser of algorithm specs (spec.c).  pact_spec_parse reads NAME[:param=value...] for collective c
 * into the algorithm and a malloc'd array of its parameter values (defaults, then the overrides; free() it).
 * pact_params_parse applies "param=value" items separated by `sep` (the plan file's ',') to values.  Values
 * are sizes (8, 1K, 64K).  An unknown name or parameter, a malformed value, a parameter given twice:
 * PACT_ERR_ARG with the reason in `why`. */
int pact_spec_parse(pact_coll c, const char *spec, const pact_alg **alg, long **values, char *why,
                    size_t whylen);
int pact_params_parse(const pact_alg *a, const char *text, char sep, long *values, char *why, size_t whylen);
/* The values that differ from the defaults as "param=value,param=value" ("" when none). */
int pact_params_format(const pact_alg *a, const long *values, char *buf, size_t len);
/* PACT_OK when the algorithm applies, else PACT_ERR_RESTRICTED with the reason in *why (static text). */
int pact_alg_applies(const pact_alg *a, const pact_build_args *args, const char **why);
/* Checks restrictions, sizes the user buffers, runs the builder (with the default parameters when
 * args->params is NULL). */
int pact_build(const pact_alg *a, const pact_build_args *args, pact_sched *s);

/* A composition: runs algorithm `a` with arguments `sub` (a sub-group's size and rank, its own count and
 * root; params NULL: the defaults) inside schedule `s`, through map `m` (NULL: on the group itself, the
 * same buffers).  Checks a's restrictions for `sub` (PACT_ERR_RESTRICTED), sizes the enclosing buffers the
 * sub-schedule's SEND and RECV map to, and appends to `s` (which it never resets). */
int pact_compose(pact_sched *s, const pact_alg *a, const pact_build_args *sub, pact_rank_map *m);

/* ---- the plan file: the cells of one simulation, from the sweep to the bench driver (planfile.c) ---- */

/* "cell coll alg count dtype op root reps gamma pattern params", '#' starts a comment line. */
#define PACT_PLAN_HEADER "# cell coll alg count dtype op root reps gamma pattern params\n"

typedef struct {
    char id[64];        /* names the cell in the driver's output */
    pact_coll coll;
    char alg[64];       /* a registry name, or "mpi": the library's own collective */
    size_t count;       /* elements per process (per block for alltoall, allgather) */
    char dtype[16], op[16];
    int root, reps;
    double gamma;       /* seconds charged per byte reduced */
    char pattern[4096]; /* arrival pattern file, "" for none */
    char params[256];   /* the algorithm's parameter overrides, "param=value,...", or "" */
} pact_plan_line;

/* One line with its newline into buf; PACT_ERR_ARG when it does not fit or the pattern path has a blank. */
int pact_plan_line_format(const pact_plan_line *l, char *buf, size_t len);
/* One line (not a comment); PACT_ERR_ARG when malformed (the datatype and operation names are the reader's to
 * check). */
int pact_plan_line_parse(const char *line, pact_plan_line *l);

/* Elements of the send and receive buffers a rank passes to the collective. */
void pact_coll_buf_counts(pact_coll c, int rank, int size, int root, size_t count, size_t *send,
                          size_t *recv);


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
int pact_reduce_mpich_binomial_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_basic_linear_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_chain_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_pipeline_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_split_binary_tree_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_binary_tree_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_binomial_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_knomial_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_scatter_allgather_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_scatter_allgather_ring_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_mpich_scatter_allgather_build(pact_sched *s, const pact_build_args *a);
int pact_bcast_mpich_scatter_allgather_ring_build(pact_sched *s, const pact_build_args *a);
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
