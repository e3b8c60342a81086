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

/* ---- preparing ---- */

void pact_model_sched_free(pact_model_sched *s)
{
    if (!s)
        return;
    free(s->base);
    free(s->kind);
    free(s->owner);
    free(s->peer);
    free(s->chan);
    free(s->bytes);
    free(s->pending0);
    free(s->sfirst);
    free(s->succ);
    free(s->ready0);
    free(s->nready0);
    free(s->chan_base);
    free(s);
}

int pact_model_sched_ranks(const pact_model_sched *s)
{
    return s->P;
}

size_t pact_model_sched_messages(const pact_model_sched *s)
{
    return s->nmsg;
}

static guint64 chan_key(int src, int dst, int tag, int P)
{
    return ((guint64)((guint64)src * (guint64)P + (guint64)dst) << 32) | (guint32)tag;
}

pact_model_sched *pact_model_prepare(const pact_alg *alg, const pact_build_args *args, GError **err)
{
    const int P = args->size;
    if (P < 1) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: %d processes", P);
        return NULL;
    }
    pact_model_sched *s = calloc(1, sizeof(*s));
    pact_sched *sc = calloc((size_t)P, sizeof(*sc));
    GHashTable *chans = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(guint64));
    gboolean ok = FALSE;
    if (!s || !sc)
        goto out;
    s->P = P;
    size_t n = 0, nsucc = 0;
    for (int r = 0; r < P; r++) {
        pact_build_args a = *args;
        a.rank = r;
        pact_sched_init(&sc[r]);
        int rc = pact_build(alg, &a, &sc[r]);
        if (rc != PACT_OK) {
            const char *why = NULL;
            pact_alg_applies(alg, &a, &why);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: %s %s on %d ranks: %s",
                        pact_coll_name(alg->coll), alg->name, P,
                        rc == PACT_ERR_RESTRICTED && why ? why : "the builder failed");
            goto out;
        }
        n += sc[r].nops;
        nsucc += sc[r].ndeps;
    }
    s->n = n;
    s->base = malloc(((size_t)P + 1) * sizeof(uint32_t));
    s->kind = malloc((n + 1) * sizeof(uint8_t));
    s->owner = malloc((n + 1) * sizeof(int32_t));
    s->peer = malloc((n + 1) * sizeof(int32_t));
    s->chan = malloc((n + 1) * sizeof(uint32_t));
    s->bytes = malloc((n + 1) * sizeof(double));
    s->pending0 = malloc((n + 1) * sizeof(uint32_t));
    s->sfirst = calloc(n + 2, sizeof(uint32_t));
    s->succ = malloc((nsucc + 1) * sizeof(uint32_t));
    s->ready0 = malloc((n + 1) * sizeof(uint32_t));
    s->nready0 = calloc((size_t)P, sizeof(uint32_t));
    uint32_t *fill = calloc(n + 1, sizeof(uint32_t));
    if (!s->base || !s->kind || !s->owner || !s->peer || !s->chan || !s->bytes || !s->pending0 ||
        !s->sfirst || !s->succ || !s->ready0 || !s->nready0 || !fill) {
        free(fill);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        goto out;
    }
    /* Flatten; channels numbered in order of first appearance; successor lists in global indices. */
    size_t g = 0;
    for (int r = 0; r < P; r++) {
        s->base[r] = (uint32_t)g;
        const pact_sched *x = &sc[r];
        for (size_t i = 0; i < x->nops; i++, g++) {
            const pact_op *o = &x->ops[i];
            s->kind[g] = (uint8_t)o->kind;
            s->owner[g] = r;
            s->peer[g] = o->peer;
            s->bytes[g] = (double)pact_op_bytes(x, o);
            s->pending0[g] = o->ndeps;
            s->chan[g] = 0;
            if (o->ndeps == 0)
                s->ready0[s->base[r] + s->nready0[r]++] = (uint32_t)g;
            for (uint32_t d = 0; d < o->ndeps; d++)
                s->sfirst[s->base[r] + pact_op_deps(x, i)[d] + 1]++;
            if (o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV) {
                int src = o->kind == PACT_OP_SEND ? r : o->peer, dst = o->kind == PACT_OP_SEND ? o->peer : r;
                guint64 k = chan_key(src, dst, o->tag, P);
                gpointer v;
                if (!g_hash_table_lookup_extended(chans, &k, NULL, &v)) {
                    g_array_append_val(keys, k);
                    v = GUINT_TO_POINTER(keys->len - 1);
                    g_hash_table_insert(chans, g_memdup2(&k, sizeof(k)), v);
                }
                s->chan[g] = GPOINTER_TO_UINT(v);
            }
        }
    }
    s->base[P] = (uint32_t)g;
    for (size_t i = 0; i < n; i++)
        s->sfirst[i + 1] += s->sfirst[i];
    for (int r = 0; r < P; r++) {
        const pact_sched *x = &sc[r];
        for (size_t i = 0; i < x->nops; i++)
            for (uint32_t d = 0; d < x->ops[i].ndeps; d++) {
                uint32_t p = s->base[r] + pact_op_deps(x, i)[d];
                s->succ[s->sfirst[p] + fill[p]++] = s->base[r] + (uint32_t)i;
            }
    }
    free(fill);
    /* Channels: sends and receives must pair up, the k-th send with the k-th receive in schedule order. */
    s->nchan = keys->len;
    s->chan_base = calloc(s->nchan + 1, sizeof(uint32_t));
    uint32_t *nsend = calloc(s->nchan + 1, sizeof(uint32_t)), *nrecv = calloc(s->nchan + 1, sizeof(uint32_t));
    if (!s->chan_base || !nsend || !nrecv) {
        free(nsend);
        free(nrecv);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (s->kind[i] == PACT_OP_SEND)
            nsend[s->chan[i]]++;
        else if (s->kind[i] == PACT_OP_RECV)
            nrecv[s->chan[i]]++;
    }
    for (size_t c = 0; c < s->nchan; c++) {
        if (nsend[c] != nrecv[c]) {
            guint64 k = g_array_index(keys, guint64, c);
            int pair = (int)(k >> 32);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "model: %s %s on %d ranks: %u sends from rank %d to rank %d (tag %d) but %u receives",
                        pact_coll_name(alg->coll), alg->name, P, nsend[c], pair / P, pair % P,
                        (int)(guint32)k, nrecv[c]);
            free(nsend);
            free(nrecv);
            goto out;
        }
        s->chan_base[c + 1] = s->chan_base[c] + nsend[c];
    }
    s->nmsg = s->nchan ? s->chan_base[s->nchan] : 0;
    free(nsend);
    free(nrecv);
    ok = TRUE;
