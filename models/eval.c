/*
 * eval.c - the schedule evaluator: all P ranks' schedules (the builders' own, pact_build) run as one
 * discrete-event simulation under Hockney, shared-link or LogGP costs and per-rank arrival times.
 *
 * Each rank mirrors the MPI executor (sim/rank/exec.c): it takes its ready operations in schedule order, posts
 * sends and receives at once, spends gamma*bytes on a reduction (nothing else happens on the rank
 * meanwhile, as smpi_execute blocks), and when nothing is ready waits for requests, taking all those
 * completed by then in posting order (MPI_Waitsome semantics; the executor waits for the one request its
 * lowest blocked operation needs, which starts every operation at the same moment for pact's schedules).
 * Messages pair up in posting order per
 * (source, destination, tag), MPI's non-overtaking rule; the pairing channels are found once, when the
 * schedule set is prepared.
 *
 * Protocols follow SMPI 3.32: a send below the eager limit (smpi/send-is-detached-thresh) is detached and
 * completes when posted, and with smpi/async-small-thresh 0 (the default) its bytes still move only once
 * the receive is posted; a larger send completes with its receive.
 *
 * Networks (pact_net): PORT is Hockney's single-port full-duplex model: a message of b bytes takes
 * T = alpha + beta*b; a rank's sends go out one after another (each holds the send port for T) and its
 * receives complete one after another (each T after the later of its send's start and the previous
 * receive's end); SHARED is SimGrid's flow model on one switch
 * (latency, then a max-min fair share of the sender node's up link and the receiver node's down link);
 * LOGGP is LogGP with L = alpha.
 */
#include "eval_int.h"

/* ---- workspace ---- */

pact_model_eval *pact_model_eval_new(void)
{
    return calloc(1, sizeof(pact_model_eval));
}

void pact_model_eval_free(pact_model_eval *w)
{
    if (!w)
        return;
    void *p[] = {w->cfix,   w->chpos,  w->cunfixed, w->wo,     w->heap,  w->comp, w->rs,      w->wbits,
                 w->exit,   w->spf,    w->rpf,      w->nsr,    w->mslot, w->fl,   w->cl,      w->lk,
                 w->comp_l, w->comp_c, w->dirty,    w->lheap,  w->cend,  w->rec,  w->csort,   w->lkey,
                 w->lbt,    w->chb,    w->ccsr,     w->pstart, w->bused, w->btop, w->lbm,     w->lbw,
                 w->lbmt,   w->mtime,  w->dclk,     w->dnext,  w->dlk,   w->dln,  w->dlfloor, w->dend,
                 w->dwl,    w->dbid,   w->dcs,      w->d1,     w->d1t0,  w->dcp,  w->cend_t,  w->lent};
    for (size_t i = 0; i < G_N_ELEMENTS(p); i++)
        free(p[i]);
    if (w->cmap)
        g_hash_table_destroy(w->cmap);
    evq_free(&w->q);
    free(w);
}

void pact_model_eval_record(pact_model_eval *w, gboolean on)
{
    w->recording = on;
}

const pact_model_op_time *pact_model_eval_times(const pact_model_eval *w)
{
    return w->recording ? w->rec : NULL;
}

static gboolean reserve(pact_model_eval *w, const pact_model_sched *s)
{
    gboolean ok = TRUE;
    size_t n = s->n + 1, P = (size_t)s->P + 1;
    if (w->recording && n > w->cap_rec) {
        GROW(rec, n);
        if (ok)
            w->cap_rec = n;
    }
    if (n > w->cap_n) {
        GROW_HUGE(wo, n);
        GROW(heap, n);
        GROW(comp, n);
        if (ok)
            w->cap_n = n;
    }
    if (P > w->cap_P) {
        P += P / 2;
        free(w->rs); /* a cache line a rank, aligned; nothing in it outlives an evaluation */
        w->rs = NULL;
        ok = ok && posix_memalign((void **)&w->rs, sizeof(rstate), P * sizeof(rstate)) == 0;
        uint32_t off[WK_LEVELS], nlev;
        GROW(wbits, pact_wk_layout(P, off, &nlev));
        GROW(exit, P);
        GROW(spf, P);
        GROW(rpf, P);
        GROW(dclk, P);
        GROW(dnext, P);
        GROW(dwl, P);
        if (ok)
            w->cap_P = P;
    }
    if (s->nchan + 1 > w->cap_chan) {
        size_t c = s->nchan + 1;
        GROW(nsr, 2 * c);
        if (ok)
            w->cap_chan = c;
    }
    if (s->nmsg + 1 > w->cap_msg) {
        size_t c = s->nmsg + 1;
        GROW(mslot, c);
        GROW(mtime, c);
        if (ok)
            w->cap_msg = c;
    }
    return ok;
}

/* The per-link arrays of shared links. */
static gboolean reserve_links(pact_model_eval *w, uint32_t links)
{
    gboolean ok = TRUE;
    if ((size_t)links + 1 > w->cap_links) {
        size_t c = (size_t)links + 1;
        GROW(lk, c);
        GROW(comp_l, c);
        GROW(lheap, c);
        GROW(pstart, c);
        GROW(lkey, c);
        GROW(bused, c);
        GROW(btop, c);
        GROW(dirty, c);
        GROW(dlk, c);
        GROW(dln, c);
        GROW(dlfloor, c);
        GROW(dend, c);
        GROW(dbid, c);
        GROW(dcs, c);
        GROW(d1, c);
        GROW(d1t0, c);
        if (ok)
            w->cap_links = c;
    }
    return ok;
}

/* A flow record for the message from send `snd` into receive `rcv` over channel ch; NONE when memory runs
 * out. */
static uint32_t flow_new(sim_t *x, uint32_t snd, uint32_t rcv, const schan *ch)
{
    pact_model_eval *w = x->w;
    uint32_t f = w->ffree;
    if (f != NONE) {
        w->ffree = w->fl[f].hl;
    } else {
        if (w->nfl_used == w->nfl) {
            if (w->nfl == w->cap_fl) {
                size_t c = w->cap_fl ? 2 * w->cap_fl : 1024;
                if (c >= NONE || !grow((void **)&w->fl, c, sizeof(flow))) {
                    x->oom = TRUE;
                    return NONE;
                }
                w->cap_fl = c;
            }
            if (w->cap_fl >= PAGE_CHUNK && (w->nfl & (PAGE_CHUNK - 1)) == 0) /* the next chunk's pages */
                pact_mem_populate(&w->fl[w->nfl],
                                  (w->cap_fl - w->nfl < PAGE_CHUNK ? w->cap_fl - w->nfl : PAGE_CHUNK) *
                                      sizeof(flow));
            w->fl[w->nfl++].ver = 0;
        }
        f = w->nfl_used++;
    }
    w->fl[f].snd = snd;
    w->fl[f].rcv = rcv;
    w->fl[f].src = ch->src;
    w->fl[f].dst = ch->dst;
    return f;
}

static void flow_free(pact_model_eval *w, uint32_t f)
{
    w->fl[f].hl = w->ffree;
    w->ffree = f;
}

/* ---- ranks ---- */

/* A request of rank r completed at t: MPI_Waitsome will return it; wake the rank if it waits. */
static inline __attribute__((always_inline)) void request_done(sim_t *x, int r, uint32_t op, double t)
{
    pact_model_eval *w = x->w;
    if (w->recording)
        w->rec[op].end = t;
    uint32_t n = w->rs[r].comp_n++;
    if (n < CSM) {
        w->rs[r].csm[n] = op;
    } else {
        uint32_t *c = w->comp + x->s->base[r];
        if (n == CSM)
            memcpy(c, w->rs[r].csm, sizeof w->rs[r].csm);
        c[n] = op;
    }
    if (w->rs[r].waiting && !w->rs[r].wake_pending) {
        /* an EV_WAKE at t with key r; every pending one is at t (they run before time moves on) */
        w->rs[r].wake_pending = 1;
        pact_wk_push(w, (uint32_t)r);
        w->wake_t = t;
    }
}

/* The message from send snd into receive rcv over private channel c is delivered at `now` (EV_PRIV_END). */
static inline void deliver_private(sim_t *x, uint32_t c, uint32_t snd, uint32_t rcv, double now)
{
    const schan *ch = &x->s->ch[c];
    request_done(x, ch->dst, rcv, now);
    if (!(op_bytes(x->s, ch->src, snd) < x->m->eager_limit))
        request_done(x, ch->src, snd, now);
}

