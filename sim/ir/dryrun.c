/*
 * dryrun.c - runs the schedules of all P ranks in one process, with real data and eager messages.
 *
 * It needs no MPI: unit tests use it to check every builder for many P and counts in milliseconds,
 * and it finds the errors the MPI executor would only show as a hang (a receive nobody sends to, a
 * cycle of dependencies across ranks) or as wrong numbers.
 */
#include "pact_dryrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

typedef struct msg {
    struct msg *next;
    int tag;
    size_t count;
    char data[];
} msg_t;

typedef struct {
    msg_t *head, *tail;
} chan_t;

typedef struct {
    uint32_t *pending;
    uint32_t *succ_first, *succ;
    pact_heap ready;
    uint32_t *blocked; /* receives waiting for a message */
    size_t nblocked;
    size_t done;
} rstate_t;

static int setup(const pact_sched *s, rstate_t *r)
{
    size_t n = s->nops;
    if (pact_sched_successors(s, &r->pending, &r->succ_first, &r->succ) != PACT_OK)
        return PACT_ERR_NOMEM;
    r->ready.v = malloc((n + 1) * sizeof(uint32_t));
    r->blocked = malloc((n + 1) * sizeof(uint32_t));
    if (!r->ready.v || !r->blocked)
        return PACT_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        if (r->pending[i] == 0)
            pact_heap_push(&r->ready, (uint32_t)i);
    return PACT_OK;
}

static void complete(rstate_t *r, uint32_t i)
{
    r->done++;
    pact_release(&r->ready, r->pending, r->succ_first, r->succ, i);
}

/* Takes the first message of the channel with this tag, MPI's matching rule. */
static msg_t *take(chan_t *c, int tag)
{
    msg_t *prev = NULL;
    for (msg_t *m = c->head; m; prev = m, m = m->next) {
        if (m->tag != tag)
            continue;
        if (prev)
            prev->next = m->next;
        else
            c->head = m->next;
        if (c->tail == m)
            c->tail = prev;
        return m;
    }
    return NULL;
}

int pact_dryrun(const pact_sched *const *scheds, int P, void *(*bufs)[PACT_NBUF], pact_dry_op op, char *why,
                size_t whylen)
{
    int rc = PACT_OK;
    rstate_t *st = calloc((size_t)P, sizeof(*st));
    chan_t *chan = calloc((size_t)P * (size_t)P, sizeof(*chan));
    if (!st || !chan) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    for (int p = 0; p < P; p++)
        if ((rc = setup(scheds[p], &st[p])) != PACT_OK)
            goto out;

    for (int progress = 1; progress;) {
        progress = 0;
        for (int p = 0; p < P; p++) {
            const pact_sched *s = scheds[p];
            rstate_t *r = &st[p];
            /* Retry receives that were waiting; then run everything ready. */
            size_t nb = r->nblocked;
            r->nblocked = 0;
            for (size_t k = 0; k < nb; k++)
                pact_heap_push(&r->ready, r->blocked[k]);
            while (r->ready.n > 0) {
                uint32_t i = pact_heap_pop(&r->ready);
                const pact_op *o = &s->ops[i];
                size_t es = s->elem_size;
                if (o->kind == PACT_OP_SEND) {
                    msg_t *m = malloc(sizeof(msg_t) + o->src.count * es);
                    if (!m) {
                        rc = PACT_ERR_NOMEM;
                        goto out;
                    }
                    m->next = NULL;
                    m->tag = o->tag;
                    m->count = o->src.count;
                    memcpy(m->data, (char *)bufs[p][o->src.buf] + o->src.off * es, o->src.count * es);
                    chan_t *c = &chan[(size_t)p * (size_t)P + (size_t)o->peer];
                    if (c->tail)
                        c->tail->next = m;
                    else
                        c->head = m;
                    c->tail = m;
                } else if (o->kind == PACT_OP_RECV) {
                    msg_t *m = take(&chan[(size_t)o->peer * (size_t)P + (size_t)p], o->tag);
                    if (!m) {
                        r->blocked[r->nblocked++] = i;
                        continue;
                    }
                    if (m->count != o->dst.count) {
                        snprintf(why, whylen, "rank %d op %u receives %zu elements from %d, which sent %zu",
                                 p, i, o->dst.count, o->peer, m->count);
                        free(m);
                        rc = PACT_ERR_ARG;
                        goto out;
                    }
                    memcpy((char *)bufs[p][o->dst.buf] + o->dst.off * es, m->data, m->count * es);
                    free(m);
                } else if (o->kind == PACT_OP_REDUCE) {
                    op((char *)bufs[p][o->src.buf] + o->src.off * es,
                       (char *)bufs[p][o->dst.buf] + o->dst.off * es, o->src.count);
                } else if (o->kind == PACT_OP_COPY && o->src.count > 0) {
                    char *d = (char *)bufs[p][o->dst.buf] + o->dst.off * es;
                    char *x = (char *)bufs[p][o->src.buf] + o->src.off * es;
                    if (d != x)
                        memmove(d, x, o->src.count * es);
                }
                complete(r, i);
                progress = 1;
            }
        }
    }
    for (int p = 0; p < P; p++) {
        if (st[p].done != scheds[p]->nops) {
            snprintf(why, whylen, "deadlock: rank %d finished %zu of %zu operations", p, st[p].done,
                     scheds[p]->nops);
            rc = PACT_ERR_ARG;
            goto out;
        }
    }
    for (int p = 0; p < P * P; p++)
        if (chan[p].head) {
            snprintf(why, whylen, "rank %d sent a message to rank %d that nobody received", p / P, p % P);
            rc = PACT_ERR_ARG;
            goto out;
        }
out:
    if (chan)
        for (int p = 0; p < P * P; p++)
            for (msg_t *m = chan[p].head, *nx; m; m = nx) {
                nx = m->next;
                free(m);
            }
    if (st)
        for (int p = 0; p < P; p++) {
            free(st[p].pending);
            free(st[p].succ_first);
            free(st[p].succ);
            free(st[p].ready.v);
            free(st[p].blocked);
        }
    free(st);
    free(chan);
    return rc;
}
