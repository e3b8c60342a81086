/*
 * direct.c - the evaluation without events, where no two classes of flows share a link at once.
 *
 * A rank's run depends on the network only through the times its requests complete (eval.c: ready
 * operations in schedule order, a reduction's busy time, and when nothing is ready the requests completed by
 * then, in posting order, else a wait for the first to complete).  Where a message's class (the flows from
 * one node to another) has its links to itself, its delivery is known once its second end is posted: the
 * later post, its latency, then its bytes at what the sharing gives that class (links.c: share_isolated's
 * rate, the class's virtual service V), or over a private link at that link's rate.  So the ranks can run
 * one after another, each as far as what is known allows, without an event queue: ring allreduce at 1024
 * ranks is two million messages and five million events, and under random arrivals a rank runs hundreds of
 * steps in one go here, where the events hop from rank to rank at each.
 *
 * A rank stops where it would collect or wait while one of its requests is still unknown (its other end not
 * posted) and could complete by then: an unknown request completes after its other end's post, which comes
 * no earlier than the time from which that rank acts next (dclk: its arrival, or where it stopped).  When
 * every rank has stopped, those whose next step comes first (the least time at which one collects or wakes)
 * take it: nothing can happen before that time, so nothing unknown completes by it (Chandy and Misra's
 * conservative simulation, with that least time as the bound the null messages would carry).
 *
 * Several flows of one class (a late rank's neighbour's messages pile up on the ring) are followed as
 * links.c runs that class: each start, end and instant's sharing with its arithmetic, so the same bits
 * (dc_*).  A flow that joins a class slows those in flight; where one of them has been collected already the
 * path gives up, and before collecting a delivery a rank checks that no later message of its channel can
 * join by then (channel_quiet).
 *
 * A start and an end of one class at one instant go in links.c's order of that instant's events (by
 * receive operation).  Each link keeps its last busy periods (a class's flows from the first's start to the
 * last's end).  Where two classes' periods on one link overlap, their flows would have shared it, and the
 * path gives up: the event path runs the cell (eval.c).  It gives up too off one switch where flows of a
 * class overlap, where a delivery does not come after its match (an instant's order would matter), and
 * where its stops cost more than the events would.  Most give up within a thousand runs (linear and pairwise
 * alltoall, trees: their first flows already share links).  PACT_MODEL_DIRECT=2 runs both and compares the
 * exit times to the bit (tests/integration/models.sh), =0 never tries.
 */
#include "eval_int.h"

/* A pending request that is an eager send: complete when posted. */
#define DONE_BIT 0x80000000u

typedef struct {
    sim_t *x;
    uint32_t nwl;   /* ranks to run: w->dwl[0 .. nwl), a stack (a rank woken runs next: a ring's next rank, a
                     * rendezvous sender just matched, while their records are in cache) */
    int ndone;      /* ranks done */
    int fail;       /* give up */
    size_t scanned; /* pending requests looked at */
    size_t budget;  /* ... at most, else give up */
    size_t runs;
    uint32_t nperiod; /* busy periods made (their ids) */
    double gvt; /* before it nothing happens: every rank stopped, none had a step before it (d_unblock) */
} dstate;

/* Rank r, stopped on a request that has just become known, runs again. */
static inline void d_wake(dstate *d, int r)
{
    rstate *q = &d->x->w->rs[r];
    if (q->waiting && !q->wake_pending) {
        q->wake_pending = 1;
        d->x->w->dwl[d->nwl++] = (uint32_t)r;
    }
}

/* Rank r's pending requests, in posting order: in its line's csm while CSM at most (the events path keeps its
 * completed requests there; this path its pending ones), else in comp[b ..], b its first operation.  At 2^20
 * ranks a rank's run read them from a line of comp of their own, a miss each run, and comp's pages were
 * faults to clear (session 43). */
static inline uint32_t *d_pend(pact_model_eval *w, int r, uint32_t b, uint32_t n)
{
    return n <= CSM ? w->rs[r].csm : w->comp + b;
}