/* The posted path: a request of rank r completed at t. */
static inline void posted_done(sim_t *x, int r, double t)
{
    pact_model_eval *w = x->w;
    w->rs[r].done++;
    if (w->exit[r] < t)
        w->exit[r] = t;
}

/* The posted path: a message of `sent` bytes from src to dst delivered at t completes its receive, and its
 * send where that was a rendezvous (an eager send completed as posted). */
static inline void posted_delivered(sim_t *x, int src, int dst, double sent, double t)
{
    posted_done(x, dst, t);
    if (!(sent < x->m->eager_limit))
        posted_done(x, src, t);
}

void pact_ev_deliver(sim_t *x, uint32_t f, double now)
{
    const flow *fl = &x->w->fl[f];
    uint32_t snd = fl->snd, rcv = fl->rcv;
    int src = fl->src, dst = fl->dst;
    flow_free(x->w, f);
    if (x->posted) {
        posted_delivered(x, src, dst, op_bytes(x->s, src, snd), now);
        return;
    }
    request_done(x, dst, rcv, now);
    if (!(op_bytes(x->s, src, snd) < x->m->eager_limit))
        request_done(x, src, snd, now);
}

/* ---- messages ---- */

static inline void link_params(const sim_t *x, int a, int b, double *alpha, double *beta)
{
    if (same_node(x, a, b)) {
        *alpha = x->m->alpha_intra;
        *beta = x->m->beta_intra;
    } else {
        *alpha = x->m->alpha;
        *beta = x->m->beta;
    }
}

/* Send `snd` and receive `rcv` are both posted: the message moves.  On ports (PORT, LOGGP) it claims them
 * at the end of this instant, in the order of the senders' posting (EV_CLAIM), so that messages matched in
 * the same instant take the ports in the order their sends were posted.  On shared links it waits its
 * latency, then flows; between two ranks of one node over a private loopback, which nothing shares: its
 * end is known now. */
static void match(sim_t *x, uint32_t snd, uint32_t rcv, uint32_t c, const schan *ch, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    if (w->recording) {
        w->rec[snd].match = rcv;
        w->rec[rcv].match = snd;
    }
    gboolean pushed;
    uint32_t f;
    if (x->m->net == PACT_NET_SHARED) {
        uint32_t l[PACT_ROUTE_MAX];
        double lat, iw, bw;
        if (pact_ev_flow_links(x, ch->src, ch->dst, l, &lat, &iw, &bw) == 0) {
            /* a private link: latency, then the bytes at its rate, known now; no flow record */
            pushed =
                ev_push(w, private_end(x, now, lat, bw, op_bytes(s, ch->src, snd)), EV_PRIV_END, c, snd, rcv);
        } else {
            if ((f = flow_new(x, snd, rcv, ch)) == NONE)
                return;
            pushed = ev_push(w, now + lat, EV_LAT_END, f, 0, rcv);
        }
    } else {
        if ((f = flow_new(x, snd, rcv, ch)) == NONE)
            return;
        uint64_t key = ((uint64_t)(w->wo[snd] & 0xfffffff) << 28) | (uint64_t)(ch->src & 0xfffffff);
        pushed = ev_push(w, now, EV_CLAIM, f, 0, key);
    }
    if (!pushed)
        x->oom = TRUE;
}

static void claim(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const pact_model_params *m = x->m;
    uint32_t snd = w->fl[f].snd, rcv = w->fl[f].rcv;
    int src = w->fl[f].src, dst = w->fl[f].dst;
    double alpha, beta, bytes = op_bytes(s, src, snd) + m->envelope, end;
    link_params(x, src, dst, &alpha, &beta);
    if (m->net == PACT_NET_LOGGP) {
        double wire = (bytes > 1 ? bytes - 1 : 0) * m->G;
        double t0 = fmax(now, w->spf[src]);
        w->spf[src] = t0 + fmax(m->g, m->o + wire);
        double r0 = fmax(t0 + m->o + wire + alpha, w->rpf[dst]);
        w->rpf[dst] = r0 + fmax(m->g, m->o);
        end = r0 + m->o;
    } else {
        /* Sends leave one after another, and receives complete one after another; a message does not
         * reserve a later slot of the receiver's port, which would leave gaps when many are in flight. */
        double T = alpha + beta * bytes;
        double t0 = fmax(now, w->spf[src]);
        w->spf[src] = t0 + T;
        end = fmax(t0, w->rpf[dst]) + T;
        w->rpf[dst] = end;
    }
    if (!ev_push(w, end, EV_FLOW_END, f, w->fl[f].ver, rcv))
        x->oom = TRUE;
}

/* Rank r posts send or receive `op`, whose record is o. */
static void post(sim_t *x, int r, uint32_t op, const sop *o, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const uint32_t c = s->chan[op];
    const schan *ch = &s->ch[c];
    const uint32_t slot = ch->slot;
    w->wo[op] = w->rs[r].seq++;
    if (x->prefetch && op + PREFETCH / 2 < s->base[r + 1]) { /* the channel of an operation ahead */
        uint32_t c2 = s->chan[op + PREFETCH / 2];
        __builtin_prefetch(&s->ch[c2]);
        __builtin_prefetch(&w->nsr[2 * c2], 1);
    }
    if (w->recording)
        w->rec[op].start = now;
    /* the k-th send and the k-th receive of a channel match: slot k holds the one posted first, for the other
     * to find */
    if (SOP_KIND(o) == PACT_OP_SEND) {
        uint32_t k = w->nsr[2 * c]++;
        if (s->bval[SOP_BIDX(o)] < x->m->eager_limit)
            request_done(x, r, op, now);
        if (w->nsr[2 * c + 1] > k)
            match(x, op, w->mslot[slot + k], c, ch, now);
        else
            w->mslot[slot + k] = op;
    } else {
        uint32_t k = w->nsr[2 * c + 1]++;
        if (w->nsr[2 * c] > k)
            match(x, w->mslot[slot + k], op, c, ch, now);
        else
            w->mslot[slot + k] = op;
    }
}

/* Completed requests c[0..n) in posting order: a few by insertion, many (linear alltoall completes thousands
 * at once per rank, and insertion took a third of its evaluation at 1024 ranks) by a radix sort on their
 * posting order, which is distinct within a rank. */
