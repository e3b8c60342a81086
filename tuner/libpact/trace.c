/*
 * trace.c - libpact's arrival tracer (Salimi Beni et al., section V: a PMPI tracer of when each process
 * reaches each collective).  PACT_TRACE=FILE turns it on; each traced call keeps 24 bytes in memory, and
 * MPI_Finalize gathers them on rank 0, which writes
 *     rank,call,arrival_s,collective,bytes
 * sorted by call then rank: the arrival trace `pact pattern from-trace` reads.  Times are rank 0's clock
 * (each rank's offset from the ping-pong of sim/rank/comm.c at MPI_Init, as the bench driver measures it),
 * counted from that synchronisation.  Calls on MPI_COMM_WORLD (or a communicator with its group in its order)
 * are traced: a trace needs every rank in every call.  Calls are numbered in the order of the calls libpact
 * saw on such communicators, after the collective filter (PACT_TRACE_COLLS) and before sampling
 * (PACT_TRACE_EVERY=K keeps the calls numbered 0, K, 2K, ...).
 */
#include "lp_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double t;
    uint64_t bytes;
    uint32_t call;
    int32_t coll;
} rec_t;

static struct {
    int on;
    char path[1024];
    long every;
    unsigned colls; /* bit per collective */
    MPI_Comm
        comm; /* a duplicate of MPI_COMM_WORLD: the tracer's own messages match nothing of the program's */
    double offset, t0;
    uint32_t next; /* the number of the next eligible call */
    rec_t *rec;
    size_t n, cap;
    int lost; /* out of memory: the trace would miss calls, so none is written */
} tr;

int lp_tracing(void)
{
    return tr.on;
}

int lp_trace_init(void)
{
    int rank = 0, rc = PACT_OK;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *path = getenv("PACT_TRACE"), *every = getenv("PACT_TRACE_EVERY"),
               *colls = getenv("PACT_TRACE_COLLS");
    if (!path || !*path)
        return PACT_OK;
    snprintf(tr.path, sizeof tr.path, "%s", path);
    tr.every = 1;
    tr.colls = ~0u;
    if (every && *every) {
        char *end;
        errno = 0;
        long k = strtol(every, &end, 10);
        if (errno || *end || k < 1) {
            if (rank == 0)
                fprintf(stderr, "libpact: PACT_TRACE_EVERY='%s': expected a whole number >= 1; no trace\n",
                        every);
            return PACT_ERR_ARG;
        }
        tr.every = k;
    }
    if (colls && *colls && strcmp(colls, "all") != 0) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", colls);
        tr.colls = 0;
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int c = pact_coll_from_name(t);
            if (c < 0) {
                if (rank == 0)
                    fprintf(stderr, "libpact: PACT_TRACE_COLLS: '%s': not one of %s; no trace\n", t,
                            pact_coll_list());
                return PACT_ERR_ARG;
            }
            tr.colls |= 1u << c;
        }
    }
    double mono;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &tr.comm) != MPI_SUCCESS)
        return PACT_ERR_MPI;
    if ((rc = pact_clock_sync(tr.comm, 20, &tr.offset, &mono)) != PACT_OK)
        return rc;
    tr.t0 = PMPI_Wtime() + tr.offset;
    PMPI_Bcast(&tr.t0, 1, MPI_DOUBLE, 0, tr.comm);
    tr.on = 1;
    return PACT_OK;
}

void lp_trace_arrive(pact_coll c, int world, uint64_t bytes, double wtime)
{
    if (!world || !(tr.colls & (1u << c)))
        return;
    uint32_t call = tr.next++;
    if (call % (uint32_t)tr.every != 0 || tr.lost)
        return;
    if (tr.n == tr.cap) {
        size_t cap = tr.cap ? 2 * tr.cap : 4096;
        rec_t *r = realloc(tr.rec, cap * sizeof(rec_t));
        if (!r) {
            tr.lost = 1;
            return;
        }
        tr.rec = r;
        tr.cap = cap;
    }
    tr.rec[tr.n++] = (rec_t){wtime + tr.offset - tr.t0, bytes, call, (int32_t)c};
}

