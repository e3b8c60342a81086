/*
 * alltoall scattered
 *
 * Source:  MPICH 4.0 MPIR_Alltoall_intra_scattered (src/mpi/coll/alltoall/alltoall_intra_scattered.c), after
 *          Tony Ladd's throttling: the P exchanges go in rounds of B = MPIR_CVAR_ALLTOALL_THROTTLE (32; 0: all
 *          at once).  Round ii posts B receives, from rank+ii, rank+ii+1, ..., then B sends, to rank-ii,
 *          rank-ii-1, ..., and waits for all 2B before the next round.  The first round's pair with the rank
 *          itself is a local copy of the own block (MPICH sends it to itself).  SimGrid's alltoall
 *          mvapich2_scatter_dest is this schedule with B = 4.
 * Restrict: not in place (MPICH runs pairwise_sendrecv_replace then).
 * Cost:     (P-1)*(alpha + beta*m), m = count*elem_size (one block), serialized on the ports as linear's; the
 *           waits between rounds add a synchronisation per round that the form leaves out.
 *
 *   P = 6, B = 4, rank 0:  round 0: copy 0, recv 1 2 3, send 5 4 3, wait all;  round 1: recv 4 5, send 2 1
 *   (Open MPI's linear, sim/coll/alltoall/linear.c, posts all P-1 pairs at once.)
 */
#include "pact_coll.h"
#include "cost.h"

int pact_alltoall_scattered_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    const int bb = a->params[0] <= 0 || a->params[0] > p ? p : (int)a->params[0];
    if (n == 0) /* MPI_Alltoall returns at once when nothing is exchanged */
        return PACT_OK;

    for (int ii = 0; ii < p; ii += bb) {
        const int ss = p - ii < bb ? p - ii : bb;
        if (ii > 0)
            pact_fence(s); /* MPIC_Waitall: the round starts when everything before it completed */
        for (int i = 0; i < ss; i++) {
            int from = (rank + i + ii) % p;
            if (from == rank)
                pact_copy(s, pact_sl(PACT_BUF_RECV, (size_t)rank * n, n),
                          pact_sl(PACT_BUF_SEND, (size_t)rank * n, n));
            else
                pact_recv(s, from, pact_sl(PACT_BUF_RECV, (size_t)from * n, n));
        }
        for (int i = 0; i < ss; i++) {
            int to = (rank - i - ii + p) % p;
            if (to != rank)
                pact_send(s, to, pact_sl(PACT_BUF_SEND, (size_t)to * n, n));
        }
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    *src = "PG 2007 as linear's: every message serialized on the ports (the rounds' waits left out)";
    pact_cost_set(t, P - 1, (P - 1) * m, 0);
    return 1;
}

/* Rank r's i-th receive of a round is from r + i + ii and its i-th send to r - i - ii, its own block copied
 * where i + ii is 0 mod P, in rounds of the same size on every rank: rank 0's schedule turned
 * (pact_alg.rotates). */
static int rotates(const pact_build_args *a)
{
    return a->count > 0 && !a->inplace;
}

const pact_alg pact_alg_alltoall_scattered = {
    .coll = PACT_COLL_ALLTOALL,
    .name = "scattered",
    .build = pact_alltoall_scattered_build,
    .restrictions = PACT_R_NOT_INPLACE,
    .ompi_id = 0,
    .mpich = "scattered",
    .smpi = "mvapich2_scatter_dest",
    .smpi_params = "throttle=4",
    .source = "MPICH 4.0 MPIR_Alltoall_intra_scattered (src/mpi/coll/alltoall/alltoall_intra_scattered.c)",
    .cost = "(P-1)*(alpha + beta*m), in rounds of `throttle` pairs",
    .terms = terms,
    .rotates = rotates,
    .params =
        (const pact_param_desc[]){
            {"throttle", 32, "pairs posted per round (MPIR_CVAR_ALLTOALL_THROTTLE), 0: all at once"},
            {NULL, 0, NULL},
        },
};
