/*
 * probe.c - point-to-point probe of a platform, built with smpicc (pact-probe-smpi) and run by
 * `pact platform probe`.  Plain C11 + MPI, no GLib, like every rank-side program.
 *
 * The P ranks form P/2 pairs (i, i + P/2).  For each size m of the list, every pair does `reps`
 * ping-pongs of m bytes at once (after a barrier), and rank i prints one line per pair:
 *
 *     pair <i> <i+P/2> <m> <one-way seconds>
 *
 * where one-way = round trip / 2, the OSU latency convention.  With two ranks this is a plain
 * ping-pong; with many pairs whose routes share a link (islands of a blocking fat-tree) it measures
 * the bandwidth each pair gets under contention.  In simulation a ping-pong is exact, so one
 * repetition is enough; on a real machine the minimum over `reps` is printed.
 *
 * usage: pact-probe-smpi [--reps R] SIZE...
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, reps = 1, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int first = 1;
    if (argc > 2 && !strcmp(argv[1], "--reps")) {
        reps = atoi(argv[2]);
        first = 3;
    }
    if (size < 2 || size % 2 || reps < 1 || first >= argc) {
        if (rank == 0)
            fprintf(stderr, "pact-probe: usage: [--reps R] SIZE... on an even number of ranks\n");
        MPI_Finalize();
        return 2;
    }
    long max = 0;
    for (int a = first; a < argc; a++) {
        long m = atol(argv[a]);
        if (m < 0) {
            if (rank == 0)
                fprintf(stderr, "pact-probe: size %s: must be >= 0\n", argv[a]);
            MPI_Finalize();
            return 2;
        }
        if (m > max)
            max = m;
    }
    char *buf = malloc(max > 0 ? (size_t)max : 1);
    if (!buf) {
        fprintf(stderr, "pact-probe: out of memory (%ld bytes)\n", max);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, rank & 0xff, max > 0 ? (size_t)max : 1);
    int half = size / 2, lower = rank < half, peer = lower ? rank + half : rank - half;
    for (int a = first; a < argc; a++) {
        int m = atoi(argv[a]);
        double best = 1e300;
        for (int r = 0; r < reps; r++) {
            /* SMPI starts a transfer only once the receive is posted, so a barrier's uneven exits
             * would add to the first hop: an untimed empty ping-pong lines the pair up first. */
            MPI_Barrier(MPI_COMM_WORLD);
            if (lower) {
                MPI_Send(buf, 0, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
                MPI_Recv(buf, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, 0, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 0, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
            }
            double t0 = MPI_Wtime();
            if (lower) {
                MPI_Send(buf, m, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, m, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, m, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, m, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
            }
            double t = (MPI_Wtime() - t0) / 2;
            if (t < best)
                best = t;
        }
        if (lower)
            printf("pair %d %d %d %.17g\n", rank, peer, m, best);
    }
    fflush(stdout);
    free(buf);
    MPI_Finalize();
    return rc;
}
