/* queue.c - the evaluator's event queue: events in order of (time, class and key), by instant.
 *
 * Schedules run in lockstep where nothing delays them: at 2^20 ranks a million events share one instant, and
 * a heap of all events paid a cache miss per level for each (two thirds of the evaluation).  Here events wait
 * in a radix heap on their times' bits (a bucket per hexadecimal digit and value, each a list through one
 * pool of events: an event moves to lower buckets by its links, with no comparison between events; time never
 * goes back, which a radix heap needs);
 * the earliest instant's events are sorted once (radix sort on the key) when it comes up, and what is
 * scheduled for the current instant while it runs (port claims, the shared links' rates) waits in a small
 * heap beside it.  The order of events is exactly a heap's on (time, class, key), a total order.  The
 * previous queue (a bucket per distinct time, found by a hash and ordered by a 4-ary heap) spent a fifth of
 * ring allreduce at 1024 ranks under random arrivals, where nearly every instant is distinct, choosing
 * among the heap's children.
 * Most events need no heap: a private link's delivery is scheduled at now + its latency + its bytes' time, a
 * flow's start at now + its latency, a local operation's end at now + its cost, and with one message size
 * each comes after the one of its kind scheduled before it.  Such events wait in a run per kind (a ring, in
 * order of time); one earlier than its run's last goes to the radix heap.  An instant gathers its events
 * from the runs' fronts and the radix heap's least bucket; an instant of a single event, first in a run,
 * is taken out as it is.  Ring allreduce at 1024 ranks under random arrivals: the radix heap had moved its
 * 3.3 million events about three times each, and the queue was a third of the evaluation's instructions;
 * with the runs, 1.2 million of its 2.2 million instants are single events, and the cell takes 10% fewer
 * instructions. */
#include "eval_int.h"

/* ---- times as ordered bits: a < b as doubles iff ord(a) < ord(b) as integers (no NaN) ---- */

static inline uint64_t ord(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof(b));
    return b >> 63 ? ~b : b | (1ull << 63);
}

static inline double unord(uint64_t u)
{
    uint64_t b = u >> 63 ? u & ~(1ull << 63) : ~u;
    double t;
    memcpy(&t, &b, sizeof(t));
    return t;
}

/* The bucket of time bits u: 0 when u is `last`; else by the highest hexadecimal digit in which they differ,
 * and u's value there (greater than last's, as u comes after last).  Buckets in order hold events in
 * order. */
static inline uint32_t rb_index(uint64_t u, uint64_t last)
{
    uint64_t d = u ^ last;
    if (!d)
        return 0;
    uint32_t dig = (uint32_t)(63 - __builtin_clzll(d)) >> 2;
    return 1 + 16 * dig + (uint32_t)((u >> (4 * dig)) & 15);
}

/* Event i of the pool joins bucket b (not rb[0]) at its end; u: its time's ordered bits. */
static inline __attribute__((always_inline)) void rb_link(evq *q, uint32_t b, uint32_t i, uint64_t u)
{
    rbucket *k = &q->rb[b];
    q->nd[i].next = NONE;
    if (k->n == 0) {
        k->head = i;
        k->min = u;
        q->used[(b - 1) >> 6] |= 1ull << ((b - 1) & 63);
    } else {
        q->nd[k->tail].next = i;
        if (u < k->min)
            k->min = u;
    }
    k->tail = i;
    k->n++;
}

/* Event e into rb[0]'s array. */
static inline gboolean z_add(evq *q, const event *e)
{
    if (q->nz == q->cap_z && !reserve_n((void **)&q->z, &q->cap_z, q->nz + 1, sizeof(event)))
        return FALSE;
    q->z[q->nz++] = *e;
    return TRUE;
}

/* Event e into bucket b: rb[0]'s array, or a pool event linked into a list.  Inlined where it is called: as a
 * call, saving and restoring registers was a third of its instructions. */
static inline __attribute__((always_inline)) gboolean rb_add(evq *q, uint32_t b, const event *e, uint64_t u)
{
    if (b == 0)
        return z_add(q, e);
    uint32_t i = q->ndfree;
    if (i != NONE) {
        q->ndfree = q->nd[i].next;
    } else {
        if (q->nnd >= NONE - 1 || !reserve_n((void **)&q->nd, &q->cap_nd, (size_t)q->nnd + 1, sizeof(event)))
            return FALSE;
        i = q->nnd++;
    }
    q->nd[i] = *e;
    rb_link(q, b, i, u);
    return TRUE;
}

/* The earliest non-empty bucket but rb[0], or 0 when none. */
static inline uint32_t rb_first(const evq *q)
{
    for (uint32_t k = 0; k < G_N_ELEMENTS(q->used); k++)
        if (q->used[k])
            return 1 + 64 * k + (uint32_t)__builtin_ctzll(q->used[k]);
    return 0;
}

