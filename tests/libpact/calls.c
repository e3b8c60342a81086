/*
 * calls.c - what a wrapped call costs by itself: N back-to-back calls of one collective on MPI_COMM_SELF (the
 * library's path does next to nothing there), timed on rank 0, in nanoseconds per call.  Run with and without
 * libpact preloaded (scripts/bench-real.sh --libpact --only overhead): the difference is libpact's cost per
 * call, without the noise of a collective between processes.
 *
 *   calls COLL N     COLL: allreduce, reduce, bcast, alltoall, allgather, barrier
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *coll = argc > 1 ? argv[1] : "allreduce";
    long n = argc > 2 ? atol(argv[2]) : 1000000;
    double in = 1, out = 0, best = 1e30;
    MPI_Comm c = MPI_COMM_SELF;
    for (int round = 0; round < 5; round++) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < n; i++) {
            if (!strcmp(coll, "allreduce"))
                MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, c);
            else if (!strcmp(coll, "reduce"))
                MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, 0, c);
            else if (!strcmp(coll, "bcast"))
                MPI_Bcast(&in, 1, MPI_DOUBLE, 0, c);
            else if (!strcmp(coll, "alltoall"))
                MPI_Alltoall(&in, 1, MPI_DOUBLE, &out, 1, MPI_DOUBLE, c);
            else if (!strcmp(coll, "allgather"))
                MPI_Allgather(&in, 1, MPI_DOUBLE, &out, 1, MPI_DOUBLE, c);
            else
                MPI_Barrier(c);
        }
        double t = (MPI_Wtime() - t0) / (double)n;
        if (t < best)
            best = t;
    }
    printf("%s %.1f ns per call\n", coll, best * 1e9);
    MPI_Finalize();
    return 0;
}