out:
    if (sc)
        for (int r = 0; r < P; r++)
            pact_sched_free(&sc[r]);
    free(sc);
    g_hash_table_destroy(chans);
    g_array_free(keys, TRUE);
    if (!ok) {
        if (err && !*err)
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        pact_model_sched_free(s);
        return NULL;
    }
    return s;
}

/* ---- workspace ---- */

pact_model_eval *pact_model_eval_new(void)
{
    return calloc(1, sizeof(pact_model_eval));
}

void pact_model_eval_free(pact_model_eval *w)
{
    if (!w)
        return;
    void *p[] = {w->pending, w->heap,         w->comp,    w->post_seq, w->msg_send, w->ver,   w->rem,
                 w->rate,    w->last,         w->heap_n,  w->comp_n,   w->done,     w->seq,   w->busy,
                 w->waiting, w->wake_pending, w->exit,    w->spf,      w->rpf,      w->ns,    w->nr,
                 w->sslot,   w->rslot,        w->lhead,   w->ln,       w->lfix,     w->lmark, w->fl_next,
                 w->fl_prev, w->fmark,        w->comp_f,  w->comp_l,   w->lcap,     w->fixed, w->ev,
                 w->fnl,     w->flink,        w->re_next, w->re_prev,  w->rl_head,  w->rl_n,  w->rl_fix,
                 w->rl_mark, w->rl_comp,      w->fiw,     w->fbw,      w->rl_cap,   w->rl_w};
    for (size_t i = 0; i < G_N_ELEMENTS(p); i++)
        free(p[i]);
    free(w);
}