static void sort_completed(pact_model_eval *w, uint32_t *c, uint32_t n)
{
    if (n < 64 || !reserve_n((void **)&w->csort, &w->cap_csort, 2 * (size_t)n, sizeof(uint64_t))) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t v = c[i], j = i;
            while (j > 0 && w->wo[c[j - 1]] > w->wo[v]) {
                c[j] = c[j - 1];
                j--;
            }
            c[j] = v;
        }
        return;
    }
    uint64_t *a = w->csort, *b = w->csort + n, any = 0;
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (uint64_t)w->wo[c[i]] << 32 | c[i];
        any |= a[i];
    }
    for (int shift = 32; shift < 64 && (any >> shift); shift += 8) {
        uint32_t cnt[257] = {0};
        for (uint32_t i = 0; i < n; i++)
            cnt[((a[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            cnt[d + 1] += cnt[d];
        for (uint32_t i = 0; i < n; i++)
            b[cnt[(a[i] >> shift) & 0xff]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    for (uint32_t i = 0; i < n; i++)
        c[i] = (uint32_t)a[i];
}

/* The completed requests released in posting order, as the executor releases what MPI_Waitsome returned.
 * Inline in advance, where most calls release one request (ring allreduce at 1024 ranks: 4.2 million calls,
 * and a call's own cost was a sixth of each). */
static inline __attribute__((always_inline)) void collect(sim_t *x, int r)
{
    pact_model_eval *w = x->w;
    uint32_t n = w->rs[r].comp_n;
    uint32_t *c = n <= CSM ? w->rs[r].csm : w->comp + x->s->base[r];
    if (n > 1)
        sort_completed(w, c, n);
    w->rs[r].comp_n = 0;
    for (uint32_t i = 0; i < n; i++)
        release(x, r, c[i]);
}

/* Rank r runs at `now` until it must wait for a request or for a local operation to end. */
static void advance(sim_t *x, int r, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const uint32_t nops = s->base[r + 1] - s->base[r];
    for (;;) {
        while (w->rs[r].heap_n > 0) {
            uint32_t op = ready_pop(x, r);
            const sop *o = op_rec(s, r, op);
            uint8_t k = SOP_KIND(o);
            if (k == PACT_OP_SEND || k == PACT_OP_RECV) {
                post(x, r, op, o, now);
                continue;
            }
            double cost = local_cost(x, o);
            if (w->recording)
                w->rec[op] = (pact_model_op_time){now, now + (cost > 0 ? cost : 0), NONE};
            if (cost > 0) {
                w->rs[r].busy = (int32_t)op;
                if (!ev_push(w, now + cost, EV_RESUME, (uint32_t)r, 0, (uint64_t)r))
                    x->oom = TRUE;
                return;
            }
            release(x, r, op);
        }
        if (w->rs[r].done == nops) {
            w->exit[r] = now;
            return;
        }
        if (w->rs[r].comp_n == 0) {
            w->rs[r].waiting = 1;
            return;
        }
        collect(x, r);
    }
}

/* ---- the posted path ---- */

/* Where no operation waits for a send or a receive (pact_model_sched.posted: linear alltoall, linear_sync at
 * its default window of all, the linear bcast), a rank's run does not depend on the network: it
 * posts everything while it runs its other operations, then only waits, and exits at the later of its run's
 * end and its last request's completion (advance collects what completed while it ran, and a wake collects
 * the rest).  So each rank runs once, up front, as advance runs it; each message starts at its later end's
 * post plus its latency, as match starts it; and the queue runs the network alone: the same flow starts,
 * class ends and sharings in the same order, since an instant's events go by class and key (the receive), not
 * by when they were pushed, and the rank events that the posted path leaves out only push later ones (a
 * latency later).  So the same bits.  Linear alltoall at 1024 ranks posts two million requests, and collected
 * a thousand completions a rank from wakes: without that, 15% fewer instructions (1 KiB under random
 * arrivals over 60 ms), the sharing's unchanged.  FALSE where a message over shared links would start at its
 * match's instant (no latency): the ranks' events of that instant would come between. */
static gboolean posted_post(sim_t *x, int r, uint32_t op, const sop *o, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const uint32_t c = s->chan[op];
    const schan *ch = &s->ch[c];
    const int send = SOP_KIND(o) == PACT_OP_SEND;
    uint32_t msg, other;
    double t1;
    if (send && s->bval[SOP_BIDX(o)] < x->m->eager_limit)
        posted_done(x, r, now); /* eager: complete as posted */
    if (!slot_post(w, s, c, send, op, now, &msg, &other, &t1))
        return TRUE;
    const uint32_t snd = send ? op : other, rcv = send ? other : op;
    const double tm = now > t1 ? now : t1; /* match: at the later post */
    uint32_t l[PACT_ROUTE_MAX];
    double lat, iw, bw;
    if (pact_ev_flow_links(x, ch->src, ch->dst, l, &lat, &iw, &bw) == 0) { /* match's private link */
        const double sent = op_bytes(s, ch->src, snd);
        posted_delivered(x, ch->src, ch->dst, sent, private_end(x, tm, lat, bw, sent));
        return TRUE;
    }
    if (!(tm + lat > tm))
        return FALSE;
    if (!ev_push(w, tm + lat, EV_POSTED_START, c, snd, rcv))
        x->oom = TRUE;
    return !x->oom;
}

static gint by_arrival(gconstpointer a, gconstpointer b, gpointer arrivals)
{
    const uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    const double *t = arrivals;
    return t[i] < t[j] ? -1 : t[i] > t[j] ? 1 : (i > j) - (i < j);
}

/* Each rank's one run, as advance runs it without waiting, in order of arrival: a rank's messages to those
 * before it start at its own posts, so in order of time where a rank posts at one time (the copy of its own
 * block, then everything), and their starts join the queue's run of flow starts; in rank order, they went to
 * the radix heap (a million of them at 1024 ranks), and the path took longer than the events.  FALSE where a
 * message would start at its match's instant, or out of memory. */
static gboolean posted_run(sim_t *x, const double *arrivals)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    uint32_t *order = w->dwl; /* the direct path's worklist, idle here */
    for (int r = 0; r < s->P; r++)
        order[r] = (uint32_t)r;
    if (arrivals)
        g_qsort_with_data(order, s->P, sizeof *order, by_arrival, (gpointer)arrivals);
    for (int i = 0; i < s->P; i++) {
        const int r = (int)order[i];
        double now = arrivals ? arrivals[r] : 0;
        while (w->rs[r].heap_n > 0) {
            const uint32_t op = ready_pop(x, r);
            const sop *o = op_rec(s, r, op);
            const uint8_t k = SOP_KIND(o);
            if (k == PACT_OP_SEND || k == PACT_OP_RECV) {
                /* the channels of the operations ahead, then their message slots: a rank's sends go each to
                 * another destination's channels, every one a miss (linear alltoall at 1024 ranks: a million,
                 * a tenth of a cell of pact tune's) */
                if (op + 2 * PREFETCH < s->base[r + 1]) {
                    const uint32_t c2 = s->chan[op + 2 * PREFETCH], c1 = s->chan[op + PREFETCH];
                    __builtin_prefetch(&s->ch[c2]);
                    __builtin_prefetch(&w->nsr[2 * c2], 1);
                    __builtin_prefetch(&w->mtime[s->ch[c1].slot], 1);
                    __builtin_prefetch(&w->mslot[s->ch[c1].slot], 1);
                }
                if (!posted_post(x, r, op, o, now))
                    return FALSE;
                continue;
            }
            const double cost = local_cost(x, o);
            if (cost > 0)
                now = now + cost; /* advance: EV_RESUME at now + cost */
            release(x, r, op);
        }
        if (w->exit[r] < now)
            w->exit[r] = now;
    }
    return TRUE;
}

/* ---- the evaluation ---- */

/* After a delivery at `now`: the one wake pending, run at once where nothing comes before it (the main loop
 * would take it next): the queue's current instant has nothing left of a smaller key (every other event
 * waiting is later), and no class end is due before it. */
static inline void wake_now(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    if (w->nwake != 1 || x->oom)
        return;
    const evq *q = &w->q;
    const uint32_t r = w->wmin;
    const uint64_t key = ((uint64_t)ev_class[EV_WAKE] << 56) | r;
    if (!q->active || q->cur_t != now || (q->icur < q->ncur && q->cur[q->icur].key < key) ||
        (q->nlate > 0 && q->late[0].key < key))
        return;
    const ce_ent *ce = pact_ev_class_next(w);
    if (ce && (ce->t < now || (ce->t == now && ce->k < key)))
        return;
    w->events++;
    pact_wk_pop(w);
    w->rs[r].wake_pending = 0;
    w->rs[r].waiting = 0;
    advance(x, (int)r, now);
}

/* PACT_MODEL_FILL_SCAN, for the tests: both ways of sharing give one answer (eval_int.h, FILL_SCAN). */
static gboolean fill_scan_env(uint32_t *fill_scan, GError **err)
{
    const char *fs = g_getenv("PACT_MODEL_FILL_SCAN");
    guint64 v;
    if (!fs || !*fs)
        return TRUE;
    if (!g_ascii_string_to_unsigned(fs, 10, 0, UINT32_MAX, &v, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "environment variable PACT_MODEL_FILL_SCAN=%s: not a number of links (0..%u)", fs,
                    UINT32_MAX);
        return FALSE;
    }
    *fill_scan = (uint32_t)v;
    return TRUE;
}

/* An environment variable of the tests that is one digit, 0..max (what: what each means), into *out. */
static gboolean digit_env(const char *name, int max, const char *what, int *out, GError **err)
{
    const char *v = g_getenv(name);
    if (!v || !*v)
        return TRUE;
    if (!(v[0] >= '0' && v[0] <= '0' + max && v[1] == 0)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "environment variable %s=%s: not %s", name, v, what);
        return FALSE;
    }
    *out = v[0] - '0';
    return TRUE;
}

/* PACT_MODEL_SHARE_LOCAL (links.c, share_local): 0, the components shared whole at every instant, as before
 * the local sharing (its answers to the bit); 2, each local sharing checked against the whole one, an
 * evaluation failing where they differ by more than 1e-9.  PACT_MODEL_COMP_KEEP=0 (links.c, comp_kept): a
 * whole sharing walks its component every time.  PACT_MODEL_SHARE_DENSE=0 (links.c, share_dense): one switch
 * of at most DENSE_NODES nodes shared whole by share_whole's lists.  PACT_MODEL_CE_FLAT (links.c,
 * ce_schedule): 0, the class ends always in a heap; 2, always in no order.  PACT_MODEL_SHARE_ISOLATED=0
 * (links.c, share_isolated): classes alone on their links shared by share_local's passes.
 * PACT_MODEL_SHARE_MEMO=0 (links.c, share_sums): each check of a local sharing walks its link's list, where
 * each link's sums are taken once a round; 3, share_unit hands a sharing whose A passes two classes
 * to share_local (what it does past UNIT_A classes, here nearly always).  The last five give the same answers
 * to the bit.
 * PACT_MODEL_DIRECT (direct.c, and the posted path above): 0, the rank events always; 2, the posted or the
 * direct path and then the events, an evaluation failing where a rank's exit time differs by a bit; the same
 * answers either way (the direct path runs only with the sharing's defaults).  PACT_MODEL_AVX2=0 (links.c):
 * share_dense's filling and the flat class ends' scan without AVX2, the same bits.  PACT_MODEL_COALESCE=0
 * (events_loop, COALESCE_REL): the instants that a sharing's rounding split stay split, the answers of the
 * evaluator before it to the bit.  For the tests. */
static gboolean knobs_env(int *share_local, int *comp_keep, int *share_dense, int *ce_flat, int *isolated,
                          int *memo, int *direct, int *avx2, int *coalesce, GError **err)
{
    return digit_env("PACT_MODEL_AVX2", 1, "0 (never) or 1 (where the processor has it)", avx2, err) &&
           digit_env("PACT_MODEL_COALESCE", 1,
                     "0 (instants split by rounding stay split) or 1 (a class end within 1e-12 of the "
                     "instant joins it)",
                     coalesce, err) &&
           digit_env(
               "PACT_MODEL_DIRECT", 2,
               "0 (events always), 1 (the posted or direct path where one applies) or 2 (both, compared)",
               direct, err) &&
           digit_env("PACT_MODEL_SHARE_LOCAL", 2,
                     "0 (never), 1 (where it can) or 2 (and checked against the whole sharing)", share_local,
                     err) &&
           digit_env("PACT_MODEL_COMP_KEEP", 1, "0 (walk each component again) or 1 (keep it while it lasts)",
                     comp_keep, err) &&
           digit_env("PACT_MODEL_SHARE_DENSE", 1, "0 (by lists) or 1 (by bit masks, up to 64 nodes)",
                     share_dense, err) &&
           digit_env("PACT_MODEL_CE_FLAT", 2,
                     "0 (class ends always in a heap), 1 (flat while many) or 2 (always flat)", ce_flat,
                     err) &&
           digit_env("PACT_MODEL_SHARE_ISOLATED", 1,
                     "0 (never) or 1 (where every class is alone on its links)", isolated, err) &&
           digit_env("PACT_MODEL_SHARE_MEMO", 3,
                     "0 (walk a link's list at each check), 1 (its sums once a round), 2 (and on one switch, "
                     "R's lists once a round) or 3 (2, but A past two classes shared as 1 shares it)",
                     memo, err);
}

gboolean pact_model_env_check(GError **err)
{
    uint32_t v = FILL_SCAN;
    int l = 1, k = 1, d = 1, f = 1, i = 1, m = 1, dp = 1, a = 1, c = 1;
    return fill_scan_env(&v, err) && knobs_env(&l, &k, &d, &f, &i, &m, &dp, &a, &c, err);
}

/* What an evaluation and a bound share: the workspace's room, and the network (the routes, or one switch). */
static gboolean begin(pact_model_eval *w, const pact_model_sched *s, const pact_model_params *prm, sim_t *x,
                      GError **err)
{
    if (!reserve(w, s)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        return FALSE;
    }
    const int P = s->P;
    *x = (sim_t){.w = w,
                 .s = s,
                 .m = prm,
                 .ppn = prm->ppn > 1 ? prm->ppn : 1,
                 .ppn_m = prm->ppn > 1 ? pact_div_m((uint32_t)prm->ppn) : 0,
                 .prefetch = P <= PREFETCH_RANKS,
                 .fill_scan = FILL_SCAN,
                 .share_local = 1,
                 .comp_keep = 1,
                 .share_dense = 1,
                 .share_isolated = 1,
                 .share_memo = 2,
                 .coalesce = 1,
                 .direct = 1};
    int ce_flat = 1, avx2 = 1;
    if (!fill_scan_env(&x->fill_scan, err) ||
        !knobs_env(&x->share_local, &x->comp_keep, &x->share_dense, &ce_flat, &x->share_isolated,
                   &x->share_memo, &x->direct, &avx2, &x->coalesce, err))
        return FALSE;
    w->avx2 = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    w->avx2 = avx2 && __builtin_cpu_supports("avx2");
#endif
    w->ce_flat_on = ce_flat == 0 ? UINT32_MAX : ce_flat == 2 ? 0 : CE_FLAT_ON;
    w->ce_adapt = ce_flat == 1;
    w->rt = NULL;
    if (prm->net == PACT_NET_SHARED && prm->platform) {
        if (P % x->ppn) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: %d ranks are not nodes of %d", P, x->ppn);
            return FALSE;
        }
        pact_export_opts o = {.nodes = P / x->ppn,
                              .ppn = x->ppn,
                              .mapping = prm->mapping,
                              .ranks_on = PACT_ON_CORES,
                              .rails = prm->rails};
        if (!(x->rt = pact_model_routes_get(prm->platform, &o, err)))
            return FALSE;
        w->rt = x->rt;
    } else if (prm->net == PACT_NET_SHARED && !(prm->beta > 0 && (x->ppn == 1 || prm->beta_intra > 0))) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: shared links need beta > 0");
        return FALSE;
    }
    return TRUE;
}

void pact_ev_ranks_init(sim_t *x, const double *arrivals)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    memset(w->nsr, 0, 2 * s->nchan * sizeof(uint32_t));
    memset(w->rs, 0, (size_t)s->P * sizeof(rstate));
    uint32_t k = 0;
    const uint32_t *hp = NULL;
    for (int r = 0; r < s->P; r++) {
        w->rs[r].busy = -1;
        /* each operation's dependencies (a loop the compiler widens 16 bits to 32 in vectors); those with
         * none, ascending: already a heap, where ranks of one shape have theirs at the same places as the
         * rank before (ranks that run rank 0's schedule turned: all of them).  They go to rsm where they fit,
         * as ready_push would put them, and heap[b ..] stays untouched: a page of it is a fault to clear (the
         * evaluator's one-cell processes, 2^20 ranks of Rabenseifner: 380 MB, session 43) */
        const uint32_t b = s->base[r], n = s->base[r + 1] - b;
        const uint16_t *pd = s->pend0 + s->shb[r];
        uint32_t *wo = w->wo + b;
        for (uint32_t i = 0; i < n; i++)
            wo[i] = pd[i];
        if (!(hp && s->shb[r] == s->shb[r - 1] && n == b - s->base[r - 1])) {
            k = 0;
            for (uint32_t i = 0; i < n; i++)
                k += pd[i] == 0;
            hp = NULL;
        }
        uint32_t *h = k > RSM ? w->heap + b : w->rs[r].rsm;
        if (hp) {
            for (uint32_t j = 0; j < k; j++)
                h[j] = hp[j] + n;
        } else {
            for (uint32_t i = 0, j = 0; j < k; i++)
                if (pd[i] == 0)
                    h[j++] = b + i;
        }
        hp = h;
        w->rs[r].heap_n = k;
        w->rs[r].rq_head = 0;
        w->rs[r].rq_big = k > RSM;
        w->exit[r] = arrivals ? arrivals[r] : 0;
    }
}

