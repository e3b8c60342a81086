/* links.c - the evaluator's shared links: max-min fair rates by progressive filling over the node links of a
 * one-switch cluster, or over every link of each flow's route (route.c).
 *
 * One switch: the flows from one node to another share their two links and their weight, hence their rate,
 * so sharing runs over these classes (at most nodes^2, however many flows are in flight: linear alltoall puts
 * 10^6 flows on 32 nodes' 64 links), and a class delivers its flows in order of the bytes each needs against
 * the class's virtual service, V(t) = integral of its rate: a rate change reschedules one event per class,
 * not one per flow.  Rates are recomputed once per instant for every link touched in it (EV_SHARE), not once
 * per flow that starts or stops.  SimGrid's LMM solver does the same progressive filling (Casanova et al.,
 * "Versatile, scalable and accurate simulation of distributed applications and platforms", JPDC 2014). */
#include "eval_int.h"

/* ---- one switch: classes of flows ---- */

/* Leftist heap of a class's flows by target: merge in O(log n), no allocation (the links live in the flows).
 */
static uint32_t lh_merge(flow *fl, uint32_t a, uint32_t b)
{
    if (a == NONE)
        return b;
    if (b == NONE)
        return a;
    if (fl[b].target < fl[a].target) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    fl[a].hr = lh_merge(fl, fl[a].hr, b);
    uint32_t l = fl[a].hl, r = fl[a].hr;
    if (l == NONE || fl[l].npl < fl[r].npl) {
        fl[a].hl = r;
        fl[a].hr = l;
    }
    fl[a].npl = fl[a].hr == NONE ? 1 : fl[fl[a].hr].npl + 1;
    return a;
}

static void mark_dirty(sim_t *x, uint32_t l, double now)
{
    pact_model_eval *w = x->w;
    if (!w->ldirty[l]) {
        w->ldirty[l] = 1;
        w->dirty[w->ndirty++] = l;
    }
    if (!w->share_pending) {
        w->share_pending = 1;
        if (!ev_push(w, now, EV_SHARE, 0, 0, 0))
            x->oom = TRUE;
    }
}

/* The class of flows from up link u to down link d, created if none is in flight. */
static uint32_t class_get(sim_t *x, uint32_t u, uint32_t d, double now)
{
    pact_model_eval *w = x->w;
    int dir = w->ln[d] < w->ln[u]; /* walk the shorter list */
    for (uint32_t c = w->lhead[dir ? d : u]; c != NONE; c = w->cl[c].next[dir])
        if (w->cl[c].up == u && w->cl[c].down == d)
            return c;
    uint32_t c = w->cfree;
    if (c != NONE) {
        w->cfree = w->cl[c].next[0];
    } else {
        if (w->ncl == w->cap_cl) {
            size_t n = w->cap_cl ? 2 * w->cap_cl : 256;
            if (n >= NONE || !grow((void **)&w->cl, n, sizeof(fclass)) ||
                !grow((void **)&w->comp_c, n, sizeof(uint32_t))) {
                x->oom = TRUE;
                return NONE;
            }
            w->cap_cl = n;
        }
        c = w->ncl++;
        w->cl[c].ver = 0;
        w->cl[c].mark = 0;
    }
    fclass *k = &w->cl[c];
    k->up = u;
    k->down = d;
    k->n = 0;
    k->root = NONE;
    k->rate = 0;
    k->V = 0;
    k->last = now;
    k->fixed = 0;
    k->moved = 0;
    uint32_t ends[2] = {u, d};
    for (int i = 0; i < 2; i++) {
        uint32_t h = w->lhead[ends[i]];
        k->next[i] = h;
        k->prev[i] = NONE;
        if (h != NONE)
            w->cl[h].prev[i] = c;
        w->lhead[ends[i]] = c;
    }
    return c;
}

static void class_del(pact_model_eval *w, uint32_t c)
{
    fclass *k = &w->cl[c];
    uint32_t ends[2] = {k->up, k->down};
    for (int i = 0; i < 2; i++) {
        if (k->prev[i] != NONE)
            w->cl[k->prev[i]].next[i] = k->next[i];
        else
            w->lhead[ends[i]] = k->next[i];
        if (k->next[i] != NONE)
            w->cl[k->next[i]].prev[i] = k->prev[i];
    }
    k->ver++;
    k->next[0] = w->cfree;
    w->cfree = c;
}

