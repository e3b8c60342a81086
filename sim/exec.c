/*
 * exec.c - the MPI executor: runs one rank's schedule with MPI point-to-point calls and local reductions.
 *
 * A schedule is prepared once into a plan (one 64-byte record per operation with everything the loop
 * reads or writes about it, successor lists, the scratch arrays of a run), and the plan runs once per call:
 * the hot path allocates nothing and touches few cache lines.  That matters under SMPI, where every rank's
 * loop resumes after a context switch with its data cold (bench.c frees the schedule once planned).
 *
 * The loop takes ready operations in schedule order: reductions and copies run, sends and receives are
 * held to be posted.  When nothing is ready it waits for ONE request: the earliest posted dependency of
 * the lowest-numbered operation still blocked, or an older request of the same (peer, direction, tag),
 * which MPI's non-overtaking rule completes first anyway.  Every dependency that operation lacks is a
 * posted request (dependencies are earlier operations, and an earlier one not yet released would be the
 * lowest blocked), so the rank waits for something it needs.  Builders emit operations in the order the
 * library code they follow posts and waits, so this is the library's own discipline (Open MPI's ring waits
 * its send, then its previous receive; a chain waits segment after segment), and it is the order
 * sim/replay.c writes into SMPI traces.  Two shortcuts change no simulated time:
 *   - when the blocked operation needs several requests and completing all but the last lets nothing
 *     start, one MPI_Waitall waits for them;
 *   - when what the wait is for is exactly what became ready since the last wait (one send, one receive,
 *     or one of each), posting and waiting are one MPI_Send, MPI_Recv or MPI_Sendrecv.
 * Held requests are posted before anything that takes time (a reduction, a real copy) and before a wait.
 * Requests nothing depends on are completed by one final MPI_Waitall.  Under SMPI each MPI call costs a
 * context switch and a CPU timer, and MPI_Waitsome a waitany plus a test of every other request: this
 * makes the calls of Open MPI's own code (ring allreduce at 256 ranks: Send, Irecv and Wait per
 * reduce-scatter step, one Sendrecv per allgather step).
 */
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

enum { UNRELEASED, POSTED, DONE, WAITING };

/* One operation with everything the loop reads or writes about it, in one 64-byte cache line. */
typedef struct {
    uint8_t kind, sbuf, dbuf, self; /* self: a message to or from this rank */
    int32_t peer, tag;
    int count;   /* elements */
    size_t soff; /* bytes */
    size_t doff;
    uint32_t pending0, first, dep_first; /* dependencies; successors at succ[first..next's first) */
    uint32_t pending, seq;               /* of a run: dependencies not done; posting number */
    uint8_t state;
    MPI_Request req;
} node_t;

struct pact_plan {
    size_t n, nroots;
    int rank;
    size_t elem_size;
    size_t buf_count[PACT_NBUF];
    node_t *v;       /* n + 1: the last one closes first and dep_first */
    uint32_t *succ;  /* successors */
    uint32_t *deps;  /* dependencies */
    uint32_t *roots; /* operations with no dependency, ascending (a valid heap) */
    /* scratch of one run */
    uint32_t *posted;  /* operations in posting order */
    uint32_t *group;   /* the requests one wait is for */
    MPI_Request *reqs; /* an MPI_Waitall's */
    MPI_Status *sts;   /* its statuses (not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's prototype) */
    size_t nheld;      /* the last nheld of posted[] are ready but not posted yet */
    pact_heap ready;
};

void pact_plan_free(pact_plan *p)
{
    if (!p)
        return;
    free(p->v);
    free(p->succ);
    free(p->deps);
    free(p->roots);
    free(p->posted);
    free(p->group);
    free(p->reqs);
    free(p->sts);
    free(p->ready.v);
    free(p);
}