/* rb[0] holds the events of the earliest time in the queue (which becomes `last`); FALSE when the queue is
 * empty or memory ran out (q->oom).  The earliest non-empty bucket holds the earliest time (its events agree
 * with `last` above their digit and have the same value in it, so they come after all events of lower
 * buckets and before all of higher ones); its events go to buckets relative to their least time, each to a
 * lower bucket than before (the others keep theirs), so each event moves at most 16 times in all, and in
 * practice two or three times (ring allreduce at 1024 ranks under random arrivals: 2.8); a move relinks the
 * event, where copying it twice through 4 KiB chunks made the moves a seventh of that cell. */
static gboolean rb_settle(evq *q)
{
    if (q->nz > 0)
        return TRUE;
    uint32_t b = rb_first(q);
    if (b == 0)
        return FALSE;
    rbucket *k = &q->rb[b];
    uint32_t i = k->head;
    q->last = k->min;
    /* the bucket is refilled below from others: take its list out first (no event comes back to it) */
    k->n = 0;
    q->used[(b - 1) >> 6] &= ~(1ull << ((b - 1) & 63));
    while (i != NONE) {
        uint32_t next = q->nd[i].next;
        uint64_t u = ord(q->nd[i].t);
        uint32_t to = rb_index(u, q->last);
        if (to != 0) {
            rb_link(q, to, i, u);
        } else { /* at the new instant: to rb[0]'s array, and its pool event freed */
            if (!z_add(q, &q->nd[i])) {
                q->oom = TRUE;
                return FALSE;
            }
            q->nd[i].next = q->ndfree;
            q->ndfree = i;
        }
        i = next;
    }
    return TRUE;
}

/* ---- runs: events of one kind in order of time ---- */

/* Event e at the end of run r; FALSE when memory ran out.  A ring that doubles when full. */
static gboolean run_add(evrun *r, const event *e)
{
    if (r->n == r->cap) {
        uint32_t cap = r->cap ? 2 * r->cap : 256;
        if (cap <= r->cap)
            return FALSE;
        event *v = realloc(r->v, (size_t)cap * sizeof(event));
        if (!v)
            return FALSE;
        /* unwrap: the events before head (the ring's last ones) go after the old end */
        if (r->head > 0)
            memcpy(v + r->cap, v, (size_t)r->head * sizeof(event));
        r->v = v;
        r->cap = cap;
    }
    const uint32_t i = (r->head + r->n) & (r->cap - 1);
    if (i >= r->paged && r->cap >= 2 * PAGE_CHUNK) { /* a large ring reaches pages not made yet */
        r->paged = r->cap - i < PAGE_CHUNK ? r->cap : i + PAGE_CHUNK;
        pact_mem_populate(&r->v[i], (r->paged - i) * sizeof(event));
    }
    r->v[i] = *e;
    r->n++;
    return TRUE;
}

/* The least time at the runs' fronts into *t where less (or where `any` is FALSE: none known yet); whether
 * any time is known (any, or a run's). */
static inline gboolean runs_least(const evq *q, double *t, gboolean any)
{
    for (int k = 0; k < EVQ_RUNS; k++)
        if (q->run[k].n > 0) {
            double u = q->run[k].v[q->run[k].head].t;
            *t = !any || u < *t ? u : *t;
            any = TRUE;
        }
    return any;
}

/* The next instant's time into *t: the radix heap's (rb[0]'s, or its first bucket's least time; into *t_rb,
 * NaN where it holds none) or a run's first, whichever is earlier; FALSE when the queue is empty.  Times are
 * never -0 or NaN: as doubles they compare as their ordered bits do. */
static inline gboolean next_instant(const evq *q, double *t, double *t_rb)
{
    const uint32_t b = q->nz > 0 ? 0 : rb_first(q);
    const gboolean in_rb = q->nz > 0 || b != 0;
    *t_rb = in_rb ? unord(q->nz > 0 ? q->last : q->rb[b].min) : NAN;
    *t = in_rb ? *t_rb : INFINITY;
    return runs_least(q, t, in_rb);
}

/* ---- events scheduled for the current instant: a binary heap on key ---- */

static void late_push(evq *q, const event *e)
{
    size_t i = q->nlate++;
    while (i > 0 && e->key < q->late[(i - 1) / 2].key) {
        q->late[i] = q->late[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->late[i] = *e;
}

static event late_pop(evq *q)
{
    event top = q->late[0], x = q->late[--q->nlate];
    size_t i = 0, n = q->nlate;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && q->late[c + 1].key < q->late[c].key)
            c++;
        if (!(q->late[c].key < x.key))
            break;
        q->late[i] = q->late[c];
        i = c;
    }
    if (n > 0)
        q->late[i] = x;
    return top;
}

