/*
 * probe.c - a plain MPI program for tests/integration/libpact.sh: runs collectives that a preloaded libpact
 * should route, or hand to the library for a stated reason, and prints per case on rank 0
 *     CASE NAME: LIBPACT'S LAST DECISION: right|WRONG
 * where right means every rank's result equals what the library's own collective (PMPI_) gives on the same
 * input.  Built with mpicc.openmpi or mpicc.mpich by the test; knows nothing of pact but libpact.h.
 *
 *   probe [--threads multiple|serialized]          (the table comes from PACT_TABLE, see libpact.sh)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpact.h"

#pragma weak pact_lib_last
#pragma weak pact_lib_force_next

static int rank, size;

static const char *last(void)
{
    return pact_lib_last ? pact_lib_last() : "libpact not loaded";
}

/* Every rank's verdict, reduced: right only if all are. */
static void report(const char *name, int ok, const char *decision, MPI_Comm comm)
{
    int all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    if (rank == 0)
        printf("CASE %s: %s: %s\n", name, decision, all ? "right" : "WRONG");
}

static void fill(int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        v[i] = (seed + 1) * 1000 + i * 7 % 13;
}

/* allreduce of n ints with op on comm, against PMPI_Allreduce */
static void allreduce_case(const char *name, int n, MPI_Op op, MPI_Comm comm)
{
    int r;
    MPI_Comm_rank(comm, &r);
    int *in = malloc(sizeof(int) * (n + 1)), *got = calloc(n + 1, sizeof(int)),
        *want = calloc(n + 1, sizeof(int));
    fill(in, n, r);
    MPI_Allreduce(in, got, n, MPI_INT, op, comm);
    char d[256];
    snprintf(d, sizeof d, "%s", last());
    PMPI_Allreduce(in, want, n, MPI_INT, op, comm);
    report(name, !memcmp(got, want, sizeof(int) * n), d, comm);
    free(in), free(got), free(want);
}

/* a non-commutative operation: x o y = y on odd positions of ... (keeps the left operand's first element) */
static void first_of(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] * 3 + b[i]; /* order matters: (a o b) != (b o a) */
}

/* a commutative user operation on pairs of ints (MPI_Type_contiguous(2, MPI_INT)) */
static void add_ints(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < 2 * *len; i++)
        b[i] += a[i];
}

