/* links.c - the evaluator's shared links: max-min fair rates by progressive filling over the node links of a
 * one-switch cluster, or over every link of each flow's route (route.c).
 *
 * The flows in flight from one host to another follow the same links with the same weight, hence share one
 * rate: they form a class, and sharing runs over classes, however many flows are in flight (linear alltoall
 * puts 10^6 flows on 32 nodes' 64 links; one switch has at most nodes^2 classes).  A class delivers its flows
 * in order of the bytes each needs against the class's virtual service, V(t) = integral of its rate: a rate
 * change reschedules one event per class, not one per flow.  Rates are recomputed once per instant for
 * every link touched in it (EV_SHARE, the instant's last event), not once per flow that starts or stops.
 * One switch is the route of two links (the source node's up link 2n, the destination's down link 2n+1) of
 * capacity 1/beta and weight 1.  SimGrid's LMM solver does the same progressive filling (Casanova et al.,
 * "Versatile, scalable and accurate simulation of distributed applications and platforms", JPDC 2014),
 * weighting each flow by 1/penalty on routed platforms (route.c). */
#include "eval_int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2 1
#endif

/* Class c's k-th link, as an entry of that link's list of classes. */
#define ENTRY(c, k) ((c) * (uint32_t)PACT_ROUTE_MAX + (uint32_t)(k))
#define ENTRY_CLASS(e) ((e) / (uint32_t)PACT_ROUTE_MAX)
#define ENTRY_POS(e) ((e) % (uint32_t)PACT_ROUTE_MAX)

static inline int fl_before(const flow *fl, uint32_t a, uint32_t b)
{
    return fl[a].target < fl[b].target || (fl[a].target == fl[b].target && fl[a].seq < fl[b].seq);
}

/* A class's flows wait in order of (target, seq): in a queue those that joined behind every other (at one
 * size each joins behind, as V only grows: O(1), where the heap alone paid a walk down its right spine
 * through flows far apart in memory: a sixth of linear alltoall at 1024 ranks), in a leftist heap the others
 * (merge in O(log n), no allocation: the links live in the flows).  Its first flow is the lesser of the two
 * firsts. */
static uint32_t lh_merge(flow *fl, uint32_t a, uint32_t b)
{
    if (a == NONE)
        return b;
    if (b == NONE)
        return a;
    if (fl_before(fl, b, a)) {
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

static inline uint32_t class_first(const pact_model_eval *w, const fclass *k)
{
    uint32_t a = k->qh, b = k->root;
    if (a == NONE)
        return b;
    if (b == NONE)
        return a;
    return fl_before(w->fl, b, a) ? b : a;
}

/* Class k's first flow changed: its receive and target, copied (apply_one reads them). */
static inline void class_head(const pact_model_eval *w, fclass *k)
{
    const flow *f = &w->fl[class_first(w, k)];
    k->frcv = f->rcv;
    k->ftarget = f->target;
}

static void mark_dirty(sim_t *x, uint32_t l, double now)
{
    pact_model_eval *w = x->w;
    if (!w->lk[l].dirty) {
        w->lk[l].dirty = 1;
        w->dirty[w->ndirty++] = l;
    }
    if (!w->share_pending) { /* the instant's last event: it waits beside the queue (events_loop) */
        w->share_pending = 1;
        w->share_t = now;
    }
}

/* ---- the heap of class ends ---- */

/* Entries hold their class's end and key (ce_ent), and each class its position apart (chpos): sifting
 * compares and moves entries of one array, where comparing two classes read each one's record (992 records of
 * 208 bytes in linear alltoall: a load from the cache behind L1 per comparison, a seventh of the cell's
 * misses in cachegrind). */
static inline int ce_before(const ce_ent *x, const ce_ent *y)
{
    return x->t < y->t || (x->t == y->t && x->k < y->k);
}

static inline void ce_set(pact_model_eval *w, uint32_t i, const ce_ent *e)
{
    w->cend[i] = *e;
    w->chpos[e->c] = i;
}

/* Entry i of the flat class ends is e (its t in cend_t too). */
static inline void ce_flat_put(pact_model_eval *w, uint32_t i, const ce_ent *e)
{
    w->cend[i] = *e;
    w->cend_t[i] = e->t;
}

static void ce_up(pact_model_eval *w, uint32_t i)
{
    ce_ent e = w->cend[i];
    while (i > 0 && ce_before(&e, &w->cend[(i - 1) / 2])) {
        ce_set(w, i, &w->cend[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    ce_set(w, i, &e);
}

static void ce_down(pact_model_eval *w, uint32_t i)
{
    ce_ent e = w->cend[i];
    uint32_t n = w->ncend;
    for (;;) {
        uint32_t k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && ce_before(&w->cend[k + 1], &w->cend[k]))
            k++;
        if (!ce_before(&w->cend[k], &e))
            break;
        ce_set(w, i, &w->cend[k]);
        i = k;
    }
    ce_set(w, i, &e);
}

/* Entry i of the flat class ends becomes e: the least entry stays known where it can (this entry, lower than
 * it was, or another that this one does not pass). */
static inline void ce_flat_set(pact_model_eval *w, uint32_t i, const ce_ent *e)
{
    w->ce_moves++;
    if (w->ce_min == i) {
        if (!ce_before(e, &w->cend[i]))
            w->ce_min = NONE;
    } else if (w->ce_min != NONE && ce_before(e, &w->cend[w->ce_min])) {
        w->ce_min = i;
    }
    ce_flat_put(w, i, e);
}

/* The flat class ends a heap again (Floyd's), built in place. */
static void ce_unflat(pact_model_eval *w)
{
    w->ce_flat = 0;
    for (uint32_t k = w->ncend / 2; k-- > 0;)
        ce_down(w, k);
}

/* Class c ends at t (its first flow, receive rcv): scheduled as an event in the queue, which is cheap where
 * many end at one instant (a million flows at 2^20 ranks); moved, in the heap of class ends, where its end
 * moves again and again (linear alltoall under random arrivals: 23.6 million events for a million messages
 * when each move was a new event).  The heap goes flat from w->ce_flat_on entries (CE_FLAT_ON). */
static __attribute__((noinline)) gboolean ce_schedule_heap(pact_model_eval *w, uint32_t c, double t,
                                                           uint32_t rcv)
{
    fclass *k = &w->cl[c];
    if (k->where == 0) {
        k->where = 1;
        return ev_push(w, t, EV_CLASS_END, c, k->ver, rcv);
    }
    const ce_ent e = {t, ((uint64_t)ev_class[EV_CLASS_END] << 56) | rcv, c};
    if (k->where == 1) { /* its event in the queue is void from now on */
        k->ver++;
        k->where = 2;
        const uint32_t i = w->ncend++;
        w->chpos[c] = i;
        if (w->ce_flat) { /* past the others: the least known stays, or it is this one */
            ce_flat_set(w, i, &e);
            return TRUE;
        }
        w->cend[i] = e; /* last: it can only rise */
        ce_up(w, i);
    } else { /* it rises if it comes before what it was, else it sinks: the heap as a rise then a sink
              * leave it (the one that does not move compares and keeps it) */
        const uint32_t i = w->chpos[c];
        const int up = ce_before(&e, &w->cend[i]);
        w->cend[i] = e;
        if (up)
            ce_up(w, i);
        else
            ce_down(w, i);
    }
    if (w->ncend >= w->ce_flat_on) { /* flat from here: the heap's least is its first */
        w->ce_flat = 1;
        w->ce_min = 0;
        for (uint32_t k = 0; k < w->ncend; k++)
            w->cend_t[k] = w->cend[k].t;
    }
    return TRUE;
}

/* The same, inline where the class's end moves among the flat ones (linear alltoall: 22.6 million times a
 * cell). */
static inline gboolean ce_schedule(pact_model_eval *w, uint32_t c, double t, uint32_t rcv)
{
    if (!w->ce_flat || w->cl[c].where != 2)
        return ce_schedule_heap(w, c, t, rcv);
    const ce_ent e = {t, ((uint64_t)ev_class[EV_CLASS_END] << 56) | rcv, c};
    ce_flat_set(w, w->chpos[c], &e);
    return TRUE;
}

#ifdef HAVE_AVX2
/* The least of a's four lanes. */
__attribute__((target("avx2"))) static inline double hmin4(__m256d a)
{
    __m128d h = _mm_min_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
    return _mm_cvtsd_f64(_mm_min_sd(h, _mm_unpackhi_pd(h, h)));
}

/* The least flat class end with AVX2: the least t of cend_t, four at a time, then of the entries at that t
 * the least key (pact_ev_class_scan's scalar scan: a branch per entry of 24 bytes, a twelfth of linear
 * alltoall's instructions at 1024 ranks). */
__attribute__((target("avx2"))) static uint32_t ce_least_avx2(const pact_model_eval *w)
{
    const double *t = w->cend_t;
    const uint32_t n = w->ncend;
    __m256d a = _mm256_set1_pd(INFINITY), b = a;
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        a = _mm256_min_pd(_mm256_loadu_pd(t + i), a);
        b = _mm256_min_pd(_mm256_loadu_pd(t + i + 4), b);
    }
    double m = hmin4(_mm256_min_pd(a, b));
    for (; i < n; i++)
        m = t[i] < m ? t[i] : m;
    const __m256d mm = _mm256_set1_pd(m);
    uint32_t best = NONE;
    for (i = 0; i + 4 <= n; i += 4)
        for (uint32_t q = (uint32_t)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(t + i), mm, _CMP_EQ_OQ));
             q; q &= q - 1) {
            const uint32_t j = i + (uint32_t)__builtin_ctz(q);
            if (best == NONE || w->cend[j].k < w->cend[best].k)
                best = j;
        }
    for (; i < n; i++)
        if (t[i] == m && (best == NONE || w->cend[i].k < w->cend[best].k))
            best = i;
    return best;
}
#endif

/* The least entry, by a scan whose branch is rarely taken (a running least moves about ln n times in n
 * entries in no order). */
void pact_ev_class_scan(pact_model_eval *w)
{
    const ce_ent *e = w->cend;
    uint32_t b = 0, n = w->ncend;
#ifdef HAVE_AVX2
    if (w->avx2) {
        b = ce_least_avx2(w);
    } else
#endif
    {
        double m = e[0].t;
        for (uint32_t i = 1; i < n; i++)
            if (__builtin_expect(e[i].t <= m, 0) && (e[i].t < m || e[i].k < e[b].k)) {
                m = e[i].t;
                b = i;
            }
    }
    w->ce_min = b;
    w->ce_scanned += n;
    if (w->ce_adapt && w->ce_scanned > CE_SCAN_FLOOR &&
        w->ce_scanned > CE_SCAN_PER_LEVEL * w->ce_moves * (uint64_t)(64 - __builtin_clzll(n))) {
        w->ce_flat_on = UINT32_MAX; /* its scans cost more than sifting would: a heap from here on */
        ce_unflat(w);
        w->ce_min = 0; /* the heap's least, for pact_ev_class_next and pop */
    }
}

void pact_ev_class_pop(pact_model_eval *w)
{
    uint32_t i = 0;
    if (w->ce_flat) {
        if (w->ce_min == NONE)
            pact_ev_class_scan(w);
        i = w->ce_min;
        w->ce_min = NONE;
    }
    uint32_t c = w->cend[i].c;
    w->chpos[c] = NONE;
    w->cl[c].where = 0;
    if (--w->ncend > i) {
        ce_set(w, i, &w->cend[w->ncend]);
        if (w->ce_flat)
            w->cend_t[i] = w->cend_t[w->ncend];
    }
    if (!w->ce_flat) {
        if (w->ncend > 0)
            ce_down(w, 0);
    } else if (w->ncend < w->ce_flat_on / 4) { /* few again: a heap */
        ce_unflat(w);
    }
}

/* ---- classes ---- */

/* *p (n0 elements of `elem` bytes, aligned to 64) grown to n, aligned alike (realloc keeps 16). */
static gboolean grow_aligned(void **p, size_t n0, size_t n, size_t elem)
{
    void *q;
    if (posix_memalign(&q, 64, n * elem) != 0)
        return FALSE;
    if (*p)
        memcpy(q, *p, n0 * elem);
    free(*p);
    *p = q;
    return TRUE;
}

/* w->cmap's key of the class along links a and b (one switch), and its hash: the key's bits mixed (GLib's
 * g_direct_hash keeps the low 32 bits, the down link's alone). */
static inline gpointer cmap_key(uint32_t a, uint32_t b)
{
    return GSIZE_TO_POINTER(((gsize)a << 32) | b);
}

guint pact_ev_cmap_hash(gconstpointer key)
{
    return (guint)(((uint64_t)GPOINTER_TO_SIZE(key) * 0x9E3779B97F4A7C15ull) >> 32);
}

/* The class of flows along links l[0..n) with weight iw, created if none is in flight. */
static uint32_t class_get(sim_t *x, const uint32_t *l, uint32_t n, double iw, double now)
{
    pact_model_eval *w = x->w;
    if (w->dense) { /* one switch (n = 2, up link 2u, down link 2d + 1): the matrix says */
        uint32_t u = l[0] >> 1, d = l[1] >> 1;
        if (w->dum[u] >> d & 1)
            return w->dcid[u * DENSE_NODES + d];
    } else if (w->cmapped) { /* one switch of more nodes: a node link lists up to a class per other node, and
                              * walking it at each flow start was two thirds of linear alltoall at 1024 nodes
                              */
        gpointer v = g_hash_table_lookup(w->cmap, cmap_key(l[0], l[1]));
        if (v)
            return GPOINTER_TO_UINT(v) - 1;
    } else {
        uint32_t k0 = w->lk[l[n - 1]].nc < w->lk[l[0]].nc ? n - 1 : 0; /* walk the shorter list */
        for (uint32_t e = w->lk[l[k0]].head; e != NONE;) {
            fclass *c = &w->cl[ENTRY_CLASS(e)];
            if (c->nl == n && ENTRY_POS(e) == k0) {
                uint32_t i = 0;
                while (i < n && c->e[i].l == l[i])
                    i++;
                if (i == n)
                    return ENTRY_CLASS(e);
            }
            e = c->e[ENTRY_POS(e)].next;
        }
    }
    uint32_t c = w->cfree;
    w->cgen++;
    if (c != NONE) {
        w->cfree = w->cl[c].e[0].next;
    } else {
        if (w->ncl == w->cap_cl) {
            size_t m = w->cap_cl ? 2 * w->cap_cl : 256;
            if (ENTRY(m, 0) >= NONE || !grow_aligned((void **)&w->cl, w->cap_cl, m, sizeof(fclass)) ||
                !grow((void **)&w->comp_c, m, sizeof(uint32_t)) ||
                !grow((void **)&w->cend, m, sizeof(ce_ent)) ||
                !grow((void **)&w->cend_t, m, sizeof(double)) || !grow((void **)&w->cfix, m, 1) ||
                !grow((void **)&w->chpos, m, sizeof(uint32_t)) ||
                !grow((void **)&w->cunfixed, m, sizeof(uint32_t))) {
                x->oom = TRUE;
                return NONE;
            }
            w->cap_cl = m;
        }
        c = w->ncl++;
        w->cl[c].mark = 0;
        w->cl[c].ver = 0;
    }
    fclass *k = &w->cl[c];
    k->nl = n;
    k->iw = iw;
    k->n = 0;
    k->root = k->qh = k->qt = NONE;
    k->rate = 0;
    k->V = 0;
    k->last = now;
    w->cfix[c] = 0;
    k->moved = 0;
    w->chpos[c] = NONE;
    k->where = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t h = w->lk[l[i]].head;
        k->e[i] = (class_link){l[i], h, NONE};
        if (h != NONE)
            w->cl[ENTRY_CLASS(h)].e[ENTRY_POS(h)].prev = ENTRY(c, i);
        w->lk[l[i]].head = ENTRY(c, i);
        w->lk[l[i]].nc++;
    }
    if (w->dense) {
        uint32_t u = l[0] >> 1, d = l[1] >> 1;
        w->dum[u] |= (uint64_t)1 << d;
        w->ddm[d] |= (uint64_t)1 << u;
        w->dcid[u * DENSE_NODES + d] = c;
        w->dn[u * DENSE_NODES + d] = w->dnt[d * DENSE_NODES + u] = 0;
    } else if (w->cmapped) {
        g_hash_table_insert(w->cmap, cmap_key(l[0], l[1]), GUINT_TO_POINTER(c + 1));
    }
    return c;
}