/* ---- the queue ---- */

void evq_free(evq *q)
{
    free(q->nd);
    free(q->z);
    free(q->cur);
    free(q->late);
    for (int k = 0; k < EVQ_RUNS; k++)
        free(q->run[k].v);
}

void evq_reset(evq *q)
{
    for (size_t i = 0; i < G_N_ELEMENTS(q->rb); i++)
        q->rb[i] = (rbucket){NONE, NONE, 0, 0};
    memset(q->used, 0, sizeof(q->used));
    q->nnd = 0;
    q->ndfree = NONE;
    q->nz = 0;
    q->last = 0;
    q->now = 0;
    for (int k = 0; k < EVQ_RUNS; k++) {
        q->run[k].head = q->run[k].n = 0;
        q->run[k].tail = -INFINITY;
    }
    q->active = 0;
    q->ncur = q->icur = 0;
    q->nlate = 0;
    q->n = 0;
    q->past = FALSE;
}

gboolean evq_push(evq *q, double t, uint8_t type, uint32_t id, uint32_t ver, uint64_t key)
{
    if (t == 0)
        t = 0; /* -0 is the instant 0 */
    event e = {t, ((uint64_t)ev_class[type] << 56) | key, id, ver, type, NONE};
    if (q->active && t <= q->cur_t) { /* the instant that runs (no event is ever scheduled before it) */
        if (!reserve_n((void **)&q->late, &q->cap_late, q->nlate + 1, sizeof(event)))
            return FALSE;
        late_push(q, &e);
        q->n++;
        return TRUE;
    }
    uint64_t u = ord(t);
    if (u < q->now) { /* before an instant taken out: never, or the order of events is lost */
        q->past = TRUE;
        return TRUE;
    }
    const int k = evq_run_of[type];
    if (k >= 0 && t >= q->run[k].tail) { /* ev_push, eval_int.h, has the common case inline */
        if (!run_add(&q->run[k], &e))
            return FALSE;
        q->run[k].tail = t;
    } else if (!rb_add(q, rb_index(u, q->last), &e, u)) {
        return FALSE;
    }
    q->n++;
    return TRUE;
}

/* Sorts cur[0..n) on key (stably): nothing where the keys come in order already (at 2^20 ranks in lockstep,
 * every other instant of Rabenseifner's allreduce); else least significant digit first, each pass taking
 * the next 8 bits (11 from 8,192 events: at 2^20 ranks, two passes over a rank's 20 bits instead of three)
 * from the lowest that some keys differ in, skipping the bits they all share (an instant's keys are a class
 * and a rank or an operation).  Its second array is z's, empty while an instant runs (its events at the
 * instant go to late): one instant-sized array less. */
static gboolean sort_cur(evq *q)
{
    size_t n = q->ncur;
    if (n < 48) {
        for (size_t i = 1; i < n; i++) {
            event v = q->cur[i];
            size_t j = i;
            while (j > 0 && q->cur[j - 1].key > v.key) {
                q->cur[j] = q->cur[j - 1];
                j--;
            }
            q->cur[j] = v;
        }
        return TRUE;
    }
    if (!reserve_n((void **)&q->z, &q->cap_z, n, sizeof(event)))
        return FALSE;
    uint64_t all = q->cur[0].key, any = 0;
    size_t down = 0;
    for (size_t i = 0; i < n; i++) {
        all &= q->cur[i].key;
        any |= q->cur[i].key;
        down += i > 0 && q->cur[i].key < q->cur[i - 1].key;
    }
    if (down == 0)
        return TRUE;
    uint64_t differ = any & ~all;
    const int bits = n >= 8192 ? 11 : 8;
    const uint32_t nd = 1u << bits;
    const uint64_t mask = nd - 1;
    event *a = q->cur, *b = q->z;
    size_t cnt[(1u << 11) + 1];
    while (differ) {
        int shift = __builtin_ctzll(differ);
        differ = shift + bits >= 64 ? 0 : differ >> (shift + bits) << (shift + bits);
        memset(cnt, 0, (nd + 1) * sizeof(size_t));
        for (size_t i = 0; i < n; i++)
            cnt[((a[i].key >> shift) & mask) + 1]++;
        for (uint32_t d = 0; d < nd; d++)
            cnt[d + 1] += cnt[d];
        for (size_t i = 0; i < n; i++)
            b[cnt[(a[i].key >> shift) & mask]++] = a[i];
        event *t = a;
        a = b;
        b = t;
    }
    if (a != q->cur) { /* an odd number of passes: the arrays swap, and their capacities with them */
        q->cur = a;
        q->z = b;
        size_t c = q->cap_cur;
        q->cap_cur = q->cap_z;
        q->cap_z = c;
    }
    return TRUE;
}