int pact_plan_new(const pact_sched *s, pact_plan **out)
{
    const size_t n = s->nops, m = n + 1;
    uint32_t *pending = NULL, *first = NULL;
    pact_plan *p = calloc(1, sizeof(*p));
    *out = NULL;
    if (!p)
        return PACT_ERR_NOMEM;
    p->n = n;
    p->rank = s->rank;
    p->elem_size = s->elem_size;
    memcpy(p->buf_count, s->buf_count, sizeof(p->buf_count));
    if (pact_sched_successors(s, &pending, &first, &p->succ) != PACT_OK) {
        pact_plan_free(p);
        return PACT_ERR_NOMEM;
    }
    p->v = aligned_alloc(64, m * sizeof(*p->v));
    p->deps = malloc((s->ndeps + 1) * sizeof(*p->deps));
    p->roots = malloc(m * sizeof(*p->roots));
    p->posted = malloc(m * sizeof(*p->posted));
    p->group = malloc(m * sizeof(*p->group));
    p->reqs = malloc(m * sizeof(*p->reqs));
    p->sts = malloc(m * sizeof(*p->sts));
    p->ready.v = malloc(m * sizeof(*p->ready.v));
    if (!p->v || !p->deps || !p->roots || !p->posted || !p->group || !p->reqs || !p->sts || !p->ready.v) {
        free(pending);
        free(first);
        pact_plan_free(p);
        return PACT_ERR_NOMEM;
    }
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        const pact_op *o = &s->ops[i];
        const int is_send = o->kind == PACT_OP_SEND, is_recv = o->kind == PACT_OP_RECV;
        p->v[i] = (node_t){.kind = (uint8_t)o->kind,
                           .sbuf = (uint8_t)o->src.buf,
                           .dbuf = (uint8_t)o->dst.buf,
                           .self = (uint8_t)((is_send || is_recv) && o->peer == s->rank),
                           .peer = o->peer,
                           .tag = o->tag,
                           .count = (int)(is_recv ? o->dst.count : o->src.count),
                           .soff = o->src.off * s->elem_size,
                           .doff = o->dst.off * s->elem_size,
                           .pending0 = pending[i],
                           .first = first[i],
                           .dep_first = (uint32_t)nd};
        for (uint32_t d = 0; d < o->ndeps; d++)
            p->deps[nd++] = pact_op_deps(s, i)[d];
        if (o->ndeps == 0)
            p->roots[p->nroots++] = (uint32_t)i;
    }
    p->v[n] = (node_t){.first = first[n], .dep_first = (uint32_t)nd};
    free(pending);
    free(first);
    *out = p;
    return PACT_OK;
}

/* The key SimGrid matches requests by: peer, direction, tag (a message to oneself shares it both ways). */
static inline int same_key(const node_t *a, const node_t *b)
{
    return a->peer == b->peer && a->tag == b->tag &&
           (a->self ? b->self : !b->self && (a->kind == PACT_OP_RECV) == (b->kind == PACT_OP_RECV));
}

/* Operation i is done: its successors lose a pending dependency; those left with none are ready. */
static inline void release(pact_plan *p, uint32_t i)
{
    for (uint32_t k = p->v[i].first; k < p->v[i + 1].first; k++)
        if (--p->v[p->succ[k]].pending == 0)
            pact_heap_push(&p->ready, p->succ[k]);
}

/*
 * The requests g[0..ng) (posted dependencies of the blocked operation, by posting order) can be waited for
 * in one MPI_Waitall when waiting for them one at a time would change nothing: no older request of a key
 * of theirs is outstanding (it would be waited for first), and completing all but the last lets no
 * operation start.
 */
static int one_waitall(pact_plan *p, const uint32_t *g, size_t ng, size_t head)
{
    node_t *v = p->v;
    int ok = 1;
    for (size_t k = 0; k < ng; k++)
        v[g[k]].state = WAITING;
    for (size_t k = head; ok && k < v[g[ng - 1]].seq; k++) {
        const node_t *j = &v[p->posted[k]];
        if (j->state != POSTED)
            continue;
        for (size_t q = 0; q < ng; q++)
            if (v[g[q]].seq > k && same_key(j, &v[g[q]])) {
                ok = 0;
                break;
            }
    }
    if (ok) {
        for (size_t k = 0; k + 1 < ng; k++)
            for (uint32_t e = v[g[k]].first; e < v[g[k] + 1].first; e++)
                ok &= --v[p->succ[e]].pending > 0;
        for (size_t k = 0; k + 1 < ng; k++)
            for (uint32_t e = v[g[k]].first; e < v[g[k] + 1].first; e++)
                v[p->succ[e]].pending++;
    }
    for (size_t k = 0; k < ng; k++)
        v[g[k]].state = POSTED;
    return ok;
}

