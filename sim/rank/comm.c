/*
 * comm.c - what a rank learns about its communicator before it measures or routes anything: its clock's
 * offset to rank 0's, and where the ranks run.  The bench driver and libpact (tuner/libpact) share them.
 *
 * Collectives here are PMPI_ calls: libpact wraps MPI_Bcast & co., and what it asks of the library for its
 * own set-up must not come back through its wrappers.
 */
#include "pact_mpi.h"

#include <stdlib.h>
#include <time.h>

#ifdef PACT_SMPI
#include <simgrid/host.h>
#endif

#ifndef PACT_SMPI
/* CLOCK_MONOTONIC - MPI_Wtime(), from the tightest of a few bracketing reads. */
static double mono_minus_wtime(void)
{
    double best = 1e30, d = 0;
    for (int k = 0; k < 10; k++) {
        struct timespec a, c;
        clock_gettime(CLOCK_MONOTONIC, &a);
        double w = MPI_Wtime();
        clock_gettime(CLOCK_MONOTONIC, &c);
        double ta = (double)a.tv_sec + a.tv_nsec * 1e-9, tc = (double)c.tv_sec + c.tv_nsec * 1e-9;
        if (tc - ta < best) {
            best = tc - ta;
            d = (ta + tc) / 2 - w;
        }
    }
    return d;
}
#endif

/* Rank 0 answers `rounds` pings of each rank in turn with its clock; a rank keeps the sample of the shortest
 * round trip (midpoint rule), as HCA-style and MPIX_Harmonize-style synchronisation do. */
int pact_clock_sync(MPI_Comm comm, int rounds, double *offset, double *mono_offset)
{
    int rc = PACT_OK, rank, size;
    *offset = 0;
    *mono_offset = 0;
#ifdef PACT_SMPI
    (void)comm;
    (void)rounds;
    (void)rank;
    (void)size;
    goto out; /* one simulated clock */
#else
    PACT_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    PACT_MPI_CHECK(MPI_Comm_size(comm, &size));
    for (int r = 1; r < size; r++) {
        double best_rtt = 1e30;
        for (int k = 0; k < rounds; k++) {
            if (rank == 0) {
                double t;
                PACT_MPI_CHECK(MPI_Recv(&t, 1, MPI_DOUBLE, r, 1, comm, MPI_STATUS_IGNORE));
                t = MPI_Wtime();
                PACT_MPI_CHECK(MPI_Send(&t, 1, MPI_DOUBLE, r, 2, comm));
            } else if (rank == r) {
                double t1 = MPI_Wtime(), t0;
                PACT_MPI_CHECK(MPI_Send(&t1, 1, MPI_DOUBLE, 0, 1, comm));
                PACT_MPI_CHECK(MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 2, comm, MPI_STATUS_IGNORE));
                double t2 = MPI_Wtime();
                if (t2 - t1 < best_rtt) {
                    best_rtt = t2 - t1;
                    *offset = t0 - (t1 + t2) / 2;
                }
            }
        }
    }
    /* The true offset where ranks share a machine: CLOCK_MONOTONIC is one clock for all its processes, so
     * (monotonic - MPI_Wtime) of this rank minus rank 0's is what the ping-pong estimates.  Recorded next
     * to the estimate so that a run on one machine can tell how well the synchronisation worked. */
    double m = mono_minus_wtime(), m0 = m;
    PACT_MPI_CHECK(PMPI_Bcast(&m0, 1, MPI_DOUBLE, 0, comm));
    *mono_offset = m - m0;
#endif
out:
    return rc;
}

int pact_place_of_comm(MPI_Comm comm, pact_place *p)
{
    int rc = PACT_OK, rank, size, first;
    MPI_Comm node = MPI_COMM_NULL;
    int *ids = NULL;
    PACT_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    PACT_MPI_CHECK(MPI_Comm_size(comm, &size));
    if (!(ids = malloc(sizeof(int) * (size_t)size))) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    first = rank;
#ifdef PACT_SMPI
    /* Under SMPI a node of several hosts (rails under binding, sockets and GPUs) would be several nodes to
     * MPI_COMM_TYPE_SHARED, which splits by host: pact's export names each host's node (export.c). */
    const char *pn = sg_host_get_property_value(sg_host_self(), "pact_node");
    if (pn) {
        PACT_MPI_CHECK(PMPI_Comm_split(comm, atoi(pn), rank, &node));
    } else
#endif
        PACT_MPI_CHECK(PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    PACT_MPI_CHECK(PMPI_Allreduce(&rank, &first, 1, MPI_INT, MPI_MIN, node));
    PACT_MPI_CHECK(PMPI_Allgather(&first, 1, MPI_INT, ids, 1, MPI_INT, comm));
    rc = pact_place_init(p, size, ids);
out:
    if (node != MPI_COMM_NULL)
        PMPI_Comm_free(&node);
    free(ids);
    return rc;
}
