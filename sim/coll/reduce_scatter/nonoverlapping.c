/*
 * reduce_scatter nonoverlapping
 *
 * Source:   Open MPI ompi_coll_base_reduce_scatter_intra_nonoverlapping (coll_base_reduce_scatter.c in
 *           ompi/mca/coll/base, 4.1): the communicator's reduce of the whole vector to rank 0, then the
 *           communicator's scatterv of the blocks from rank 0.  Out of place, rank 0 reduces into a scratch
 *           vector (its receive buffer holds one block); in place it reduces in place and the other ranks
 *           pass their receive buffer, which holds the vector, as the send buffer.  Open MPI takes whatever
 *           reduce the communicator selected; pact takes it from the parameter "reduce" (an Open MPI
 *           coll_tuned id, run with its default parameters), composed through a rank map that moves its
 *           buffers (RECV to scratch at rank 0 out of place).  The scatterv is coll/basic's linear one
 *           (coll_tuned has none): rank 0 sends each non-empty block in rank order with blocking sends and
 *           copies its own (nothing in place); the others receive theirs.
 * Restrict: those of the chosen reduce (the default binomial needs a commutative operation).
 * Cost:     T(reduce) + (P-1)*(alpha + beta*m/P); with the default binomial reduce, unsegmented,
 *           ceil(log2 P)*(alpha + beta*m + gamma*m) + (P-1)*(alpha + beta*m/P).
 */
#include "blocks.h"
#include "cost.h"

static int pact_reduce_scatter_nonoverlapping_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0) /* MPI_Reduce_scatter returns at once when every recvcount is 0 */
        return PACT_OK;
    const pact_alg *red = pact_alg_find_ompi(PACT_COLL_REDUCE, (int)a->params[0]);
    if (!red || !red->build)
        return PACT_ERR_ARG;
    pact_build_args b = *a;
    b.coll = PACT_COLL_REDUCE;
    b.root = 0;
    b.inplace = a->inplace && rank == 0;
    b.params = NULL;
    /* Rank 0 out of place: the reduce's result (its RECV) goes to TMP1's first n elements and the reduce's
     * own TMP1 after them. */
    const int scratch = rank == 0 && !a->inplace;
    const uint32_t result = scratch ? PACT_BUF_TMP1 : PACT_BUF_RECV;
    pact_rank_map m = {.ranks = NULL,
                       .size = p,
                       .rank = rank,
                       .buf = {PACT_BUF_SEND, result, PACT_BUF_TMP0, PACT_BUF_TMP1},
                       .off = {0, 0, 0, scratch ? n : 0}};
    int rc = pact_compose(s, red, &b, &m);
    if (rc != PACT_OK)
        return rc;
    pact_fence(s);

    const size_t mine = rs_len(n, p, rank);
    if (rank != 0) {
        if (mine > 0)
            pact_recv(s, 0, pact_sl(PACT_BUF_RECV, 0, mine));
        return PACT_OK;
    }
    for (int i = 0, prev = -1; i < p; i++) {
        const pact_slice blk = pact_sl(result, rs_off(n, p, i), rs_len(n, p, i));
        if (blk.count == 0 || (i == 0 && a->inplace))
            continue;
        int op = i == 0 ? pact_copy(s, pact_sl(PACT_BUF_RECV, 0, blk.count), blk) : pact_send(s, i, blk);
        pact_after(s, prev);
        prev = op;
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const double n = m / pact_cost_elem(m), b = pact_cost_big_block(m, P);
    pact_cost r;
    const char *s;
    pact_alg_find(PACT_COLL_REDUCE, "binomial")->terms(P, m, &r, &s);
    double k = fmin(n, P) - 1; /* non-empty blocks rank 0 sends */
    *src = "T(reduce binomial) + rank 0's blocking sends of the non-empty blocks (derived from the "
           "schedule)";
    pact_cost_set(t, r.a + k, r.b + k * b, r.c);
    return 1;
}

const pact_alg pact_alg_reduce_scatter_nonoverlapping = {
    .coll = PACT_COLL_REDUCE_SCATTER,
    .name = "nonoverlapping",
    .build = pact_reduce_scatter_nonoverlapping_build,
    .restrictions = 0,
    .ompi_id = 1,
    .mpich = NULL,
    .smpi = NULL,
    .source = "Open MPI ompi_coll_base_reduce_scatter_intra_nonoverlapping (coll_base_reduce_scatter.c, 4.1), "
              "with coll/basic's linear scatterv",
    .cost = "T(reduce) + (P-1)*(alpha + beta*m/P)",
    .terms = terms,
    .params = (const pact_param_desc[]){{"reduce", 5, "Open MPI id of the reduce algorithm to run first (5: binomial)"}, {NULL, 0, NULL}},
};