static void class_del(pact_model_eval *w, uint32_t c)
{
    fclass *k = &w->cl[c];
    for (uint32_t i = 0; i < k->nl; i++) {
        uint32_t p = k->e[i].prev, q = k->e[i].next;
        if (p != NONE)
            w->cl[ENTRY_CLASS(p)].e[ENTRY_POS(p)].next = q;
        else
            w->lk[k->e[i].l].head = q;
        if (q != NONE)
            w->cl[ENTRY_CLASS(q)].e[ENTRY_POS(q)].prev = p;
        w->lk[k->e[i].l].nc--;
    }
    if (w->dense) {
        uint32_t u = k->e[0].l >> 1, d = k->e[1].l >> 1;
        w->dum[u] &= ~((uint64_t)1 << d);
        w->ddm[d] &= ~((uint64_t)1 << u);
    } else if (w->cmapped) {
        g_hash_table_remove(w->cmap, cmap_key(k->e[0].l, k->e[1].l));
    }
    k->ver++;
    w->cgen++;
    k->e[0].next = w->cfree;
    w->cfree = c;
}

/* The message of flow f leaves its latency phase and joins its class. */
void pact_ev_flow_start(sim_t *x, uint32_t f, double now)
{
    pact_model_eval *w = x->w;
    const pact_model_sched *s = x->s;
    uint32_t l[PACT_ROUTE_MAX] = {0}; /* all set where read (GCC cannot tell through the routes' call) */
    double lat, iw, bw;
    uint32_t n = (uint32_t)pact_ev_flow_links(x, w->fl[f].src, w->fl[f].dst, l, &lat, &iw, &bw);
    uint32_t c = class_get(x, l, n, iw, now);
    if (c == NONE)
        return;
    fclass *k = &w->cl[c];
    k->V += k->rate * (now - k->last);
    k->last = now;
    flow *fl = &w->fl[f];
    fl->cls = c;
    fl->target = k->V + (op_bytes(s, fl->src, fl->snd) + x->m->envelope);
    fl->hl = fl->hr = NONE;
    fl->npl = 1;
    fl->seq = w->fseq++;
    uint32_t first = class_first(w, k);
    if (k->qt == NONE || !(fl->target < w->fl[k->qt].target)) { /* behind every other: the queue's end */
        if (k->qt == NONE)
            k->qh = f;
        else
            w->fl[k->qt].hl = f;
        k->qt = f;
    } else {
        k->root = lh_merge(w->fl, k->root, f);
    }
    if (class_first(w, k) != first) {
        k->moved = 1;
        class_head(w, k);
    }
    k->n++;
    if (w->dense) {
        w->dn[(l[0] >> 1) * DENSE_NODES + (l[1] >> 1)]++;
        w->dnt[(l[1] >> 1) * DENSE_NODES + (l[0] >> 1)]++;
    }
    for (uint32_t i = 0; i < n; i++) {
        w->lk[l[i]].n++;
        mark_dirty(x, l[i], now);
    }
}

