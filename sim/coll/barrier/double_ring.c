/*
 * barrier double_ring
 *
 * Source:   Open MPI ompi_coll_base_barrier_intra_doublering (ompi/mca/coll/base/coll_base_barrier.c,
 *           4.1): a token goes around the ring twice.  Rank 0 starts each round by sending to its right and
 *           ends it by receiving from its left; every other rank receives from its left, then sends to its
 *           right.  All calls are blocking.  Open MPI makes the second round's sends synchronous; pact's
 *           IR has no synchronous send, and it does not need one here: a rank's last receive of round two
 *           already implies that every rank has arrived.  SimGrid's ompi_doublering uses standard sends too.
 * Restrict: none.
 * Cost:     2*P*alpha.
 */
#include "zero.h"
#include "cost.h"

static int pact_barrier_double_ring_build(pact_sched *s, const pact_build_args *a)
{
    const int rank = a->rank, p = a->size;
    if (p == 1)
        return PACT_OK;
    const int left = (rank + p - 1) % p, right = (rank + 1) % p;
    int last = -1;
    for (int round = 0; round < 2; round++) {
        if (rank > 0)
            last = pact_barrier_recv(s, left, last);
        last = pact_barrier_send(s, right, last);
        if (rank == 0)
            last = pact_barrier_recv(s, left, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    (void)m;
    *src = "two rounds of P hops around the ring (derived from the schedule)";
    pact_cost_set(t, 2.0 * P, 0, 0);
    return 1;
}

const pact_alg pact_alg_barrier_double_ring = {
    .coll = PACT_COLL_BARRIER,
    .name = "double_ring",
    .build = pact_barrier_double_ring_build,
    .restrictions = 0,
    .ompi_id = 2,
    .mpich = NULL,
    .smpi = "ompi_doublering",
    .source = "Open MPI ompi_coll_base_barrier_intra_doublering (coll_base_barrier.c, 4.1)",
    .cost = "2*P*alpha",
    .terms = terms,
};
