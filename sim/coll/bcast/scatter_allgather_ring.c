/*
 * bcast scatter_allgather_ring
 *
 * Source:   Open MPI ompi_coll_base_bcast_intra_scatter_allgather_ring
 *           (ompi/mca/coll/base/coll_base_bcast.c): a binomial-tree scatter of ceil(count/P)-element blocks
 *           (binomial_scatter.h), then a ring allgather of P-1 blocking sendrecv steps (send to rank+1,
 *           receive from rank-1; block v is the one of virtual rank v = rank - root).  With count < P Open
 *           MPI switches to basic_linear, and so does pact.  Blocks past the end of the buffer are empty;
 *           their zero-length messages are kept, as Open MPI sends them.
 * Restrict: none (falls back to basic_linear when count < P).
 * Cost:     (log2(P) + P - 1)*alpha + 2*beta*m*(P-1)/P.
 *
 *   P = 4, root 0: after the scatter rank v holds block v; step i sends block v-i+1 to the right and
 *   receives block v-i from the left:
 *   0: [0...] [0..3] [0.23] [0123]
 *   1: [.1..] [01..] [01.3] [0123]
 *   2: [..2.] [.12.] [012.] [0123]
 *   3: [...3] [..23] [.123] [0123]
 */
#include "binomial_scatter.h"
#include "common.h"
#include "cost.h"

static pact_slice block(int b, size_t n, size_t sc)
{
    size_t lo = (size_t)b * sc;
    if (lo >= n)
        return pact_sl(PACT_BUF_RECV, n, 0);
    return pact_sl(PACT_BUF_RECV, lo, n - lo < sc ? n - lo : sc);
}

int pact_bcast_scatter_ring_allgather(pact_sched *s, const pact_build_args *a, int ompi)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, root = a->root;
    size_t sc;
    int rc, dep[2] = {-1, -1};
    if (!pact_bcast_scatter_prelude(s, a, ompi, &rc, &sc, &dep[0]))
        return rc;

    const int v = (rank - root + p) % p;
    const int left = (rank - 1 + p) % p, right = (rank + 1) % p;

    int send_block = v, recv_block = (v - 1 + p) % p;
    for (int i = 1; i < p; i++) {
        pact_sendrecv_step(s, right, block(send_block, n, sc), left, block(recv_block, n, sc), dep);
        send_block = recv_block;
        recv_block = (recv_block - 1 + p) % p;
    }
    return PACT_OK;
}

int pact_bcast_scatter_allgather_ring_build(pact_sched *s, const pact_build_args *a)
{
    return pact_bcast_scatter_ring_allgather(s, a, 1);
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    if (m / pact_cost_elem(m) < P) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_BCAST, "basic_linear")->terms(P, m, t, src);
    int C = pact_clog2(P);
    double b = pact_cost_big_block(m, P);
    *src = "Thakur 2005: binomial scatter + ring allgather";
    pact_cost_set(t, C + P - 1.0, 2.0 * (P - 1) * b, 0);
    return 1;
}

const pact_alg pact_alg_bcast_scatter_allgather_ring = {
    .coll = PACT_COLL_BCAST,
    .name = "scatter_allgather_ring",
    .build = pact_bcast_scatter_allgather_ring_build,
    .restrictions = 0,
    .ompi_id = 9,
    .smpi = "scatter_LR_allgather",
    .source = "Open MPI ompi_coll_base_bcast_intra_scatter_allgather_ring (coll_base_bcast.c)",
    .cost = "(log2(P) + P - 1)*alpha + 2*beta*m*(P-1)/P",
    .terms = terms,
};