/* Class c has served its first flow's bytes: that flow, and any that needed exactly as much, are delivered.
 */
void pact_ev_class_end(sim_t *x, uint32_t c, double now)
{
    pact_model_eval *w = x->w;
    fclass *k = &w->cl[c];
    uint32_t f = class_first(w, k);
    double tg = w->fl[f].target;
    k->V = tg; /* what V(now) is, without its rounding */
    k->last = now;
    for (; f != NONE && w->fl[f].target == tg; f = class_first(w, k)) {
        if (f == k->qh) {
            k->qh = w->fl[f].hl;
            if (k->qh == NONE)
                k->qt = NONE;
        } else {
            k->root = lh_merge(w->fl, w->fl[f].hl, w->fl[f].hr);
        }
        k->n--;
        if (w->dense) {
            w->dn[(k->e[0].l >> 1) * DENSE_NODES + (k->e[1].l >> 1)]--;
            w->dnt[(k->e[1].l >> 1) * DENSE_NODES + (k->e[0].l >> 1)]--;
        }
        for (uint32_t i = 0; i < k->nl; i++)
            w->lk[k->e[i].l].n--;
        pact_ev_deliver(x, f, now);
        k = &w->cl[c];
    }
    k->moved = 1;
    for (uint32_t i = 0; i < k->nl; i++)
        mark_dirty(x, k->e[i].l, now);
    if (k->n == 0)
        class_del(w, c);
    else
        class_head(w, k);
}

/* The links of a component that still carry unfixed flows, in a min-heap on (capacity left per unit of
 * unfixed weight, link): the most constrained link in O(log links), where scanning them all made each sharing
 * O(links^2). */
static inline int lh_before(const pact_model_eval *w, uint32_t a, uint32_t b)
{
    double x = w->lk[a].key, y = w->lk[b].key;
    return x < y || (x == y && a < b);
}

static void lk_set(pact_model_eval *w, uint32_t i, uint32_t l)
{
    w->lheap[i] = l;
    w->lk[l].hpos = i;
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
    lk_down(w, w->lk[last].hpos, *n);
}

/* Removes the link at position i of an unordered list of them (lheap when fill scans, with their keys in
 * lkey: the scan reads one array, not a field of each link's record). */
static void lk_drop(pact_model_eval *w, uint32_t i, uint32_t *n)
{
    uint32_t last = w->lheap[--*n];
    if (i != *n) {
        lk_set(w, i, last);
        w->lkey[i] = w->lkey[*n];
    }
}

/* Class c's virtual service brought to `now`.  Every sharing brings those of the classes it visits, whatever
 * their rates do: the classes of one component keep their V in step, so that flows that need the same bytes
 * end at the same instant, to the bit (with V moved only where a class's rate changed, linear alltoall under
 * random arrivals had a third more instants, hence sharings). */
static inline void advance_v(fclass *c, double now)
{
    c->V += c->rate * (now - c->last);
    c->last = now;
}

/* Class ci (record c of workspace w: a caller that holds them spares the loads) takes rate r (its V at
 * `now`): if its rate changed, or its first flow did, its end is placed again. */
static inline void apply_class(sim_t *x, pact_model_eval *w, fclass *c, uint32_t ci, double r, double now)
{
    if (c->rate != r || c->moved) {
        c->rate = r;
        c->moved = 0;
        double dt = (c->ftarget - c->V) / r;
        if (!ce_schedule(w, ci, now + (dt > 0 ? dt : 0), c->frcv))
            x->oom = TRUE;
    }
}

/* The same, the class by its id. */
static inline void apply_one(sim_t *x, uint32_t ci, double r, double now)
{
    apply_class(x, x->w, &x->w->cl[ci], ci, r, now);
}

/* The position of the least key of key[0..n) (a finite key among them, none NaN), the first of equal ones
 * (positions in order of link: the least link of that key): the least value, by SSE2's minimum over two
 * pairs at a time (the x86-64 baseline; four independent chains), then the first position that holds it,
 * eight keys compared at a time.  Where the running least with its position took eight instructions a key
 * (linear alltoall at 1024 ranks: 2.9 million scans, a sixth of a cell). */
static inline uint32_t scan_least(const double *key, uint32_t n)
{
    uint32_t i = 0;
    double m = INFINITY;
#ifdef __SSE2__
    if (n >= 8) {
        __m128d a = _mm_set1_pd(INFINITY), b = a, c = a, d = a;
        for (; i + 8 <= n; i += 8) { /* min_pd(x, acc): acc where x is not less, as `x < acc ? x : acc` */
            a = _mm_min_pd(_mm_loadu_pd(key + i), a);
            b = _mm_min_pd(_mm_loadu_pd(key + i + 2), b);
            c = _mm_min_pd(_mm_loadu_pd(key + i + 4), c);
            d = _mm_min_pd(_mm_loadu_pd(key + i + 6), d);
        }
        a = _mm_min_pd(_mm_min_pd(a, b), _mm_min_pd(c, d));
        a = _mm_min_sd(a, _mm_unpackhi_pd(a, a));
        m = _mm_cvtsd_f64(a);
    }
#endif
    for (; i < n; i++) /* the keys past the last eight (all of them without SSE2) */
        m = key[i] < m ? key[i] : m;
    i = 0;
#ifdef __SSE2__
    const __m128d mm = _mm_set1_pd(m);
    for (; i + 8 <= n; i += 8) { /* eight keys a step: a bit per key equal to m, in order */
        const int eq = _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(key + i), mm)) |
                       _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(key + i + 2), mm)) << 2 |
                       _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(key + i + 4), mm)) << 4 |
                       _mm_movemask_pd(_mm_cmpeq_pd(_mm_loadu_pd(key + i + 6), mm)) << 6;
        if (eq)
            return i + (uint32_t)__builtin_ctz((unsigned)eq);
    }
#endif
    for (; i < n && key[i] != m; i++)
        ;
    return i < n ? i : 0;
}

/* Progressive filling over the links ls[0..nl), whose capacity left (cap), unfixed weight (w) and unfixed
 * flows (fix) are set: the most constrained link fixes every unfixed class through it (cfix 0) at its level
 * times the class's weight, as SimGrid's LMM solver does; links equally constrained go in order of their
 * index.  Each class fixed gets that link in bn (its bottleneck: saturated, and no flow on it gets more per
 * unit of weight) and its rate: at once (direct, apply_one), or in nrate.  With weight 1 (one switch) the
 * unfixed weight on a link is its count of unfixed flows, exactly, and a rate the level itself.  The most
 * constrained link comes from a scan up to x->fill_scan links, else from a heap.  Where ls is in order of
 * link (sorted: share_whole's), the scan keeps each link at its position, a link done taking the key +inf,
 * and the first least key is the least link's; otherwise a second pass finds the least link of the least
 * key. */
static void fill_run(sim_t *x, const uint32_t *ls, uint32_t nl, int direct, const uint32_t *csr, int sorted,
                     double now)
{
    pact_model_eval *w = x->w;
    const int scan = nl <= x->fill_scan, fixed_pos = scan && sorted, unit = !x->rt;
    uint32_t hn = 0;
    for (uint32_t k = 0; k < nl; k++) {
        uint32_t l = ls[k];
        if (w->lk[l].fix > 0) {
            w->lk[l].key = w->lk[l].cap / w->lk[l].w;
            if (fixed_pos) {
                w->lkey[k] = w->lk[l].key;
                w->lk[l].hpos = k;
                hn++;
            } else {
                w->lkey[hn] = w->lk[l].key;
                lk_set(w, hn++, l);
            }
        } else if (fixed_pos) {
            w->lkey[k] = INFINITY;
        }
    }
    if (!scan)
        for (uint32_t i = hn / 2; i-- > 0;)
            lk_down(w, i, hn);
    while (hn > 0) {
        uint32_t bl;
        if (fixed_pos) {
            uint32_t bi = scan_least(w->lkey, nl);
            bl = ls[bi];
            w->lkey[bi] = INFINITY;
            hn--;
        } else if (scan) {
            /* the least key, then the least link of that key: two passes without a branch taken at random */
            const double *key = w->lkey;
            double m = key[0];
            for (uint32_t i = 1; i < hn; i++)
                m = key[i] < m ? key[i] : m;
            uint32_t bi = 0, least = UINT32_MAX;
            for (uint32_t i = 0; i < hn; i++)
                if (key[i] == m && w->lheap[i] < least) {
                    least = w->lheap[i];
                    bi = i;
                }
            bl = w->lheap[bi];
            lk_drop(w, bi, &hn);
        } else {
            bl = w->lheap[0];
            lk_del(w, 0, &hn);
        }
        double best = w->lk[bl].key;
        /* its classes from csr, in order, where given: the records load side by side, where each entry of
         * the list names the next (linear alltoall: 31 classes a link, 992 a sharing); and of those the ones
         * not fixed yet, listed first without a branch (half of them are, in no order a predictor follows:
         * a fifth of linear alltoall's mispredictions) */
        const uint32_t *cs = NULL;
        uint32_t ncs = 0;
        if (csr) {
            const uint32_t *all = csr + w->lk[bl].csr;
            for (uint32_t j = 0, n = w->lk[bl].nc; j < n; j++) {
                w->cunfixed[ncs] = all[j];
                ncs += !w->cfix[all[j]];
            }
            cs = w->cunfixed;
        }
        for (uint32_t e = w->lk[bl].head, j = 0; cs ? j < ncs : e != NONE; j++) {
            uint32_t ci;
            if (cs) {
                ci = cs[j];
                if (j + 4 < ncs)
                    __builtin_prefetch(&w->cl[cs[j + 4]]);
            } else {
                ci = ENTRY_CLASS(e);
                e = w->cl[ci].e[ENTRY_POS(e)].next;
            }
            if (w->cfix[ci])
                continue;
            w->cfix[ci] = 1;
            fclass *c = &w->cl[ci];
            double r = unit ? best : best * c->iw; /* weight 1: best, to the bit */
            c->bn = bl;
            if (direct) /* while the class is in cache: linear alltoall fixes 900 of them a sharing */
                apply_one(x, ci, r, now);
            else
                c->nrate = r;
            for (uint32_t i = 0; i < c->nl; i++) {
                uint32_t o = c->e[i].l;
                if (o == bl)
                    continue;
                w->lk[o].cap -= r * c->n;
                w->lk[o].w -= unit ? (double)c->n : c->iw * c->n;
                w->lk[o].fix -= c->n;
                if (w->lk[o].fix == 0) {
                    if (fixed_pos) {
                        w->lkey[w->lk[o].hpos] = INFINITY;
                        hn--;
                    } else if (scan) {
                        lk_drop(w, w->lk[o].hpos, &hn);
                    } else {
                        lk_del(w, w->lk[o].hpos, &hn);
                    }
                } else { /* less capacity left per unit of weight, or more */
                    w->lk[o].key = w->lk[o].cap / w->lk[o].w;
                    if (scan)
                        w->lkey[w->lk[o].hpos] = w->lk[o].key;
                    else {
                        lk_up(w, w->lk[o].hpos);
                        lk_down(w, w->lk[o].hpos, hn);
                    }
                }
            }
        }
    }
}