/* Request e joins rank r's pending ones. */
static inline void d_pend_add(pact_model_eval *w, int r, uint32_t b, uint32_t e)
{
    rstate *q = &w->rs[r];
    const uint32_t n = q->comp_n;
    if (n < CSM) {
        q->csm[n] = e;
    } else {
        uint32_t *c = w->comp + b;
        if (n == CSM)
            memcpy(c, q->csm, sizeof q->csm);
        c[n] = e;
    }
    q->comp_n = n + 1;
}

/* Busy period [t0, t1] of a class (b: its id, 0 off one switch) on shared link l: apart from every other
 * that the link keeps (the last DLK_K in order of start; nothing may start before the end of one dropped),
 * else a failure: two classes would have shared the link.  Two classes' periods may touch: at that instant
 * one class ends (and is gone) and the other starts, in either order, and the instant's one sharing finds the
 * second alone. */
static void dl_add(dstate *d, uint32_t l, double t0, double t1, uint32_t b, uint32_t o)
{
    pact_model_eval *w = d->x->w;
    dlink *k = &w->dlk[l];
    uint32_t n = w->dln[l], i = n;
    /* periods touch only where they are of two classes (o: the class's other link, on one switch): a flow of
     * the same class at its end's instant could join it first (dc_add follows that), and off one switch the
     * class is not known here */
    if (!(t0 > w->dlfloor[l])) {
        d->fail = 1;
        return;
    }
    while (i > 0 && k->t0[i - 1] > t0)
        i--;
    if ((i > 0 && !(t0 > k->t1[i - 1] || (b && t0 == k->t1[i - 1] && k->o[i - 1] != o))) ||
        (i < n && !(k->t0[i] > t1 || (b && k->t0[i] == t1 && k->o[i] != o)))) {
        d->fail = 1;
        return;
    }
    if (n == DLK_K) { /* the earliest goes */
        if (i == 0) {
            w->dlfloor[l] = t1 > w->dlfloor[l] ? t1 : w->dlfloor[l];
            return;
        }
        w->dlfloor[l] = k->t1[0] > w->dlfloor[l] ? k->t1[0] : w->dlfloor[l];
        memmove(k->t0, k->t0 + 1, (n - 1) * sizeof(double));
        memmove(k->t1, k->t1 + 1, (n - 1) * sizeof(double));
        memmove(k->b, k->b + 1, (n - 1) * sizeof(uint32_t));
        memmove(k->o, k->o + 1, (n - 1) * sizeof(uint32_t));
        n--;
        i--;
    }
    memmove(k->t0 + i + 1, k->t0 + i, (n - i) * sizeof(double));
    memmove(k->t1 + i + 1, k->t1 + i, (n - i) * sizeof(double));
    memmove(k->b + i + 1, k->b + i, (n - i) * sizeof(uint32_t));
    memmove(k->o + i + 1, k->o + i, (n - i) * sizeof(uint32_t));
    k->t0[i] = t0;
    k->t1[i] = t1;
    k->b[i] = b;
    k->o[i] = o;
    w->dln[l] = (uint8_t)(n + 1);
}

/* Busy period b on link l now ends at t1 (a flow joined its class), apart from the next, else a failure (and
 * where the link no longer keeps it). */
static void dl_extend(dstate *d, uint32_t l, uint32_t b, double t1)
{
    pact_model_eval *w = d->x->w;
    dlink *k = &w->dlk[l];
    const uint32_t n = w->dln[l];
    uint32_t i = n;
    while (i > 0 && k->b[i - 1] != b)
        i--;
    if (i == 0 || (i < n && !(k->t0[i] >= t1))) {
        d->fail = 1;
        return;
    }
    k->t1[i - 1] = t1;
}

/* The rate per flow of a class of k flows on links l[0..n), alone there: links.c's share_isolated (each
 * link's capacity over the class's weight iw k, the least of them, times iw off one switch). */
