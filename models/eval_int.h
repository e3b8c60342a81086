/*
 * eval_int.h - what the parts of the schedule evaluator share: the flattened schedules (prepare.c), the
 * workspace, the event queue and a running evaluation (eval.c), and the shared links along which messages
 * flow (links.c).
 */
#ifndef PACT_EVAL_INT_H
#define PACT_EVAL_INT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "pact_host.h"
#include "pact_models.h"

struct pact_model_sched {
    int P;
    size_t n;           /* operations, all ranks */
    uint32_t *base;     /* P + 1: rank r's operations are base[r] .. base[r+1]-1 */
    uint8_t *kind;      /* pact_op_kind */
    int32_t *owner;     /* rank of each operation */
    int32_t *peer;      /* send, recv */
    uint32_t *chan;     /* send, recv: channel */
    double *bytes;      /* bytes moved, reduced or copied */
    uint32_t *pending0; /* dependencies of each operation */
    uint32_t *sfirst, *succ;
    uint32_t *ready0; /* operations with no dependency, by rank (base[] indexes it too: n entries) */
    uint32_t *nready0;
    size_t nchan;
    uint32_t *chan_base; /* nchan + 1: channel c's messages are slots chan_base[c] .. */
    size_t nmsg;
};

enum { EV_FLOW_END, EV_LAT_END, EV_START, EV_RESUME, EV_WAKE, EV_CLAIM };
/* At equal times: deliveries first, so that a rank woken at t collects everything delivered at t; port
 * claims last, once every rank has posted what it posts at t, in the senders' posting order. */
static const uint8_t ev_class[] = {0, 0, 1, 1, 2, 3};

typedef struct {
    double t;
    uint64_t key; /* class << 56 | sequence: ties in time resolve by class, then order of scheduling */
    uint32_t id, ver;
    uint8_t type;
} event;

struct pact_model_eval {
    size_t cap_n, cap_P, cap_chan, cap_msg, cap_ev;
    uint32_t *pending, *heap, *comp, *post_seq, *msg_send, *ver;
    double *rem, *rate, *last;
    uint32_t *heap_n, *comp_n, *done, *seq;
    int32_t *busy;
    uint8_t *waiting, *wake_pending;
    double *exit, *spf, *rpf;
    uint32_t *ns, *nr, *sslot, *rslot;
    /* shared links: link l = 2*node (up) or 2*node+1 (down); the flows on a link in a list through
     * fl_next/fl_prev[2*f + direction] */
    uint32_t *lhead, *ln, *lfix, *lmark, *fl_next, *fl_prev, *fmark, *comp_f, *comp_l;
    double *lcap;
    uint8_t *fixed;
    uint32_t stamp;
    /* routes (params' platform, route.c): flow f's links flink[PACT_ROUTE_MAX*f + k], k < fnl[f], its weight
     * and its bandwidth alone; link l's flows as a list of entries PACT_ROUTE_MAX*f + k from rl_head[l] */
    const pact_model_routes *rt;
    size_t cap_rn, cap_links;
    uint8_t *fnl;
    uint32_t *flink, *re_next, *re_prev, *rl_head, *rl_n, *rl_fix, *rl_mark, *rl_comp;
    double *fiw, *fbw, *rl_cap, *rl_w;
    event *ev;
    size_t nev;
    uint64_t evseq;
    size_t events;
};


static inline gboolean grow(void **p, size_t n, size_t elem)
{
    void *q = realloc(*p, (n ? n : 1) * elem);
    if (!q)
        return FALSE;
    *p = q;
    return TRUE;
}


static inline int ev_before(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->key < b->key);
}

static inline gboolean ev_push_key(pact_model_eval *w, double t, uint8_t type, uint32_t id, uint32_t ver,
                            uint64_t key)
{
    if (w->nev == w->cap_ev) {
        size_t c = w->cap_ev ? 2 * w->cap_ev : 1024;
        if (!grow((void **)&w->ev, c, sizeof(event)))
            return FALSE;
        w->cap_ev = c;
    }
    event e = {t, ((uint64_t)ev_class[type] << 56) | key, id, ver, type};
    size_t i = w->nev++;
    while (i > 0 && ev_before(&e, &w->ev[(i - 1) / 2])) {
        w->ev[i] = w->ev[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->ev[i] = e;
    return TRUE;
}

static inline gboolean ev_push(pact_model_eval *w, double t, uint8_t type, uint32_t id, uint32_t ver)
{
    return ev_push_key(w, t, type, id, ver, w->evseq++);
}


typedef struct {
    pact_model_eval *w;
    const pact_model_sched *s;
    const pact_model_params *m;
    int ppn;
    gboolean oom;
    const pact_model_routes *rt; /* shared links along routes, or NULL */
} sim_t;

static inline int node_of(const sim_t *x, int r)
{
    return x->ppn > 1 ? r / x->ppn : r;
}

static inline int same_node(const sim_t *x, int a, int b)
{
    return x->ppn > 1 && a / x->ppn == b / x->ppn;
}


/* links.c: a message's bytes start or stop flowing at `now` (shared links: node links, or routes) */
void pact_ev_flow_start(sim_t *x, uint32_t f, double now);
void pact_ev_flow_stop(sim_t *x, uint32_t f, double now);

#endif
