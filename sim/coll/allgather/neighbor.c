/*
 * allgather neighbor
 *
 * Source:  Open MPI ompi_coll_base_allgather_intra_neighborexchange
 * (ompi/mca/coll/base/coll_base_allgather.c), after Chen et al., HPCAsia'05: P/2 blocking sendrecvs,
 * alternately with the two ring neighbours. Step 0 swaps the own block with neighbour 0 (rank+1 for even
 * ranks, rank-1 for odd ones); every later step forwards the pair of blocks received last and receives the
 * next pair (pairs start at even block indices, so they never wrap).  For odd P Open MPI falls back to the
 * ring, and so does pact. Restrict: none (ring when P is odd). Cost:     (P/2)*alpha + (P-1)*beta*m, m =
 * count*elem_size.
 *
 *   P = 6, rank 2 (even): step 0 <-> 3 gets block 3; step 1 <-> 1 gets blocks 0,1; step 2 <-> 3 gets 4,5.
 */
#include "pact_coll.h"
#include "common.h"
#include "cost.h"

int pact_allgather_neighbor_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (p % 2)
        return pact_allgather_ring_build(s, a);
    if (n == 0)
        return PACT_OK;

    const int even = rank % 2 == 0;
    const int nb[2] = {even ? (rank + 1) % p : (rank - 1 + p) % p,
                       even ? (rank - 1 + p) % p : (rank + 1) % p};
    const int step[2] = {even ? 2 : -2, even ? -2 : 2};
    int from[2] = {even ? rank : nb[0], even ? rank : nb[0]};

    int c = pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n), pact_sl(PACT_BUF_SEND, 0, n));
    int dep[2]; /* (two statements: an initializer list's calls may run in either order) */
    dep[0] = pact_recv(s, nb[0], pact_sl(PACT_BUF_RECV, (size_t)nb[0] * n, n));
    dep[1] = pact_send(s, nb[0], pact_sl(PACT_BUF_RECV, (size_t)rank * n, n));
    pact_after(s, c);

    int send_first = even ? rank : from[0]; /* the pair starting at this block goes out next */
    for (int i = 1; i < p / 2; i++) {
        const int par = i % 2;
        from[par] = (from[par] + step[par] + p) % p;
        pact_sendrecv_step(s, nb[par], pact_sl(PACT_BUF_RECV, (size_t)send_first * n, 2 * n), nb[par],
                           pact_sl(PACT_BUF_RECV, (size_t)from[par] * n, 2 * n), dep);
        send_first = from[par];
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    if (P % 2) /* Open MPI's fallback */
        return pact_alg_find(PACT_COLL_ALLGATHER, "ring")->terms(P, m, t, src);
    *src = "Chen et al. 2005 (neighbor exchange): P/2 alpha + (P-1) beta m";
    pact_cost_set(t, P / 2, (P - 1) * m, 0);
    return 1;
}

const pact_alg pact_alg_allgather_neighbor = {
    .coll = PACT_COLL_ALLGATHER,
    .name = "neighbor",
    .build = pact_allgather_neighbor_build,
    .restrictions = 0,
    .ompi_id = 5,
    .mpich = NULL,
    .smpi = "ompi_neighborexchange",
    .source = "Open MPI ompi_coll_base_allgather_intra_neighborexchange (coll_base_allgather.c)",
    .cost = "(P/2)*alpha + (P-1)*beta*m [ring if P odd]",
    .terms = terms,
};
