/* pact_dryrun.h - runs all ranks' schedules in one process (no MPI), for tests and debugging. */
#ifndef PACT_DRYRUN_H
#define PACT_DRYRUN_H

#include "pact_ir.h"

/* inout = in (op) inout over `count` elements, MPI_Reduce_local's convention. */
typedef void (*pact_dry_op)(const void *in, void *inout, size_t count);

/* Runs the P schedules on bufs[rank][PACT_BUF_*] (SEND may alias RECV for in-place) with eager message
 * delivery.  Returns PACT_OK, or PACT_ERR_ARG with the reason (deadlock, length mismatch, unreceived
 * message) in `why`. */
int pact_dryrun(const pact_sched *const *scheds, int P, void *(*bufs)[PACT_NBUF], pact_dry_op op, char *why,
                size_t whylen);

#endif