/* Max-min fair rates of the classes comp_c[0..nc) on links comp_l[0..nl) (a connected component), taken at
 * once, or (check) left in nrate with V and the rates as they were. */
static void fill(sim_t *x, uint32_t nl, uint32_t nc, int check, const uint32_t *csr, double now)
{
    pact_model_eval *w = x->w;
    /* one switch: every weight is 1, and every class on a link of the component is in it, so a link's
     * unfixed weight is its count of flows, exactly (a sum of integers), without a pass over the classes */
    const int unit = !x->rt;
    if (nl <= x->fill_scan) /* in order of link, for fill_run's scan: a kept component, sorted already, in
                             * one pass */
        for (uint32_t i = 1; i < nl; i++) {
            uint32_t v = w->comp_l[i], j = i;
            for (; j > 0 && w->comp_l[j - 1] > v; j--)
                w->comp_l[j] = w->comp_l[j - 1];
            w->comp_l[j] = v;
        }
    for (uint32_t k = 0; k < nl; k++) {
        uint32_t l = w->comp_l[k];
        w->lk[l].cap = w->lk[l].cap0;
        w->lk[l].fix = w->lk[l].n;
        w->lk[l].w = unit ? (double)w->lk[l].n : 0;
    }
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t ci = w->comp_c[k];
        if (!check)
            advance_v(&w->cl[ci], now);
        w->cfix[ci] = 0;
    }
    if (!unit)
        for (uint32_t k = 0; k < nc; k++) {
            const fclass *c = &w->cl[w->comp_c[k]];
            for (uint32_t i = 0; i < c->nl; i++)
                w->lk[c->e[i].l].w += c->iw * c->n;
        }
    fill_run(x, w->comp_l, nl, !check, csr, 1, now);
}

/* fill_run over share_local's links comp_l[0..nl), component by component where they are more than one scan
 * takes: the components that the classes being filled (mark st) connect are independent, and each is filled
 * as among all of them (its links fix its classes in the same order of key and index, and nothing else
 * touches them), where one heap of every link (two million at 2^20 ranks in lockstep) paid log(links) at
 * each step.  comp_l is regrouped by component (the order in which the links come does not matter: ties go
 * by index). */
static void fill_parts(sim_t *x, uint32_t nl, uint32_t st, double now)
{
    pact_model_eval *w = x->w;
    if (nl <= x->fill_scan) {
        fill_run(x, w->comp_l, nl, 0, NULL, 0, now);
        return;
    }
    uint32_t *seed = w->lheap, np = 0, out = 0; /* lheap is fill_run's, free until it runs */
    memcpy(seed, w->comp_l, nl * sizeof(uint32_t));
    for (uint32_t k = 0; k < nl; k++)
        w->lk[seed[k]].hpos = NONE; /* unvisited (hpos is fill_run's too) */
    for (uint32_t i = 0; i < nl; i++) {
        if (w->lk[seed[i]].hpos != NONE)
            continue;
        w->pstart[np++] = out;
        w->lk[seed[i]].hpos = 0;
        w->comp_l[out++] = seed[i];
        for (uint32_t q = out - 1; q < out; q++) /* breadth first; comp_l grows as it goes */
            for (uint32_t e = w->lk[w->comp_l[q]].head; e != NONE;) {
                const fclass *c = &w->cl[ENTRY_CLASS(e)];
                e = c->e[ENTRY_POS(e)].next;
                if (c->mark != st)
                    continue;
                for (uint32_t k = 0; k < c->nl; k++) {
                    uint32_t o = c->e[k].l;
                    if (w->lk[o].hpos == NONE) {
                        w->lk[o].hpos = 0;
                        w->comp_l[out++] = o;
                    }
                }
            }
    }
    for (uint32_t j = 0; j < np; j++) {
        uint32_t a = w->pstart[j], b = j + 1 < np ? w->pstart[j + 1] : out;
        fill_run(x, w->comp_l + a, b - a, 0, NULL, 0, now);
    }
}

/* A new mark for links and classes (0 after a wrap clears the old ones). */
static uint32_t next_stamp(pact_model_eval *w)
{
    uint32_t st = ++w->stamp;
    if (st == 0) { /* wrapped: clear the marks, and the component kept (it names an old mark) */
        w->cc_stamp = 0;
        for (uint32_t l = 0; l < w->nlinks; l++)
            w->lk[l].mark = 0;
        for (uint32_t c = 0; c < w->ncl; c++)
            w->cl[c].mark = 0;
        st = w->stamp = 1;
    }
    return st;
}

/* Relative slack of the checks of a local sharing: sums of a few dozen rounded rates. */
#define LOCAL_TOL 1e-12

/* Link l's sums for is_bottleneck: the rate its flows take (used) and the most a flow gets per unit of weight
 * (top).  Rates: nrate for the classes of stamp st, rate for the others.  On one switch every weight is 1,
 * and a rate over it the rate, to the bit. */
static void link_sums(const sim_t *x, uint32_t l, uint32_t st, double *used, double *top)
{
    const pact_model_eval *w = x->w;
    const int unit = !x->rt;
    double u = 0, t = 0;
    for (uint32_t e = w->lk[l].head; e != NONE;) {
        const fclass *c = &w->cl[ENTRY_CLASS(e)];
        e = c->e[ENTRY_POS(e)].next;
        const double r = c->mark == st ? c->nrate : c->rate, pw = unit ? r : r / c->iw;
        u += r * c->n;
        t = pw > t ? pw : t;
    }
    *used = u;
    *top = t;
}

/* Whether a link of capacity cap0 whose flows take used and the most a flow of which gets per unit of weight
 * is top is a bottleneck of a class that gets own per unit of weight: saturated (flows' rates sum to its
 * capacity) and no flow on it gets more than that class. */
static inline int bottleneck_sums(double cap0, double used, double top, double own)
{
    return used >= cap0 * (1 - LOCAL_TOL) && own >= top * (1 - LOCAL_TOL);
}

/* Whether link l is a bottleneck of class k, its sums given. */
static inline int bottleneck_of(const pact_model_eval *w, uint32_t l, const fclass *k, uint32_t st,
                                double used, double top)
{
    return bottleneck_sums(w->lk[l].cap0, used, top, (k->mark == st ? k->nrate : k->rate) / k->iw);
}

/* The same, l's sums from its walk, or for a link of R from bu and bt at its position, taken once a round
 * (share_sums, share_unit), where bu is not NULL. */
static inline int is_bottleneck(const sim_t *x, uint32_t l, const fclass *k, uint32_t st, const double *bu,
                                const double *bt)
{
    const pact_model_eval *w = x->w;
    double used, top;
    if (bu && w->lk[l].mark == st) {
        const uint32_t i = w->lk[l].hpos;
        return bottleneck_of(w, l, k, st, bu[i], bt[i]);
    }
    link_sums(x, l, st, &used, &top);
    return bottleneck_of(w, l, k, st, used, top);
}

/* Each link of R (comp_l[0 .. nl)) walked once after its filling: its sums for the checks (bused, btop at its
 * position, in hpos), as link_sums adds them, and the classes on it outside A not yet met, in order of link
 * and list, into cunfixed (fixed = 2; their count returned).  Where each check walked its link's list again:
 * pairwise alltoall at 1024 ranks checks 3.6 classes of A a sharing against links that then a walk of each
 * link for the classes outside A visits again; linear alltoall on a switch of 512 nodes, hundreds of classes
 * on each of hundreds of links.  Its walk is link_sums's with the listing beside it: link_sums taking an
 * optional list instead (one loop for both) cost MPICH's pairwise reduce-scatter 1.3% more instructions
 * (6.95 G against 6.86 G at 1 MiB, random arrivals, 1024 ranks), inlined at each call, which is most of what
 * this one walk saves. */
static uint32_t share_sums(sim_t *x, uint32_t nl, uint32_t st)
{
    pact_model_eval *w = x->w;
    const int unit = !x->rt;
    uint32_t no = 0;
    for (uint32_t k = 0; k < nl; k++) {
        slink *L = &w->lk[w->comp_l[k]];
        L->hpos = k; /* fill_run's, done */
        double u = 0, t = 0;
        for (uint32_t e = L->head; e != NONE;) {
            const uint32_t ci = ENTRY_CLASS(e);
            const fclass *c = &w->cl[ci];
            e = c->e[ENTRY_POS(e)].next;
            double r;
            if (c->mark == st) {
                r = c->nrate;
            } else {
                r = c->rate;
                if (w->cfix[ci] < 2) {
                    w->cfix[ci] = 2;
                    w->cunfixed[no++] = ci;
                }
            }
            const double pw = unit ? r : r / c->iw;
            u += r * c->n;
            t = pw > t ? pw : t;
        }
        w->bused[k] = u;
        w->btop[k] = t;
    }
    return no;
}