static double class_rate(const sim_t *x, const uint32_t *l, int n, double iw, uint32_t k)
{
    const double wt = iw * k;
    double best = INFINITY;
    for (int i = 0; i < n; i++) {
        const double key = x->w->lk[l[i]].cap0 / wt;
        if (key < best)
            best = key;
    }
    return x->rt ? best * iw : best;
}

/* A class of flows on one switch, alone on its two links, as links.c runs it: at a flow's start (V brought
 * to the instant, target V + bytes, a new first flow marks it moved), at the end of its first flow (V set to
 * that target, every flow of that target delivered, moved), and at each instant's sharing (V brought there,
 * the rate of its n flows; where the rate changed or the class moved, its end placed again).  The same
 * operations in the same order give the same bits. */
static void dc_share(const sim_t *x, dcls *c, const uint32_t *l, double iw, double t)
{
    if (c->n == 0)
        return;
    c->V += c->rate * (t - c->last);
    c->last = t;
    const double r = class_rate(x, l, 2, iw, c->n);
    if (c->rate != r || c->moved) {
        c->rate = r;
        c->moved = 0;
        const double dt = (c->f[0].target - c->V) / r;
        c->end = t + (dt > 0 ? dt : 0);
    }
}

/* The class's first flows end at its end (their deliveries). */
static void dc_end(dcls *c)
{
    const double tg = c->f[0].target;
    c->V = tg;
    c->last = c->end;
    uint32_t m = 0;
    while (m < c->n && c->f[m].target == tg)
        m++;
    memmove(c->f, c->f + m, (c->n - m) * sizeof(dflow));
    c->n -= m;
    c->moved = 1;
}

/* links.c's order of a class's flows: by target, then by joining (fl_before's seq), which at one instant is
 * the order of its events, by receive operation. */
static inline int flow_before(const dflow *a, const dflow *b)
{
    return a->target < b->target ||
           (a->target == b->target && (a->ts < b->ts || (a->ts == b->ts && a->rcv < b->rcv)));
}

/* Flow f (its bytes set) starts at t. */
static void dc_join(dcls *c, dflow f, double t)
{
    if (c->n == 0) { /* a new class (links.c, class_get) */
        c->V = 0;
        c->rate = 0;
        c->last = t;
    }
    c->V += c->rate * (t - c->last);
    c->last = t;
    f.target = c->V + f.bytes;
    f.ts = t;
    uint32_t i = c->n;
    while (i > 0 && flow_before(&f, &c->f[i - 1]))
        i--;
    memmove(c->f + i + 1, c->f + i, (c->n - i) * sizeof(dflow));
    c->f[i] = f;
    c->n++;
    if (i == 0)
        c->moved = 1;
    c->t = t;
}

/* A new busy period of the class on up link u: flow f alone from t0, its class state not made until a second
 * flow joins (most never have one). */
static void dc_first(pact_model_eval *w, uint32_t u, const dflow *f, double t0)
{
    if (w->dcs[u] != NONE) { /* the last busy period's state, for the next */
        w->dcp[w->dcs[u]].next = w->dcfree;
        w->dcfree = w->dcs[u];
        w->dcs[u] = NONE;
    }
    w->d1[u] = *f;
    w->d1t0[u] = t0;
}

/* Flow f joins the class on links l (one switch) at t0 within its busy period (a flow of it in flight, or
 * ending at t0).  Where every flow it slows has not been collected (a rank collects only in its own runs, at
 * or after the delivery, and keeps that time as its dclk; the rank that runs now posted at t0 or before), the
 * flows' deliveries move to what the class gives them with f, and f's is returned; else -1, failed. */
