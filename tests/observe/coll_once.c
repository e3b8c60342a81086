/*
 * coll_once.c - run MPI collectives once each on MPI_COMM_WORLD, recording (ompi_spy.c) only around those calls.
 *
 * usage: coll_once COLL BYTES [COLL BYTES ...]
 *   COLL: allreduce reduce bcast alltoall allgather barrier reduce_scatter reduce_scatter_block
 *   BYTES: bytes per process (allreduce, reduce, bcast, reduce_scatter[_block]: the send buffer;
 *          alltoall, allgather: one block).  Type MPI_UNSIGNED_CHAR, reductions MPI_SUM, root 0.
 * After each call rank 0 appends "0 -- end" to the spy's log (PACT_SPY_LOG), so that one run observes many
 * calls (an mpirun's start is most of an observation's 0.8 s).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Rank 0's mark in the spy's log after each call, appended as the spy appends its lines. */
static void mark_end(int rank)
{
    const char *path = getenv("PACT_SPY_LOG");
    if (rank != 0 || !path || !*path)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        MPI_Abort(MPI_COMM_WORLD, 5);
    ssize_t w = write(fd, "0 -- end\n", 9);
    close(fd);
    if (w != 9)
        MPI_Abort(MPI_COMM_WORLD, 5);
}

/* One call of coll on n bytes per process (buffers of n x size bytes, counts n's split). */
static int call(const char *coll, int n, unsigned char *sb, unsigned char *rb, int *counts, int size, int *known)
{
    *known = 1;
    if (!strcmp(coll, "allreduce"))
        return MPI_Allreduce(sb, rb, n, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    if (!strcmp(coll, "reduce"))
        return MPI_Reduce(sb, rb, n, MPI_UNSIGNED_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!strcmp(coll, "bcast"))
        return MPI_Bcast(sb, n, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    if (!strcmp(coll, "alltoall"))
        return MPI_Alltoall(sb, n, MPI_UNSIGNED_CHAR, rb, n, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
    if (!strcmp(coll, "allgather"))
        return MPI_Allgather(sb, n, MPI_UNSIGNED_CHAR, rb, n, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
    if (!strcmp(coll, "barrier"))
        return MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        counts[i] = n / size + (i < n % size);
    if (!strcmp(coll, "reduce_scatter"))
        return MPI_Reduce_scatter(sb, rb, counts, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
    if (!strcmp(coll, "reduce_scatter_block"))
        return MPI_Reduce_scatter_block(sb, rb, n / size > 0 ? n / size : 1, MPI_UNSIGNED_CHAR, MPI_SUM,
                                        MPI_COMM_WORLD);
    *known = 0;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long most = 0;
    for (int a = 2; a < argc; a += 2) {
        char *end = NULL;
        const long bytes = strtol(argv[a], &end, 10);
        if (!end || *end || bytes < 1 || bytes > (1L << 30) / size) {
            most = -1;
            break;
        }
        most = bytes > most ? bytes : most;
    }
    if (argc < 3 || argc % 2 == 0 || most < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: coll_once COLL BYTES [COLL BYTES ...] (BYTES >= 1 per process)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    size_t total = (size_t)most * (size_t)size;
    unsigned char *sb = malloc(total), *rb = malloc(total);
    int *counts = malloc(sizeof(int) * (size_t)size);
    if (!sb || !rb || !counts)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int a = 1; a < argc; a += 2) {
        const char *coll = argv[a];
        const int n = (int)strtol(argv[a + 1], NULL, 10);
        memset(sb, rank + 1, total);
        memset(rb, 0, total);
        MPI_Barrier(MPI_COMM_WORLD);
        int known;
        record(1);
        const int rc = call(coll, n, sb, rb, counts, size, &known);
        record(0);
        if (!known) {
            if (rank == 0)
                fprintf(stderr, "coll_once: unknown collective '%s'\n", coll);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (rc != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 4);
        MPI_Barrier(MPI_COMM_WORLD);
        mark_end(rank);
    }
    free(sb);
    free(rb);
    free(counts);
    MPI_Finalize();
    return 0;
}