int main(int argc, char **argv)
{
    int provided;
    if (argc > 2 && !strcmp(argv[1], "--threads"))
        MPI_Init_thread(&argc, &argv,
                        !strcmp(argv[2], "multiple") ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED,
                        &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* the table's boundary: 0..1023 B one algorithm, 1024.. another */
    allreduce_case("allreduce 1020 B", 255, MPI_SUM, MPI_COMM_WORLD);
    allreduce_case("allreduce 1024 B", 256, MPI_SUM, MPI_COMM_WORLD);
    allreduce_case("allreduce 4 B", 1, MPI_MAX, MPI_COMM_WORLD);

    /* communicators: a split made after MPI_Init, a duplicate, and the same call again (a cached plan) */
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    allreduce_case("allreduce on a split communicator", 300, MPI_SUM, half);
    allreduce_case("allreduce on a duplicate", 300, MPI_SUM, dup);
    allreduce_case("allreduce on a duplicate again", 300, MPI_SUM, dup);
    MPI_Comm_free(&dup);
    { /* 300 counts: more plans than libpact caches per communicator (256), so the cache starts over */
        int ok = 1, in[300], got[300], want[300];
        fill(in, 300, rank);
        for (int n = 1; n <= 300; n++) {
            MPI_Allreduce(in, got, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            PMPI_Allreduce(in, want, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            ok &= !memcmp(got, want, sizeof(int) * (size_t)n);
        }
        report("allreduce at 300 counts", ok, last(), MPI_COMM_WORLD);
    }

    /* a non-commutative user operation where the table's algorithm needs a commutative one */
    MPI_Op noncomm;
    MPI_Op_create(first_of, 0, &noncomm);
    allreduce_case("allreduce, non-commutative operation", 10, noncomm, MPI_COMM_WORLD);
    MPI_Op_free(&noncomm);

    { /* a non-contiguous datatype: two ints with a gap (allgather: Open MPI reduces intrinsic types only) */
        MPI_Datatype vec;
        MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        int in[3], *got = calloc(3 * (size_t)size, sizeof(int)),
                   *want = calloc(3 * (size_t)size, sizeof(int));
        fill(in, 3, rank);
        MPI_Allgather(in, 1, vec, got, 1, vec, MPI_COMM_WORLD);
        char d[256];
        snprintf(d, sizeof d, "%s", last());
        PMPI_Allgather(in, 1, vec, want, 1, vec, MPI_COMM_WORLD);
        report("allgather, non-contiguous datatype", !memcmp(got, want, 3 * sizeof(int) * size), d,
               MPI_COMM_WORLD);
        free(got), free(want);
        MPI_Type_free(&vec);
    }
    { /* a contiguous derived datatype with a commutative user operation: routed */
        MPI_Datatype two;
        MPI_Type_contiguous(2, MPI_INT, &two);
        MPI_Type_commit(&two);
        MPI_Op add;
        MPI_Op_create(add_ints, 1, &add);
        int in[2 * 50], got[2 * 50] = {0}, want[2 * 50] = {0};
        fill(in, 100, rank);
        MPI_Allreduce(in, got, 50, two, add, MPI_COMM_WORLD);
        char d[256];
        snprintf(d, sizeof d, "%s", last());
        PMPI_Allreduce(in, want, 50, two, add, MPI_COMM_WORLD);
        report("allreduce, contiguous derived datatype, user operation", !memcmp(got, want, sizeof got), d,
               MPI_COMM_WORLD);
        MPI_Op_free(&add);

        /* allgather: send and receive types differ (2 x int against 1 x two) */
        int *ag = calloc(2 * (size_t)size, sizeof(int)), *agw = calloc(2 * (size_t)size, sizeof(int));
        MPI_Allgather(in, 2, MPI_INT, ag, 1, two, MPI_COMM_WORLD);
        snprintf(d, sizeof d, "%s", last());
        PMPI_Allgather(in, 2, MPI_INT, agw, 1, two, MPI_COMM_WORLD);
        report("allgather, send and receive types differ", !memcmp(ag, agw, 2 * sizeof(int) * size), d,
               MPI_COMM_WORLD);
        /* and the same types: routed */
        MPI_Allgather(in, 2, MPI_INT, ag, 2, MPI_INT, MPI_COMM_WORLD);
        snprintf(d, sizeof d, "%s", last());
        PMPI_Allgather(in, 2, MPI_INT, agw, 2, MPI_INT, MPI_COMM_WORLD);
        report("allgather", !memcmp(ag, agw, 2 * sizeof(int) * size), d, MPI_COMM_WORLD);
        free(ag), free(agw);
        MPI_Type_free(&two);
    }
    { /* alltoall in place, where the table's algorithm refuses it; then out of place */
        int n = 3 * size, *buf = malloc(sizeof(int) * n), *ref = malloc(sizeof(int) * n),
            *in = malloc(sizeof(int) * n);
        fill(in, n, rank);
        memcpy(buf, in, sizeof(int) * n);
        memcpy(ref, in, sizeof(int) * n);
        MPI_Alltoall(MPI_IN_PLACE, 3, MPI_INT, buf, 3, MPI_INT, MPI_COMM_WORLD);
        char d[256];
        snprintf(d, sizeof d, "%s", last());
        PMPI_Alltoall(MPI_IN_PLACE, 3, MPI_INT, ref, 3, MPI_INT, MPI_COMM_WORLD);
        report("alltoall in place", !memcmp(buf, ref, sizeof(int) * n), d, MPI_COMM_WORLD);
        MPI_Alltoall(in, 3, MPI_INT, buf, 3, MPI_INT, MPI_COMM_WORLD);
        snprintf(d, sizeof d, "%s", last());
        PMPI_Alltoall(in, 3, MPI_INT, ref, 3, MPI_INT, MPI_COMM_WORLD);
        report("alltoall", !memcmp(buf, ref, sizeof(int) * n), d, MPI_COMM_WORLD);
        free(buf), free(ref), free(in);
    }
    { /* reduce_scatter: pact's split routed, another split not; reduce_scatter_block */
        int *counts = malloc(sizeof(int) * size), total = 0;
        for (int i = 0; i < size; i++)
            total += counts[i] = 5 / size + (i < 5 % size);
        int in[64], got[64] = {0}, want[64] = {0};
        fill(in, 64, rank);
        MPI_Reduce_scatter(in, got, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        char d[256];
        snprintf(d, sizeof d, "%s", last());
        PMPI_Reduce_scatter(in, want, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        report("reduce_scatter", !memcmp(got, want, sizeof got), d, MPI_COMM_WORLD);
        for (int i = 0; i < size; i++)
            counts[i] = i == size - 1 ? 3 : 1; /* the longer block last: not pact's split */
        MPI_Reduce_scatter(in, got, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        snprintf(d, sizeof d, "%s", last());
        PMPI_Reduce_scatter(in, want, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        report("reduce_scatter, another split", !memcmp(got, want, sizeof got), d, MPI_COMM_WORLD);
        MPI_Reduce_scatter_block(in, got, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        snprintf(d, sizeof d, "%s", last());
        PMPI_Reduce_scatter_block(in, want, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        report("reduce_scatter_block", !memcmp(got, want, sizeof got), d, MPI_COMM_WORLD);
        free(counts);
    }
    { /* reduce and bcast with a root other than 0; bcast has no row in the table */
        int in[40], got[40] = {0}, want[40] = {0}, root = size - 1;
        fill(in, 40, rank);
        MPI_Reduce(in, got, 40, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        char d[256];
        snprintf(d, sizeof d, "%s", last());
        PMPI_Reduce(in, want, 40, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        report("reduce, root P-1", !memcmp(got, want, sizeof got), d, MPI_COMM_WORLD);
        memcpy(got, in, sizeof in);
        memcpy(want, in, sizeof in);
        MPI_Bcast(got, 40, MPI_INT, root, MPI_COMM_WORLD);
        snprintf(d, sizeof d, "%s", last());
        PMPI_Bcast(want, 40, MPI_INT, root, MPI_COMM_WORLD);
        report("bcast", !memcmp(got, want, sizeof got), d, MPI_COMM_WORLD);
    }
    { /* barrier: the table's algorithm allows two processes at most */
        MPI_Barrier(MPI_COMM_WORLD);
        report("barrier", 1, last(), MPI_COMM_WORLD);
    }
    if (pact_lib_force_next) { /* the library's own, asked for */
        pact_lib_force_next("allreduce", "mpi");
        allreduce_case("allreduce, forced to the library", 16, MPI_SUM, MPI_COMM_WORLD);
        pact_lib_force_next("allreduce", "recursive_doubling");
        allreduce_case("allreduce, forced to recursive_doubling", 16, MPI_SUM, MPI_COMM_WORLD);
    }
    if (size >= 2) {           /* an inter-communicator between the two halves */
        MPI_Comm inter, local; /* local leaders: world ranks 0 (even half) and 1 (odd half) */
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99, &inter);
        MPI_Comm_free(&local);
        int in[6], got[6] = {0}, want[6] = {0};
        fill(in, 6, rank);
        MPI_Allreduce(in, got, 6, MPI_INT, MPI_SUM, inter);
        char d[256];
        snprintf(d, sizeof d, "%s", last());
        PMPI_Allreduce(in, want, 6, MPI_INT, MPI_SUM, inter);
        report("allreduce on an inter-communicator", !memcmp(got, want, sizeof got), d, MPI_COMM_WORLD);
        MPI_Comm_free(&inter);
    }
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