static double dc_add(dstate *d, const uint32_t *l, double iw, dflow f, double t0)
{
    pact_model_eval *w = d->x->w;
    const uint32_t u = l[0];
    if (w->dcs[u] == NONE) { /* its second flow: the state of the first */
        uint32_t i = w->dcfree;
        if (i != NONE) {
            w->dcfree = w->dcp[i].next;
        } else {
            if (!reserve_n((void **)&w->dcp, &w->cap_dcp, w->ndcp + 1, sizeof(dcls))) {
                d->x->oom = TRUE;
                d->fail = 1;
                return -1;
            }
            i = (uint32_t)w->ndcp++;
        }
        dcls *c = &w->dcp[i];
        *c = (dcls){.n = 0, .tie = -INFINITY};
        dc_join(c, w->d1[u], w->d1t0[u]);
        w->dcs[u] = i;
    }
    dcls *st = &w->dcp[w->dcs[u]];
    if (t0 < st->t) {
        d->fail = 1; /* a start before the last (out of order): the events decide */
        return -1;
    }
    /* to t0: the last start's sharing, then the ends before t0 (those the deliveries already hold) */
    dcls c = *st;
    if (t0 > c.t) {
        dc_share(d->x, &c, l, iw, c.t);
        while (c.n > 0 && c.end < t0) {
            const double e = c.end;
            dc_end(&c);
            dc_share(d->x, &c, l, iw, e);
        }
    } else if (c.tie == t0) {
        d->fail = 1; /* a second start at an instant where one met an end */
        return -1;
    }
    /* an end at the start's instant: links.c takes an instant's events by receive (the end's is its first
     * flow's), then shares once */
    const int tie = c.n > 0 && c.end == t0, end_first = tie && c.f[0].rcv < f.rcv;
    if (end_first)
        dc_end(&c);
    if (c.n == CLS_MAX) {
        d->fail = 1;
        return -1;
    }
    dc_join(&c, f, t0);
    if (tie && !end_first) {
        if (c.f[0].rcv == f.rcv) {
            d->fail = 1; /* it would be the flow that ends */
            return -1;
        }
        dc_end(&c);
    }
    if (tie)
        c.tie = t0;
    *st = c;
    /* the deliveries of every flow in flight, no more joining */
    dc_share(d->x, &c, l, iw, t0);
    double fend = -1, e = t0;
    while (c.n > 0) {
        e = c.end;
        const double tg = c.f[0].target;
        for (uint32_t i = 0; i < c.n && c.f[i].target == tg; i++) {
            const dflow *g = &c.f[i];
            if (g->msg == f.msg) {
                fend = e;
                continue;
            }
            const double old = w->mtime[g->msg], lo = old < e ? old : e;
            if (old == e)
                continue;
            if (!(w->dclk[g->rd] < lo) || (g->rs >= 0 && !(w->dclk[g->rs] < lo))) {
                d->fail = 1; /* a rank has collected it already */
                return -1;
            }
            w->mtime[g->msg] = e;
        }
        dc_end(&c);
        dc_share(d->x, &c, l, iw, e);
    }
    const uint32_t b = w->dbid[u];
    dl_extend(d, l[0], b, e);
    dl_extend(d, l[1], b, e);
    w->dend[l[0]] = w->dend[l[1]] = e; /* the busy period's end */
    return fend;
}

/* The delivery of message msg, from send snd into receive rcv over channel ch, matched at tm, with nothing
 * else on its links at once but its own class's flows: eval.c's private link (match), or links.c's class of
 * flows (dc_*). */
static double d_deliver(dstate *d, const schan *ch, uint32_t snd, uint32_t rcv, uint32_t msg, double tm)
{
    const sim_t *x = d->x;
    pact_model_eval *w = x->w;
    uint32_t l[PACT_ROUTE_MAX] = {0};
    double lat, iw, bw, end;
    int n = pact_ev_flow_links(x, ch->src, ch->dst, l, &lat, &iw, &bw);
    const double sent = op_bytes(x->s, ch->src, snd), bytes = sent + x->m->envelope;
    if (n == 0) {
        end = private_end(x, tm, lat, bw, sent);
    } else {
        const double t0 = tm + lat;
        if (!(t0 > tm)) { /* no latency: its start would join the instant that matched it */
            d->fail = 1;
            return 0;
        }
        const int rdv = !(sent < x->m->eager_limit);
        const dflow f = {.bytes = bytes, .msg = msg, .rcv = rcv, .rd = ch->dst, .rs = rdv ? ch->src : -1};
        if (!x->rt && w->dbid[l[0]] != 0 && w->dbid[l[0]] == w->dbid[l[1]] && t0 <= w->dend[l[0]]) {
            end = dc_add(d, l, iw, f, t0);
            if (d->fail)
                return 0;
        } else {
            const double r = class_rate(x, l, n, iw, 1);
            const double target = 0.0 + bytes, V = 0.0; /* a new class's virtual service, and the flow's */
            const double dt = (target - V) / r;
            end = t0 + (dt > 0 ? dt : 0);
            const uint32_t b = ++d->nperiod;
            for (int k = 0; k < n; k++)
                dl_add(d, l[k], t0, end, x->rt ? 0 : b, x->rt ? NONE : l[1 - k]);
            if (!x->rt && !d->fail) {
                w->dbid[l[0]] = w->dbid[l[1]] = b;
                w->dend[l[0]] = w->dend[l[1]] = end;
                dc_first(w, l[0], &f, t0);
            }
        }
    }
    if (!(end > tm))
        d->fail = 1; /* delivered at its match's instant: the order of that instant's events would matter */
    return end;
}

