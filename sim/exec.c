/* exec.c - the MPI executor: runs one rank's schedule with MPI_Isend/MPI_Irecv and local reductions. */
#include "pact_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "heap.h"

#ifdef PACT_SMPI
#include <smpi/smpi.h>
#endif

void pact_charge(double seconds)
{
#ifdef PACT_SMPI
    if (seconds > 0)
        smpi_execute(seconds);
#else
    (void)seconds;
#endif
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static inline char *at(const pact_exec_ctx *x, const pact_sched *s, pact_slice sl)
{
    return (char *)x->buf[sl.buf] + sl.off * s->elem_size;
}

int pact_exec(const pact_sched *s, pact_exec_ctx *x)
{
    int rc = PACT_OK;
    const size_t n = s->nops;
    uint32_t *pending = NULL, *succ_first = NULL, *succ = NULL;
    uint32_t *req_op = NULL;
    MPI_Request *reqs = NULL;
    MPI_Status *sts = NULL; /* not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's prototype */
    int *idx = NULL;
    pact_heap ready = {NULL, 0};
    void *owned[PACT_NBUF] = {NULL};
    void *buf_saved[PACT_NBUF];
    memcpy(buf_saved, x->buf, sizeof(buf_saved));
    if (n == 0)
        return PACT_OK;

    for (int b = PACT_BUF_TMP0; b < PACT_NBUF; b++) {
        if (!x->buf[b] && s->buf_count[b] > 0) {
            owned[b] = malloc(s->buf_count[b] * s->elem_size);
            if (!owned[b]) {
                rc = PACT_ERR_NOMEM;
                goto out;
            }
            x->buf[b] = owned[b];
        }
    }

    if ((rc = pact_sched_successors(s, &pending, &succ_first, &succ)) != PACT_OK)
        goto out;
    req_op = malloc(n * sizeof(*req_op));
    reqs = malloc(n * sizeof(*reqs));
    sts = malloc(n * sizeof(*sts));
    idx = malloc(n * sizeof(*idx));
    ready.v = malloc(n * sizeof(*ready.v));
    if (!req_op || !reqs || !sts || !idx || !ready.v) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (pending[i] == 0)
            pact_heap_push(&ready, (uint32_t)i);

    size_t done = 0;
    int nreq = 0;
    while (done < n) {
        while (ready.n > 0) {
            uint32_t i = pact_heap_pop(&ready);
            const pact_op *o = &s->ops[i];
            int local = 0;
            switch (o->kind) {
            case PACT_OP_SEND:
                PACT_MPI_CHECK(MPI_Isend(at(x, s, o->src), (int)o->src.count, x->dtype, o->peer,
                                         x->tag + o->tag, x->comm, &reqs[nreq]));
                req_op[nreq++] = i;
                break;
            case PACT_OP_RECV:
                PACT_MPI_CHECK(MPI_Irecv(at(x, s, o->dst), (int)o->dst.count, x->dtype, o->peer,
                                         x->tag + o->tag, x->comm, &reqs[nreq]));
                req_op[nreq++] = i;
                break;
            case PACT_OP_REDUCE:
                if (!x->no_compute && o->src.count > 0)
                    PACT_MPI_CHECK(MPI_Reduce_local(at(x, s, o->src), at(x, s, o->dst), (int)o->src.count,
                                                    x->dtype, x->op));
                pact_charge(x->gamma * (double)(o->src.count * s->elem_size));
                local = 1;
                break;
            case PACT_OP_NOP:
                local = 1;
                break;
            case PACT_OP_COPY: {
                char *d = at(x, s, o->dst), *src = at(x, s, o->src);
                if (!x->no_compute && d != src && o->src.count > 0)
                    memcpy(d, src, o->src.count * s->elem_size);
                local = 1;
                break;
            }
            }
            if (local) {
                done++;
                pact_release(&ready, pending, succ_first, succ, i);
            }
        }
        if (done == n)
            break;
        if (nreq == 0) {
            fprintf(stderr, "pact: rank %d: schedule stalled with %zu of %zu operations done\n", s->rank,
                    done, n);
            rc = PACT_ERR_ARG;
            goto out;
        }
        int outcount = 0;
        PACT_MPI_CHECK(MPI_Waitsome(nreq, reqs, &outcount, idx, sts));
        qsort(idx, (size_t)outcount, sizeof(int), cmp_int);
        for (int k = 0; k < outcount; k++) {
            done++;
            pact_release(&ready, pending, succ_first, succ, req_op[idx[k]]);
        }
        /* Compact the request list, keeping posting order. */
        int w = 0;
        for (int k = 0; k < nreq; k++)
            if (reqs[k] != MPI_REQUEST_NULL) {
                reqs[w] = reqs[k];
                req_op[w++] = req_op[k];
            }
        nreq = w;
    }

out:
    for (int b = 0; b < PACT_NBUF; b++)
        free(owned[b]);
    memcpy(x->buf, buf_saved, sizeof(buf_saved));
    free(pending);
    free(succ_first);
    free(succ);
    free(req_op);
    free(reqs);
    free(sts);
    free(idx);
    free(ready.v);
    return rc;
}
