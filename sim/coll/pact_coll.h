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