static gboolean grow(void **p, size_t n, size_t elem)
{
    void *q = realloc(*p, (n ? n : 1) * elem);
    if (!q)
        return FALSE;
    *p = q;
    return TRUE;
}

#define GROW(field, n) ok = ok && grow((void **)&w->field, (n), sizeof(*w->field))

static gboolean reserve(pact_model_eval *w, const pact_model_sched *s)
{
    gboolean ok = TRUE;
    size_t n = s->n + 1, P = (size_t)s->P + 1;
    if (n > w->cap_n) {
        n += n / 2;
        GROW(pending, n);
        GROW(heap, n);
        GROW(comp, n);
        GROW(post_seq, n);
        GROW(msg_send, n);
        GROW(ver, n);
        GROW(rem, n);
        GROW(rate, n);
        GROW(last, n);
        GROW(fixed, n);
        GROW(fmark, n);
        GROW(comp_f, n);
        GROW(fl_next, 2 * n);
        GROW(fl_prev, 2 * n);
        if (ok)
            w->cap_n = n;
    }
    if (P > w->cap_P) {
        P += P / 2;
        GROW(heap_n, P);
        GROW(comp_n, P);
        GROW(done, P);
        GROW(seq, P);
        GROW(busy, P);
        GROW(waiting, P);
        GROW(wake_pending, P);
        GROW(exit, P);
        GROW(spf, P);
        GROW(rpf, P);
        GROW(lhead, 2 * P);
        GROW(ln, 2 * P);
        GROW(lfix, 2 * P);
        GROW(lmark, 2 * P);
        GROW(comp_l, 2 * P);
        GROW(lcap, 2 * P);
        if (ok)
            w->cap_P = P;
    }
    if (s->nchan + 1 > w->cap_chan) {
        size_t c = s->nchan + 1 + (s->nchan + 1) / 2;
        GROW(ns, c);
        GROW(nr, c);
        if (ok)
            w->cap_chan = c;
    }
    if (s->nmsg + 1 > w->cap_msg) {
        size_t c = s->nmsg + 1 + (s->nmsg + 1) / 2;
        GROW(sslot, c);
        GROW(rslot, c);
        if (ok)
            w->cap_msg = c;
    }
    return ok;
}

/* The per-flow route arrays and per-link arrays of a routed evaluation. */
static gboolean reserve_routes(pact_model_eval *w, const pact_model_sched *s, uint32_t links)
{
    gboolean ok = TRUE;
    size_t n = s->n + 1;
    if (n > w->cap_rn) {
        n += n / 2;
        GROW(fnl, n);
        GROW(fiw, n);
        GROW(fbw, n);
        GROW(flink, PACT_ROUTE_MAX * n);
        GROW(re_next, PACT_ROUTE_MAX * n);
        GROW(re_prev, PACT_ROUTE_MAX * n);
        if (ok)
            w->cap_rn = n;
    }
    if ((size_t)links + 1 > w->cap_links) {
        size_t c = (size_t)links + 1;
        GROW(rl_head, c);
        GROW(rl_n, c);
        GROW(rl_fix, c);
        GROW(rl_mark, c);
        GROW(rl_comp, c);
        GROW(rl_cap, c);
        GROW(rl_w, c);
        if (ok)
            w->cap_links = c;
    }
    return ok;
}

/* ---- the event queue: a binary heap on (time, class, sequence) ---- */

static inline int ev_before(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->key < b->key);
}