/* Class ci, outside A on R, checked (R's sums in bu and bt, as is_bottleneck reads them): it keeps the link
 * that fixed it where that is outside R or still a bottleneck of it, else takes the first of its links that
 * is, else joins A (comp_c[nc + *np], fixed 3). */
static inline void recheck(sim_t *x, uint32_t ci, uint32_t st, const double *bu, const double *bt,
                           uint32_t nc, uint32_t *np)
{
    pact_model_eval *w = x->w;
    fclass *c = &w->cl[ci];
    if (w->lk[c->bn].mark != st || is_bottleneck(x, c->bn, c, st, bu, bt))
        return;
    uint32_t i = 0;
    while (i < c->nl && !is_bottleneck(x, c->e[i].l, c, st, bu, bt))
        i++;
    if (i < c->nl) {
        c->bn = c->e[i].l;
    } else {
        w->cfix[ci] = 3;
        w->comp_c[nc + (*np)++] = ci;
    }
}

/* The sharing of this instant where it stays local: the classes through the links touched (A) are shared
 * again over their links (R), the other classes on R keeping their rates, which the capacities lose.  The
 * result is the max-min fair sharing (unique) when every flow has a bottleneck: each class of A has the link
 * that fixed it, provided no other class there gets more; each other class keeps the link that had fixed
 * it, if that link is outside R (nothing on it changed) or still is one, or finds another.  A class that
 * breaks this joins A, and A is shared again, while R stays within LOCAL_LINKS links; past that (0), no
 * rate has changed and the components are shared whole.  Only A's rates change, found over R's links instead
 * of the whole component's (pairwise alltoall at 1024 ranks: a few links of 30); the classes on R have their
 * V brought to `now`.  Rates differ from the whole sharing's in their rounding only: the capacities lose the
 * same rates in another order. */
#define LOCAL_LINKS 16
/* Class ci joins the classes of stamp st (comp_c[0..*nc)), and its links the links (comp_l[0..*nl)); 0 when
 * that would pass max links. */
static int comp_add(pact_model_eval *w, uint32_t ci, uint32_t st, uint32_t *nl, uint32_t *nc, uint32_t max)
{
    fclass *c = &w->cl[ci];
    c->mark = st;
    w->comp_c[(*nc)++] = ci;
    for (uint32_t k = 0; k < c->nl; k++) {
        uint32_t o = c->e[k].l;
        if (w->lk[o].mark != st) {
            if (*nl == max)
                return 0;
            w->lk[o].mark = st;
            w->comp_l[(*nl)++] = o;
        }
    }
    return 1;
}

/* The sharing of this instant where every class through a touched link is alone on each of its links (at 2^20
 * ranks in lockstep, a flow per node link): each class's rate is its least link's capacity over its weight,
 * that link (the least index among equal keys) its bottleneck, with share_local's arithmetic (the same keys,
 * cap0 / (iw n), the same least), without its passes over the component; 0 where some class is not alone. */
static int share_isolated(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    for (uint32_t i = 0; i < w->ndirty; i++) {
        const slink *L = &w->lk[w->dirty[i]];
        if (L->nc > 1)
            return 0;
        if (L->nc == 1) {
            const fclass *c = &w->cl[ENTRY_CLASS(L->head)];
            for (uint32_t k = 0; k < c->nl; k++)
                if (w->lk[c->e[k].l].nc != 1)
                    return 0;
        }
    }
    const uint32_t st = next_stamp(w);
    const int unit = !x->rt;
    for (uint32_t i = 0; i < w->ndirty; i++) {
        const slink *L = &w->lk[w->dirty[i]];
        if (L->nc == 0)
            continue;
        const uint32_t ci = ENTRY_CLASS(L->head);
        fclass *c = &w->cl[ci];
        if (c->mark == st) /* its other link came first */
            continue;
        c->mark = st;
        advance_v(c, now);
        const double wt = c->iw * c->n;
        double best = INFINITY;
        uint32_t bl = NONE;
        for (uint32_t k = 0; k < c->nl; k++) {
            const uint32_t l = c->e[k].l;
            const double key = w->lk[l].cap0 / wt;
            if (key < best || (key == best && l < bl)) {
                best = key;
                bl = l;
            }
        }
        c->bn = bl;
        apply_one(x, ci, unit ? best : best * c->iw, now);
    }
    return 1;
}

/* A grows by the np classes that a local sharing's checks listed after it (comp_c[nc ..)), R by their links;
 * 0 where R would pass LOCAL_LINKS links. */
static int comp_grow(pact_model_eval *w, uint32_t st, uint32_t *nl, uint32_t *nc, uint32_t np)
{
    for (uint32_t k = 0, n0 = *nc; k < np; k++)
        if (!comp_add(w, w->comp_c[n0 + k], st, nl, nc, LOCAL_LINKS))
            return 0;
    return 1;
}

/* A's classes (comp_c[0 .. nc)) take the rates that a local sharing found (nrate). */
static void apply_nrates(sim_t *x, uint32_t nc, double now)
{
    const pact_model_eval *w = x->w;
    for (uint32_t k = 0; k < nc; k++)
        apply_one(x, w->comp_c[k], w->cl[w->comp_c[k]].nrate, now);
}

/* share_unit's entries, room for n of them (NULL: out of memory, said in x->oom). */
static inline lent *lent_room(sim_t *x, size_t n)
{
    pact_model_eval *w = x->w;
    if (n > w->cap_lent && !reserve_n((void **)&w->lent, &w->cap_lent, n, sizeof(lent))) {
        x->oom = TRUE;
        return NULL;
    }
    return w->lent;
}

/* share_unit's classes of A at most, in its own arrays; past that share_local shares (the same bits). */
#define UNIT_A 64

/* Class ci joins A in share_unit: index *nc in comp_c and in A's arrays (its flows, its links' positions in
 * R), that index in cfix (A's classes keep no fixed state there: share_unit keeps it in its own array), its
 * links not in R yet R's, at positions from *nl (hpos, lid).  1; 0 where R would pass LOCAL_LINKS links (as
 * comp_add); -1 where A would pass amax classes (UNIT_A) or the class has more than two links (one switch: up
 * and down, all share_unit's arrays hold). */
static inline int unit_add(pact_model_eval *w, uint32_t ci, uint32_t st, uint32_t *lid, uint32_t *nl,
                           uint32_t *nc, uint32_t amax, uint32_t (*ap)[2], uint32_t *an)
{
    fclass *c = &w->cl[ci];
    if (*nc == amax || c->nl > 2)
        return -1;
    const uint32_t i = (*nc)++;
    c->mark = st;
    w->comp_c[i] = ci;
    w->cfix[ci] = (uint8_t)i;
    an[i] = c->n;
    ap[i][1] = NONE;
    for (uint32_t k = 0; k < c->nl; k++) {
        slink *L = &w->lk[c->e[k].l];
        if (L->mark != st) {
            if (*nl == LOCAL_LINKS)
                return 0;
            L->mark = st;
            L->hpos = *nl;
            lid[(*nl)++] = c->e[k].l;
        }
        ap[i][k] = L->hpos;
    }
    return 1;
}

/* R's link at position k in share_unit: what A has of it (cap, its flows fix), and its key where A has flows
 * on it (a bit in alive); 0 where rounding left A nothing of it: let the whole sharing say. */
static inline int unit_key(double *lcap, uint32_t *lfix, double *lkey, uint32_t *alive, uint32_t k,
                           double cap, uint32_t fix)
{
    lcap[k] = cap;
    lfix[k] = fix;
    if (fix == 0)
        return 1;
    if (!(cap > 0))
        return 0;
    *alive |= 1u << k;
    lkey[k] = cap / (double)fix;
    return 1;
}

/* share_local on one switch (every weight 1), the same bits: R's lists are walked once into lent (a class on
 * a link as the walk met it), which the filling, the sums and the checks read, where the filling walked its
 * bottlenecks' lists and share_sums every list of R again, each entry a class record's load behind the last.
 * The walk that finds A (the classes on the links touched, all of them in A) takes those links' entries; a
 * round after the first walks only the links that A's new classes bring, and finds the others' capacities and
 * flows again from their entries (the classes outside A keep their rates until the sharing ends).  The
 * filling's links are at most LOCAL_LINKS, in a mask: the least key, the least link among equal ones, as
 * fill_run's scan takes it; a link's unfixed weight the count of its unfixed flows (share_local's sum of the
 * weights 1, exact).  A, R and the classes checked are share_local's, and a round fails or grows A where it
 * does.  What a round reads and writes of A and R is in arrays of its own, by A's index and R's position
 * (a class's flows, its links' positions, whether fixed, its new rate and the position that fixed it; a
 * link's id, capacity, what A has left of it, its unfixed flows, key and sums), and A's records take their
 * new rates and bottlenecks once, at the end; and each link's sums for the checks are taken as the filling
 * fixes it (below).  Where the filling, the sums and the checks read the class and link records (a hop from a
 * class to its other link's position through that link's record, a new rate from the class's second line) and
 * the sums walked every entry again, pairwise alltoall at 1024 ranks (4 KiB, ascending) took 6.15 billion
 * instructions a cell, 5.40 now (callgrind, session 48).  -1: more links touched than LOCAL_LINKS, a class of
 * more than two links, or more than UNIT_A classes in A (2 with PACT_MODEL_SHARE_MEMO=3), for share_local
 * (what was done is share_local's first steps again: V brought to `now`, marks of an older stamp). */
