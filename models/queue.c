/* queue.c - the evaluator's event queue: events in order of (time, class and key), by instant.
 *
 * Schedules run in lockstep where nothing delays them: at 2^20 ranks a million events share one instant, and
 * a heap of all events paid a cache miss per level for each (two thirds of the evaluation).  Here events wait
 * in buckets, one per distinct time, found by a hash of the time and ordered by a heap of the times; an
 * instant's bucket is sorted once (radix sort on the key) when it comes up, and what is scheduled for the
 * current instant while it runs (port claims, the shared links' rates) waits in a small heap beside it.  The
 * order of events is exactly the heap's: (time, class, key) is a total order. */
#include "eval_int.h"

/* ---- time -> bucket: open addressing, linear probing, deletion by backward shift ---- */

static inline uint64_t tbits(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof(b));
    return b;
}

static inline uint32_t thash(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull; /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(x ^ (x >> 31));
}

static gboolean hash_grow(evq *q)
{
    uint32_t cap = q->hmask ? 2 * (q->hmask + 1) : 1024;
    uint64_t *k = malloc((size_t)cap * sizeof(uint64_t));
    uint32_t *v = malloc((size_t)cap * sizeof(uint32_t));
    if (!k || !v) {
        free(k);
        free(v);
        return FALSE;
    }
    memset(v, 0xff, (size_t)cap * sizeof(uint32_t));
    for (uint32_t i = 0; q->hmask && i <= q->hmask; i++)
        if (q->hv[i] != NONE) {
            uint32_t j = thash(q->hk[i]) & (cap - 1);
            while (v[j] != NONE)
                j = (j + 1) & (cap - 1);
            k[j] = q->hk[i];
            v[j] = q->hv[i];
        }
    free(q->hk);
    free(q->hv);
    q->hk = k;
    q->hv = v;
    q->hmask = cap - 1;
    return TRUE;
}

static void hash_del(evq *q, uint64_t key)
{
    uint32_t i = thash(key) & q->hmask;
    while (q->hk[i] != key || q->hv[i] == NONE)
        i = (i + 1) & q->hmask;
    for (uint32_t j = i;;) { /* shift back what probed past i */
        q->hv[i] = NONE;
        for (;;) {
            j = (j + 1) & q->hmask;
            if (q->hv[j] == NONE) {
                q->hcount--;
                return;
            }
            uint32_t h = thash(q->hk[j]) & q->hmask;
            if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
                continue; /* j's home lies between i and j: it stays */
            break;
        }
        q->hk[i] = q->hk[j];
        q->hv[i] = q->hv[j];
        i = j;
    }
}

/* ---- buckets by time: a 4-ary heap ---- */

static void bh_up(evq *q, uint32_t i)
{
    uint32_t b = q->bh[i];
    double t = q->bk[b].t;
    while (i > 0 && t < q->bk[q->bh[(i - 1) / 4]].t) {
        q->bh[i] = q->bh[(i - 1) / 4];
        i = (i - 1) / 4;
    }
    q->bh[i] = b;
}

static uint32_t bh_pop(evq *q)
{
    uint32_t top = q->bh[0], b = q->bh[--q->nbh], i = 0, n = q->nbh;
    double t = q->bk[b].t;
    for (;;) {
        uint32_t c = 4 * i + 1;
        if (c >= n)
            break;
        uint32_t end = c + 4 < n ? c + 4 : n, m = c;
        for (uint32_t k = c + 1; k < end; k++)
            if (q->bk[q->bh[k]].t < q->bk[q->bh[m]].t)
                m = k;
        if (!(q->bk[q->bh[m]].t < t))
            break;
        q->bh[i] = q->bh[m];
        i = m;
    }
    if (n > 0)
        q->bh[i] = b;
    return top;
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
    free(q->bk);
    free(q->bh);
    free(q->hk);
    free(q->hv);
    free(q->cur);
    free(q->tmp);
    free(q->late);
}

void evq_reset(evq *q)
{
    q->nnd = 0;
    q->nfree = NONE;
    q->nbk = 0;
    q->bfree = NONE;
    q->nbh = 0;
    if (q->hmask)
        memset(q->hv, 0xff, ((size_t)q->hmask + 1) * sizeof(uint32_t));
    q->hcount = 0;
    q->active = 0;
    q->ncur = q->icur = 0;
    q->nlate = 0;
    q->n = 0;
}

/* Pools indexed by 32 bits, NONE excluded. */
#define QGROW(field, cap, need)                                                                              \
    do {                                                                                                     \
        if ((need) >= NONE || !reserve_n((void **)&q->field, &(cap), (need), sizeof(*q->field)))             \
            return FALSE;                                                                                    \
    } while (0)

