/* mpich_smp.c - the sub-groups and sub-collectives of MPICH 4.0's smp compositions (mpich_smp.h). */
#include "mpich_smp.h"

#include <stdlib.h>

const pact_alg *pact_smp_scatter_bcast(int size, size_t count, size_t elem_size, int rd)
{
    const pact_alg *mpich =
        pact_alg_find(PACT_COLL_BCAST, rd ? "mpich_scatter_allgather" : "mpich_scatter_allgather_ring");
    pact_build_args b = {.coll = PACT_COLL_BCAST, .size = size, .count = count, .elem_size = elem_size};
    if (pact_alg_applies(mpich, &b, NULL) == PACT_OK)
        return mpich;
    return pact_alg_find(PACT_COLL_BCAST, rd ? "scatter_allgather" : "scatter_allgather_ring");
}

const pact_alg *pact_smp_choice(pact_coll c, int size, size_t count, size_t elem_size)
{
    const size_t m = count * elem_size; /* MPICH's avg_msg_size: type size x count */
    switch (c) {
    case PACT_COLL_ALLREDUCE:
        /* avg_msg_size<=8: recursive_doubling; else, built-in op: count<pow2 recursive_doubling, else
         * reduce_scatter_allgather (pact's runs recursive doubling below pof2 itself) */
        return pact_alg_find(c, m <= 8 ? "recursive_doubling" : "mpich_reduce_scatter_allgather");
    case PACT_COLL_REDUCE:
        /* comm_hierarchy=any: avg_msg_size<=2048 binomial; else as allreduce, reduce_scatter_gather */
        return pact_alg_find(c, m <= 2048 ? "mpich_binomial" : "mpich_reduce_scatter_gather");
    case PACT_COLL_BCAST:
        /* comm_size<8: binomial; comm_size=pow2: <=12288 binomial, <=524288 scatter_recursive_doubling_
         * allgather, else scatter_ring_allgather; other sizes: <=12288 binomial, else scatter_ring_allgather
         */
        if (size < 8 || m <= 12288)
            return pact_alg_find(c, "mpich_binomial");
        return pact_smp_scatter_bcast(size, count, elem_size, pact_is_pof2(size) && m <= 524288);
    case PACT_COLL_BARRIER: /* comm_hierarchy=any: dissemination (Open MPI's bruck is that schedule) */
        return pact_alg_find(c, "bruck");
    default:
        return NULL;
    }
}

int pact_smp_part(pact_sched *s, const pact_build_args *a, pact_coll c, const int *ranks, int size, int me,
                  int root, uint32_t sbuf, uint32_t rbuf, int inplace, size_t scratch, int tag)
{
    const size_t n = a->count;
    if (size == 1) { /* MPI on one rank: the result is the input */
        if (c != PACT_COLL_BCAST && !inplace && sbuf != rbuf)
            pact_copy(s, pact_sl(rbuf, 0, n), pact_sl(sbuf, 0, n));
        return s->err;
    }
    const pact_alg *alg = pact_smp_choice(c, size, n, a->elem_size);
    if (!alg)
        return PACT_ERR_ARG;
    pact_build_args b = {.coll = c,
                         .rank = me,
                         .size = size,
                         .root = root,
                         .count = n,
                         .elem_size = a->elem_size,
                         .commutative = a->commutative,
                         .inplace = inplace};
    pact_rank_map m = {.ranks = ranks,
                       .size = size,
                       .rank = me,
                       .buf = {sbuf, rbuf, PACT_BUF_TMP0, PACT_BUF_TMP1},
                       .off = {0, 0, 0, scratch},
                       .tag = tag};
    return pact_compose(s, alg, &b, &m);
}

int pact_smp_leaders_part(pact_sched *s, const pact_build_args *a, pact_coll c, int root, uint32_t sbuf,
                          uint32_t rbuf, int inplace, size_t scratch, int tag)
{
    const pact_place *p = a->place;
    int *leaders = malloc(sizeof(int) * (size_t)(p->nnodes > 0 ? p->nnodes : 1));
    if (!leaders)
        return PACT_ERR_NOMEM;
    for (int n = 0; n < p->nnodes; n++)
        leaders[n] = pact_place_leader(p, n);
    int rc = pact_smp_part(s, a, c, leaders, p->nnodes, p->node_of[a->rank], root, sbuf, rbuf, inplace,
                           scratch, tag);
    free(leaders);
    return rc;
}
