/*
 * alltoall linear
 *
 * Source:  Open MPI ompi_coll_base_alltoall_intra_basic_linear (ompi/mca/coll/base/coll_base_alltoall.c):
 *          the own block is copied SEND -> RECV first; then every receive is posted (from rank+1, rank+2, ...
 *          upwards) before every send (to rank-1, rank-2, ... downwards), and all of them are waited for at
 *          once.  Open MPI posts the sends in the reverse order so that messages tend to arrive in the order
 *          in which their receives were posted.
 * Restrict: not in place (Open MPI runs mca_coll_base_alltoall_intra_basic_inplace then).
 * Cost:     (P-1)*(alpha + beta*m), m = count*elem_size (one block); all messages in flight together.
 */
#include "pact_coll.h"
#include "cost.h"

int pact_alltoall_linear_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0) /* MPI_Alltoall returns at once when nothing is exchanged */
        return PACT_OK;

    pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n), pact_sl(PACT_BUF_SEND, (size_t)rank * n, n));
    for (int i = (rank + 1) % p; i != rank; i = (i + 1) % p)
        pact_recv(s, i, pact_sl(PACT_BUF_RECV, (size_t)i * n, n));
    for (int i = (rank + p - 1) % p; i != rank; i = (i + p - 1) % p)
        pact_send(s, i, pact_sl(PACT_BUF_SEND, (size_t)i * n, n));
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "PG 2007: every message posted at once, serialized on the ports "
           "(linear_sync's default max_requests 0 is linear)";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

/* Rank r receives from r + 1, r + 2, ... and sends to r - 1, r - 2, ...: rank 0's schedule turned
 * (pact_alg.rotates). */
static int rotates(const pact_build_args *a)
{
    return a->count > 0 && !a->inplace;
}

const pact_alg pact_alg_alltoall_linear = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "linear",
    .build = pact_alltoall_linear_build,
    .restrictions = PACT_R_NOT_INPLACE,
    .ompi_id = 1,
    .mpich = NULL, /* MPICH's scattered (throttle 0) is close; see scattered */
    .smpi = "basic_linear",
    .source = "Open MPI ompi_coll_base_alltoall_intra_basic_linear (coll_base_alltoall.c)",
    .cost = "(P-1)*(alpha + beta*m), all messages in flight together",
    .terms = terms,
    .rotates = rotates,
};
