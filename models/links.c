/* links.c - the evaluator's shared links: max-min fair rates by progressive filling over the node links of a
 * one-switch cluster, or over every link of each flow's route (route.c). */
#include "eval_int.h"

/* ---- shared links: max-min fair rates by progressive filling, per connected component ---- */

#define NONE UINT32_MAX

static void push_end(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    w->ver[f]++;
    double dt = w->rate[f] > 0 ? w->rem[f] / w->rate[f] : 0;
    if (!ev_push(w, now + (dt > 0 ? dt : 0), EV_FLOW_END, f, w->ver[f]))
        x->oom = TRUE;
}

/* The up link of the flow into receive f (dir 0) or its down link (dir 1). */
static inline uint32_t flow_link(const sim_t *x, uint32_t f, int dir)
{
    int r = dir ? x->s->owner[f] : x->s->owner[x->w->msg_send[f]];
    return 2u * (uint32_t)node_of(x, r) + (uint32_t)dir;
}

static void link_add(pact_model_eval *w, uint32_t l, uint32_t f, int dir)
{
    uint32_t h = w->lhead[l];
    w->fl_next[2 * f + dir] = h;
    w->fl_prev[2 * f + dir] = NONE;
    if (h != NONE)
        w->fl_prev[2 * h + dir] = f;
    w->lhead[l] = f;
    w->ln[l]++;
}

static void link_del(pact_model_eval *w, uint32_t l, uint32_t f, int dir)
{
    uint32_t nx = w->fl_next[2 * f + dir], pv = w->fl_prev[2 * f + dir];
    if (pv != NONE)
        w->fl_next[2 * pv + dir] = nx;
    else
        w->lhead[l] = nx;
    if (nx != NONE)
        w->fl_prev[2 * nx + dir] = pv;
    w->ln[l]--;
}

/* Recomputes the rates of the flows that share links, directly or through other flows, with links l0 and l1:
 * the max-min fair allocation of SimGrid's LMM solver, every flow of equal weight. */
static void share(sim_t *x, uint32_t l0, uint32_t l1, double now)
{
    pact_model_eval *w = x->w;
    const double C = 1.0 / x->m->beta;
    uint32_t st = ++w->stamp, nf = 0, nl = 0;
    if (st == 0) { /* wrapped: clear the marks */
        memset(w->lmark, 0, 2 * (size_t)x->s->P * sizeof(uint32_t));
        memset(w->fmark, 0, x->s->n * sizeof(uint32_t));
        st = w->stamp = 1;
    }
    uint32_t seeds[2] = {l0, l1};
    for (int i = 0; i < 2; i++)
        if (w->ln[seeds[i]] > 0 && w->lmark[seeds[i]] != st) {
            w->lmark[seeds[i]] = st;
            w->comp_l[nl++] = seeds[i];
        }
    for (uint32_t q = 0; q < nl; q++) { /* breadth first over links; comp_l grows as it goes */
        uint32_t l = w->comp_l[q];
        int dir = (int)(l & 1);
        for (uint32_t f = w->lhead[l]; f != NONE; f = w->fl_next[2 * f + dir]) {
            if (w->fmark[f] == st)
                continue;
            w->fmark[f] = st;
            w->comp_f[nf++] = f;
            uint32_t o = flow_link(x, f, !dir);
            if (w->lmark[o] != st) {
                w->lmark[o] = st;
                w->comp_l[nl++] = o;
            }
        }
    }
    for (uint32_t k = 0; k < nf; k++) {
        uint32_t f = w->comp_f[k];
        w->rem[f] -= w->rate[f] * (now - w->last[f]);
        w->last[f] = now;
        w->fixed[f] = 0;
    }
    for (uint32_t k = 0; k < nl; k++) {
        w->lcap[w->comp_l[k]] = C;
        w->lfix[w->comp_l[k]] = w->ln[w->comp_l[k]];
    }
    for (uint32_t left = nf; left > 0;) {
        /* The most constrained link sets the rate of every unfixed flow through it. */
        double best = INFINITY;
        uint32_t bl = 0;
        for (uint32_t k = 0; k < nl; k++) {
            uint32_t l = w->comp_l[k];
            if (w->lfix[l] > 0 && w->lcap[l] / w->lfix[l] < best) {
                best = w->lcap[l] / w->lfix[l];
                bl = l;
            }
        }
        int dir = (int)(bl & 1);
        for (uint32_t f = w->lhead[bl]; f != NONE; f = w->fl_next[2 * f + dir]) {
            if (w->fixed[f])
                continue;
            w->fixed[f] = 1;
            left--;
            uint32_t o = flow_link(x, f, !dir);
            w->lcap[bl] -= best;
            w->lfix[bl]--;
            w->lcap[o] -= best;
            w->lfix[o]--;
            if (w->rate[f] != best) {
                w->rate[f] = best;
                push_end(x, f, now);
            }
        }
    }
}

/* ---- shared links along routes: the same progressive filling over any links, each flow weighted ---- */

/* Rates of the flows connected through links to the seeds: SimGrid's LMM with penalties, each flow at
 * level x weight on the most constrained link, links fixed in order of their level. */
static void share_routes(sim_t *x, const uint32_t *seed, int nseed, double now)
{
    pact_model_eval *w = x->w;
    const uint32_t L = pact_model_routes_links(x->rt);
    uint32_t st = ++w->stamp, nf = 0, nl = 0;
    if (st == 0) {
        memset(w->rl_mark, 0, L * sizeof(uint32_t));
        memset(w->fmark, 0, x->s->n * sizeof(uint32_t));
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

static void route_stop(sim_t *x, uint32_t f, double now)
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

/* The message into receive f leaves its latency phase. */
void pact_ev_flow_start(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    uint32_t snd = w->msg_send[f];
    w->rem[f] = s->bytes[snd] + x->m->envelope;
    w->last[f] = now;
    if (x->rt) {
        route_start(x, f, now);
        return;
    }
    if (same_node(x, s->owner[snd], s->owner[f])) { /* a private loopback */
        w->rate[f] = 1.0 / x->m->beta_intra;
        push_end(x, f, now);
        return;
    }
    uint32_t u = flow_link(x, f, 0), d = flow_link(x, f, 1);
    link_add(w, u, f, 0);
    link_add(w, d, f, 1);
    if (w->ln[u] == 1 && w->ln[d] == 1) { /* alone on both links: nobody else changes */
        w->rate[f] = 1.0 / x->m->beta;
        push_end(x, f, now);
    } else {
        w->rate[f] = 0;
        share(x, u, d, now);
    }
}

void pact_ev_flow_stop(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    if (x->rt) {
        route_stop(x, f, now);
        return;
    }
    if (same_node(x, s->owner[w->msg_send[f]], s->owner[f]))
        return;
    uint32_t u = flow_link(x, f, 0), d = flow_link(x, f, 1);
    link_del(w, u, f, 0);
    link_del(w, d, f, 1);
    if (w->ln[u] > 0 || w->ln[d] > 0)
        share(x, u, d, now);
}

