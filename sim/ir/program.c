/*
 * program.c - the order in which a rank makes its MPI calls for one schedule, decided once.
 *
 * The executor's discipline, in one place for its two users: exec.c turns the program into MPI calls,
 * replay.c into SMPI time-independent trace actions.  The order depends on the schedule alone: a wait
 * returns when its request completes and nothing else is learnt at run time (no MPI_Test, no Waitany),
 * so the decisions can all be taken before the first call.
 *
 * Ready operations are taken in schedule order (a heap of indices): sends and receives are posted,
 * reductions and copies run.  When nothing is ready the rank waits for ONE request: the earliest posted
 * dependency of the lowest-numbered operation still blocked, or an older request of the same (peer,
 * direction, tag), which MPI's non-overtaking rule completes first anyway (SimGrid's trace `wait` pops
 * exactly that one).  Every dependency that operation lacks is a posted request: dependencies are
 * earlier operations, and an earlier one not yet released would be the lowest blocked.  Builders emit
 * operations in the order the library code they follow posts and waits, so this is that code's own
 * discipline (Open MPI's ring waits its send, then its previous receive; a chain segment after segment).
 *
 * When the blocked operation needs several requests and completing all but the last would let nothing
 * start, its waits are marked joined: one call may wait for all of them (MPI_Waitall) without changing
 * when anything starts.  Requests nothing depends on are left to one final wait for all.
 */
#include <stdlib.h>

#include "heap.h"
#include "pact_ir.h"

enum { UNRELEASED, POSTED, DONE, WAITING };

typedef struct {
    const pact_sched *s;
    uint32_t *pending, *first, *succ;
    uint8_t *state;
    uint32_t *seq;    /* posting number of a request */
    uint32_t *posted; /* requests by posting number */
    uint32_t *group;  /* the requests one wait is for */
    pact_heap ready;
    pact_program *g;
} walk_t;

static void emit(walk_t *w, uint32_t op, pact_act_kind kind, int joined)
{
    w->g->acts[w->g->nacts++] = (pact_act){.op = op, .kind = (uint8_t)kind, .joined = (uint8_t)joined};
}

/* SimGrid's key of a request: peer, direction, tag; a message to oneself shares it both ways. */
static int same_key(const pact_sched *s, uint32_t a, uint32_t b)
{
    const pact_op *x = &s->ops[a], *y = &s->ops[b];
    const int xs = x->peer == s->rank, ys = y->peer == s->rank;
    return x->peer == y->peer && x->tag == y->tag &&
           (xs ? ys : !ys && (x->kind == PACT_OP_RECV) == (y->kind == PACT_OP_RECV));
}

/* Whether a reduction or copy does anything under these flags (then it takes time, or touches data). */
static int computes(const pact_op *o, unsigned flags)
{
    if (o->src.count == 0)
        return 0;
    if (o->kind == PACT_OP_REDUCE)
        return (flags & (PACT_PROG_DATA | PACT_PROG_CHARGE)) != 0;
    return o->kind == PACT_OP_COPY && (flags & PACT_PROG_DATA);
}

/*
 * Whether the requests group[0..ng) (posted dependencies of the blocked operation, by posting number) may
 * be waited for together: no older request of a key of theirs is outstanding (it would be waited for
 * first), and completing all but the last lets no operation start.
 */
static int joinable(walk_t *w, size_t ng, size_t head)
{
    const uint32_t *g = w->group;
    int ok = 1;
    for (size_t k = 0; k < ng; k++)
        w->state[g[k]] = WAITING;
    for (size_t k = head; ok && k < w->seq[g[ng - 1]]; k++) {
        const uint32_t j = w->posted[k];
        if (w->state[j] != POSTED)
            continue;
        for (size_t q = 0; q < ng; q++)
            if (w->seq[g[q]] > k && same_key(w->s, j, g[q])) {
                ok = 0;
                break;
            }
    }
    if (ok) {
        for (size_t k = 0; k + 1 < ng; k++)
            for (uint32_t e = w->first[g[k]]; e < w->first[g[k] + 1]; e++)
                ok &= --w->pending[w->succ[e]] > 0;
        for (size_t k = 0; k + 1 < ng; k++)
            for (uint32_t e = w->first[g[k]]; e < w->first[g[k] + 1]; e++)
                w->pending[w->succ[e]]++;
    }
    for (size_t k = 0; k < ng; k++)
        w->state[g[k]] = POSTED;
    return ok;
}

