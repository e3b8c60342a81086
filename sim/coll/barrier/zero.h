/*
 * zero.h - the 0-byte messages every barrier is made of.  A barrier moves no data: its sends and receives
 * are empty slices of RECV (which holds nothing), and only their order carries the synchronisation.
 */
#ifndef PACT_BARRIER_ZERO_H
#define PACT_BARRIER_ZERO_H

#include "pact_coll.h"

static inline pact_slice pact_barrier_nothing(void)
{
    return pact_sl(PACT_BUF_RECV, 0, 0);
}

/* A blocking send (or receive) after operation `dep`: returns it, for the next one to wait on. */
static inline int pact_barrier_send(pact_sched *s, int peer, int dep)
{
    int x = pact_send(s, peer, pact_barrier_nothing());
    pact_after(s, dep);
    return x;
}

static inline int pact_barrier_recv(pact_sched *s, int peer, int dep)
{
    int r = pact_recv(s, peer, pact_barrier_nothing());
    pact_after(s, dep);
    return r;
}

/* Open MPI's ompi_coll_base_sendrecv_zero (coll_base_barrier.c): the receive from `from` is posted first,
 * then a blocking send to `to`, then the wait for the receive.  Both after `dep`; returns a NOP that joins
 * the two, so that the next step starts when this one has completed. */
static inline int pact_barrier_sendrecv(pact_sched *s, int to, int from, int dep)
{
    int r = pact_barrier_recv(s, from, dep);
    int x = pact_barrier_send(s, to, dep);
    int j = pact_copy(s, pact_barrier_nothing(), pact_barrier_nothing());
    pact_after(s, r);
    pact_after(s, x);
    return j;
}

#endif
