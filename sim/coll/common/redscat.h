/*
 * redscat.h - the reduce-scatter that opens both of Open MPI's Rabenseifner algorithms,
 * ompi_coll_base_allreduce_intra_redscat_allgather and ompi_coll_base_reduce_intra_redscat_gather
 * (sim/coll/allreduce/rabenseifner.c, sim/coll/reduce/rabenseifner.c).  The two are the same code in Open MPI
 * up to the end of the reduce-scatter, then part ways (an allgather, a gather to the root); they share it
 * here so that the two schedules cannot drift apart.
 */
#ifndef PACT_COLL_REDSCAT_H
#define PACT_COLL_REDSCAT_H

#include "pact_coll.h"

/* Steps the windows are kept for: log2 of the largest power of two an int holds. */
#define PACT_REDSCAT_MAXSTEPS 32

/* What the reduce-scatter leaves for the phase after it, which walks the same pairs in reverse. */
typedef struct {
    int vrank; /* rank among the 2^floor(log2 P) ranks of the reduce-scatter; -1: sat out after the pairing */
    int nsteps; /* steps of the reduce-scatter: log2 of 2^floor(log2 P) */
    /* Step i kept rcount[i] elements from rindex[i] and gave away scount[i] from sindex[i]; filled for
     * steps 0..nsteps-1 when vrank != -1. */
    size_t rindex[PACT_REDSCAT_MAXSTEPS], sindex[PACT_REDSCAT_MAXSTEPS];
    size_t rcount[PACT_REDSCAT_MAXSTEPS], scount[PACT_REDSCAT_MAXSTEPS];
} pact_redscat;

/* Real rank of virtual rank v after the pairing: the first r virtual ranks are the even ranks below 2r
 * (r = P - pof2), the others the ranks from 2r on. */
static inline int pact_redscat_real(int v, int rem)
{
    return v < rem ? v * 2 : v + rem;
}

/*
 * Emits the common part for one rank (a->rank of a->size, a->count elements, a->count >= 2^floor(log2 P)):
 * copies SEND into `rbuf`, pairs up the first 2r ranks when P is not a power of two (the even rank keeps the
 * left half, the odd one the right half; they exchange and reduce the halves and the odd rank hands its
 * reduced half to the even one, then sits out), then runs the reduce-scatter by recursive vector halving and
 * distance doubling in `rbuf`, receiving into the same offsets of `tmp` (sized here to count elements).
 * Open MPI's steps are blocking sendrecvs: each step waits for the whole previous one.
 * Returns the operation the next phase waits for; fills *rs.
 */
int pact_redscat_halving(pact_sched *s, const pact_build_args *a, uint32_t rbuf, uint32_t tmp,
                         pact_redscat *rs);

#endif
