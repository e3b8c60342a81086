/*
 * smpi-ring-calls.c - the MPI calls of Open MPI's ring allreduce (ompi_coll_base_allreduce_intra_ring), made
 * from the application with nothing else: reduce-scatter steps Irecv(next) / Wait(previous) / Send, allgather
 * steps Irecv / Send / Wait (ompi_coll_base_sendrecv), no reduction (timing only, as bench-real.sh's runs).
 * scripts/bench-real.sh times it under smpirun to show what any application-level implementation of that
 * algorithm costs to simulate, next to pact's executor and SimGrid's built-in `lr`.
 *
 *   smpirun ... ./smpi-ring-calls COUNT CALLS     (COUNT doubles per rank, CALLS calls after one warm-up)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const int count = argc > 1 ? atoi(argv[1]) : 8192, calls = argc > 2 ? atoi(argv[2]) : 5;
    const int n = count / p > 0 ? count / p : 1;
    double *data = SMPI_SHARED_MALLOC((size_t)count * sizeof(double));
    double *in[2] = {SMPI_SHARED_MALLOC((size_t)n * sizeof(double)),
                     SMPI_SHARED_MALLOC((size_t)n * sizeof(double))};
    const int right = (rank + 1) % p, left = (rank + p - 1) % p;
    for (int c = 0; c <= calls; c++) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Request rq[2];
        int inbi = 0;
        MPI_Irecv(in[0], n, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[0]);
        MPI_Send(data, n, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
        for (int k = 2; k < p; k++) {
            inbi ^= 1;
            MPI_Irecv(in[inbi], n, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[inbi]);
            MPI_Wait(&rq[inbi ^ 1], MPI_STATUS_IGNORE);
            MPI_Send(data, n, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
        }
        MPI_Wait(&rq[inbi], MPI_STATUS_IGNORE);
        for (int k = 0; k < p - 1; k++) {
            MPI_Request r;
            MPI_Irecv(data, n, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &r);
            MPI_Send(data, n, MPI_DOUBLE, right, 2, MPI_COMM_WORLD);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }
    SMPI_SHARED_FREE(in[1]);
    SMPI_SHARED_FREE(in[0]);
    SMPI_SHARED_FREE(data);
    MPI_Finalize();
    return 0;
}