/* d* and d^ from the ranks' exit times, once every rank has done all its operations. */
static gboolean finish(const sim_t *x, double amin, double amax, size_t events, int path,
                       pact_model_result *out, GError **err)
{
    const pact_model_sched *s = x->s;
    pact_model_eval *w = x->w;
    double emax = -INFINITY;
    for (int r = 0; r < s->P; r++) {
        uint32_t nops = s->base[r + 1] - s->base[r];
        if (w->rs[r].done != nops) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                        "model: the schedules deadlock: rank %d completed %u of %u operations", r,
                        w->rs[r].done, nops);
            return FALSE;
        }
        emax = fmax(emax, w->exit[r]);
    }
    out->dstar = emax - amin;
    out->dhat = emax - amax;
    out->exit = w->exit;
    out->events = events;
    out->direct = path;
    return TRUE;
}

/* The links at rest (each its capacity, no class), and one switch's class maps empty. */
static void links_reset(sim_t *x)
{
    pact_model_eval *w = x->w;
    if (w->dense) {
        memset(w->dum, 0, sizeof w->dum);
        memset(w->ddm, 0, sizeof w->ddm);
    }
    if (w->cmapped) {
        if (w->cmap)
            g_hash_table_remove_all(w->cmap);
        else
            w->cmap = g_hash_table_new(pact_ev_cmap_hash, g_direct_equal);
    }
    for (uint32_t l = 0; l < w->nlinks; l++)
        w->lk[l] =
            (slink){.cap0 = x->rt ? pact_model_routes_capacity(x->rt, l) : 1.0 / x->m->beta, .head = NONE};
}