/* Rank r posts send or receive op (record o) at `now`: its request joins the rank's pending ones, in posting
 * order; where the other end was posted first, the message is matched and its delivery known. */
static inline void d_post(dstate *d, int r, uint32_t op, const sop *o, uint32_t b, double now)
{
    const sim_t *x = d->x;
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const uint32_t c = s->chan[op];
    const schan *ch = &s->ch[c];
    const int send = SOP_KIND(o) == PACT_OP_SEND;
    const double bytes = s->bval[SOP_BIDX(o)], eager = x->m->eager_limit;
    uint32_t msg, other;
    double t1;
    const int matched = slot_post(w, s, c, send, op, now, &msg, &other, &t1);
    w->wo[op] = msg;
    d_pend_add(w, r, b, send && bytes < eager ? op | DONE_BIT : op);
    if (!matched)
        return;
    const uint32_t snd = send ? op : other;
    w->mtime[msg] = d_deliver(d, ch, snd, send ? other : op, msg, now > t1 ? now : t1);
    w->mslot[msg] = NONE;
    if (send)
        d_wake(d, ch->dst);
    else if (!(op_bytes(s, ch->src, snd) < eager))
        d_wake(d, ch->src); /* a rendezvous send completes with its delivery */
}

/* No flow of the channel of rank r's request e, beyond those matched, can start by te, where r acts next at t
 * (one switch): the channel's next message starts its latency after both its ends are posted, each no earlier
 * than what is known of it (its post, its rank's dclk, or t for r itself) nor than gvt.  Where another
 * channel's flow joins the class instead, dc_add finds what was collected and gives up. */
static int channel_quiet(const dstate *d, int r, uint32_t e, double te, double t)
{
    const sim_t *x = d->x;
    const pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const uint32_t c = s->chan[e];
    const schan *ch = &s->ch[c];
    if (same_node(x, ch->src, ch->dst))
        return 1; /* a private link */
    const uint32_t ns = w->nsr[2 * c], nr = w->nsr[2 * c + 1], k = ns < nr ? ns : nr;
    if (ch->slot + k == ch[1].slot)
        return 1; /* its last message is matched */
    const double ps = ns > k ? w->mtime[ch->slot + k] : ch->src == r ? t : w->dclk[ch->src];
    const double pr = nr > k ? w->mtime[ch->slot + k] : ch->dst == r ? t : w->dclk[ch->dst];
    double b = ps > pr ? ps : pr;
    if (d->gvt > b)
        b = d->gvt;
    return b + x->m->alpha > te;
}

/* When rank r, stopped at dclk[r], takes its next step (its pending requests pend[0 .. n)): now if a request
 * of its is complete by then, else when the first known one completes (+inf: none known).  *safe: no unknown
 * one can complete by then.  *rest, where that step is now: when the first known request not complete by now
 * completes (+inf: none), else -inf. */