static gboolean ev_push_key(pact_model_eval *w, double t, uint8_t type, uint32_t id, uint32_t ver,
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

static event ev_pop(pact_model_eval *w)
{
    event top = w->ev[0], x = w->ev[--w->nev];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= w->nev)
            break;
        if (c + 1 < w->nev && ev_before(&w->ev[c + 1], &w->ev[c]))
            c++;
        if (!ev_before(&w->ev[c], &x))
            break;
        w->ev[i] = w->ev[c];
        i = c;
    }
    if (w->nev > 0)
        w->ev[i] = x;
    return top;
}

/* ---- ranks ---- */

typedef struct {
    pact_model_eval *w;
    const pact_model_sched *s;
    const pact_model_params *m;
    int ppn;
    gboolean oom;
    const pact_model_routes *rt; /* shared links along routes, or NULL */
} sim_t;

/* Per-rank min-heap of ready operations (global indices, so schedule order) in heap[base[r] ..], the
 * executor's heap (sim/heap.h) over a slice of one array. */
static inline void ready_push(sim_t *x, int r, uint32_t op)
{
    pact_heap h = {x->w->heap + x->s->base[r], x->w->heap_n[r]};
    pact_heap_push(&h, op);
    x->w->heap_n[r] = (uint32_t)h.n;
}

static inline uint32_t ready_pop(sim_t *x, int r)
{
    pact_heap h = {x->w->heap + x->s->base[r], x->w->heap_n[r]};
    uint32_t op = pact_heap_pop(&h);
    x->w->heap_n[r] = (uint32_t)h.n;
    return op;
}

static inline void release(sim_t *x, int r, uint32_t op)
{
    const pact_model_sched *s = x->s;
    uint32_t *pending = x->w->pending;
    x->w->done[r]++;
    for (uint32_t k = s->sfirst[op]; k < s->sfirst[op + 1]; k++)
        if (--pending[s->succ[k]] == 0)
            ready_push(x, r, s->succ[k]);
}

/* A request of rank r completed at t: MPI_Waitsome will return it; wake the rank if it waits. */
static void request_done(sim_t *x, uint32_t op, double t)
{
    pact_model_eval *w = x->w;
    int r = x->s->owner[op];
    w->comp[x->s->base[r] + w->comp_n[r]++] = op;
    if (w->waiting[r] && !w->wake_pending[r]) {
        w->wake_pending[r] = 1;
        if (!ev_push(w, t, EV_WAKE, (uint32_t)r, 0))
            x->oom = TRUE;
    }
}

static inline int node_of(const sim_t *x, int r)
{
    return x->ppn > 1 ? r / x->ppn : r;
}

static inline int same_node(const sim_t *x, int a, int b)
{
    return x->ppn > 1 && a / x->ppn == b / x->ppn;
}

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
static void flow_start(sim_t *x, uint32_t f, double now)
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

static void flow_stop(sim_t *x, uint32_t f, double now)
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
 * the same instant take the ports in the order their sends were posted. */
static void match(sim_t *x, uint32_t snd, uint32_t rcv, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    w->msg_send[rcv] = snd;
    if (x->m->net == PACT_NET_SHARED && x->rt) {
        double lat;
        w->fnl[rcv] =
            (uint8_t)pact_model_route(x->rt, s->owner[snd], s->owner[rcv], w->flink + PACT_ROUTE_MAX * rcv,
                                      &lat, &w->fiw[rcv], &w->fbw[rcv]);
        if (!ev_push(w, now + lat, EV_LAT_END, rcv, 0))
            x->oom = TRUE;
        return;
    }
    if (x->m->net == PACT_NET_SHARED) {
        double alpha, beta;
        link_params(x, s->owner[snd], s->owner[rcv], &alpha, &beta);
        if (!ev_push(w, now + alpha, EV_LAT_END, rcv, 0))
            x->oom = TRUE;
        return;
    }
    uint64_t key = ((uint64_t)(w->post_seq[snd] & 0xfffffff) << 28) | (uint64_t)(s->owner[snd] & 0xfffffff);
    if (!ev_push_key(w, now, EV_CLAIM, rcv, 0, key))
        x->oom = TRUE;
}