/* The event path's state as a run starts: the links at rest, empty pools of flows and classes (their records
 * keep their versions), an empty queue, each rank's state, and (start) each rank's start at its arrival. */
static void events_init(sim_t *x, const double *arrivals, gboolean start)
{
    pact_model_eval *w = x->w;
    links_reset(x);
    w->ffree = NONE;
    w->nfl_used = 0; /* the records from the first on, as they come (they keep their versions) */
    w->fseq = 0;
    w->ncend = 0;
    w->ce_flat = 0;
    w->ce_scanned = w->ce_moves = 0;
    w->ce_min = NONE;
    w->cfree = NONE;
    for (uint32_t c = w->ncl; c-- > 0;) {
        w->cl[c].e[0].next = w->cfree;
        w->cl[c].mark = 0;
        w->cfree = c;
    }
    w->ndirty = 0;
    w->share_pending = 0;
    w->stamp = 0;
    w->cc_stamp = 0;
    w->nwake = 0;
    w->wlone = 0;
    memset(w->wbits, 0, pact_wk_layout((size_t)x->s->P, w->woff, &w->wlev) * sizeof(uint64_t));
    evq_reset(&w->q);
    w->events = 0;
    pact_ev_ranks_init(x, arrivals);
    for (int r = 0; r < x->s->P && start; r++) {
        double a = arrivals ? arrivals[r] : 0;
        w->spf[r] = w->rpf[r] = a;
        if (!ev_push(w, a, EV_START, (uint32_t)r, 0, (uint64_t)r))
            x->oom = TRUE;
    }
}

/* Whether class c is alone on each of its links (its rate then comes without sums: COALESCE_REL). */
static inline int class_alone(const pact_model_eval *w, uint32_t c)
{
    const fclass *k = &w->cl[c];
    for (uint32_t i = 0; i < k->nl; i++)
        if (w->lk[k->e[i].l].nc > 1)
            return 0;
    return 1;
}

/* The events, in order, until none is left. */
static void events_loop(sim_t *x)
{
    pact_model_eval *w = x->w;
    while ((w->q.n > 0 || w->nwake > 0 || w->ncend > 0 || w->share_pending) && !x->oom) {
        /* the first pending wake, class end or sharing, if it comes before the queue's first event */
        const ce_ent *ce = pact_ev_class_next(w);
        if (w->nwake > 0 || ce || w->share_pending) {
            event k = {.t = w->wake_t,
                       .key = ((uint64_t)ev_class[EV_WAKE] << 56) | (w->nwake ? w->wmin : 0),
                       .type = EV_WAKE};
            if (ce && (w->nwake == 0 || ce->t < k.t || (ce->t == k.t && ce->k < k.key)))
                k = (event){.t = ce->t, .key = ce->k, .id = ce->c, .type = EV_CLASS_END};
            if (w->share_pending &&
                ((w->nwake == 0 && !ce) || w->share_t < k.t)) { /* its class is the last */
                if (k.type == EV_CLASS_END && x->coalesce &&
                    k.t - w->share_t <= fabs(w->share_t) * COALESCE_REL && !class_alone(w, k.id))
                    k.t = w->share_t; /* an instant split by rounding: taken at the instant (COALESCE_REL) */
                else
                    k = (event){.t = w->share_t, .key = (uint64_t)ev_class[EV_SHARE] << 56, .type = EV_SHARE};
            }
            if (!evq_next_before_in(&w->q, &k)) {
                w->events++;
                if (k.type == EV_SHARE) {
                    pact_ev_share(x, k.t);
                    continue;
                }
                if (k.type == EV_CLASS_END) {
                    pact_ev_class_pop(w);
                    pact_ev_class_end(x, k.id, k.t);
                    wake_now(x, k.t);
                    continue;
                }
                int r = (int)pact_wk_pop(w);
                w->rs[r].wake_pending = 0;
                w->rs[r].waiting = 0;
                advance(x, r, k.t);
                continue;
            }
        }
        event e;
        if (!evq_pop_in(&w->q, &e))
            break;
        w->events++;
        double now = e.t;
        switch (e.type) {
        case EV_START:
            advance(x, (int)e.id, now);
            break;
        case EV_RESUME: {
            int r = (int)e.id;
            uint32_t op = (uint32_t)w->rs[r].busy;
            w->rs[r].busy = -1;
            release(x, r, op);
            advance(x, r, now);
            break;
        }
        case EV_LAT_END:
            pact_ev_flow_start(x, e.id, now);
            break;
        case EV_POSTED_START: {
            /* an instant's starts come in a run (a rank's arrival matches its messages with every rank there
             * before it): the channel of one a few ahead, whose record the flow copies */
            if (w->q.icur + 8 < w->q.ncur && w->q.cur[w->q.icur + 8].type == EV_POSTED_START)
                __builtin_prefetch(&x->s->ch[w->q.cur[w->q.icur + 8].id]);
            const uint32_t f = flow_new(x, e.ver, (uint32_t)e.key, &x->s->ch[e.id]);
            if (f != NONE)
                pact_ev_flow_start(x, f, now);
            break;
        }
        case EV_CLAIM:
            claim(x, e.id, now);
            break;
        case EV_FLOW_END:
            if (e.ver != w->fl[e.id].ver)
                break; /* rescheduled since */
            pact_ev_deliver(x, e.id, now);
            wake_now(x, now);
            break;
        case EV_PRIV_END:
            deliver_private(x, e.id, e.ver, (uint32_t)e.key, now);
            wake_now(x, now);
            break;
        case EV_CLASS_END:
            if (e.ver == w->cl[e.id].ver && w->cl[e.id].where == 1) {
                w->cl[e.id].where = 0;
                pact_ev_class_end(x, e.id, now);
                wake_now(x, now);
            }
            break;
        }
    }
}

/* After a run of the events: out of memory, or a check that failed (PACT_MODEL_SHARE_LOCAL=2, the queue). */
static gboolean events_checked(const sim_t *x, GError **err)
{
    const pact_model_eval *w = x->w;
    if (x->oom || w->q.oom) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        return FALSE;
    }
    if (x->share_diff > 1e-9) {
        g_set_error(
            err, PACT_ERROR, PACT_ERROR_RUN,
            "model: PACT_MODEL_SHARE_LOCAL=2: a local sharing's rates differ from the whole sharing's by "
            "%.3g relative at t = %.17g s (%zu local sharings, %zu whole)",
            x->share_diff, x->share_diff_t, x->nshare_local, x->nshare_whole);
        return FALSE;
    }
    if (w->q.past) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: internal error: an event scheduled before the time"
                                                     " it was scheduled at");
        return FALSE;
    }
    return TRUE;
}