static void switch_start(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    flow *fl = &w->fl[f];
    uint32_t u = 2u * (uint32_t)node_of(x, s->op[fl->snd].owner),
             d = 2u * (uint32_t)node_of(x, s->op[fl->rcv].owner) + 1;
    uint32_t c = class_get(x, u, d, now);
    if (c == NONE)
        return;
    fclass *k = &w->cl[c];
    k->V += k->rate * (now - k->last);
    k->last = now;
    fl = &w->fl[f];
    fl->cls = c;
    fl->target = k->V + (op_bytes(s, fl->snd) + x->m->envelope);
    fl->hl = fl->hr = NONE;
    fl->npl = 1;
    uint32_t root = k->root;
    k->root = lh_merge(w->fl, k->root, f);
    k->moved |= k->root != root;
    k->n++;
    w->ln[u]++;
    w->ln[d]++;
    mark_dirty(x, u, now);
    mark_dirty(x, d, now);
}

/* Class c has served its first flow's bytes: that flow, and any that needed exactly as much, are delivered.
 */
void pact_ev_class_end(sim_t *x, uint32_t c, double now)
{
    pact_model_eval *w = x->w;
    fclass *k = &w->cl[c];
    double tg = w->fl[k->root].target;
    k->V = tg; /* what V(now) is, without its rounding */
    k->last = now;
    while (k->root != NONE && w->fl[k->root].target == tg) {
        uint32_t f = k->root;
        k->root = lh_merge(w->fl, w->fl[f].hl, w->fl[f].hr);
        k->n--;
        w->ln[k->up]--;
        w->ln[k->down]--;
        pact_ev_deliver(x, f, now);
    }
    k->moved = 1;
    k->ver++;
    mark_dirty(x, k->up, now);
    mark_dirty(x, k->down, now);
    if (k->n == 0)
        class_del(w, c);
}

/* The links of a component that still carry unfixed flows, in a min-heap on (capacity left per unfixed flow,
 * link): the most constrained link in O(log links), where scanning them all made each sharing O(links^2). */
static inline int lh_before(const pact_model_eval *w, uint32_t a, uint32_t b)
{
    double x = w->lkey[a], y = w->lkey[b];
    return x < y || (x == y && a < b);
}

static void lk_set(pact_model_eval *w, uint32_t i, uint32_t l)
{
    w->lheap[i] = l;
    w->lhpos[l] = i;
}