static inline __attribute__((always_inline)) double d_next(dstate *d, int r, const uint32_t *pend, uint32_t n,
                                                           int *safe, double *rest)
{
    const sim_t *x = d->x;
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const uint32_t *wo = w->wo, *mslot = w->mslot;
    const double *mtime = w->mtime;
    const double now = w->dclk[r];
    double tmin = INFINITY;
    int ready = 0, unknown = 0;
    d->scanned += n;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t e = pend[i];
        if (e & DONE_BIT) {
            ready = 1;
            continue;
        }
        const uint32_t msg = wo[e];
        if (mslot[msg] == NONE) {
            const double t = mtime[msg];
            if (t <= now)
                ready = 1;
            else if (t < tmin)
                tmin = t;
        } else {
            unknown = 1;
        }
    }
    const double t = ready ? now : tmin;
    *rest = ready ? tmin : -INFINITY;
    if (!(t < INFINITY)) {
        *safe = 0;
        return t;
    }
    /* what it collects at t keeps its delivery: no later flow of its channel joins its class by then */
    if (!x->rt)
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t e = pend[i];
            if (e & DONE_BIT)
                continue;
            const uint32_t msg = wo[e];
            if (mslot[msg] == NONE && mtime[msg] <= t && !channel_quiet(d, r, e, mtime[msg], t)) {
                *safe = 0;
                return t;
            }
        }
    /* an unknown request completes after its other end's post: no earlier than that rank's dclk, nor than
     * the time before which, as a stop of every rank showed, nothing happens (gvt) */
    if (unknown)
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t e = pend[i];
            if ((e & DONE_BIT) || mslot[wo[e]] == NONE)
                continue;
            const schan *ch = &s->ch[s->chan[e]];
            const int peer = SOP_KIND(op_rec(s, r, e)) == PACT_OP_SEND ? ch->dst : ch->src;
            const double tp = mtime[wo[e]];
            if (!(tp >= t || w->dclk[peer] >= t || d->gvt >= t)) {
                *safe = 0;
                return t;
            }
        }
    *safe = 1;
    return t;
}

/* Rank r runs from dclk[r] as far as it can (force: its first step is safe whatever it does not know). */
static void d_run(dstate *d, int r, int force)
{
    sim_t *x = d->x;
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    /* the rank's operations b .. e, their records ro[op - b]: loaded once (a byte's store, as of rs's flags,
     * may alias anything, and the compiler loaded them again at each use) */
    const uint32_t b = s->base[r], e = s->base[r + 1], nops = e - b;
    const sop *ro = s->op + s->shb[r];
    rstate *q = &w->rs[r];
    double now = w->dclk[r];
    d->runs++;
    for (;;) {
        while (q->heap_n > 0) {
            const uint32_t op = ready_pop(x, r);
            const sop *o = ro + (op - b);
            const uint8_t k = SOP_KIND(o);
            if (k == PACT_OP_SEND || k == PACT_OP_RECV) {
                d_post(d, r, op, o, b, now);
                if (d->fail)
                    return;
                continue;
            }
            const double cost = local_cost(x, o);
            if (cost > 0)
                now = now + cost; /* eval.c: EV_RESUME at now + cost */
            release_rec(x, r, op, o, b, e);
        }
        w->dclk[r] = now;
        if (q->done == nops) {
            w->exit[r] = now;
            w->dclk[r] = INFINITY; /* it posts nothing more */
            q->waiting = 0;
            d->ndone++;
            return;
        }
        int safe;
        double rest;
        const double t = d_next(d, r, d_pend(w, r, b, q->comp_n), q->comp_n, &safe, &rest);
        if (d->scanned > d->budget) {
            d->fail = 1;
            return;
        }
        if (!(safe || (force && t < INFINITY))) {
            q->waiting = 1;
            w->dnext[r] = t; /* for d_unblock */
            return;
        }
        force = 0;
        now = t;
        w->dclk[r] = now;
        /* the requests complete by now, released in posting order; the others stay, in that order */
        const uint32_t *wo = w->wo, *mslot = w->mslot;
        const double *mtime = w->mtime;
        uint32_t j = 0, *pend = d_pend(w, r, b, q->comp_n);
        for (uint32_t i = 0, n = q->comp_n; i < n; i++) {
            const uint32_t pe = pend[i], msg = (pe & DONE_BIT) ? 0 : wo[pe];
            if ((pe & DONE_BIT) || (mslot[msg] == NONE && mtime[msg] <= now)) {
                const uint32_t op = pe & ~DONE_BIT;
                release_rec(x, r, op, ro + (op - b), b, e);
            } else {
                pend[j++] = pe;
            }
        }
        if (q->comp_n > CSM && j <= CSM) /* back in the rank's line */
            memcpy(q->csm, pend, j * sizeof(uint32_t));
        q->comp_n = j;
        /* what d_next would find now where what it collected made nothing ready: every request left unknown
         * (those known complete after `rest`, none here), so no step, and the rank stops (in lockstep, after
         * collecting its eager send, at every step of a ring) */
        if (rest == INFINITY && q->heap_n == 0 && q->done != nops) {
            d->scanned += j;
            if (d->scanned > d->budget) {
                d->fail = 1;
                return;
            }
            q->waiting = 1;
            w->dnext[r] = INFINITY;
            return;
        }
    }
}