gboolean pact_model_evaluate(pact_model_eval *w, const pact_model_sched *s, const double *arrivals,
                             const pact_model_params *prm, pact_model_result *out, GError **err)
{
    sim_t x;
    if (!begin(w, s, prm, &x, err))
        return FALSE;
    const int P = s->P;
    if (w->recording)
        for (size_t i = 0; i < s->n; i++)
            w->rec[i] = (pact_model_op_time){NAN, NAN, NONE};
    w->nwake = 0;
    w->wlone = 0;
    /* the shared links: the routes', or each node's up (2n) and down (2n+1) link of one switch */
    const uint32_t L = x.rt ? pact_model_routes_links(x.rt) : 2u * (uint32_t)P;
    if (!reserve_links(w, L)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        return FALSE;
    }
    w->nlinks = L;
    /* its nodes: 0 .. (P - 1) / ppn */
    w->dense = !x.rt && x.share_dense && (uint32_t)(P - 1) / (uint32_t)x.ppn < DENSE_NODES;
    w->cmapped = !x.rt && !w->dense;
    links_reset(&x);
    double amin = INFINITY, amax = -INFINITY;
    for (int r = 0; r < P; r++) {
        double a = arrivals ? arrivals[r] : 0;
        amin = fmin(amin, a);
        amax = fmax(amax, a);
    }
    /* a path without the rank events first, where one applies (shared links): the posted path where no
     * operation waits for a send or a receive, else the direct path (direct.c) where the sharing is the
     * default one; each gives the events' exit times to the bit (PACT_MODEL_DIRECT=2 checks it) */
    double *dex = NULL;
    int path = 0;
    const gboolean quick = x.direct && !w->recording && prm->net == PACT_NET_SHARED;
    if (quick && s->posted) {
        events_init(&x, arrivals, FALSE);
        x.posted = 1;
        const gboolean ran = posted_run(&x, arrivals);
        if (ran)
            events_loop(&x);
        x.posted = 0;
        if (!events_checked(&x, err))
            return FALSE;
        if (ran) {
            if (x.direct != 2)
                return finish(&x, amin, amax, w->events, 2, out, err);
            dex = g_memdup2(w->exit, (gsize)P * sizeof(double)); /* compared with the events' below */
            path = 2;
        }
    } else if (quick && x.share_local == 1 && x.share_isolated) {
        size_t runs = 0;
        if (pact_ev_direct(&x, arrivals, &runs)) {
            if (x.direct != 2)
                return finish(&x, amin, amax, runs, 1, out, err);
            dex = g_memdup2(w->exit, (gsize)P * sizeof(double));
            path = 1;
        }
        if (x.oom) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
            return FALSE;
        }
    }
    events_init(&x, arrivals, TRUE);
    events_loop(&x);
    if (!events_checked(&x, err)) {
        g_free(dex);
        return FALSE;
    }
    if (dex) { /* PACT_MODEL_DIRECT=2: the posted or direct path's exit times are the events', to the bit */
        for (int r = 0; r < P; r++)
            if (memcmp(&dex[r], &w->exit[r], sizeof(double)) != 0) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                            "model: PACT_MODEL_DIRECT=2: rank %d exits at %.17g s on the %s path and at "
                            "%.17g s through the events",
                            r, dex[r], path == 2 ? "posted" : "direct", w->exit[r]);
                g_free(dex);
                return FALSE;
            }
        g_free(dex);
    }
    /* path: with PACT_MODEL_DIRECT=2, the posted or direct path that ran beside the events */
    return finish(&x, amin, amax, w->events, path, out, err);
}

/* ---- a lower bound ---- */

/* The least time a message of `bytes` from rank a to rank b can take once both ends are posted: its latency,
 * and its bytes (and envelope) at the fastest rate it can get (shared links: the least capacity on its route,
 * as max-min sharing never gives a flow more; ports: alone on them). */
static double min_transfer(const sim_t *x, int a, int b, double bytes)
{
    const pact_model_params *m = x->m;
    bytes += m->envelope;
    if (m->net == PACT_NET_SHARED) {
        uint32_t l[PACT_ROUTE_MAX];
        double lat, iw, bw;
        int n = pact_ev_flow_links(x, a, b, l, &lat, &iw, &bw);
        for (int i = 0; i < n; i++) {
            double c = x->rt ? pact_model_routes_capacity(x->rt, l[i]) : 1.0 / m->beta;
            bw = i ? fmin(bw, c) : c;
        }
        return lat + bytes / bw;
    }
    double alpha, beta;
    link_params(x, a, b, &alpha, &beta);
    if (m->net == PACT_NET_LOGGP)
        return 2 * m->o + alpha + (bytes > 1 ? bytes - 1 : 0) * m->G;
    return alpha + beta * bytes;
}

/* Patterns that pact_model_bounds bounds in one pass over the schedules at most: the pass reads the schedules
 * (the ranks' records, channels and successors, in no order a cache follows) once for all of them. */
#define LB_LANES PACT_MODEL_BOUND_LANES

typedef struct {
    sim_t *x;
    uint32_t *stk, *stk_r; /* ready operations and their ranks */
    size_t n, done;
    unsigned K; /* lanes: operation op's earliest time under pattern k is lbt[op * K + k] */
    double emax[LB_LANES];
} bound_t;

/* fmax without its call (the bound's values are never NaN) */
static inline double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* Operation op of rank r ends at lbt[op K + k] under pattern k: its successors start no earlier. */
static void bound_end(bound_t *b, int r, uint32_t op)
{
    const pact_model_sched *s = b->x->s;
    pact_model_eval *w = b->x->w;
    const unsigned K = b->K;
    const uint32_t base = s->base[r];
    const sop *o = op_rec(s, r, op);
    const double *t = w->lbt + (size_t)op * K;
    b->done++;
    for (unsigned k = 0; k < K; k++)
        b->emax[k] = dmax(b->emax[k], t[k]);
    for (uint32_t j = o[0].sfirst; j < o[1].sfirst; j++) {
        uint32_t u = base + s->succ[j];
        double *v = w->lbt + (size_t)u * K;
        for (unsigned k = 0; k < K; k++)
            v[k] = dmax(v[k], t[k]);
        if (--w->wo[u] == 0) {
            b->stk[b->n] = u;
            b->stk_r[b->n++] = (uint32_t)r;
        }
    }
}

/* Bands of the link-load term of pact_model_bounds: at most LB_BANDS per link, and at most LB_CELLS in all (a
 * machine of many links gets fewer bands, none below LB_BANDS_MIN: then no link term). */
#define LB_BANDS 256
#define LB_CELLS (1u << 21)
#define LB_BANDS_MIN 8

/* The messages between nodes that pact_model_bounds has met (w->lbm[0..n), and under pattern k the earliest
 * each can flow, w->lbmt[i K + k]), and each pattern's least and latest such instants. */
typedef struct {
    sim_t *x;
    unsigned K;
    size_t n;
    double rmin[LB_LANES], rmax[LB_LANES];
} msg_list;

/* A message from src to dst of `bytes` whose ends are both posted from meet[k] on under pattern k: on links,
 * it starts flowing its latency later.  FALSE when out of memory. */
static gboolean msg_add(msg_list *lm, int src, int dst, const double *meet, double bytes)
{
    pact_model_eval *w = lm->x->w;
    const unsigned K = lm->K;
    uint32_t l[PACT_ROUTE_MAX];
    double lat, iw, bw;
    if (pact_ev_flow_links(lm->x, src, dst, l, &lat, &iw, &bw) == 0)
        return TRUE; /* a private link: nothing shares it */
    if (!reserve_n((void **)&w->lbm, &w->cap_lbm, lm->n + 1, sizeof(bound_msg)) ||
        !reserve_n((void **)&w->lbmt, &w->cap_lbmt, (lm->n + 1) * K, sizeof(double)))
        return FALSE;
    w->lbm[lm->n] = (bound_msg){bytes + lm->x->m->envelope, src, dst};
    double *mt = w->lbmt + lm->n * K;
    for (unsigned k = 0; k < K; k++) {
        const double t = meet[k] + lat;
        mt[k] = t;
        lm->rmin[k] = t < lm->rmin[k] ? t : lm->rmin[k];
        lm->rmax[k] = t > lm->rmax[k] ? t : lm->rmax[k];
    }
    lm->n++;
    return TRUE;
}

/* The link-load term of pact_model_bounds (shared links): no link carries more than its capacity in all (the
 * sharing divides it among its flows), and a message flows only once both ends are posted and its latency
 * has passed (msg_add).  So a link whose messages flowing from instant t on carry W bytes (and envelopes) is
 * busy until t + W / capacity at least, and the receive of its last message ends no earlier.  Per pattern,
 * the instants go into nb bands of equal width over [rmin, rmax] (a band's index grows with the instant, so
 * every message of a later band flows no earlier than the least instant of an earlier one); each link's bytes
 * are summed per band, and t runs over each band's least instant.  Alltoall at 1024 ranks of generic32x32
 * under the tune's skew: each node's up link carries 33 MB (26 ms at its rate), where every message's own
 * latency and bytes gave 2.9 ms.  Each pattern's latest such end raises emax[k]. */
static void link_load(sim_t *x, const msg_list *lm, uint32_t L, uint32_t nb, double *emax)
{
    pact_model_eval *w = x->w;
    const pact_model_params *m = x->m;
    const unsigned K = lm->K;
    if (lm->n == 0)
        return;
    double *load = w->lbw, *least = w->lbw + (size_t)K * L * nb, scale[LB_LANES];
    memset(load, 0, (size_t)K * L * nb * sizeof(double));
    for (size_t j = 0; j < (size_t)K * nb; j++)
        least[j] = INFINITY;
    for (unsigned k = 0; k < K; k++)
        scale[k] = lm->rmax[k] > lm->rmin[k] ? nb / (lm->rmax[k] - lm->rmin[k]) : 0;
    uint32_t l[PACT_ROUTE_MAX];
    double lat, iw, bw;
    for (size_t i = 0; i < lm->n; i++) {
        const bound_msg *g = &w->lbm[i];
        const int n = pact_ev_flow_links(x, g->src, g->dst, l, &lat, &iw, &bw);
        for (unsigned k = 0; k < K; k++) {
            const double t = w->lbmt[i * K + k], f = (t - lm->rmin[k]) * scale[k];
            const uint32_t j = f < nb ? (uint32_t)f : nb - 1;
            double *lj = &least[(size_t)k * nb + j];
            *lj = t < *lj ? t : *lj;
            for (int q = 0; q < n; q++)
                load[((size_t)k * L + l[q]) * nb + j] += g->bytes;
        }
    }
    for (unsigned k = 0; k < K; k++)
        for (uint32_t q = 0; q < L; q++) {
            const double cap = x->rt ? pact_model_routes_capacity(x->rt, q) : 1.0 / m->beta;
            const double *ld = &load[((size_t)k * L + q) * nb], *ls = &least[(size_t)k * nb];
            double bytes = 0;
            for (uint32_t j = nb; j-- > 0;) {
                bytes += ld[j];
                if (bytes > 0 && ls[j] < INFINITY && ls[j] + bytes / cap > emax[k])
                    emax[k] = ls[j] + bytes / cap;
            }
        }
}

