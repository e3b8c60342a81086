/*
 * pact_mpi.h - rank side: the MPI executor of schedules.  Plain C11 + MPI: it builds unchanged with
 * smpicc (simulation, PACT_SMPI defined) and mpicc (real machines).
 */
#ifndef PACT_MPI_H
#define PACT_MPI_H

#include <mpi.h>
#include <stdio.h>

#include "pact_coll.h"

/* Reports the file and line of a failing MPI call and returns PACT_ERR_MPI from the enclosing function
 * through its `out` label (the single-exit style of STYLE.md). */
#define PACT_MPI_CHECK(call)                                                                                 \
    do {                                                                                                     \
        int mpi_rc_ = (call);                                                                                \
        if (mpi_rc_ != MPI_SUCCESS) {                                                                        \
            fprintf(stderr, "pact: %s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call, mpi_rc_);            \
            rc = PACT_ERR_MPI;                                                                               \
            goto out;                                                                                        \
        }                                                                                                    \
    } while (0)

typedef struct {
    MPI_Comm comm;
    MPI_Datatype dtype; /* contiguous, extent == schedule elem_size */
    MPI_Op op;
    void *buf[PACT_NBUF]; /* SEND may equal RECV (in place); NULL scratch buffers: the plan allocates them */
    int tag;              /* base tag of this call's messages */
    double gamma;         /* simulation: seconds of compute charged per byte reduced */
    int no_compute;       /* skip local reductions and copies (timing-only runs on folded payloads) */
    /* pact timeline: when set, a run writes rec[2i] and rec[2i+1], the start and end of schedule operation i
     * (pact_plan_nops of them): when it was posted or began, and when the call that completed it returned;
     * simulated time under SMPI (SimGrid's clock: reading it costs nothing simulated), MPI_Wtime otherwise */
    double *rec;
    /* SMPI: the sends that only the rank's last wait completes go as MPI_Issend, which SMPI 3.32 never
     * detaches (a send below smpi/send-is-detached-thresh is otherwise detached; each detached send's end
     * removes it from one list of all of them, O(detached sends in flight): 60 s of linear alltoall's 64
     * on 256 ranks).  Nothing waits for such a send but that wait, and its message is delivered when its
     * receiver's receive completes, so every message and the last rank's exit keep their times; only this
     * rank's own exit may come later.  For timing runs that report the last exit alone (not x->rec, not
     * per-rank exits). */
    int late_sends;
} pact_exec_ctx;

/* A schedule prepared for running many times (exec.c): its MPI calls in order with their arguments, so
 * that a run decides nothing and allocates nothing.  The calls depend on whether reductions and copies
 * touch data (x->no_compute) and charge time (x->gamma > 0): a plan runs with a context that agrees on
 * both.  It copies what it needs: the schedule may change or go afterwards.  Under SMPI a run may keep
 * persistent requests on the context's buffers for the next run (made again if those change): free the
 * plan before MPI_Finalize. */
typedef struct pact_plan pact_plan;
int pact_plan_new(const pact_sched *s, const pact_exec_ctx *x, pact_plan **out);
void pact_plan_free(pact_plan *p);

/* Runs one rank's schedule to completion: operations start once their dependencies have completed, in
 * schedule order among those ready at once; when nothing is ready the rank waits for the request its
 * lowest-numbered blocked operation needs (program.c). */
int pact_plan_run(pact_plan *p, pact_exec_ctx *x);
/* The number of operations of the schedule the plan was made from (x->rec holds two doubles each). */
size_t pact_plan_nops(const pact_plan *p);

/* This rank's clock against rank 0's of `comm` (comm.c): *offset is what to add to MPI_Wtime() to read rank
 * 0's clock, from the shortest of `rounds` ping-pongs with rank 0; *mono_offset the true offset where all ranks
 * share one machine's CLOCK_MONOTONIC.  Both 0 under SMPI (one clock).  Collective over `comm`. */
int pact_clock_sync(MPI_Comm comm, int rounds, double *offset, double *mono_offset);

/* Where the ranks of `comm` run (comm.c): a rank's node is the lowest rank that shares its memory
 * (MPI_COMM_TYPE_SHARED: a host under SMPI, a machine otherwise).  Collective over `comm`; pact_place_free it. */
int pact_place_of_comm(MPI_Comm comm, pact_place *p);

/* Charges `seconds` of simulated compute (SMPI); a no-op on real machines. */
void pact_charge(double seconds);

#ifdef PACT_SMPI
/* Defined by pact-smpi-clock.so (smpi_clock.c) when smpirun preloads it, else NULL: with 1, the thread CPU
 * clock SMPI reads around every MPI call stands still (only with smpi/simulate-computation off). */
void pact_smpi_clock_freeze(int on) __attribute__((weak));
#endif

#endif