/* The stopped rank(s) whose next step comes first take it; FALSE where none has one (a deadlock, which the
 * event path reports) or the search costs more than the budget. */
static gboolean d_unblock(dstate *d)
{
    sim_t *x = d->x;
    pact_model_eval *w = x->w;
    const int P = x->s->P;
    double *next = w->dnext, rest;
    int safe;
    for (;;) {
        /* each stopped rank's next step as of its stop: no later than it is now (a request that becomes
         * known wakes its rank, and a delivery only moves later) */
        double tstar = INFINITY;
        for (int r = 0; r < P; r++)
            if (w->rs[r].waiting && next[r] < tstar)
                tstar = next[r];
        if (tstar == INFINITY || d->scanned > d->budget)
            return FALSE;
        d->gvt = tstar;
        /* those whose next step is tstar still take it then: what runs before posts at tstar or later, and
         * nothing it posts completes by tstar */
        int ran = 0;
        for (int r = 0; r < P && !d->fail; r++)
            if (w->rs[r].waiting && next[r] == tstar &&
                (next[r] = d_next(d, r, d_pend(w, r, x->s->base[r], w->rs[r].comp_n), w->rs[r].comp_n, &safe,
                                  &rest)) == tstar) {
                w->rs[r].waiting = 0;
                d_run(d, r, 1);
                ran = 1;
            }
        if (ran || d->fail)
            return TRUE;
    }
}

gboolean pact_ev_direct(sim_t *x, const double *arrivals, size_t *runs)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const int P = s->P;
    if (s->n >= DONE_BIT)
        return FALSE;
    /* the stops may look at each pending request a few times; past that, the events cost less */
    dstate d = {.x = x, .budget = 16 * s->n + 65536, .gvt = -INFINITY};
    pact_ev_ranks_init(x, arrivals);
    for (uint32_t l = 0; l < w->nlinks; l++) {
        w->dln[l] = 0;
        w->dlfloor[l] = -INFINITY;
        w->dbid[l] = 0;
        w->dcs[l] = NONE;
    }
    w->ndcp = 0;
    w->dcfree = NONE;
    for (int r = P; r-- > 0;) {
        w->dclk[r] = arrivals ? arrivals[r] : 0;
        w->rs[r].wake_pending = 1;
        w->dwl[d.nwl++] = (uint32_t)r;
    }
    while (!d.fail) {
        while (d.nwl > 0 && !d.fail) {
            const int r = (int)w->dwl[--d.nwl];
            w->rs[r].wake_pending = 0;
            if (w->dclk[r] < INFINITY) {
                w->rs[r].waiting = 0;
                d_run(&d, r, 0);
            }
        }
        if (d.fail || d.ndone == P)
            break;
        if (d.scanned > d.budget || !d_unblock(&d))
            d.fail = 1;
    }
    *runs = d.runs;
    return !d.fail;
}