/* Where operation o reads (src) and writes (dst) in this call's buffers. */
static inline char *src_of(const pact_exec_ctx *x, const node_t *o)
{
    return (char *)x->buf[o->sbuf] + o->soff;
}

static inline char *dst_of(const pact_exec_ctx *x, const node_t *o)
{
    return (char *)x->buf[o->dbuf] + o->doff;
}

/* Posts the requests ready since the last wait (posted[nposted - nheld..]), in order. */
static int post_held(pact_plan *p, const pact_exec_ctx *x, size_t nposted)
{
    int rc = PACT_OK;
    for (size_t k = nposted - p->nheld; k < nposted; k++) {
        node_t *o = &p->v[p->posted[k]];
        if (o->kind == PACT_OP_SEND)
            PACT_MPI_CHECK(
                MPI_Isend(src_of(x, o), o->count, x->dtype, o->peer, x->tag + o->tag, x->comm, &o->req));
        else
            PACT_MPI_CHECK(
                MPI_Irecv(dst_of(x, o), o->count, x->dtype, o->peer, x->tag + o->tag, x->comm, &o->req));
    }
out:
    p->nheld = 0;
    return rc;
}

/*
 * Waits for group[0..ng).  When the group is exactly what became ready since the last wait - one send, one
 * receive, or one of each - posting and waiting are one blocking MPI_Send, MPI_Recv or MPI_Sendrecv: the
 * same requests, started at the same moment and completed together, in one MPI call instead of three or
 * four (under SMPI each call costs a context switch and a CPU timer; Open MPI's ring makes the same calls).
 */
static int wait_group(pact_plan *p, const pact_exec_ctx *x, size_t ng, size_t nposted)
{
    int rc = PACT_OK;
    node_t *v = p->v;
    const uint32_t *g = p->group;
    if (ng == p->nheld && ng <= 2) {
        const uint32_t *h = &p->posted[nposted - p->nheld];
        const node_t *a = &v[h[0]], *b = ng == 2 ? &v[h[1]] : NULL;
        const int same =
            ng == 1 ? g[0] == h[0] : (g[0] == h[0] && g[1] == h[1]) || (g[0] == h[1] && g[1] == h[0]);
        if (same && ng == 1) {
            p->nheld = 0;
            if (a->kind == PACT_OP_SEND)
                PACT_MPI_CHECK(MPI_Send(src_of(x, a), a->count, x->dtype, a->peer, x->tag + a->tag, x->comm));
            else
                PACT_MPI_CHECK(MPI_Recv(dst_of(x, a), a->count, x->dtype, a->peer, x->tag + a->tag, x->comm,
                                        MPI_STATUS_IGNORE));
            goto out;
        }
        if (same && a->kind == PACT_OP_SEND && b->kind == PACT_OP_RECV) {
            /* MPI_Sendrecv starts its send first (SMPI does, and SimGrid's clock can tell the order) */
            p->nheld = 0;
            PACT_MPI_CHECK(MPI_Sendrecv(src_of(x, a), a->count, x->dtype, a->peer, x->tag + a->tag,
                                        dst_of(x, b), b->count, x->dtype, b->peer, x->tag + b->tag, x->comm,
                                        MPI_STATUS_IGNORE));
            goto out;
        }
    }
    if ((rc = post_held(p, x, nposted)) != PACT_OK)
        goto out;
    if (ng == 1) {
        PACT_MPI_CHECK(MPI_Wait(&v[g[0]].req, MPI_STATUS_IGNORE));
    } else {
        for (size_t k = 0; k < ng; k++)
            p->reqs[k] = v[g[k]].req;
        PACT_MPI_CHECK(MPI_Waitall((int)ng, p->reqs, p->sts));
    }
out:
    return rc;
}

