/*
 * barrier linear
 *
 * Source:   Open MPI ompi_coll_base_barrier_intra_basic_linear (ompi/mca/coll/base/coll_base_barrier.c,
 *           4.1): every rank but 0 sends an empty message to rank 0 and then waits for one back; rank 0
 *           posts a receive from each of the others, waits for all of them, then answers each with a
 *           blocking send, in rank order.  Open MPI's receives name MPI_ANY_SOURCE; here they name ranks
 *           1..P-1, which changes nothing when all are posted together and waited for together.
 *           SimGrid's ompi_basic_linear answers with nonblocking sends and one waitall.
 * Restrict: none.
 * Cost:     2*(P-1)*alpha (rank 0 takes P-1 messages, then sends P-1).
 *
 *   1 2 3 --> 0          (0 waits for all)
 *   0 --> 1, 0 --> 2, 0 --> 3
 */
#include "zero.h"
#include "cost.h"

static int pact_barrier_linear_build(pact_sched *s, const pact_build_args *a)
{
    const int rank = a->rank, p = a->size;
    if (p == 1)
        return PACT_OK;
    if (rank > 0) {
        int x = pact_barrier_send(s, 0, -1);
        pact_barrier_recv(s, 0, x);
        return PACT_OK;
    }
    for (int i = 1; i < p; i++)
        pact_barrier_recv(s, i, -1);
    int all = pact_fence(s);
    for (int i = 1; i < p; i++)
        all = pact_barrier_send(s, i, all);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    (void)m;
    *src = "rank 0 takes P-1 messages on its port, then sends P-1 (derived from the schedule)";
    pact_cost_set(t, 2.0 * (P - 1), 0, 0);
    return 1;
}

const pact_alg pact_alg_barrier_linear = {
    .coll = PACT_COLL_BARRIER,
    .name = "linear",
    .build = pact_barrier_linear_build,
    .restrictions = 0,
    .ompi_id = 1,
    .mpich = NULL,
    .smpi = "ompi_basic_linear",
    .source = "Open MPI ompi_coll_base_barrier_intra_basic_linear (coll_base_barrier.c, 4.1)",
    .cost = "2*(P-1)*alpha",
    .terms = terms,
};