static int walk(walk_t *w, unsigned flags, size_t *stalled)
{
    const pact_sched *s = w->s;
    const size_t n = s->nops;
    size_t cursor = 0, nposted = 0, head = 0; /* posted[head..]: from the oldest not known done */
    for (size_t i = 0; i < n; i++)
        if (w->pending[i] == 0)
            pact_heap_push(&w->ready, (uint32_t)i);
    for (;;) {
        while (w->ready.n > 0) {
            const uint32_t i = pact_heap_pop(&w->ready);
            const pact_op *o = &s->ops[i];
            if (o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV) {
                w->state[i] = POSTED;
                w->seq[i] = (uint32_t)nposted;
                w->posted[nposted++] = i;
                emit(w, i, PACT_ACT_POST, 0);
                continue;
            }
            if (computes(o, flags))
                emit(w, i, PACT_ACT_COMPUTE, 0);
            w->state[i] = DONE;
            pact_release(&w->ready, w->pending, w->first, w->succ, i);
        }
        while (cursor < n && w->state[cursor] != UNRELEASED)
            cursor++;
        if (cursor == n)
            break;
        size_t ng = 0;
        const uint32_t *d = pact_op_deps(s, cursor);
        for (uint32_t k = 0; k < s->ops[cursor].ndeps; k++) {
            if (w->state[d[k]] != POSTED)
                continue;
            size_t q = ng++; /* insertion by posting number */
            while (q > 0 && w->seq[w->group[q - 1]] > w->seq[d[k]]) {
                w->group[q] = w->group[q - 1];
                q--;
            }
            w->group[q] = d[k];
        }
        if (ng == 0) {
            *stalled = cursor;
            return PACT_ERR_ARG;
        }
        while (head < nposted && w->state[w->posted[head]] == DONE)
            head++;
        if (ng == 1 || !joinable(w, ng, head)) { /* one request: the earliest, or an older one of its key */
            for (size_t k = head; k < w->seq[w->group[0]]; k++) {
                const uint32_t j = w->posted[k];
                if (w->state[j] == POSTED && same_key(s, j, w->group[0])) {
                    w->group[0] = j;
                    break;
                }
            }
            ng = 1;
        }
        for (size_t k = 0; k < ng; k++)
            emit(w, w->group[k], PACT_ACT_WAIT, k + 1 < ng);
        for (size_t k = 0; k < ng; k++) {
            w->state[w->group[k]] = DONE;
            pact_release(&w->ready, w->pending, w->first, w->succ, w->group[k]);
        }
    }
    for (size_t k = head; k < nposted; k++)
        if (w->state[w->posted[k]] == POSTED) {
            emit(w, UINT32_MAX, PACT_ACT_WAITALL, 0);
            break;
        }
    w->g->nposts = nposted;
    return PACT_OK;
}

int pact_program_build(const pact_sched *s, unsigned flags, pact_program *g, size_t *stalled)
{
    const size_t n = s->nops;
    walk_t w = {.s = s, .g = g};
    int rc = PACT_OK;
    *g = (pact_program){0};
    *stalled = 0;
    if (pact_sched_successors(s, &w.pending, &w.first, &w.succ) != PACT_OK) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    /* each operation is posted and waited for, or computes, once; plus the final wait */
    g->acts = malloc((2 * n + 1) * sizeof(*g->acts));
    w.state = calloc(n + 1, sizeof(*w.state));
    w.seq = malloc((n + 1) * sizeof(*w.seq));
    w.posted = malloc((n + 1) * sizeof(*w.posted));
    w.group = malloc((n + 1) * sizeof(*w.group));
    w.ready.v = malloc((n + 1) * sizeof(*w.ready.v));
    if (!g->acts || !w.state || !w.seq || !w.posted || !w.group || !w.ready.v) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    rc = walk(&w, flags, stalled);
out:
    free(w.pending);
    free(w.first);
    free(w.succ);
    free(w.state);
    free(w.seq);
    free(w.posted);
    free(w.group);
    free(w.ready.v);
    if (rc != PACT_OK)
        pact_program_free(g);
    return rc;
}

void pact_program_free(pact_program *g)
{
    free(g->acts);
    *g = (pact_program){0};
}