/* Rank 0 receives every rank's records in turn and writes the trace to PATH.tmp, then renames it. */
int lp_trace_finalize(void)
{
    if (!tr.on)
        return PACT_OK;
    int rank, size, rc = PACT_OK;
    PMPI_Comm_rank(tr.comm, &rank);
    PMPI_Comm_size(tr.comm, &size);
    long n = (long)tr.n, nmax = 0;
    int lost = tr.lost, anylost = 0;
    PMPI_Allreduce(&lost, &anylost, 1, MPI_INT, MPI_MAX, tr.comm);
    PMPI_Allreduce(&n, &nmax, 1, MPI_LONG, MPI_MAX, tr.comm);
    if (anylost) {
        if (rank == 0)
            fprintf(stderr, "libpact: PACT_TRACE=%s: out of memory for the records; no trace written\n",
                    tr.path);
        goto out;
    }
    if (rank != 0) {
        PMPI_Send(tr.rec, (int)(n * (long)sizeof(rec_t)), MPI_BYTE, 0, 77, tr.comm);
        goto out;
    }
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", tr.path);
    FILE *f = fopen(tmp, "w");
    rec_t *all = malloc((size_t)(nmax > 0 ? nmax : 1) * sizeof(rec_t) * (size_t)size);
    if (!f || !all) {
        fprintf(stderr, "libpact: PACT_TRACE=%s: cannot write: %s\n", tr.path, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    /* every rank saw the same calls; records of rank r go to all[r * nmax ...] */
    long *cnt = calloc((size_t)size, sizeof(long));
    for (int r = 0; r < size; r++) {
        MPI_Status st;
        int got = 0;
        if (r == 0) {
            if (all)
                memcpy(all, tr.rec, (size_t)n * sizeof(rec_t));
            cnt[0] = n;
            continue;
        }
        if (all) {
            PMPI_Recv(all + (size_t)r * (size_t)nmax, (int)(nmax * (long)sizeof(rec_t)), MPI_BYTE, r, 77,
                      tr.comm, &st);
        } else {
            PMPI_Probe(r, 77, tr.comm, &st);
            void *sink = malloc(1);
            PMPI_Recv(sink, 0, MPI_BYTE, r, 77, tr.comm, MPI_STATUS_IGNORE);
            free(sink);
        }
        PMPI_Get_count(&st, MPI_BYTE, &got);
        if (cnt)
            cnt[r] = got / (long)sizeof(rec_t);
    }
    if (rc == PACT_OK) {
        for (int r = 1; r < size && rc == PACT_OK; r++)
            if (!cnt || cnt[r] != n) {
                fprintf(stderr,
                        "libpact: PACT_TRACE=%s: rank %d traced %ld calls, rank 0 %ld; no trace written\n",
                        tr.path, r, cnt ? cnt[r] : -1L, n);
                rc = PACT_ERR_CHECK;
            }
        fprintf(f, "rank,call,arrival_s,collective,bytes\n");
        for (long i = 0; rc == PACT_OK && i < n; i++)
            for (int r = 0; r < size; r++) {
                const rec_t *x = &all[(size_t)r * (size_t)nmax + (size_t)i];
                fprintf(f, "%d,%u,%.9f,%s,%llu\n", r, x->call, x->t, pact_coll_name(x->coll),
                        (unsigned long long)x->bytes);
            }
    }
    if (f && fclose(f) != 0 && rc == PACT_OK) {
        fprintf(stderr, "libpact: PACT_TRACE=%s: cannot write: %s\n", tr.path, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    if (rc == PACT_OK && rename(tmp, tr.path) != 0) {
        fprintf(stderr, "libpact: PACT_TRACE=%s: cannot write: %s\n", tr.path, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    if (rc != PACT_OK)
        remove(tmp);
    free(cnt);
    free(all);
out:
    free(tr.rec);
    tr.rec = NULL;
    tr.on = 0;
    PMPI_Comm_free(&tr.comm);
    return rc;
}