/* The queue's earliest instant becomes the current instant: its events sorted in cur.  FALSE when memory ran
 * out (q->oom). */
static gboolean activate_next(evq *q)
{
    double T, t_rb;
    if (!next_instant(q, &T, &t_rb))
        return FALSE;
    if (t_rb == T && !rb_settle(q))
        return FALSE; /* rb[0] holds the radix heap's events at T */
    for (int k = 0; k < EVQ_RUNS; k++) {
        evrun *r = &q->run[k];
        while (r->n > 0 && r->v[r->head].t == T) {
            if (!z_add(q, &r->v[r->head])) {
                q->oom = TRUE;
                return FALSE;
            }
            r->head = (r->head + 1) & (r->cap - 1);
            r->n--;
        }
    }
    event *v = q->cur; /* rb[0]'s array becomes cur, and cur's array rb[0]'s */
    size_t cap = q->cap_cur;
    q->cur = q->z;
    q->cap_cur = q->cap_z;
    q->ncur = q->nz;
    q->z = v;
    q->cap_z = cap;
    q->nz = 0;
    q->icur = 0;
    /* a few events in order (deliveries of one run, then a rank's resumption): nothing to sort */
    size_t i = 1;
    while (i < q->ncur && i < 8 && q->cur[i - 1].key <= q->cur[i].key)
        i++;
    if (i < q->ncur && !sort_cur(q)) {
        q->oom = TRUE;
        return FALSE;
    }
    q->cur_t = T;
    q->now = ord(T);
    q->active = 1;
    return TRUE;
}

static inline gboolean cur_left(const evq *q)
{
    return q->active && (q->icur < q->ncur || q->nlate > 0);
}

/* The next instant holds one event, first in a run: it is taken out as the instant, with nothing left in
 * cur (ring allreduce at 1024 ranks under random arrivals: 1.2 million of its 2.2 million instants), where
 * making an instant of it copied it through rb[0]'s array and cur. */
static inline gboolean single_next(evq *q, event *out)
{
    int best = -1;
    double bt = INFINITY, second = INFINITY;
    for (int k = 0; k < EVQ_RUNS; k++)
        if (q->run[k].n > 0) {
            double t = q->run[k].v[q->run[k].head].t;
            if (best < 0 || t < bt) {
                second = best < 0 ? second : bt;
                best = k;
                bt = t;
            } else if (t < second) {
                second = t;
            }
        }
    if (best < 0 || !(second > bt))
        return FALSE;
    evrun *r = &q->run[best];
    if (r->n > 1 && !(r->v[(r->head + 1) & (r->cap - 1)].t > bt))
        return FALSE;
    const uint32_t b = rb_first(q);
    const uint64_t u = ord(bt);
    if (b != 0 && !(q->rb[b].min > u))
        return FALSE;
    *out = r->v[r->head];
    r->head = (r->head + 1) & (r->cap - 1);
    r->n--;
    q->ncur = q->icur = 0;
    q->cur_t = bt;
    q->now = u;
    q->active = 1;
    q->n--;
    return TRUE;
}

/* The next event; FALSE when none is left (or memory ran out: q->oom). */
gboolean evq_pop(evq *q, event *out)
{
    for (;;) {
        if (cur_left(q)) {
            if (q->icur < q->ncur && (q->nlate == 0 || q->cur[q->icur].key < q->late[0].key))
                *out = q->cur[q->icur++];
            else
                *out = late_pop(q);
            q->n--;
            return TRUE;
        }
        q->active = 0;
        if (q->nz == 0 && single_next(q, out))
            return TRUE;
        if (!activate_next(q))
            return FALSE;
    }
}

gboolean evq_next_before(evq *q, const event *k)
{
    /* k at the instant that ran, which has nothing left: whatever waits comes later (the ranks woken by an
     * instant's deliveries, one after the other) */
    if (q->active && k->t == q->cur_t && !cur_left(q))
        return FALSE;
    if (!cur_left(q)) {
        /* k may lie at the next instant of the queue: that instant becomes the current one (time gets there
         * either way), so that its events and k go in the order of their keys */
        double tn, t_rb;
        if (!next_instant(q, &tn, &t_rb))
            return FALSE;
        if (tn > k->t)
            return FALSE;
        if (tn < k->t)
            return TRUE;
        q->active = 0;
        if (!activate_next(q))
            return TRUE; /* out of memory: evq_pop reports it */
    }
    uint64_t key = q->icur < q->ncur ? q->cur[q->icur].key : UINT64_MAX;
    if (q->nlate > 0 && q->late[0].key < key)
        key = q->late[0].key;
    return q->cur_t < k->t || (q->cur_t == k->t && key < k->key);
}