static void lk_up(pact_model_eval *w, uint32_t i)
{
    uint32_t l = w->lheap[i];
    while (i > 0 && lh_before(w, l, w->lheap[(i - 1) / 2])) {
        lk_set(w, i, w->lheap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    lk_set(w, i, l);
}

static void lk_down(pact_model_eval *w, uint32_t i, uint32_t n)
{
    uint32_t l = w->lheap[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && lh_before(w, w->lheap[c + 1], w->lheap[c]))
            c++;
        if (!lh_before(w, w->lheap[c], l))
            break;
        lk_set(w, i, w->lheap[c]);
        i = c;
    }
    lk_set(w, i, l);
}

/* Removes the link at heap position i. */
static void lk_del(pact_model_eval *w, uint32_t i, uint32_t *n)
{
    uint32_t last = w->lheap[--*n];
    if (i == *n)
        return;
    lk_set(w, i, last);
    lk_up(w, i);
    lk_down(w, w->lhpos[last], *n);
}

/* Max-min fair rates of the classes on links comp_l[0..nl) (a connected component): the most constrained
 * link fixes the rate of every unfixed flow through it, as SimGrid's LMM solver does with equal weights;
 * links equally constrained go in order of their index. */
static void fill_switch(sim_t *x, uint32_t nl, uint32_t nc, double now)
{
    pact_model_eval *w = x->w;
    const double C = 1.0 / x->m->beta;
    for (uint32_t k = 0; k < nc; k++) {
        fclass *c = &w->cl[w->comp_c[k]];
        c->V += c->rate * (now - c->last);
        c->last = now;
        c->fixed = 0;
    }
    uint32_t hn = 0;
    for (uint32_t k = 0; k < nl; k++) {
        uint32_t l = w->comp_l[k];
        w->lcap[l] = C;
        w->lfix[l] = w->ln[l];
        if (w->lfix[l] > 0) {
            w->lkey[l] = C / w->lfix[l];
            lk_set(w, hn++, l);
        }
    }
    for (uint32_t i = hn / 2; i-- > 0;)
        lk_down(w, i, hn);
    while (hn > 0) {
        uint32_t bl = w->lheap[0];
        double best = w->lkey[bl];
        lk_del(w, 0, &hn);
        int dir = (int)(bl & 1);
        for (uint32_t ci = w->lhead[bl]; ci != NONE; ci = w->cl[ci].next[dir]) {
            fclass *c = &w->cl[ci];
            if (c->fixed)
                continue;
            c->fixed = 1;
            uint32_t o = dir ? c->up : c->down;
            w->lcap[o] -= best * c->n;
            w->lfix[o] -= c->n;
            if (w->lfix[o] == 0)
                lk_del(w, w->lhpos[o], &hn);
            else { /* less capacity left per flow, or more */
                w->lkey[o] = w->lcap[o] / w->lfix[o];
                lk_up(w, w->lhpos[o]);
                lk_down(w, w->lhpos[o], hn);
            }
            if (c->rate != best || c->moved) {
                c->rate = best;
                c->moved = 0;
                c->ver++;
                double dt = (w->fl[c->root].target - c->V) / best;
                if (!ev_push(w, now + (dt > 0 ? dt : 0), EV_CLASS_END, ci, c->ver, w->fl[c->root].rcv))
                    x->oom = TRUE;
            }
        }
    }
}

/* Everything that started or stopped flowing at `now` is in place: the rates of the components it touched. */
static void share_switch(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    uint32_t st = ++w->stamp;
    if (st == 0) { /* wrapped: clear the marks */
        memset(w->lmark, 0, 2 * (size_t)x->s->P * sizeof(uint32_t));
        for (uint32_t c = 0; c < w->ncl; c++)
            w->cl[c].mark = 0;
        st = w->stamp = 1;
    }
    for (uint32_t i = 0; i < w->ndirty; i++) {
        uint32_t seed = w->dirty[i];
        w->ldirty[seed] = 0;
        if (w->ln[seed] == 0 || w->lmark[seed] == st)
            continue;
        uint32_t nl = 0, nc = 0;
        w->lmark[seed] = st;
        w->comp_l[nl++] = seed;
        for (uint32_t q = 0; q < nl; q++) { /* breadth first over links; comp_l grows as it goes */
            uint32_t l = w->comp_l[q];
            int dir = (int)(l & 1);
            for (uint32_t c = w->lhead[l]; c != NONE; c = w->cl[c].next[dir]) {
                if (w->cl[c].mark == st)
                    continue;
                w->cl[c].mark = st;
                w->comp_c[nc++] = c;
                uint32_t o = dir ? w->cl[c].up : w->cl[c].down;
                if (w->lmark[o] != st) {
                    w->lmark[o] = st;
                    w->comp_l[nl++] = o;
                }
            }
        }
        fill_switch(x, nl, nc, now);
    }
    w->ndirty = 0;
}

/* ---- shared links along routes: the same progressive filling over any links, each flow weighted ---- */

gboolean pact_ev_routes_reserve(pact_model_eval *w, size_t cap)
{
    gboolean ok = TRUE;
    if (cap <= w->cap_rf)
        return TRUE;
    GROW(fnl, cap);
    GROW(fixed, cap);
    GROW(fmark, cap);
    GROW(comp_f, cap);
    GROW(fiw, cap);
    GROW(fbw, cap);
    GROW(rem, cap);
    GROW(rate, cap);
    GROW(last, cap);
    GROW(flink, PACT_ROUTE_MAX * cap);
    GROW(re_next, PACT_ROUTE_MAX * cap);
    GROW(re_prev, PACT_ROUTE_MAX * cap);
    if (!ok)
        return FALSE;
    memset(w->fmark + w->cap_rf, 0, (cap - w->cap_rf) * sizeof(uint32_t));
    w->cap_rf = cap;
    return TRUE;
}

static void push_end(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    w->fl[f].ver++;
    double dt = w->rate[f] > 0 ? w->rem[f] / w->rate[f] : 0;
    if (!ev_push(w, now + (dt > 0 ? dt : 0), EV_FLOW_END, f, w->fl[f].ver, w->fl[f].rcv))
        x->oom = TRUE;
}

/* Rates of the flows connected through links to the seeds: SimGrid's LMM with penalties, each flow at
 * level x weight on the most constrained link, links fixed in order of their level. */
static void share_routes(sim_t *x, const uint32_t *seed, int nseed, double now)
{
    pact_model_eval *w = x->w;
    const uint32_t L = pact_model_routes_links(x->rt);
    uint32_t st = ++w->stamp, nf = 0, nl = 0;
    if (st == 0) {
        memset(w->rl_mark, 0, L * sizeof(uint32_t));
        memset(w->fmark, 0, w->cap_rf * sizeof(uint32_t));
        st = w->stamp = 1;
    }
    for (int i = 0; i < nseed; i++)
        if (w->rl_n[seed[i]] > 0 && w->rl_mark[seed[i]] != st) {
            w->rl_mark[seed[i]] = st;
            w->rl_comp[nl++] = seed[i];
        }
    for (uint32_t q = 0; q < nl; q++)
        for (uint32_t e = w->rl_head[w->rl_comp[q]]; e != NONE; e = w->re_next[e]) {
            uint32_t f = e / PACT_ROUTE_MAX;
            if (w->fmark[f] == st)
                continue;
            w->fmark[f] = st;
            w->comp_f[nf++] = f;
            for (uint32_t k = 0; k < w->fnl[f]; k++) {
                uint32_t o = w->flink[PACT_ROUTE_MAX * f + k];
                if (w->rl_mark[o] != st) {
                    w->rl_mark[o] = st;
                    w->rl_comp[nl++] = o;
                }
            }
        }
    for (uint32_t k = 0; k < nl; k++) {
        uint32_t l = w->rl_comp[k];
        w->rl_cap[l] = pact_model_routes_capacity(x->rt, l);
        w->rl_w[l] = 0;
        w->rl_fix[l] = w->rl_n[l];
    }
    for (uint32_t k = 0; k < nf; k++) {
        uint32_t f = w->comp_f[k];
        w->rem[f] -= w->rate[f] * (now - w->last[f]);
        w->last[f] = now;
        w->fixed[f] = 0;
        for (uint32_t j = 0; j < w->fnl[f]; j++)
            w->rl_w[w->flink[PACT_ROUTE_MAX * f + j]] += w->fiw[f];
    }
    for (uint32_t left = nf; left > 0;) {
        double best = INFINITY;
        uint32_t bl = 0;
        for (uint32_t k = 0; k < nl; k++) {
            uint32_t l = w->rl_comp[k];
            if (w->rl_fix[l] > 0 && w->rl_cap[l] / w->rl_w[l] < best) {
                best = w->rl_cap[l] / w->rl_w[l];
                bl = l;
            }
        }
        if (best == INFINITY)
            break; /* cannot happen: every unfixed flow has a link with unfixed flows */
        for (uint32_t e = w->rl_head[bl]; e != NONE; e = w->re_next[e]) {
            uint32_t f = e / PACT_ROUTE_MAX;
            if (w->fixed[f])
                continue;
            w->fixed[f] = 1;
            left--;
            double r = best * w->fiw[f];
            for (uint32_t j = 0; j < w->fnl[f]; j++) {
                uint32_t o = w->flink[PACT_ROUTE_MAX * f + j];
                w->rl_cap[o] -= r;
                w->rl_w[o] -= w->fiw[f];
                w->rl_fix[o]--;
            }
            if (w->rate[f] != r) {
                w->rate[f] = r;
                push_end(x, f, now);
            }
        }
    }
}

static void route_start(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const uint32_t *l = w->flink + PACT_ROUTE_MAX * f;
    gboolean alone = TRUE;
    for (uint32_t k = 0; k < w->fnl[f]; k++) {
        uint32_t e = PACT_ROUTE_MAX * f + k, h = w->rl_head[l[k]];
        w->re_next[e] = h;
        w->re_prev[e] = NONE;
        if (h != NONE)
            w->re_prev[h] = e;
        w->rl_head[l[k]] = e;
        if (++w->rl_n[l[k]] > 1)
            alone = FALSE;
    }
    if (alone) { /* a private link, or nobody else on its links */
        w->rate[f] = w->fbw[f];
        push_end(x, f, now);
    } else {
        w->rate[f] = 0;
        share_routes(x, l, w->fnl[f], now);
    }
}

void pact_ev_flow_stop(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const uint32_t *l = w->flink + PACT_ROUTE_MAX * f;
    gboolean others = FALSE;
    for (uint32_t k = 0; k < w->fnl[f]; k++) {
        uint32_t e = PACT_ROUTE_MAX * f + k, nx = w->re_next[e], pv = w->re_prev[e];
        if (pv != NONE)
            w->re_next[pv] = nx;
        else
            w->rl_head[l[k]] = nx;
        if (nx != NONE)
            w->re_prev[nx] = pv;
        others = --w->rl_n[l[k]] > 0 || others;
    }
    if (others)
        share_routes(x, l, w->fnl[f], now);
}

/* ---- both ---- */

/* The message of flow f leaves its latency phase. */
void pact_ev_flow_start(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    if (!x->rt) {
        switch_start(x, f, now);
        return;
    }
    w->rem[f] = op_bytes(x->s, w->fl[f].snd) + x->m->envelope;
    w->last[f] = now;
    route_start(x, f, now);
}

void pact_ev_share(sim_t *x, double now)
{
    x->w->share_pending = 0;
    share_switch(x, now);
}