static int share_unit(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    const uint32_t nd = w->ndirty;
    if (nd > LOCAL_LINKS)
        return -1;
    for (uint32_t i = 0; i < nd; i++)
        if (w->lk[w->dirty[i]].nc >= LOCAL_LINKS)
            return 0;
    /* R by position: link, capacity, entries, A's capacity left and unfixed flows, key, sums */
    uint32_t lid[LOCAL_LINKS], at[LOCAL_LINKS + 1], lfix[LOCAL_LINKS];
    double c0[LOCAL_LINKS], lcap[LOCAL_LINKS], lkey[LOCAL_LINKS], bu[LOCAL_LINKS], bt[LOCAL_LINKS];
    /* A by index (comp_c's order): flows, its links' positions, new rate, the position that fixed it */
    uint32_t an[UNIT_A], ap[UNIT_A][2], abn[UNIT_A];
    double anr[UNIT_A];
    const uint32_t st = next_stamp(w), amax = x->share_memo == 3 ? 2 : UNIT_A;
    uint32_t nl = 0, nc = 0, ne = 0, alive = 0;
    for (uint32_t i = 0; i < nd; i++) { /* the dirty list holds each link once */
        slink *L = &w->lk[w->dirty[i]];
        L->mark = st;
        L->hpos = nl;
        lid[nl++] = w->dirty[i];
    }
    /* A, and the touched links' entries: every class on them is A's */
    for (uint32_t k = 0; k < nd; k++) {
        const slink *L = &w->lk[lid[k]];
        at[k] = ne;
        lent *E = lent_room(x, ne + L->nc);
        if (!E)
            return 1;
        uint32_t fix = 0;
        for (uint32_t e = L->head; e != NONE;) {
            const uint32_t ci = ENTRY_CLASS(e);
            fclass *c = &w->cl[ci];
            e = c->e[ENTRY_POS(e)].next;
            if (c->mark != st) {
                const int r = unit_add(w, ci, st, lid, &nl, &nc, amax, ap, an);
                if (r <= 0)
                    return r;
            }
            advance_v(c, now);
            fix += c->n;
            E[ne++] = (lent){ci, c->n, w->cfix[ci] + 1u, 0};
        }
        c0[k] = L->cap0;
        if (!unit_key(lcap, lfix, lkey, &alive, k, L->cap0, fix))
            return 0;
    }
    uint32_t walked = nd;
    for (int round = 0;; round++) { /* alive: none left by the filling before */
        /* R's capacities less the other classes' rates, and A's flows on each: the links walked in a round
         * before from their entries, where classes have joined A since */
        for (uint32_t k = 0; round > 0 && k < walked; k++) {
            lent *E = w->lent;
            double cap = c0[k];
            uint32_t fix = 0;
            for (uint32_t j = at[k]; j < at[k + 1]; j++) {
                const uint32_t ci = E[j].ci;
                if (E[j].a) {
                    fix += E[j].n;
                } else if (w->cl[ci].mark == st) {
                    E[j].a = w->cfix[ci] + 1u;
                    fix += E[j].n;
                } else {
                    w->cfix[ci] = 1;
                    cap -= E[j].r * E[j].n;
                }
            }
            if (!unit_key(lcap, lfix, lkey, &alive, k, cap, fix))
                return 0;
        }
        /* the links not walked yet */
        for (uint32_t k = walked; k < nl; k++) {
            const slink *L = &w->lk[lid[k]];
            at[k] = ne;
            lent *E = lent_room(x, ne + L->nc);
            if (!E)
                return 1;
            double cap = c0[k] = L->cap0;
            uint32_t fix = 0;
            for (uint32_t e = L->head; e != NONE;) {
                const uint32_t ci = ENTRY_CLASS(e);
                fclass *c = &w->cl[ci];
                e = c->e[ENTRY_POS(e)].next;
                advance_v(c, now);
                if (c->mark == st) {
                    fix += c->n;
                    E[ne++] = (lent){ci, c->n, w->cfix[ci] + 1u, 0};
                } else {
                    w->cfix[ci] = 1;
                    cap -= c->rate * c->n;
                    E[ne++] = (lent){ci, c->n, 0, c->rate};
                }
            }
            if (!unit_key(lcap, lfix, lkey, &alive, k, cap, fix))
                return 0;
        }
        walked = nl;
        at[nl] = ne;
        uint64_t fixed = 0; /* A's, by index */
        lent *E = w->lent;
        /* the filling: the most constrained link fixes A's unfixed classes on it, in its list's order (on one
         * switch each fixes another link, so that order moves no bit).  Every rate on that link is then
         * final (its other classes' fixed before or outside A), so its sums for the checks (share_sums's, in
         * its list's order) are taken in the same walk, and the classes outside A on it listed for theirs */
        uint32_t no = 0, summed = 0;
        while (alive) {
            uint32_t bk = (uint32_t)__builtin_ctz(alive), bl = lid[bk];
            double best = lkey[bk];
            for (uint32_t m = alive & (alive - 1); m; m &= m - 1) { /* a link's id read on a tie alone */
                const uint32_t k = (uint32_t)__builtin_ctz(m);
                const double kk = lkey[k];
                if (kk <= best && (kk < best || lid[k] < bl)) {
                    best = kk;
                    bk = k;
                    bl = lid[k];
                }
            }
            alive &= ~(1u << bk);
            summed |= 1u << bk;
            double u = 0, t = 0;
            for (uint32_t j = at[bk]; j < at[bk + 1]; j++) {
                const uint32_t a = E[j].a;
                double r;
                if (!a) {
                    r = E[j].r;
                    if (w->cfix[E[j].ci] < 2) {
                        w->cfix[E[j].ci] = 2;
                        w->cunfixed[no++] = E[j].ci;
                    }
                } else if (fixed >> (a - 1) & 1) {
                    r = anr[a - 1];
                } else {
                    const uint32_t i = a - 1, ko = ap[i][0] == bk ? ap[i][1] : ap[i][0];
                    fixed |= (uint64_t)1 << i;
                    abn[i] = bk;
                    anr[i] = r = best;
                    if (ko != NONE) {
                        lcap[ko] -= best * an[i];
                        lfix[ko] -= an[i];
                        if (lfix[ko] == 0)
                            alive &= ~(1u << ko);
                        else
                            lkey[ko] = lcap[ko] / (double)lfix[ko];
                    }
                }
                u += r * E[j].n;
                t = r > t ? r : t;
            }
            bu[bk] = u;
            bt[bk] = t;
        }
        /* the links whose A's classes other links fixed: their sums and classes outside A (the classes
         * listed in another order than share_local's, which moves no rate: only which of them joins A, not
         * when, and A's order, which no sum follows) */
        for (uint32_t m = ((1u << nl) - 1) & ~summed; m; m &= m - 1) { /* nl <= LOCAL_LINKS */
            const uint32_t k = (uint32_t)__builtin_ctz(m);
            double u = 0, t = 0;
            for (uint32_t j = at[k]; j < at[k + 1]; j++) {
                double r;
                if (E[j].a) {
                    r = anr[E[j].a - 1];
                } else {
                    r = E[j].r;
                    if (w->cfix[E[j].ci] < 2) {
                        w->cfix[E[j].ci] = 2;
                        w->cunfixed[no++] = E[j].ci;
                    }
                }
                u += r * E[j].n;
                t = r > t ? r : t;
            }
            bu[k] = u;
            bt[k] = t;
        }
        uint32_t np = 0;
        for (uint32_t i = 0; i < nc; i++) {
            const uint32_t kb = abn[i];
            const double own = anr[i];
            if (bottleneck_sums(c0[kb], bu[kb], bt[kb], own))
                continue;
            int more = 0;
            for (uint32_t j = at[kb]; j < at[kb + 1]; j++) /* those that get more there */
                if (!E[j].a && E[j].r > own) {
                    more = 1;
                    if (w->cfix[E[j].ci] != 3) {
                        w->cfix[E[j].ci] = 3;
                        w->comp_c[nc + np++] = E[j].ci;
                    }
                }
            if (!more) /* its link not saturated, by rounding: let the whole sharing say */
                return 0;
        }
        for (uint32_t j = 0; j < no; j++)
            if (w->cfix[w->cunfixed[j]] != 3) /* else to join A */
                recheck(x, w->cunfixed[j], st, bu, bt, nc, &np);
        if (np == 0)
            break;
        for (uint32_t k = 0; k < np; k++) { /* A grows by them (comp_c[nc ..)), R by their links */
            const int r = unit_add(w, w->comp_c[nc], st, lid, &nl, &nc, amax, ap, an);
            if (r <= 0)
                return r;
        }
    }
    for (uint32_t i = 0; i < nc; i++) {
        const uint32_t ci = w->comp_c[i];
        fclass *c = &w->cl[ci];
        c->bn = lid[abn[i]];
        c->nrate = anr[i];
        apply_class(x, w, c, ci, anr[i], now);
    }
    return 1;
}

