/* registry.c - the one table of algorithms, looked up by name; restrictions checked here, once. */
#include "pact_sim.h"

#include <string.h>

static const char *const coll_names[PACT_NCOLL] = {"allreduce", "reduce", "bcast", "alltoall", "allgather"};

const char *pact_coll_name(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL ? coll_names[c] : "?";
}

int pact_coll_from_name(const char *name)
{
    for (int c = 0; c < PACT_NCOLL; c++)
        if (strcmp(name, coll_names[c]) == 0)
            return c;
    return -1;
}

int pact_coll_rooted(pact_coll c)
{
    return c == PACT_COLL_REDUCE || c == PACT_COLL_BCAST;
}

/* One table; each collective's entries live beside its builders (sim/coll/<collective>/algs.inc).  Open MPI
 * ids are those of coll_tuned in 4.1 and 5.0 (coll_tuned_<collective>_decision.c), written only here. */
static const pact_alg algs[] = {
#include "coll/allreduce/algs.inc"
#include "coll/reduce/algs.inc"
#include "coll/bcast/algs.inc"
#include "coll/alltoall/algs.inc"
#include "coll/allgather/algs.inc"
};

size_t pact_alg_count(void)
{
    return sizeof(algs) / sizeof(algs[0]);
}

const pact_alg *pact_alg_at(size_t i)
{
    return i < pact_alg_count() ? &algs[i] : NULL;
}

const pact_alg *pact_alg_find(pact_coll c, const char *name)
{
    for (size_t i = 0; i < pact_alg_count(); i++)
        if (algs[i].coll == c && strcmp(algs[i].name, name) == 0)
            return &algs[i];
    return NULL;
}

const pact_alg *pact_alg_find_ompi(pact_coll c, int id)
{
    for (size_t i = 0; i < pact_alg_count(); i++)
        if (algs[i].coll == c && algs[i].ompi_id == id && id > 0)
            return &algs[i];
    return NULL;
}

void pact_args_defaults(const pact_alg *a, pact_build_args *args)
{
    for (int i = 0; i < PACT_MAX_PARAMS; i++)
        args->params[i] = a->params[i].name ? a->params[i].def : 0;
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
    if (why)
        *why = reason;
    return reason ? PACT_ERR_RESTRICTED : PACT_OK;
}

void pact_coll_buf_counts(pact_coll c, int rank, int size, int root, size_t count, size_t *send, size_t *recv)
{
    size_t p = (size_t)size;
    switch (c) {
    case PACT_COLL_ALLREDUCE:
        *send = *recv = count;
        break;
    case PACT_COLL_REDUCE:
        *send = count;
        *recv = rank == root ? count : 0;
        break;
    case PACT_COLL_BCAST: /* one buffer: RECV at every rank, SEND unused */
        *send = 0;
        *recv = count;
        break;
    case PACT_COLL_ALLTOALL:
        *send = *recv = count * p;
        break;
    case PACT_COLL_ALLGATHER:
        *send = count;
        *recv = count * p;
        break;
    default:
        *send = *recv = 0;
    }
}

int pact_coll_m_per_block(pact_coll c)
{
    size_t send = 0, recv = 0;
    pact_coll_buf_counts(c, 0, 2, 0, 1, &send, &recv);
    return send == 2 || recv == 2;
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
    if (args->inplace && a->coll != PACT_COLL_ALLGATHER)
        s->buf_count[PACT_BUF_SEND] = s->buf_count[PACT_BUF_RECV];
    rc = a->build(s, args);
    if (rc == PACT_OK)
        rc = s->err;
    return rc;
}
