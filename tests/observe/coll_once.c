/*
 * coll_once.c - run one MPI collective once on MPI_COMM_WORLD, recording (ompi_spy.c) only around that call.
 *
 * usage: coll_once COLL BYTES
 *   COLL: allreduce reduce bcast alltoall allgather barrier reduce_scatter reduce_scatter_block
 *   BYTES: bytes per process (allreduce, reduce, bcast, reduce_scatter[_block]: the send buffer;
 *          alltoall, allgather: one block).  Type MPI_UNSIGNED_CHAR, reductions MPI_SUM, root 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*record_fn)(int on);

static void record(int on)
{
    static record_fn fn;
    static int looked;
    if (!looked) {
        *(void **)&fn = dlsym(RTLD_DEFAULT, "pact_spy_record");
        looked = 1;
    }
    if (fn)
        fn(on);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *end = NULL;
    long bytes = argc == 3 ? strtol(argv[2], &end, 10) : -1;
    if (argc != 3 || !end || *end || bytes < 1 || bytes > (1L << 30) / size) {
        if (rank == 0)
            fprintf(stderr, "usage: coll_once COLL BYTES (BYTES >= 1 per process)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *coll = argv[1];
    int n = (int)bytes;
    size_t total = (size_t)n * (size_t)size;
    unsigned char *sb = malloc(total), *rb = malloc(total);
    int *counts = malloc(sizeof(int) * (size_t)size);
    if (!sb || !rb || !counts)
        MPI_Abort(MPI_COMM_WORLD, 3);
    memset(sb, rank + 1, total);
    memset(rb, 0, total);
    for (int i = 0; i < size; i++)
        counts[i] = n / size + (i < n % size);

    MPI_Barrier(MPI_COMM_WORLD);
    int rc = MPI_SUCCESS, known = 1;
    record(1);
    if (!strcmp(coll, "allreduce"))
        rc = MPI_Allreduce(sb, rb, n, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(coll, "reduce"))
        rc = MPI_Reduce(sb, rb, n, MPI_UNSIGNED_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!strcmp(coll, "bcast"))
        rc = MPI_Bcast(sb, n, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    else if (!strcmp(coll, "alltoall"))
        rc = MPI_Alltoall(sb, n, MPI_UNSIGNED_CHAR, rb, n, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
    else if (!strcmp(coll, "allgather"))
        rc = MPI_Allgather(sb, n, MPI_UNSIGNED_CHAR, rb, n, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
    else if (!strcmp(coll, "barrier"))
        rc = MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(coll, "reduce_scatter"))
        rc = MPI_Reduce_scatter(sb, rb, counts, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(coll, "reduce_scatter_block"))
        rc = MPI_Reduce_scatter_block(sb, rb, n / size > 0 ? n / size : 1, MPI_UNSIGNED_CHAR, MPI_SUM,
                                      MPI_COMM_WORLD);
    else
        known = 0;
    record(0);
    if (!known) {
        if (rank == 0)
            fprintf(stderr, "coll_once: unknown collective '%s'\n", coll);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rc != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 4);
    MPI_Barrier(MPI_COMM_WORLD);
    free(sb);
    free(rb);
    free(counts);
    MPI_Finalize();
    return 0;
}