static int share_local(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    /* share_unit fills without fill_run: where the tests make fill_run's heap take small components
     * (PACT_MODEL_FILL_SCAN below LOCAL_LINKS), the heap is what they mean to run */
    if (x->share_memo >= 2 && !x->rt && x->fill_scan >= LOCAL_LINKS) {
        const int u = share_unit(x, now);
        if (u >= 0)
            return u;
    }
    /* a touched link of LOCAL_LINKS classes: R would pass LOCAL_LINKS links on one switch, and likely on
     * routes (linear alltoall: 31 a node link) */
    for (uint32_t i = 0; i < w->ndirty; i++)
        if (w->lk[w->dirty[i]].nc >= LOCAL_LINKS)
            return 0;
    uint32_t st = next_stamp(w), nl = 0, nc = 0;
    for (uint32_t i = 0; i < w->ndirty; i++) {
        uint32_t d = w->dirty[i];
        if (w->lk[d].mark != st) {
            w->lk[d].mark = st;
            w->comp_l[nl++] = d;
        }
    }
    for (uint32_t i = 0, nd = nl; i < nd; i++)
        for (uint32_t e = w->lk[w->comp_l[i]].head; e != NONE;) {
            uint32_t ci = ENTRY_CLASS(e);
            e = w->cl[ci].e[ENTRY_POS(e)].next;
            if (w->cl[ci].mark != st && !comp_add(w, ci, st, &nl, &nc, LOCAL_LINKS))
                return 0;
        }
    for (;;) {
        /* R's capacities less the other classes' rates */
        for (uint32_t k = 0; k < nl; k++) {
            slink *L = &w->lk[w->comp_l[k]];
            L->cap = L->cap0;
            L->w = 0;
            L->fix = 0;
            for (uint32_t e = L->head; e != NONE;) {
                uint32_t ci = ENTRY_CLASS(e);
                fclass *c = &w->cl[ci];
                e = c->e[ENTRY_POS(e)].next;
                advance_v(c, now);
                if (c->mark == st) {
                    w->cfix[ci] = 0;
                    L->w += c->iw * c->n;
                    L->fix += c->n;
                } else {
                    w->cfix[ci] = 1;
                    L->cap -= c->rate * c->n;
                }
            }
            if (L->fix > 0 && !(L->cap > 0)) /* rounding left nothing for A: let the whole sharing say */
                return 0;
        }
        fill_parts(x, nl, st, now);
        /* every flow has a bottleneck; those that have none go to comp_c[nc ..) (fixed = 3) */
        const int sums = x->share_memo;
        const uint32_t no = sums ? share_sums(x, nl, st) : 0;
        uint32_t np = 0;
        for (uint32_t k = 0; k < nc; k++) {
            fclass *c = &w->cl[w->comp_c[k]];
            if (is_bottleneck(x, c->bn, c, st, sums ? w->bused : NULL, w->btop))
                continue;
            double own = c->nrate / c->iw;
            int more = 0;
            for (uint32_t e = w->lk[c->bn].head; e != NONE;) { /* those that get more there */
                uint32_t ci = ENTRY_CLASS(e);
                fclass *o = &w->cl[ci];
                e = o->e[ENTRY_POS(e)].next;
                if (o->mark != st && o->rate / o->iw > own) {
                    more = 1;
                    if (w->cfix[ci] != 3) {
                        w->cfix[ci] = 3;
                        w->comp_c[nc + np++] = ci;
                    }
                }
            }
            if (!more) /* its link not saturated, by rounding: let the whole sharing say */
                return 0;
        }
        /* the classes outside A on R: each keeps the link that fixed it, or finds another, or joins A */
        if (sums) {
            for (uint32_t j = 0; j < no; j++)
                if (w->cfix[w->cunfixed[j]] != 3) /* else to join A */
                    recheck(x, w->cunfixed[j], st, w->bused, w->btop, nc, &np);
        } else {
            for (uint32_t k = 0; k < nl; k++)
                for (uint32_t e = w->lk[w->comp_l[k]].head; e != NONE;) {
                    uint32_t ci = ENTRY_CLASS(e);
                    e = w->cl[ci].e[ENTRY_POS(e)].next;
                    if (w->cl[ci].mark == st || w->cfix[ci] >= 2) /* A's, checked, or to join A */
                        continue;
                    w->cfix[ci] = 2;
                    recheck(x, ci, st, NULL, NULL, nc, &np);
                }
        }
        if (np == 0)
            break;
        if (!comp_grow(w, st, &nl, &nc, np))
            return 0;
    }
    apply_nrates(x, nc, now);
    return 1;
}

/* Whether the component that the last whole sharing found is still the one of every link touched at this
 * instant: no class made or freed since, no other sharing since, and each touched link that carries flows
 * marked as its.  Linear alltoall on one switch shares its one component of 992 classes 53,000 times, and
 * walking it again took a third of the sharing.  One switch only: there every weight is 1, so the sums over
 * the classes are exact in any order, and the rates are those of a walk from another seed to the bit. */
static int comp_kept(const sim_t *x)
{
    const pact_model_eval *w = x->w;
    uint32_t st = w->cc_stamp;
    if (st == 0 || st != w->stamp || w->cc_gen != w->cgen)
        return 0;
    for (uint32_t i = 0; i < w->ndirty; i++)
        if (w->lk[w->dirty[i]].n > 0 && w->lk[w->dirty[i]].mark != st)
            return 0;
    return 1;
}

/* The components of the links touched at `now`, shared whole: their rates, or (check) the largest relative
 * difference from the rates they have, in x->share_diff. */
static void share_whole(sim_t *x, double now, int check)
{
    pact_model_eval *w = x->w;
    if (!check && x->comp_keep && comp_kept(x)) {
        fill(x, w->cc_nl, w->cc_nc, 0, w->ccsr, now);
        return;
    }
    uint32_t st = next_stamp(w), ncomp = 0;
    w->cc_stamp = 0;
    /* one switch: each class has 2 links, so a component has at most 2 ncl entries */
    const int keep = !check && x->comp_keep && !x->rt;
    if (keep && !reserve_n((void **)&w->ccsr, &w->cap_ccsr, 2 * (size_t)w->ncl, sizeof(uint32_t))) {
        x->oom = TRUE;
        return;
    }
    for (uint32_t i = 0; i < w->ndirty; i++) {
        uint32_t seed = w->dirty[i];
        if (w->lk[seed].n == 0 || w->lk[seed].mark == st)
            continue;
        uint32_t nl = 0, nc = 0;
        w->lk[seed].mark = st;
        w->comp_l[nl++] = seed;
        uint32_t ne = 0;
        for (uint32_t q = 0; q < nl; q++) { /* breadth first over links; comp_l grows as it goes */
            slink *L = &w->lk[w->comp_l[q]];
            L->csr = ne;
            for (uint32_t e = L->head; e != NONE;) {
                uint32_t ci = ENTRY_CLASS(e);
                e = w->cl[ci].e[ENTRY_POS(e)].next;
                if (keep)
                    w->ccsr[ne++] = ci;
                if (w->cl[ci].mark != st)
                    comp_add(w, ci, st, &nl, &nc, UINT32_MAX);
            }
        }
        fill(x, nl, nc, check, keep ? w->ccsr : NULL, now);
        ncomp++;
        w->cc_nl = nl;
        w->cc_nc = nc;
        if (!check)
            continue;
        for (uint32_t k = 0; k < nc; k++) {
            const fclass *c = &w->cl[w->comp_c[k]];
            double d = fabs(c->nrate - c->rate) / c->nrate;
            if (!(d <= x->share_diff)) {
                x->share_diff = d;
                x->share_diff_t = now;
            }
        }
    }
    if (ncomp == 1 && keep) {
        w->cc_stamp = st;
        w->cc_gen = w->cgen;
    }
}

#ifdef HAVE_AVX2
/* Lane masks of four doubles: lane k all ones where bit k of the index is set. */
static const int64_t dense_lanes[16][4] __attribute__((aligned(32))) = {
    {0, 0, 0, 0},   {-1, 0, 0, 0},   {0, -1, 0, 0},   {-1, -1, 0, 0},  {0, 0, -1, 0},  {-1, 0, -1, 0},
    {0, -1, -1, 0}, {-1, -1, -1, 0}, {0, 0, 0, -1},   {-1, 0, 0, -1},  {0, -1, 0, -1}, {-1, -1, 0, -1},
    {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}};

/* share_dense's filling with AVX2, to the same bits: the links by node (up links in one set of arrays, down
 * links in another), four nodes a step.  A turn's least key is the least of both sets, the first node that
 * holds it, its up link before its down link (the least link of that key, as scan_least finds it).  The
 * other links of a turn's classes give up their flows four at a time (counts as int32: a class's flows are
 * far fewer than 2^31), each lane what the scalar loop does to that link, in the same order; lanes outside
 * the turn's classes (their counts those of classes fixed already, or of none) kept as they were by a
 * blend.  The classes themselves as share_dense does them.  U | D is not 0. */