int pact_plan_run(pact_plan *p, pact_exec_ctx *x)
{
    int rc = PACT_OK;
    const size_t n = p->n;
    node_t *v = p->v;
    void *owned[PACT_NBUF] = {NULL};
    void *buf_saved[PACT_NBUF];
    memcpy(buf_saved, x->buf, sizeof(buf_saved));
    if (n == 0)
        return PACT_OK;
    for (int b = PACT_BUF_TMP0; b < PACT_NBUF; b++) {
        if (!x->buf[b] && p->buf_count[b] > 0) {
            owned[b] = malloc(p->buf_count[b] * p->elem_size);
            if (!owned[b]) {
                rc = PACT_ERR_NOMEM;
                goto out;
            }
            x->buf[b] = owned[b];
        }
    }

    for (size_t i = 0; i < n; i++) {
        v[i].pending = v[i].pending0;
        v[i].state = UNRELEASED;
    }
    memcpy(p->ready.v, p->roots, p->nroots * sizeof(*p->roots));
    p->ready.n = p->nroots;
    size_t cursor = 0, nposted = 0, head = 0; /* posted[head..]: from the oldest not known done */
    p->nheld = 0;
    for (;;) {
        while (p->ready.n > 0) {
            const uint32_t i = pact_heap_pop(&p->ready);
            node_t *o = &v[i];
            if (o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV) { /* posted at the wait (post_held) */
                o->state = POSTED;
                o->seq = (uint32_t)nposted;
                p->posted[nposted++] = i;
                p->nheld++;
                continue;
            }
            const int computes = !x->no_compute && o->count > 0;
            if ((computes && o->kind != PACT_OP_NOP) || (o->kind == PACT_OP_REDUCE && x->gamma > 0))
                if ((rc = post_held(p, x, nposted)) != PACT_OK) /* takes time: what is ready goes first */
                    goto out;
            if (o->kind == PACT_OP_REDUCE) {
                if (computes)
                    PACT_MPI_CHECK(MPI_Reduce_local(src_of(x, o), dst_of(x, o), o->count, x->dtype, x->op));
                if (x->gamma > 0)
                    pact_charge(x->gamma * (double)((size_t)o->count * p->elem_size));
            } else if (o->kind == PACT_OP_COPY) {
                char *d = dst_of(x, o), *src = src_of(x, o);
                if (computes && d != src)
                    memcpy(d, src, (size_t)o->count * p->elem_size);
            }
            o->state = DONE;
            release(p, i);
        }
        while (cursor < n && v[cursor].state != UNRELEASED)
            cursor++;
        if (cursor == n)
            break;
        /* The lowest-numbered blocked operation waits for its posted dependencies, earliest first. */
        size_t ng = 0;
        for (uint32_t k = v[cursor].dep_first; k < v[cursor + 1].dep_first; k++) {
            const uint32_t d = p->deps[k];
            if (v[d].state != POSTED)
                continue;
            size_t q = ng++; /* insertion by posting order */
            while (q > 0 && v[p->group[q - 1]].seq > v[d].seq) {
                p->group[q] = p->group[q - 1];
                q--;
            }
            p->group[q] = d;
        }
        if (ng == 0) {
            fprintf(stderr, "pact: rank %d: schedule stalled at operation %zu of %zu\n", p->rank, cursor, n);
            rc = PACT_ERR_ARG;
            goto out;
        }
        while (head < nposted && v[p->posted[head]].state == DONE)
            head++;
        const int all = ng > 1 && one_waitall(p, p->group, ng, head);
        if (!all) { /* one request: the earliest, or an older one of its key */
            for (size_t k = head; k < v[p->group[0]].seq; k++) {
                const uint32_t j = p->posted[k];
                if (v[j].state == POSTED && same_key(&v[j], &v[p->group[0]])) {
                    p->group[0] = j;
                    break;
                }
            }
            ng = 1;
        }
        if ((rc = wait_group(p, x, ng, nposted)) != PACT_OK)
            goto out;
        for (size_t k = 0; k < ng; k++) {
            v[p->group[k]].state = DONE;
            release(p, p->group[k]);
        }
    }
    /* Requests nothing depends on (final sends, mostly). */
    if ((rc = post_held(p, x, nposted)) != PACT_OK)
        goto out;
    size_t w = 0;
    for (size_t k = head; k < nposted; k++)
        if (v[p->posted[k]].state == POSTED)
            p->reqs[w++] = v[p->posted[k]].req;
    if (w > 0)
        PACT_MPI_CHECK(MPI_Waitall((int)w, p->reqs, p->sts));

out:
    for (int b = 0; b < PACT_NBUF; b++)
        free(owned[b]);
    memcpy(x->buf, buf_saved, sizeof(buf_saved));
    return rc;
}