static void claim(sim_t *x, uint32_t rcv, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    const pact_model_params *m = x->m;
    uint32_t snd = w->msg_send[rcv];
    int src = s->owner[snd], dst = s->owner[rcv];
    double alpha, beta, bytes = s->bytes[snd] + m->envelope, end;
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
    w->ver[rcv]++;
    if (!ev_push(w, end, EV_FLOW_END, rcv, w->ver[rcv]))
        x->oom = TRUE;
}

static void post(sim_t *x, int r, uint32_t op, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    uint32_t c = s->chan[op], slot = s->chan_base[c];
    w->post_seq[op] = w->seq[r]++;
    if (s->kind[op] == PACT_OP_SEND) {
        uint32_t k = w->ns[c]++;
        w->sslot[slot + k] = op;
        if (s->bytes[op] < x->m->eager_limit)
            request_done(x, op, now);
        if (w->nr[c] > k)
            match(x, op, w->rslot[slot + k], now);
    } else {
        uint32_t k = w->nr[c]++;
        w->rslot[slot + k] = op;
        if (w->ns[c] > k)
            match(x, w->sslot[slot + k], op, now);
    }
}

static double local_cost(const sim_t *x, uint32_t op)
{
    switch (x->s->kind[op]) {
    case PACT_OP_REDUCE:
        return x->m->gamma * x->s->bytes[op];
    case PACT_OP_COPY:
        return x->m->copy_beta * x->s->bytes[op];
    default:
        return 0;
    }
}

/* Completed requests in posting order, as the executor releases what MPI_Waitsome returned. */
static void collect(sim_t *x, int r)
{
    pact_model_eval *w = x->w;
    uint32_t *c = w->comp + x->s->base[r];
    uint32_t n = w->comp_n[r];
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = c[i], j = i;
        while (j > 0 && w->post_seq[c[j - 1]] > w->post_seq[v]) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = v;
    }
    w->comp_n[r] = 0;
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
        while (w->heap_n[r] > 0) {
            uint32_t op = ready_pop(x, r);
            uint8_t k = s->kind[op];
            if (k == PACT_OP_SEND || k == PACT_OP_RECV) {
                post(x, r, op, now);
                continue;
            }
            double cost = local_cost(x, op);
            if (cost > 0) {
                w->busy[r] = (int32_t)op;
                if (!ev_push(w, now + cost, EV_RESUME, (uint32_t)r, 0))
                    x->oom = TRUE;
                return;
            }
            release(x, r, op);
        }
        if (w->done[r] == nops) {
            w->exit[r] = now;
            return;
        }
        if (w->comp_n[r] == 0) {
            w->waiting[r] = 1;
            return;
        }
        collect(x, r);
    }
}

/* ---- the evaluation ---- */

