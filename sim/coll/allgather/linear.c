/*
 * allgather linear
 *
 * Source:  Open MPI ompi_coll_base_allgather_intra_basic_linear (ompi/mca/coll/base/coll_base_allgather.c):
 *          a gather to rank 0 followed by a broadcast of the P blocks from rank 0.  Open MPI calls the
 *          communicator's gather and bcast; pact writes the two linear ones inline:
 *          gather as ompi_coll_base_gather_intra_basic_linear (rank 0 receives the blocks one blocking
 *          receive after the other, in rank order; the others send theirs with a blocking send), then
 *          bcast as ompi_coll_base_bcast_intra_basic_linear (rank 0 sends the whole vector to ranks 1..P-1
 *          at once; the others receive it).  SimGrid's "GB" is the same composition when its gather and
 *          bcast are set to ompi_basic_linear and flattree (its defaults are other algorithms).
 * Restrict: none.
 * Cost:     (P-1)*(alpha + beta*m) + (P-1)*(alpha + beta*P*m), m = count*elem_size; rank 0 serializes both.
 */
#include "pact_coll.h"
#include "cost.h"

int pact_allgather_linear_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    const size_t all = (size_t)p * n;
    if (n == 0) /* MPI_Allgather returns at once when nothing is exchanged */
        return PACT_OK;

    if (rank != 0) {
        int x = pact_send(s, 0, pact_sl(PACT_BUF_SEND, 0, n));
        pact_recv(s, 0, pact_sl(PACT_BUF_RECV, 0, all));
        pact_after(s, x); /* the gather's send is blocking, and in place it reads RECV */
        return PACT_OK;
    }
    int last = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    for (int i = 1; i < p; i++) {
        int r = pact_recv(s, i, pact_sl(PACT_BUF_RECV, (size_t)i * n, n));
        pact_after(s, last);
        last = r;
    }
    for (int i = 1; i < p; i++) {
        pact_send(s, i, pact_sl(PACT_BUF_RECV, 0, all));
        pact_after(s, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "PG 2007: linear gather, (P-1)(alpha + beta m), then linear bcast of P blocks, (P-1)(alpha + "
           "beta P m)";
    pact_cost_set(t, 2.0 * (P - 1), (P - 1) * m * (1.0 + P), 0);
    return 1;
}

const pact_alg pact_alg_allgather_linear = {
    .coll = PACT_COLL_ALLGATHER,
    .name = "linear",
    .build = pact_allgather_linear_build,
    .restrictions = 0,
    .ompi_id = 1,
    .mpich = NULL,
    .smpi = "GB:gather=ompi_basic_linear:bcast=flattree",
    .source = "Open MPI ompi_coll_base_allgather_intra_basic_linear (coll_base_allgather.c), with the linear "
              "gather and bcast of coll_base_gather.c and coll_base_bcast.c",
    .cost = "(P-1)*(alpha + beta*m) + (P-1)*(alpha + beta*P*m)",
    .terms = terms,
};