/* A bound's start: K patterns (1 to LB_LANES), the workspace for s. */
static gboolean bound_begin(pact_model_eval *w, const pact_model_sched *s, unsigned K,
                            const pact_model_params *prm, sim_t *x, GError **err)
{
    if (K < 1 || K > LB_LANES) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: %u patterns bounded at once: 1 to %d", K,
                    LB_LANES);
        return FALSE;
    }
    return begin(w, s, prm, x, err);
}

/* The bounds of d^ under K patterns from the latest end and the latest arrival of each, less a margin for
 * rounding (1e-6 of the bound and 1e-12 s, more with large arrival times), and never below 0. */
static void bound_end_lanes(const double *emax, const double *amax, unsigned K, double *dhat_lb)
{
    for (unsigned k = 0; k < K; k++) {
        double lb = emax[k] - amax[k];
        lb -= 1e-6 * fabs(lb) + 1e-12 + 1e-13 * fabs(amax[k]);
        dhat_lb[k] = lb > 0 ? lb : 0;
    }
}

/* The link-load term's bands (nb, 0: none) and links (L) for K patterns: shared links only, where the links
 * leave room for them (the routes' links, or each node's two: node_of).  FALSE when out of memory. */
static gboolean link_bands(sim_t *x, unsigned K, uint32_t *nb, uint32_t *L)
{
    *nb = *L = 0;
    if (x->m->net != PACT_NET_SHARED)
        return TRUE;
    *L = x->rt ? pact_model_routes_links(x->rt) : 2u * (uint32_t)node_of(x, x->s->P - 1) + 2;
    *nb = LB_CELLS / *L / K < LB_BANDS ? LB_CELLS / *L / K : LB_BANDS;
    if (*nb < LB_BANDS_MIN)
        *nb = 0;
    else if (!reserve_n((void **)&x->w->lbw, &x->w->cap_lbw, ((size_t)*L + 1) * *nb * K, sizeof(double)))
        return FALSE;
    return TRUE;
}

gboolean pact_model_bounds(pact_model_eval *w, const pact_model_sched *s, const double *const *arrivals,
                           unsigned K, const pact_model_params *prm, double *dhat_lb, GError **err)
{
    sim_t x;
    if (!bound_begin(w, s, K, prm, &x, err))
        return FALSE;
    if (!reserve_n((void **)&w->lbt, &w->cap_lbt, (s->n + 1) * K, sizeof(double)) ||
        !reserve_n((void **)&w->chb, &w->cap_chb, s->nchan + 1, sizeof(double)))
        goto oom;
    /* shared links: the link-load term, where the links leave room for its bands */
    uint32_t nb = 0, L = 0;
    if (!link_bands(&x, K, &nb, &L))
        goto oom;
    const int P = s->P;
    memset(w->nsr, 0, 2 * s->nchan * sizeof(uint32_t));
    for (size_t c = 0; c < s->nchan; c++)
        w->chb[c] = INFINITY;
    bound_t b = {&x, w->comp, w->heap, 0, 0, K, {0}};
    msg_list lm = {&x, K, 0, {0}, {0}};
    double amax[LB_LANES], ar[LB_LANES], mt[LB_LANES];
    for (unsigned k = 0; k < K; k++) {
        amax[k] = -INFINITY;
        lm.rmin[k] = INFINITY;
        lm.rmax[k] = -INFINITY;
    }
    for (int r = 0; r < P; r++) {
        double a[LB_LANES];
        for (unsigned k = 0; k < K; k++) {
            a[k] = arrivals[k] ? arrivals[k][r] : 0;
            amax[k] = dmax(amax[k], a[k]);
        }
        const uint16_t *pd = s->pend0 + s->shb[r];
        for (uint32_t op = s->base[r], i = 0; op < s->base[r + 1]; op++, i++) {
            double *t = w->lbt + (size_t)op * K;
            for (unsigned k = 0; k < K; k++)
                t[k] = a[k];
            if ((w->wo[op] = pd[i]) == 0) {
                b.stk[b.n] = op;
                b.stk_r[b.n++] = (uint32_t)r;
            }
            const sop *o = op_rec(s, r, op);
            uint32_t c = s->chan[op];
            if (SOP_KIND(o) == PACT_OP_SEND && s->ch[c + 1].slot - s->ch[c].slot > 1)
                w->chb[c] = s->bval[SOP_BIDX(o)] < w->chb[c] ? s->bval[SOP_BIDX(o)] : w->chb[c];
        }
    }
    for (unsigned k = 0; k < K; k++)
        b.emax[k] = amax[k];
    while (b.n > 0) {
        b.n--;
        const uint32_t op = b.stk[b.n];
        const int r = (int)b.stk_r[b.n];
        const sop *o = op_rec(s, r, op);
        const uint8_t kind = SOP_KIND(o);
        double *st = w->lbt + (size_t)op * K; /* its start; then its end */
        if (kind != PACT_OP_SEND && kind != PACT_OP_RECV) {
            double cost = local_cost(&x, o);
            cost = cost > 0 ? cost : 0;
            for (unsigned k = 0; k < K; k++)
                st[k] += cost;
            bound_end(&b, r, op);
            continue;
        }
        const uint32_t c = s->chan[op];
        const schan *ch = &s->ch[c];
        if (s->ch[c + 1].slot - ch->slot > 1) {
            /* which of the channel's messages this is depends on the posting order: the channel's least one,
             * and the other end posted no earlier than its rank arrived */
            double T = min_transfer(&x, ch->src, ch->dst, w->chb[c]);
            const int other = kind == PACT_OP_SEND ? ch->dst : ch->src;
            for (unsigned k = 0; k < K; k++)
                ar[k] = arrivals[k] ? arrivals[k][other] : 0;
            if (kind == PACT_OP_SEND) {
                for (unsigned k = 0; k < K; k++)
                    mt[k] = dmax(st[k], ar[k]);
                if (nb && !msg_add(&lm, ch->src, ch->dst, mt, s->bval[SOP_BIDX(o)]))
                    goto oom;
                if (!(s->bval[SOP_BIDX(o)] < prm->eager_limit))
                    for (unsigned k = 0; k < K; k++)
                        st[k] = mt[k] + T;
            } else {
                for (unsigned k = 0; k < K; k++)
                    st[k] = dmax(st[k], ar[k]) + T;
            }
            bound_end(&b, r, op);
            continue;
        }
        /* the channel's one message: its send and its receive meet */
        const uint32_t slot = ch->slot;
        uint32_t snd, rcv;
        if (kind == PACT_OP_SEND) {
            snd = op;
            w->nsr[2 * c] = 1;
            if (s->bval[SOP_BIDX(o)] < prm->eager_limit)
                bound_end(&b, r, op); /* ends when posted: lbt stays its start */
            if (!w->nsr[2 * c + 1]) {
                w->mslot[slot] = op; /* for the receive */
                continue;
            }
            rcv = w->mslot[slot];
        } else {
            rcv = op;
            w->nsr[2 * c + 1] = 1;
            if (!w->nsr[2 * c]) {
                w->mslot[slot] = op;
                continue;
            }
            snd = w->mslot[slot];
        }
        const double bytes = op_bytes(s, ch->src, snd);
        double *ts = w->lbt + (size_t)snd * K, *tr = w->lbt + (size_t)rcv * K;
        for (unsigned k = 0; k < K; k++)
            mt[k] = dmax(ts[k], tr[k]);
        if (nb && !msg_add(&lm, ch->src, ch->dst, mt, bytes))
            goto oom;
        const double T = min_transfer(&x, ch->src, ch->dst, bytes);
        for (unsigned k = 0; k < K; k++)
            tr[k] = mt[k] + T;
        bound_end(&b, ch->dst, rcv);
        if (!(bytes < prm->eager_limit)) {
            for (unsigned k = 0; k < K; k++)
                ts[k] = mt[k] + T;
            bound_end(&b, ch->src, snd);
        }
    }
    if (b.done != s->n) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "model: the schedules deadlock: %zu of %zu operations bound", b.done, s->n);
        return FALSE;
    }
    if (nb)
        link_load(&x, &lm, L, nb, b.emax);
    bound_end_lanes(b.emax, amax, K, dhat_lb);
    return TRUE;
