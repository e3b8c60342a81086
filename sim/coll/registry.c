/* registry.c - the one table of algorithms, looked up by name; restrictions checked here, once. */
#include "pact_coll.h"

#include <stdlib.h>
#include <string.h>

/* One table of pointers to the entries, which live at the end of their algorithms' files; each collective's
 * algs.inc lists its algorithms, one line each, and the Makefile gathers them in the order of
 * collectives.inc (build/gen/pact_algs.inc), so that adding an algorithm is its file and one line, and
 * adding a collective touches no list here.  Open MPI ids are those of coll_tuned in 4.1 and 5.0
 * (coll_tuned_<collective>_decision.c), written only in the entries. */
#define PACT_ALG(x) extern const pact_alg pact_alg_##x;
#include "pact_algs.inc"
#undef PACT_ALG

static const pact_alg *const algs[] = {
#define PACT_ALG(x) &pact_alg_##x,
#include "pact_algs.inc"
#undef PACT_ALG
};

size_t pact_alg_count(void)
{
    return sizeof(algs) / sizeof(algs[0]);
}

const pact_alg *pact_alg_at(size_t i)
{
    return i < pact_alg_count() ? algs[i] : NULL;
}

const pact_alg *pact_alg_find(pact_coll c, const char *name)
{
    for (size_t i = 0; i < pact_alg_count(); i++)
        if (algs[i]->coll == c && strcmp(algs[i]->name, name) == 0)
            return algs[i];
    return NULL;
}

const pact_alg *pact_alg_find_ompi(pact_coll c, int id)
{
    for (size_t i = 0; i < pact_alg_count(); i++)
        if (algs[i]->coll == c && algs[i]->ompi_id == id && id > 0)
            return algs[i];
    return NULL;
}

/* Whether some node of `p` holds two ranks or more. */
static int shares_a_node(const pact_place *p)
{
    return p && p->nnodes < p->size;
}

int pact_alg_applies(const pact_alg *a, const pact_build_args *args, const char **why)
{
    const char *reason = NULL;
    if ((a->restrictions & PACT_R_POF2) && !pact_is_pof2(args->size))
        reason = "needs a power-of-two number of processes";
    else if ((a->restrictions & PACT_R_COMMUTATIVE) && !args->commutative)
        reason = "needs a commutative operation";
    else if ((a->restrictions & PACT_R_COUNT_GE_P) && args->count < (size_t)args->size)
        reason = "needs count >= number of processes";
    else if ((a->restrictions & PACT_R_NOT_INPLACE) && args->inplace)
        reason = "not in place (Open MPI runs a dedicated in-place algorithm)";
    else if ((a->restrictions & PACT_R_INPLACE) && !args->inplace)
        reason = "in place only (MPICH runs it for MPI_IN_PLACE only)";
    else if ((a->restrictions & PACT_R_TWO_PROCS) && args->size > 2)
        reason = "needs at most two processes";
    else if ((a->restrictions & PACT_R_PLACE) && (!args->place || args->place->size != args->size))
        reason = "needs to know the node of every rank";
    else if ((a->restrictions & PACT_R_NODES) && !shares_a_node(args->place))
        reason = "needs a node of two ranks or more (MPICH builds node communicators only then)";
    else if ((a->restrictions & PACT_R_ORDER) && !args->order)
        reason = "needs the arrival order";
    else if ((a->restrictions & PACT_R_BYTE_SPLIT) && args->elem_size > 1 &&
             (args->count * args->elem_size + (size_t)args->size - 1) / (size_t)args->size % args->elem_size)
        reason = "MPICH's blocks of ceil(bytes/P) bytes are not whole elements here (use --dtype char)";
    if (why)
        *why = reason;
    return reason ? PACT_ERR_RESTRICTED : PACT_OK;
}

/* The builder with the default parameters when args->params is NULL. */
static int run_builder(const pact_alg *a, const pact_build_args *args, pact_sched *s)
{
    size_t np = pact_alg_nparams(a);
    if (args->params || np == 0)
        return a->build(s, args);
    long *def = malloc(np * sizeof(long));
    if (!def)
        return PACT_ERR_NOMEM;
    pact_params_defaults(a, def);
    pact_build_args b = *args;
    b.params = def;
    int rc = a->build(s, &b);
    free(def);
    return rc;
}

int pact_build(const pact_alg *a, const pact_build_args *args, pact_sched *s)
{
    if (args->size < 1 || args->rank < 0 || args->rank >= args->size || args->elem_size == 0 ||
        (pact_coll_rooted(a->coll) && (args->root < 0 || args->root >= args->size)))
        return PACT_ERR_ARG;
    int rc = pact_alg_applies(a, args, NULL);
    if (rc != PACT_OK)
        return rc;
    pact_sched_reset(s, args->rank, args->size, args->elem_size);
    s->inplace = args->inplace;
    pact_coll_buf_counts(a->coll, args->rank, args->size, args->root, args->count,
                         &s->buf_count[PACT_BUF_SEND], &s->buf_count[PACT_BUF_RECV]);
    /* In place, SEND aliases the caller's input inside RECV: all of it (allreduce, alltoall, reduce at the
     * root) or this rank's block (allgather); the executor places the alias. */
    pact_inplace rule = pact_coll_traits_of(a->coll)->inplace;
    if (args->inplace && rule == PACT_INPLACE_WHOLE) /* RECV holds the whole input */
        s->buf_count[PACT_BUF_RECV] = s->buf_count[PACT_BUF_SEND];
    else if (args->inplace && rule != PACT_INPLACE_MY_BLOCK)
        s->buf_count[PACT_BUF_SEND] = s->buf_count[PACT_BUF_RECV];
    rc = run_builder(a, args, s);
    if (rc == PACT_OK)
        rc = s->err;
    return rc;
}

int pact_compose(pact_sched *s, const pact_alg *a, const pact_build_args *sub, pact_rank_map *m)
{
    if (sub->size < 1 || sub->rank < 0 || sub->rank >= sub->size ||
        (pact_coll_rooted(a->coll) && (sub->root < 0 || sub->root >= sub->size)) ||
        (m && (m->size != sub->size || m->rank != sub->rank)))
        return PACT_ERR_ARG;
    int rc = pact_alg_applies(a, sub, NULL);
    if (rc != PACT_OK)
        return rc;
    if (m)
        pact_sched_push(s, m);
    /* The sub-schedule's user buffers, wherever the map puts them (scratch buffers grow to hold them). */
    size_t ns, nr;
    pact_coll_buf_counts(a->coll, sub->rank, sub->size, sub->root, sub->count, &ns, &nr);
    pact_need(s, PACT_BUF_SEND, sub->inplace ? nr : ns);
    pact_need(s, PACT_BUF_RECV, nr);
    rc = run_builder(a, sub, s);
    if (m)
        pact_sched_pop(s);
    return rc;
}