__attribute__((target("avx2"))) static void dense_fill_avx2(sim_t *x, double now, uint64_t U, uint64_t D)
{
    pact_model_eval *w = x->w;
    const uint32_t nq = (uint32_t)(63 - __builtin_clzll(U | D)) / 4 + 1; /* quads of nodes */
    double capu[DENSE_NODES], cntu[DENSE_NODES], keyu[DENSE_NODES];
    double capd[DENSE_NODES], cntd[DENSE_NODES], keyd[DENSE_NODES];
    const __m256d inf = _mm256_set1_pd(INFINITY), zero = _mm256_setzero_pd();
    for (uint32_t v = 0; v < nq; v++) {
        _mm256_storeu_pd(capu + 4 * v, zero);
        _mm256_storeu_pd(cntu + 4 * v, zero);
        _mm256_storeu_pd(keyu + 4 * v, inf);
        _mm256_storeu_pd(capd + 4 * v, zero);
        _mm256_storeu_pd(cntd + 4 * v, zero);
        _mm256_storeu_pd(keyd + 4 * v, inf);
    }
    for (uint64_t m = U; m; m &= m - 1) {
        const uint32_t i = (uint32_t)__builtin_ctzll(m);
        capu[i] = w->lk[2 * i].cap0;
        cntu[i] = (double)w->lk[2 * i].n;
        keyu[i] = capu[i] / cntu[i];
    }
    for (uint64_t m = D; m; m &= m - 1) {
        const uint32_t i = (uint32_t)__builtin_ctzll(m);
        capd[i] = w->lk[2 * i + 1].cap0;
        cntd[i] = (double)w->lk[2 * i + 1].n;
        keyd[i] = capd[i] / cntd[i];
    }
    uint64_t tu = 0, td = 0; /* the nodes whose up (down) link has had its turn */
    for (;;) {
        __m256d a = inf, b = inf;
        for (uint32_t v = 0; v < nq; v++) {
            a = _mm256_min_pd(_mm256_loadu_pd(keyu + 4 * v), a);
            b = _mm256_min_pd(_mm256_loadu_pd(keyd + 4 * v), b);
        }
        const double least = hmin4(_mm256_min_pd(a, b));
        if (least == INFINITY) /* every link done */
            break;
        const __m256d mm = _mm256_set1_pd(least);
        uint64_t eu = 0, ed = 0;
        for (uint32_t v = 0; v < nq; v++) {
            eu |= (uint64_t)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(keyu + 4 * v), mm, _CMP_EQ_OQ))
                  << (4 * v);
            ed |= (uint64_t)_mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(keyd + 4 * v), mm, _CMP_EQ_OQ))
                  << (4 * v);
        }
        const uint32_t i = (uint32_t)__builtin_ctzll(eu | ed);
        const int down = !(eu >> i & 1);
        const uint32_t bl = 2 * i + (uint32_t)down;
        double best;
        uint64_t m;
        const uint32_t *cn, *cid;
        uint32_t stride;
        double *capo, *cnto, *keyo;
        if (down) {
            best = keyd[i];
            keyd[i] = INFINITY;
            m = w->ddm[i] & ~tu;
            td |= (uint64_t)1 << i;
            cn = w->dnt + i * DENSE_NODES;
            cid = w->dcid + i;
            stride = DENSE_NODES;
            capo = capu, cnto = cntu, keyo = keyu;
        } else {
            best = keyu[i];
            keyu[i] = INFINITY;
            m = w->dum[i] & ~td;
            tu |= (uint64_t)1 << i;
            cn = w->dn + i * DENSE_NODES;
            cid = w->dcid + i * DENSE_NODES;
            stride = 1;
            capo = capd, cnto = cntd, keyo = keyd;
        }
        const __m256d bv = _mm256_set1_pd(best);
        for (uint64_t q = m; q;) {
            const uint32_t v = (uint32_t)__builtin_ctzll(q) / 4;
            const __m256d lm = _mm256_load_pd((const double *)dense_lanes[q >> (4 * v) & 15]);
            q &= ~((uint64_t)15 << (4 * v));
            const __m256d n = _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(cn + 4 * v)));
            const __m256d c0 = _mm256_loadu_pd(capo + 4 * v), n0 = _mm256_loadu_pd(cnto + 4 * v);
            const __m256d c1 = _mm256_sub_pd(c0, _mm256_mul_pd(bv, n)), n1 = _mm256_sub_pd(n0, n);
            const __m256d k1 =
                _mm256_blendv_pd(_mm256_div_pd(c1, n1), inf, _mm256_cmp_pd(n1, zero, _CMP_EQ_OQ));
            _mm256_storeu_pd(capo + 4 * v, _mm256_blendv_pd(c0, c1, lm));
            _mm256_storeu_pd(cnto + 4 * v, _mm256_blendv_pd(n0, n1, lm));
            _mm256_storeu_pd(keyo + 4 * v, _mm256_blendv_pd(_mm256_loadu_pd(keyo + 4 * v), k1, lm));
        }
        fclass *const cls = w->cl; /* loaded once: a store to a class might be one to w, for all GCC knows */
        for (; m; m &= m - 1) {
            const uint32_t j = (uint32_t)__builtin_ctzll(m), ci = cid[j * stride];
            fclass *c = cls + ci;
            advance_v(c, now);
            c->bn = bl;
            apply_class(x, w, c, ci, best, now);
        }
    }
}
#endif

/* The components of the links touched at `now` on one switch of at most DENSE_NODES nodes, shared whole as
 * share_whole shares them, to the bit: the same links fix the same classes at the same levels, in the same
 * order of (key, link), with the same arithmetic on each link (a link gains one term per link that fixes,
 * so the order of the classes within one link's turn does not matter).  The component, and each link's
 * classes not yet fixed, are bit masks over the nodes (the classes in flight are a matrix, node by node):
 * where share_whole walked lists with marks, sorted the component's links, and listed each link's classes
 * not yet fixed, a link's turn here is a mask and a count of trailing zeros per class (linear alltoall on 32
 * nodes: 992 classes over 64 links at each of 55,000 sharings). */
static void share_dense(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    uint64_t U = 0, D = 0; /* the nodes whose up (down) link is in the component */
    for (uint32_t i = 0; i < w->ndirty; i++) {
        uint32_t l = w->dirty[i];
        if (w->lk[l].n > 0)
            *((l & 1) ? &D : &U) |= (uint64_t)1 << (l >> 1);
    }
    for (uint64_t fu = U, fd = D; fu | fd;) { /* closed: the down links of U's classes, the up links of D's */
        uint64_t nd = 0, nu = 0;
        for (; fu; fu &= fu - 1)
            nd |= w->dum[__builtin_ctzll(fu)];
        for (; fd; fd &= fd - 1)
            nu |= w->ddm[__builtin_ctzll(fd)];
        fd = nd & ~D;
        fu = nu & ~U;
        D |= fd;
        U |= fu;
    }
    /* every touched link empty (with PACT_MODEL_SHARE_LOCAL=0 the sharing of an instant whose last flows
     * ended comes here): nothing to share, and dense_fill_avx2 takes the highest node of U | D */
    if (!(U | D))
        return;
#ifdef HAVE_AVX2
    if (w->avx2) {
        dense_fill_avx2(x, now, U, D);
        return;
    }
#endif
    /* its links in order of index (node i: up 2i, down 2i + 1), with their capacity left, unfixed flows (a
     * count, exact in a double) and capacity left per flow, +inf once done */
    uint32_t ls[2 * DENSE_NODES];
    uint8_t pos[2 * DENSE_NODES];
    double cap[2 * DENSE_NODES], cnt[2 * DENSE_NODES], key[2 * DENSE_NODES];
    uint32_t nl = 0;
    for (uint64_t m = U | D; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m);
        for (uint32_t l = 2 * i; l <= 2 * i + 1; l++)
            if (((l & 1) ? D : U) >> i & 1) {
                pos[l] = (uint8_t)nl;
                ls[nl] = l;
                cap[nl] = w->lk[l].cap0;
                cnt[nl] = (double)w->lk[l].n;
                key[nl] = cap[nl] / cnt[nl];
                nl++;
            }
    }
    uint64_t tu = 0, td = 0; /* the nodes whose up (down) link has had its turn */
    for (uint32_t hn = nl; hn > 0;) {
        uint32_t bi = scan_least(key, nl), bl = ls[bi], i = bl >> 1;
        double best = key[bi];
        key[bi] = INFINITY;
        hn--;
        /* node i's down link fixes the classes from the up links of nodes j (class j, i) that have not had
         * their turn, an up link the classes to the down links (i, j) likewise (a class is fixed by the first
         * of its two links to turn); each class's other link gives up its flows */
        const int down = bl & 1;
        const uint32_t off = down ? i : i * DENSE_NODES, stride = down ? DENSE_NODES : 1;
        const uint32_t *cid = w->dcid + off, *cn = w->dn + off;
        const uint8_t *opos = pos + !down; /* the other link of node j: pos[2j + !down] */
        uint64_t m;
        if (down) {
            m = w->ddm[i] & ~tu;
            td |= (uint64_t)1 << i;
        } else {
            m = w->dum[i] & ~td;
            tu |= (uint64_t)1 << i;
        }
        /* two passes over the classes: first their other links (the next turn's keys: a division each,
         * independent of one another), then the classes themselves (V, rate, end); in one pass each link's
         * division waited behind its class's end, and linear alltoall at 1024 ranks took 6-16% longer.
         * Each link gets the same operations in the same order, each class too: the same bits */
        for (uint64_t q = m; q; q &= q - 1) {
            uint32_t j = (uint32_t)__builtin_ctzll(q), o = opos[2 * j];
            const double n = (double)cn[j * stride];
            cap[o] -= best * n;
            cnt[o] -= n;
            key[o] = cnt[o] == 0 ? INFINITY : cap[o] / cnt[o];
            hn -= cnt[o] == 0;
        }
        for (; m; m &= m - 1) {
            uint32_t j = (uint32_t)__builtin_ctzll(m), ci = cid[j * stride];
            fclass *c = &w->cl[ci];
            advance_v(c, now);
            c->bn = bl;
            apply_one(x, ci, best, now);
        }
        if (hn > 0 && 2 * hn <= nl && nl > 8) { /* half the keys are done: drop those, in order */
            uint32_t k = 0;
            for (uint32_t q = 0; q < nl; q++)
                if (key[q] != INFINITY) {
                    ls[k] = ls[q];
                    cap[k] = cap[q];
                    cnt[k] = cnt[q];
                    key[k] = key[q];
                    pos[ls[k]] = (uint8_t)k;
                    k++;
                }
            nl = k;
        }
    }
}

/* Everything that started or stopped flowing at `now` is in place: the rates of the components it touched,
 * from a local sharing where it can tell, else whole (PACT_MODEL_SHARE_LOCAL=2: both, their difference kept).
 */
void pact_ev_share(sim_t *x, double now)
{
    pact_model_eval *w = x->w;
    w->share_pending = 0;
    if (x->share_local && ((x->share_isolated && share_isolated(x, now)) || share_local(x, now))) {
        x->nshare_local++;
        if (x->share_local == 2)
            share_whole(x, now, 1);
    } else {
        x->nshare_whole++;
        if (w->dense)
            share_dense(x, now);
        else
            share_whole(x, now, 0);
    }
    for (uint32_t i = 0; i < w->ndirty; i++)
        w->lk[w->dirty[i]].dirty = 0;
    w->ndirty = 0;
}