oom:
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
    return FALSE;
}

/* pact_model_bounds_quick: each rank alone, its operations' times (lbt[i K + k], i its index in the rank) in
 * its own dependencies' order, from its arrival; a message waits for the other end's rank to arrive, not for
 * that rank's operations (which pact_model_bounds follows across the ranks, holding every operation's times
 * at once: at 1024 ranks of ring allreduce 5 million operations, 400 MB for 10 patterns, in no order a cache
 * follows).  Here a rank's times are its operations' (a few thousand, in cache), and the messages' least
 * transfers are those of each channel's smallest message (chb), as for a channel of several messages there.
 */
gboolean pact_model_bounds_quick(pact_model_eval *w, const pact_model_sched *s, const double *const *arrivals,
                                 unsigned K, const pact_model_params *prm, double *dhat_lb, GError **err)
{
    sim_t x;
    if (!bound_begin(w, s, K, prm, &x, err))
        return FALSE;
    const int P = s->P;
    uint32_t most = 0; /* operations of the largest rank */
    for (int r = 0; r < P; r++)
        most = s->base[r + 1] - s->base[r] > most ? s->base[r + 1] - s->base[r] : most;
    uint32_t nb = 0, L = 0;
    if (!reserve_n((void **)&w->lbt, &w->cap_lbt, ((size_t)most + 1) * K, sizeof(double)) ||
        !reserve_n((void **)&w->chb, &w->cap_chb, s->nchan + 1, sizeof(double)) ||
        !link_bands(&x, K, &nb, &L))
        goto oom;
    for (size_t c = 0; c < s->nchan; c++)
        w->chb[c] = INFINITY;
    for (int r = 0; r < P; r++)
        for (uint32_t op = s->base[r]; op < s->base[r + 1]; op++) {
            const sop *o = op_rec(s, r, op);
            const double by = s->bval[SOP_BIDX(o)];
            const uint32_t c = s->chan[op];
            if (SOP_KIND(o) == PACT_OP_SEND && by < w->chb[c])
                w->chb[c] = by;
        }
    double amax[LB_LANES], emax[LB_LANES], a[LB_LANES], mt[LB_LANES];
    msg_list lm = {&x, K, 0, {0}, {0}};
    for (unsigned k = 0; k < K; k++) {
        amax[k] = -INFINITY;
        for (int r = 0; r < P; r++)
            amax[k] = dmax(amax[k], arrivals[k] ? arrivals[k][r] : 0);
        emax[k] = amax[k];
        lm.rmin[k] = INFINITY;
        lm.rmax[k] = -INFINITY;
    }
    uint32_t *stk = w->comp; /* the rank's ready operations, by index in the rank */
    for (int r = 0; r < P; r++) {
        const uint32_t base = s->base[r], nops = s->base[r + 1] - base;
        const uint16_t *pd = s->pend0 + s->shb[r];
        const sop *ro = s->op + s->shb[r];
        for (unsigned k = 0; k < K; k++)
            a[k] = arrivals[k] ? arrivals[k][r] : 0;
        uint32_t n = 0, done = 0;
        for (uint32_t i = 0; i < nops; i++) /* an operation's times are written by its first dependency's end,
                                             * or here as it is taken, where it has none (not all at first: a
                                             * short copy for each cost a fifth of the pass) */
            if ((w->wo[i] = pd[i]) == 0)
                stk[n++] = i;
        while (n > 0) {
            const uint32_t i = stk[--n];
            const sop *o = ro + i;
            const uint8_t kind = SOP_KIND(o);
            double *st = w->lbt + (size_t)i * K; /* its start; then its end */
            if (pd[i] == 0)
                for (unsigned k = 0; k < K; k++)
                    st[k] = a[k];
            if (kind != PACT_OP_SEND && kind != PACT_OP_RECV) {
                double cost = local_cost(&x, o);
                cost = cost > 0 ? cost : 0;
                for (unsigned k = 0; k < K; k++)
                    st[k] += cost;
            } else {
                const uint32_t c = s->chan[base + i];
                const schan *ch = &s->ch[c];
                const int other = kind == PACT_OP_SEND ? ch->dst : ch->src;
                for (unsigned k = 0; k < K; k++)
                    mt[k] = dmax(st[k], arrivals[k] ? arrivals[k][other] : 0);
                const double bytes = s->bval[SOP_BIDX(o)];
                if (kind == PACT_OP_SEND && nb && !msg_add(&lm, ch->src, ch->dst, mt, bytes))
                    goto oom;
                if (kind == PACT_OP_RECV || !(bytes < prm->eager_limit)) {
                    const double T = min_transfer(&x, ch->src, ch->dst, w->chb[c]);
                    for (unsigned k = 0; k < K; k++)
                        st[k] = mt[k] + T;
                } /* else an eager send: it ends when posted */
            }
            done++;
            for (unsigned k = 0; k < K; k++)
                emax[k] = dmax(emax[k], st[k]);
            for (uint32_t j = o[0].sfirst; j < o[1].sfirst; j++) {
                const uint32_t u = s->succ[j];
                double *v = w->lbt + (size_t)u * K;
                if (w->wo[u] == pd[u]) /* its first dependency to end (each is at least the arrival) */
                    for (unsigned k = 0; k < K; k++)
                        v[k] = st[k];
                else
                    for (unsigned k = 0; k < K; k++)
                        v[k] = dmax(v[k], st[k]);
                if (--w->wo[u] == 0)
                    stk[n++] = u;
            }
        }
        if (done != nops) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                        "model: the schedules deadlock: rank %d runs %u of its %u operations", r, done, nops);
            return FALSE;
        }
    }
    if (nb)
        link_load(&x, &lm, L, nb, emax);
    bound_end_lanes(emax, amax, K, dhat_lb);
    return TRUE;
oom:
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
    return FALSE;
}

gboolean pact_model_bound(pact_model_eval *w, const pact_model_sched *s, const double *arrivals,
                          const pact_model_params *prm, double *dhat_lb, GError **err)
{
    const double *a[1] = {arrivals};
    return pact_model_bounds(w, s, a, 1, prm, dhat_lb, err);
}

/* ---- one cell, cached ---- */

typedef struct {
    const pact_alg *alg;
    int P;
    size_t bytes;
    pact_model_sched *s;
    pact_model_eval *w;
} cell_cache;

static _Thread_local cell_cache cache;

void pact_model_cell_cache_clear(void)
{
    pact_model_sched_free(cache.s);
    pact_model_eval_free(cache.w);
    memset(&cache, 0, sizeof(cache));
}

void pact_model_cell_args(const pact_alg *alg, int P, size_t bytes, pact_build_args *a)
{
    memset(a, 0, sizeof(*a));
    a->coll = alg->coll;
    a->size = P;
    a->root = 0;
    a->elem_size = bytes % 8 == 0 ? 8 : 1;
    a->count = bytes / a->elem_size;
    a->commutative = 1;
}

gboolean pact_model_cell(const pact_alg *alg, int P, size_t bytes, const double *arrivals,
                         const pact_model_params *prm, double *dstar, double *dhat, GError **err)
{
    if (!cache.w && !(cache.w = pact_model_eval_new())) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        return FALSE;
    }
    if (!cache.s || cache.alg != alg || cache.P != P || cache.bytes != bytes) {
        pact_model_sched_free(cache.s);
        cache.s = NULL;
        pact_build_args a;
        pact_model_cell_args(alg, P, bytes, &a);
        if (!(cache.s = pact_model_prepare(alg, &a, err)))
            return FALSE;
        cache.alg = alg;
        cache.P = P;
        cache.bytes = bytes;
    }
    pact_model_result res;
    if (!pact_model_evaluate(cache.w, cache.s, arrivals, prm, &res, err))
        return FALSE;
    if (dstar)
        *dstar = res.dstar;
    if (dhat)
        *dhat = res.dhat;
    return TRUE;
}