gboolean evq_push(evq *q, double t, uint8_t type, uint32_t id, uint32_t ver, uint64_t key)
{
    event e = {t, ((uint64_t)ev_class[type] << 56) | key, id, ver, type};
    if (q->active && t <= q->cur_t) { /* the instant that runs (no event is ever scheduled before it) */
        if (!reserve_n((void **)&q->late, &q->cap_late, q->nlate + 1, sizeof(event)))
            return FALSE;
        late_push(q, &e);
        q->n++;
        return TRUE;
    }
    uint64_t tb = tbits(t);
    if (2 * (q->hcount + 1) > q->hmask && !hash_grow(q)) /* at most half full */
        return FALSE;
    uint32_t i = thash(tb) & q->hmask, b;
    while (q->hv[i] != NONE && q->hk[i] != tb)
        i = (i + 1) & q->hmask;
    if (q->hv[i] == NONE) { /* a new instant */
        if (q->bfree != NONE) {
            b = q->bfree;
            q->bfree = q->bk[b].head;
        } else {
            QGROW(bk, q->cap_bk, (size_t)q->nbk + 1);
            b = q->nbk++;
        }
        QGROW(bh, q->cap_bh, (size_t)q->nbh + 1);
        q->bk[b] = (qbucket){t, NONE, NONE, 0};
        q->hk[i] = tb;
        q->hv[i] = b;
        q->hcount++;
        q->bh[q->nbh] = b;
        bh_up(q, q->nbh++);
    } else {
        b = q->hv[i];
    }
    uint32_t nd;
    if (q->nfree != NONE) {
        nd = q->nfree;
        q->nfree = q->nd[nd].next;
    } else {
        QGROW(nd, q->cap_nd, (size_t)q->nnd + 1);
        nd = q->nnd++;
    }
    q->nd[nd] = (qnode){e.key, id, ver, NONE, type};
    qbucket *k = &q->bk[b];
    if (k->tail == NONE)
        k->head = nd;
    else
        q->nd[k->tail].next = nd;
    k->tail = nd;
    k->n++;
    q->n++;
    return TRUE;
}

/* Sorts cur[0..n) on key: least significant digit first, 8 bits a pass, skipping the bytes no key differs in
 * (an instant's keys are a class and a rank or an operation: four or five passes). */
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
    if (!reserve_n((void **)&q->tmp, &q->cap_tmp, n, sizeof(event)))
        return FALSE;
    uint64_t all = q->cur[0].key, any = 0;
    for (size_t i = 0; i < n; i++) {
        all &= q->cur[i].key;
        any |= q->cur[i].key;
    }
    uint64_t differ = any & ~all;
    event *a = q->cur, *b = q->tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((differ >> shift) & 0xff))
            continue;
        size_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[((a[i].key >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            cnt[d + 1] += cnt[d];
        for (size_t i = 0; i < n; i++)
            b[cnt[(a[i].key >> shift) & 0xff]++] = a[i];
        event *t = a;
        a = b;
        b = t;
    }
    if (a != q->cur) { /* an odd number of passes: the arrays swap, and their capacities with them */
        q->cur = a;
        q->tmp = b;
        size_t c = q->cap_cur;
        q->cap_cur = q->cap_tmp;
        q->cap_tmp = c;
    }
    return TRUE;
}

/* The next instant's bucket becomes the current instant: its events sorted in cur.  FALSE when memory ran out
 * (q->oom). */
static gboolean activate_next(evq *q)
{
    uint32_t b = bh_pop(q);
    qbucket k = q->bk[b];
    hash_del(q, tbits(k.t));
    q->bk[b].head = q->bfree;
    q->bfree = b;
    if (!reserve_n((void **)&q->cur, &q->cap_cur, k.n, sizeof(event))) {
        q->oom = TRUE;
        return FALSE;
    }
    size_t m = 0;
    for (uint32_t nd = k.head; nd != NONE;) {
        qnode *x = &q->nd[nd];
        q->cur[m++] = (event){k.t, x->key, x->id, x->ver, x->type};
        uint32_t next = x->next;
        x->next = q->nfree;
        q->nfree = nd;
        nd = next;
    }
    q->ncur = m;
    q->icur = 0;
    if (!sort_cur(q)) {
        q->oom = TRUE;
        return FALSE;
    }
    q->cur_t = k.t;
    q->active = 1;
    return TRUE;
}

static inline gboolean cur_left(const evq *q)
{
    return q->active && (q->icur < q->ncur || q->nlate > 0);
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
        if (q->nbh == 0 || !activate_next(q))
            return FALSE;
    }
}

gboolean evq_next_before(evq *q, const event *k)
{
    if (!cur_left(q)) {
        /* k may lie at the next instant of the queue: that instant becomes the current one (time gets there
         * either way), so that its events and k go in the order of their keys */
        if (q->nbh == 0 || q->bk[q->bh[0]].t > k->t)
            return FALSE;
        if (q->bk[q->bh[0]].t < k->t)
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