gboolean pact_model_evaluate(pact_model_eval *w, const pact_model_sched *s, const double *arrivals,
                             const pact_model_params *prm, pact_model_result *out, GError **err)
{
    if (!reserve(w, s)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        return FALSE;
    }
    const int P = s->P;
    sim_t x = {w, s, prm, prm->ppn > 1 ? prm->ppn : 1, FALSE, NULL};
    if (prm->net == PACT_NET_SHARED && prm->platform) {
        if (P % x.ppn) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: %d ranks are not nodes of %d", P, x.ppn);
            return FALSE;
        }
        pact_export_opts o = {.nodes = P / x.ppn,
                              .ppn = x.ppn,
                              .mapping = prm->mapping,
                              .ranks_on = PACT_ON_CORES,
                              .rails = prm->rails};
        if (!(x.rt = pact_model_routes_get(prm->platform, &o, err)))
            return FALSE;
        uint32_t L = pact_model_routes_links(x.rt);
        if (!reserve_routes(w, s, L)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
            return FALSE;
        }
        memset(w->rl_n, 0, L * sizeof(uint32_t));
        memset(w->rl_head, 0xff, L * sizeof(uint32_t));
        memset(w->rl_mark, 0, L * sizeof(uint32_t));
    } else if (prm->net == PACT_NET_SHARED && !(prm->beta > 0 && (x.ppn == 1 || prm->beta_intra > 0))) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: shared links need beta > 0");
        return FALSE;
    }
    memcpy(w->pending, s->pending0, s->n * sizeof(uint32_t));
    memset(w->ns, 0, s->nchan * sizeof(uint32_t));
    memset(w->nr, 0, s->nchan * sizeof(uint32_t));
    memset(w->ver, 0, s->n * sizeof(uint32_t));
    size_t Pz = (size_t)P;
    memset(w->comp_n, 0, Pz * sizeof(uint32_t));
    memset(w->done, 0, Pz * sizeof(uint32_t));
    memset(w->seq, 0, Pz * sizeof(uint32_t));
    memset(w->waiting, 0, Pz);
    memset(w->wake_pending, 0, Pz);
    memset(w->ln, 0, 2 * Pz * sizeof(uint32_t));
    memset(w->lhead, 0xff, 2 * Pz * sizeof(uint32_t));
    memset(w->lmark, 0, 2 * Pz * sizeof(uint32_t));
    memset(w->fmark, 0, s->n * sizeof(uint32_t));
    w->stamp = 0;
    w->nev = 0;
    w->evseq = 0;
    w->events = 0;
    double amin = INFINITY, amax = -INFINITY;
    for (int r = 0; r < P; r++) {
        double a = arrivals ? arrivals[r] : 0;
        amin = fmin(amin, a);
        amax = fmax(amax, a);
        w->spf[r] = w->rpf[r] = a;
        w->busy[r] = -1;
        w->heap_n[r] = s->nready0[r]; /* ascending, hence already a heap */
        memcpy(w->heap + s->base[r], s->ready0 + s->base[r], s->nready0[r] * sizeof(uint32_t));
        w->exit[r] = a;
        if (!ev_push(w, a, EV_START, (uint32_t)r, 0))
            x.oom = TRUE;
    }
    while (w->nev > 0 && !x.oom) {
        event e = ev_pop(w);
        w->events++;
        double now = e.t;
        switch (e.type) {
        case EV_START:
            advance(&x, (int)e.id, now);
            break;
        case EV_RESUME: {
            int r = (int)e.id;
            uint32_t op = (uint32_t)w->busy[r];
            w->busy[r] = -1;
            release(&x, r, op);
            advance(&x, r, now);
            break;
        }
        case EV_WAKE: {
            int r = (int)e.id;
            w->wake_pending[r] = 0;
            w->waiting[r] = 0;
            advance(&x, r, now);
            break;
        }
        case EV_LAT_END:
            flow_start(&x, e.id, now);
            break;
        case EV_CLAIM:
            claim(&x, e.id, now);
            break;
        case EV_FLOW_END: {
            uint32_t rcv = e.id, snd = w->msg_send[rcv];
            if (e.ver != w->ver[rcv])
                break; /* rescheduled since */
            if (prm->net == PACT_NET_SHARED)
                flow_stop(&x, rcv, now);
            request_done(&x, rcv, now);
            if (!(s->bytes[snd] < prm->eager_limit))
                request_done(&x, snd, now);
            break;
        }
        }
    }
    if (x.oom) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        return FALSE;
    }
    double emax = -INFINITY;
    for (int r = 0; r < P; r++) {
        uint32_t nops = s->base[r + 1] - s->base[r];
        if (w->done[r] != nops) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                        "model: the schedules deadlock: rank %d completed %u of %u operations", r, w->done[r],
                        nops);
            return FALSE;
        }
        emax = fmax(emax, w->exit[r]);
    }
    out->dstar = emax - amin;
    out->dhat = emax - amax;
    out->exit = w->exit;
    out->events = w->events;
    return TRUE;
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
        pact_build_args a = {0};
        a.coll = alg->coll;
        a.size = P;
        a.root = 0;
        a.elem_size = bytes % 8 == 0 ? 8 : 1;
        a.count = bytes / a.elem_size;
        a.commutative = 1;
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
