/*
 * eval_int.h - what the parts of the schedule evaluator share: the flattened schedules (prepare.c), the
 * workspace and a running evaluation (eval.c), the event queue (queue.c), and the shared links along which
 * messages flow (links.c).
 *
 * Memory per operation is what bounds the evaluator at scale: 4 bytes of schedule (its channel) and 4 of
 * workspace (pending dependencies, then posting order), and the records of its rank's schedule shape, which
 * ranks of one shape share (kind, size, dependencies, successors: 14 bytes and 4 per successor), besides the
 * ready heap's and completed requests' room (4 bytes each, touched only as far as a rank uses it).  A message
 * in flight is a flow record, allocated when its send and receive meet and freed when it is delivered.
 */
#ifndef PACT_EVAL_INT_H
#define PACT_EVAL_INT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "pact_host.h"
#include "pact_models.h"

#define NONE UINT32_MAX

/* One operation of a rank's schedule as the evaluation reads it, less its channel: a record of a schedule
 * shape.  Ranks whose schedules have one shape (the same kinds, sizes and dependencies, whatever their peers:
 * every rank of a ring, of pairwise exchange, of recursive doubling at a power of two) share its records and
 * its successor lists, so that what the evaluation reads of them stays in cache at any P; per operation and
 * rank remain its channel (pact_model_sched.chan) and the workspace's word (pact_model_eval.wo).  At 1024
 * ranks of ring allreduce the records of every rank took 105 MB and their successors 34 MB; one shape takes
 * 60 KB. */
typedef struct {
    uint32_t sfirst; /* its successors are succ[sfirst .. the next record's sfirst), as indices in its rank */
    uint32_t bk;     /* bidx << 8 | kind: the bytes moved, reduced or copied are bval[bidx] */
} sop;

#define SOP_KIND(o) ((uint8_t)((o)->bk & 0xff))
#define SOP_BIDX(o) ((o)->bk >> 8)
#define SOP_BIDX_MAX (UINT32_MAX >> 8)

/* A channel: the messages from rank src to rank dst with one tag, in slots slot .. the next channel's. */
typedef struct {
    uint32_t slot;
    int32_t src, dst;
} schan;

/* pact_model_bounds, shared links: a message between nodes, its bytes (and envelope) and its ends */
typedef struct {
    double bytes;
    int32_t src, dst;
} bound_msg;

/* What the sets that pact_model_resize makes from one another share: every array of the set but its sizes
 * (bval), the sets that hold them (refs), and hashes of the builds they came from and of the arrays. */
typedef struct {
    gint refs;
    int turn;           /* rank 0's schedule turned for the other ranks (PACT_TURN_*; 0: every rank built) */
    uint64_t ir[2];     /* XXH3-128 of the built ranks' IR but its bytes (prepare.c, ir_hash) */
    uint64_t arrays[2]; /* XXH3-128 of the shared arrays (pact_model_sched_digest) */
} sched_core;

struct pact_model_sched {
    sched_core *core;
    int P;
    size_t n;        /* operations, all ranks */
    uint32_t *base;  /* P + 1: rank r's operations are base[r] .. base[r+1]-1 (global indices) */
    uint32_t *shb;   /* P: rank r's shape: its i-th operation's record is op[shb[r] + i] */
    sop *op;         /* the shapes' records, one shape after another, and one more (the end of succ) */
    uint16_t *pend0; /* each record's dependencies */
    size_t nshop, nshape;
    uint32_t *succ;
    uint32_t *chan; /* n: each operation's channel (sends and receives) */
    double *bval;
    uint32_t nbval;
    size_t nchan;
    schan *ch; /* nchan + 1 */
    size_t nmsg;
    /* no operation waits for a send or a receive (none has a successor): every rank posts all it sends and
     * receives while it runs its other operations, then only waits (eval.c, the posted path) */
    int posted;
    /* how the preparing went (prepare.c; for the tests): ranks whose shape came from comparing their IR with
     * the last rank's, ranks whose receives were sorted by merging runs or by a count per source, and ranks
     * prepared as rank 0's schedule turned (pact_alg.rotates), not built; and how the turned ranks' channels
     * were found: 0 each send's in its destination's list, 1 from rank 0's, numbered by destination, 2 from
     * rank 0's, numbered by use (prepare.c, turned_setup) */
    size_t nsame_ir, nmerged, nbucketed, nturned;
    int chturn;
};

/* prepare.c, for the tests: nonzero turns those four shortcuts off (each rank built, its shape from its
 * successors, its receives by qsort), which must give the same arrays to the byte (sched_digest). */
extern int pact_model_prep_plain;
/* The hash of s's arrays but bval (sched_core.arrays), which pact_model_sched_digest reads: prepare sets it;
 * for the tests, after they change an array. */
void pact_model_sched_rehash(pact_model_sched *s);

/* Operation `op` (a global index) of rank r: its shape's record. */
static inline const sop *op_rec(const pact_model_sched *s, int r, uint32_t op)
{
    return &s->op[s->shb[r] + (op - s->base[r])];
}

static inline double op_bytes(const pact_model_sched *s, int r, uint32_t op)
{
    return s->bval[SOP_BIDX(op_rec(s, r, op))];
}

/* Event types.  FLOW_END, LAT_END and CLAIM name a flow, CLASS_END a class of flows (links.c: a class's end
 * is an event in the queue until a sharing moves it, then it waits in a heap of class ends beside the queue,
 * as the wakes do in theirs). */
enum {
    EV_FLOW_END,
    EV_LAT_END,
    EV_START,
    EV_RESUME,
    EV_WAKE,
    EV_CLAIM,
    EV_CLASS_END,
    EV_SHARE,
    EV_PRIV_END,
    EV_POSTED_START
};
/* EV_PRIV_END: a message over a private link is delivered; it has no flow record (id: its channel, ver: its
 * send), and goes where a FLOW_END would (class and key). */
/* At equal times: deliveries first, so that a rank woken at t collects everything delivered at t; port
 * claims once every rank has posted what it posts at t, in the senders' posting order; the shared links'
 * rates last, once for everything that started or stopped flowing at t.  Within a class, events at one
 * time go in an order the schedule defines, not the order they were scheduled in: deliveries and flow
 * starts by receive operation, rank events by rank, claims by the sender's posting order and rank.  So the
 * result does not depend on how the evaluator gets to each event (computing a private link's end at the
 * match, sharing once per instant): the previous evaluator ordered ties by scheduling, and on 27 of 29,093
 * cells (pairwise alltoall under delays at 60-120 ranks) that order moved d^ by up to 1.3%, as close to SMPI
 * as before (tests/data/model-exact/ties.txt). */
/* EV_POSTED_START: the posted path's flow start (eval.c), an EV_LAT_END whose flow record is made as it
 * starts (id: its channel, ver: its send, key: its receive). */
static const uint8_t ev_class[] = {0, 0, 1, 1, 2, 3, 0, 4, 0, 0};

typedef struct {
    double t;
    uint64_t key; /* class << 56 | rank, operation or posting order: ties in time resolve by class, then key */
    uint32_t id, ver;
    uint8_t type;
    uint32_t next; /* queue.c: the next in its bucket (in what was padding: still 32 bytes) */
} event;

/* The event queue (queue.c): runs of events in order of time, a radix heap of the others on their times'
 * bits, and the instant that runs. */
#define RB_DIGITS 16 /* hexadecimal digits of 64 bits */

typedef struct {
    uint32_t head, tail; /* its events: a list through the pool, in the order they came */
    size_t n;
    uint64_t min; /* the least time (ordered bits, queue.c) of its events, when n > 0 */
} rbucket;

/* Events of one kind in order of time: a ring of them (queue.c, "runs"). */
#define EVQ_RUNS 3
typedef struct {
    event *v;
    uint32_t head, n, cap; /* cap: a power of two, or 0 */
    uint32_t paged;        /* v[0 .. paged) has its pages (queue.c, run_add) */
    double tail;           /* the time last appended (-inf: none since the reset) */
} evrun;
/* The run of an event type (deliveries 0, flow starts 1, local operations' ends 2), or -1: the radix heap
 * only. */
static const int8_t evq_run_of[] = {
    [EV_FLOW_END] = 0, [EV_LAT_END] = 1,    [EV_START] = -1, [EV_RESUME] = 2,   [EV_WAKE] = -1,
    [EV_CLAIM] = -1,   [EV_CLASS_END] = -1, [EV_SHARE] = -1, [EV_PRIV_END] = 0, [EV_POSTED_START] = 1};

typedef struct {
    /* rb[0] (its events in z): events at `last`; rb[1 + 16 * d + v]: events whose time's ordered bits first
     * differ from `last` in hexadecimal digit d, where theirs is v */
    rbucket rb[1 + RB_DIGITS * 16];
    uint64_t used[RB_DIGITS * 16 / 64]; /* bit b: rb[1 + b] holds events */
    uint64_t last; /* the ordered bits of the last instant taken out */
    event *z; /* rb[0]'s events: one array, which becomes cur when their instant comes up */
    size_t nz, cap_z;
    event *nd; /* the buckets' events: a pool with a free list (its memory follows the events waiting, where
                * an array per bucket kept each bucket's largest size: 1.8 GB more at 2^20 ranks); an event
                * moves between buckets by its links, not by copies */
    uint32_t nnd, ndfree;
    size_t cap_nd;
    int active;     /* the instant cur_t runs: its events sorted in cur[icur ..], and late ones in late */
    double cur_t;
    event *cur;
    size_t ncur, icur, cap_cur;
    event *late;
    size_t nlate, cap_late;
    evrun run[EVQ_RUNS]; /* deliveries, flow starts, local ends (evq_run_of), beside the radix heap */
    uint64_t now;        /* the ordered bits of the last instant taken out (>= last) */
    size_t n; /* events waiting */
    gboolean oom;
    gboolean past; /* an event was scheduled before the last instant taken out: the evaluator's error */
} evq;

void evq_free(evq *q);
void evq_reset(evq *q);
gboolean evq_push(evq *q, double t, uint8_t type, uint32_t id, uint32_t ver, uint64_t key);
gboolean evq_pop(evq *q, event *out);
/* Whether the next event comes before k, an event at the current instant or later (not earlier). */
gboolean evq_next_before(evq *q, const event *k);

/* evq_pop and evq_next_before with their commonest cases inline (the evaluator's loop asks them for each
 * event and each woken rank): an instant's events taken in order, a rank woken at the instant that runs. */
static inline gboolean evq_pop_in(evq *q, event *out)
{
    if (q->active && q->icur < q->ncur && q->nlate == 0) {
        *out = q->cur[q->icur++];
        q->n--;
        return TRUE;
    }
    return evq_pop(q, out);
}

static inline gboolean evq_next_before_in(evq *q, const event *k)
{
    if (!q->active || k->t != q->cur_t)
        return evq_next_before(q, k);
    uint64_t key = q->icur < q->ncur ? q->cur[q->icur].key : UINT64_MAX;
    if (q->nlate > 0 && q->late[0].key < key)
        key = q->late[0].key;
    return key < k->key; /* none left at the instant: UINT64_MAX, and whatever waits comes later */
}

/* A message in flight: from its match until its delivery. */
typedef struct {
    uint32_t snd, rcv;
    int32_t src, dst; /* their ranks */
    uint32_t ver;     /* bumped at each new end time; a queued FLOW_END of an older version is void */
    uint32_t cls;     /* shared links: its class */
    double target;    /* shared links: it is delivered when its class has served `target` bytes per flow */
    uint32_t hl, hr;  /* shared links: its class's leftist heap; hl: the next in the class's queue */
    uint32_t npl;
    uint32_t seq; /* shared links: order of joining its class: breaks ties in target (wraps past 2^32) */
} flow;

/* Shared links: the flows in flight along one route (from one host to another) form a class; all share one
 * rate (same links, same weight), so max-min sharing runs over classes, and each class delivers its flows in
 * order of `target` against its virtual service V (bytes per flow served since the class was created).  Its
 * k-th link lists it through next[k], prev[k]: entries c * PACT_ROUTE_MAX + k. */
/* A shared link: one record, as the sharing reads every field of each link it visits (in separate arrays,
 * recursive doubling at 2^18 ranks missed the cache once per field). */
typedef struct {
    double cap0;                /* capacity */
    double cap, w, key;         /* while sharing: capacity left, unfixed weight, capacity left per unit */
    uint32_t head, n, nc;       /* its list of classes (entries), its flows and classes */
    uint32_t fix, mark, hpos;   /* while sharing: unfixed flows, the sharing that visited it, heap position */
    uint32_t csr;               /* its classes' first entry in ccsr (the component kept, one switch) */
    uint8_t dirty;              /* in the list of links touched at this instant */
} slink;

typedef struct {
    uint32_t l;          /* the link */
    uint32_t next, prev; /* the entries before and after on its list */
} class_link;

/* A class of flows: three cache lines, aligned (links.c allocates them so), what a sharing reads of it first
 * in the first, with its first two links (all a class of one switch has): a sharing walks the lists of
 * classes on each link it touches, and where those fields lay across the lines of a 208-byte record, each
 * class it passed cost two or three loads from the cache behind L1.  Apart from it: whether a sharing has
 * fixed it (pact_model_eval.cfix), and its end in the heap of class ends (ce_ent). */
typedef struct {
    uint32_t n; /* flows */
    uint32_t mark;
    uint32_t bn;          /* the link that fixed its rate (links.c: fill_run) */
    uint8_t nl;           /* links */
    uint8_t where;        /* its next end: not scheduled (0), an event in the queue (1), in the heap (2) */
    uint8_t moved;        /* its first flow changed since its end was scheduled */
    double rate, V, last; /* rate per flow */
    class_link e[PACT_ROUTE_MAX];
    double iw;     /* each flow's weight (1 on one switch) */
    double nrate;  /* while sharing: its new rate */
    uint32_t frcv; /* its first flow's receive and target, copied from the flow where it changes: a
                    * sharing that moves a class's end reads no flow (linear alltoall: 22 million
                    * ends moved, each flow's record apart in a pool of a million) */
    double ftarget;
    uint32_t root;   /* heap of its flows by (target, seq) that joined behind a larger target */
    uint32_t qh, qt; /* queue of the others, in order of (target, seq): flows that join with the largest
                      * target so far (equal sizes, as V only grows) go to its end in O(1) */
    uint32_t ver;    /* of its EV_CLASS_END in the queue: bumped when that event is void */
} __attribute__((aligned(64))) fclass;
_Static_assert(__builtin_offsetof(fclass, e) + 2 * sizeof(class_link) <= 64,
               "a class's first two links share its first cache line");

/* An entry of the heap of class ends: class c's next end, when its first flow is served, and its key (that
 * flow's receive). */
typedef struct {
    double t;
    uint64_t k;
    uint32_t c;
} ce_ent;

/* A rank's state, one cache line: what an event of the rank reads and writes of it.  At 1024 ranks the events
 * hop from rank to rank, and a field in an array of P, or in a region of its rank's operations, was a line
 * of its own to fetch at each event (the first ready operation and the first completed request of each rank
 * lay 20 KB apart in ring allreduce).  A rank's ready operations live in rsm while they are one ascending run
 * of RSM at most, else in heap[base[r] ..] (rq_big); its completed requests in csm while CSM at most, else
 * in comp[base[r] ..] (eval.c). */
#define CSM 4
#define RSM 4
typedef struct {
    uint32_t heap_n, rq_head; /* rq_push below: the ready operations sorted in v[rq_head .. heap_n), or
                               * RQ_HEAP: a heap in v[0 .. heap_n) */
    uint32_t comp_n, done, seq;
    int32_t busy;
    uint8_t waiting, wake_pending, rq_big;
    uint32_t csm[CSM], rsm[RSM];
} __attribute__((aligned(64))) rstate;
_Static_assert(sizeof(rstate) == 64, "a rank's state is one cache line");

/* The wakes' levels of bits (pact_model_eval.wbits): 64^6 ranks. */
#define WK_LEVELS 6

/* One switch of at most this many nodes (a bit each in a 64-bit mask) is shared by links.c's share_dense. */
#define DENSE_NODES 64

/* links.c, share_unit: a class on a link of a local sharing's R, as its walk met it: its index in A plus one
 * (0: not in A), its flows, and its rate where it is not in A (A's are in share_unit's array, as the filling
 * sets them). */
typedef struct lent {
    uint32_t ci, n, a;
    double r;
} lent;

/* direct.c: the flows in flight in one class at most, where it follows a class (dc_add). */
#define CLS_MAX 8

/* direct.c: a flow of a class (its target, bytes and start, which order it as links.c does), its message and
 * receive, and who collects its delivery (its receiver, and its sender if rendezvous, else -1). */
typedef struct {
    double target, bytes, ts; /* ts: when it started */
    uint32_t msg, rcv;        /* rcv: its receive operation, which orders it among an instant's events */
    int32_t rd, rs;
} dflow;

/* direct.c: a class of flows as links.c runs it (V, last, rate, moved, its next end), its flows in order of
 * (target, start, receive), and the instant of its last start (whose sharing is still to run). */
typedef struct {
    double V, last, rate, end, t;
    double tie;            /* an instant where a start met an end, or -inf */
    uint32_t n, next;      /* next: the next free state, while it is free */
    uint8_t moved;
    dflow f[CLS_MAX];
} dcls;

/* direct.c: the busy periods a shared link keeps, at most (dl_add). */
#define DLK_K 4

/* direct.c: a shared link's last busy periods (a class's flows from the first's start to the last's end), in
 * order of start, and their classes' ids (0 off one switch); how many in pact_model_eval.dln. */
typedef struct {
    double t0[DLK_K], t1[DLK_K];
    uint32_t b[DLK_K], o[DLK_K]; /* o: on one switch, the class's other link */
} dlink;

struct pact_model_eval {
    size_t cap_n, cap_P, cap_chan, cap_msg, cap_fl, cap_cl, cap_links;
    /* per operation: its dependencies not yet completed until it is ready; then, for a send or a receive,
     * its posting order on its rank (no operation needs both at once) */
    uint32_t *wo;
    uint32_t *heap, *comp;
    rstate *rs;      /* per rank */
    uint64_t *csort; /* collect's radix sort: twice the completed requests of a rank */
    size_t cap_csort;
    /* the ranks woken at wake_t (the EV_WAKE events, outside the queue), taken in order of rank: a set of
     * bits in levels (pact_wk_push, below): rank r is bit r of level 0, and bit i of level k + 1 says that
     * word i of level k has one; nwake of them, the least wmin.  A binary heap of ranks sifted through ten
     * levels at 1024 ranks, where a pairwise exchange's step wakes every rank at once (a tenth of the cell).
     */
    uint64_t *wbits;
    uint32_t nwake, wmin, wlev, woff[WK_LEVELS];
    uint8_t wlone; /* the one wake is wmin alone, not in the bits */
    double wake_t;
    double *exit, *spf, *rpf;
    /* channels and messages */
    uint32_t *nsr;   /* per channel c: sends posted nsr[2c], receives posted nsr[2c+1] */
    uint32_t *mslot; /* per message (a channel's slots): the send or the receive posted first */
    /* flows in flight: a pool with a free list */
    flow *fl;
    uint32_t nfl, ffree, fseq;
    uint32_t nfl_used; /* records fl[0 .. nfl_used) handed out since the run started (the rest of the nfl
                        * made: free); a new run frees them all at once, where rebuilding the free list walked
                        * every record (a million after a linear alltoall at 1024 ranks) at each evaluation */
    /* shared links (one switch: 2 per node, up 2n and down 2n+1; else the routes' links): the classes on
     * each (an entry list), its flows and classes, its capacity; while sharing: capacity left, unfixed flows
     * and their weight, and capacity left per unit of weight.  Classes in a pool. */
    fclass *cl;
    uint8_t *cfix; /* per class, while sharing: fixed (1), and share_local's 2 (checked) and 3 (to join): a
                    * byte apart from the class's record, which a fill that passes a class already fixed (each
                    * class lies on two links) would otherwise load; share_unit's classes of A: their index
                    * in A (links.c, unit_add) */
    uint32_t *cunfixed; /* links.c, fill_run: a link's classes not fixed yet */
    uint32_t ncl, cfree;
    ce_ent *cend; /* classes whose end moved since it was scheduled: a heap on (t, k), one entry per class,
                   * moved in place (as events in the queue, stale ends piled up); or, while they are many
                   * (ce_flat), in no order, the least found by a scan when asked for (links.c) */
    uint32_t ncend, *chpos; /* its entries; per class, its position in it, or NONE */
    uint32_t ce_min;        /* ce_flat: the position of the least entry, or NONE: not known */
    uint32_t ce_flat_on;    /* entries from which the heap goes flat (PACT_MODEL_CE_FLAT) */
    uint64_t ce_scanned, ce_moves; /* flat: entries scanned for the least, and moves (CE_SCAN_PER_LEVEL) */
    uint8_t ce_adapt;              /* whether flat ends become a heap for good once their scans cost more */
    uint8_t ce_flat;
    double *cend_t; /* ce_flat: each entry's t, apart, for a scan four at a time (avx2) */
    /* links.c: AVX2's paths (share_dense, the flat class ends' scan): the processor has it and
     * PACT_MODEL_AVX2 is not 0; the same bits either way */
    int avx2;
    uint32_t nlinks;
    slink *lk;
    uint32_t *comp_l, *comp_c, *dirty, *lheap;
    uint32_t *pstart; /* links.c, fill_parts: where each component starts in comp_l */
    double *lkey;
    double *bused, *btop; /* links.c, share_sums: R's link k's sums for its checks */
    /* links.c, share_unit: the classes on R's links, link by link in list order, taken in one walk a round */
    struct lent *lent;
    size_t cap_lent;
    uint32_t ndirty;
    /* the EV_SHARE of the instant share_t: the shared links' rates found again once everything at share_t
     * has run.  It waits beside the queue, as the wakes and class ends do: in it, a quarter of the events
     * of MPICH's pairwise reduce-scatter at 1024 ranks under random arrivals (1.6 of 6 million) went into
     * the heap of the running instant's late events and out again */
    uint8_t share_pending;
    double share_t;
    uint32_t stamp;
    /* the classes' set changes (a class made or freed: cgen); the one component that the last whole sharing
     * found, kept in comp_l[0..cc_nl) and comp_c[0..cc_nc) under the mark cc_stamp (0: none) while the
     * classes stay those of cc_gen and no other sharing takes a mark */
    uint32_t cgen, cc_stamp, cc_gen, cc_nl, cc_nc;
    /* one switch: that component's classes link by link, in each link's list order (slink.csr) */
    uint32_t *ccsr;
    size_t cap_ccsr;
    const pact_model_routes *rt; /* the params' platform's routes (route.c), or NULL: one switch */
    /* one switch of at most DENSE_NODES nodes (links.c, share_dense): the classes in flight as a matrix, from
     * node u's up link to node d's down link: bit d of dum[u] and bit u of ddm[d], class dcid[u * DENSE_NODES
     * + d] and its flows dn[u * DENSE_NODES + d] = dnt[d * DENSE_NODES + u] (what the sharing reads of each
     * class it fixes: read from the class's record, a load behind another of its id, each in a line of its
     * own) */
    int dense;
    /* one switch past DENSE_NODES nodes (or with PACT_MODEL_SHARE_DENSE=0): the classes in flight by their
     * two links, (up link << 32 | down link) -> class + 1 (links.c, class_get) */
    int cmapped;
    GHashTable *cmap;
    uint64_t dum[DENSE_NODES], ddm[DENSE_NODES];
    uint32_t dcid[DENSE_NODES * DENSE_NODES], dn[DENSE_NODES * DENSE_NODES], dnt[DENSE_NODES * DENSE_NODES];
    evq q;
    size_t events;
    /* pact_model_bounds: each operation's earliest start, then its earliest end, under each pattern (lbt[op
     * K + k]); each channel's least bytes; shared links: each message between nodes (lbm) and the earliest it
     * can flow under each pattern (lbmt), and the bytes each link must carry from each band of instants on
     * (lbw: per pattern and link nb bands, then per pattern the least instant of each band) */
    double *lbt, *chb, *lbw, *lbmt;
    bound_msg *lbm;
    size_t cap_lbt, cap_chb, cap_lbm, cap_lbmt, cap_lbw;
    /* direct.c: per message, the time its first end was posted, then its delivery; per rank, the time from
     * which it acts next, and the ranks to run; per shared link, the last flow's span, and every flow's */
    double *mtime, *dclk, *dnext;
    uint32_t *dwl;
    /* direct.c: per shared link, its last busy periods (dlk, dln of them, dlfloor: the latest end of those
     * dropped), and on one switch the id and end of its last class's period; per up link of one switch, that
     * period's first flow and start, and the class's state once a second flow joins (dcs: an index into the
     * states dcp, or NONE) */
    dlink *dlk;
    uint8_t *dln;
    double *dlfloor, *dend;
    uint32_t *dbid, *dcs;
    dflow *d1;
    double *d1t0;
    dcls *dcp;
    size_t ndcp, cap_dcp;
    uint32_t dcfree;
    /* pact_model_eval_record: per-operation times, or NULL */
    gboolean recording;
    pact_model_op_time *rec;
    size_t cap_rec;
};

/* A rank's ready operations (global indices: the least, the earliest in the schedule, runs first) in v[].
 * While they come in ascending order (linear alltoall readies 2,046 at once, a broadcast's root its
 * children), they wait in a sorted run v[*h .. *n), taken from its front; one that comes out of order turns
 * the run, a heap already, into the executor's heap (sim/ir/heap.h, *h = RQ_HEAP) until it empties.  Either
 * way the least comes first, as from a heap, without a heap's sifting down (half of linear alltoall's rank
 * work at 1024 ranks).  Each operation is pushed once, and an emptied run starts again at v[0]: v needs room
 * for the rank's operations.  Nonempty iff *n > 0. */
#define RQ_HEAP UINT32_MAX

static inline void rq_push(uint32_t *v, uint32_t *n, uint32_t *h, uint32_t op)
{
    if (*h != RQ_HEAP && (*n == *h || v[*n - 1] < op)) {
        v[(*n)++] = op;
        return;
    }
    if (*h != RQ_HEAP) {
        memmove(v, v + *h, (size_t)(*n - *h) * sizeof(uint32_t));
        *n -= *h;
        *h = RQ_HEAP;
    }
    pact_heap hp = {v, *n};
    pact_heap_push(&hp, op);
    *n = (uint32_t)hp.n;
}

static inline uint32_t rq_pop(uint32_t *v, uint32_t *n, uint32_t *h)
{
    uint32_t op;
    if (*h != RQ_HEAP) {
        op = v[(*h)++];
        if (*h == *n)
            *h = *n = 0;
        return op;
    }
    pact_heap hp = {v, *n};
    op = pact_heap_pop(&hp);
    *n = (uint32_t)hp.n;
    if (*n == 0)
        *h = 0;
    return op;
}

static inline gboolean grow(void **p, size_t n, size_t elem)
{
    void *q = realloc(*p, (n ? n : 1) * elem);
    if (!q)
        return FALSE;
    *p = q;
    return TRUE;
}

/* Room for `need` elements of `elem` bytes in *p, whose capacity *cap grows by half again (and 16). */
static inline gboolean reserve_n(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return TRUE;
    size_t c = need + need / 2 + 16;
    if (!grow(p, c, elem))
        return FALSE;
    *cap = c;
    return TRUE;
}


/* mem.c: transparent huge pages for the block p of `bytes` (its 2 MiB-aligned part; only from 4 to 128 MiB). */
void pact_mem_huge(void *p, size_t bytes);
/* mem.c: past 2^18 ranks, small pages for what the process touches from now on. */
void pact_mem_large_p(int P);
/* mem.c: the pages of the block p of `bytes` (those it covers whole) made at once, before it is written. */
void pact_mem_populate(void *p, size_t bytes);
/* Records made this many at a time (flows, a run's events): their pages in one call (pact_mem_populate). */
#define PAGE_CHUNK 65536

#define GROW(field, n) ok = ok && grow((void **)&w->field, (n), sizeof(*w->field))
/* the same, on huge pages */
#define GROW_HUGE(field, n)                                                                                  \
    do {                                                                                                     \
        GROW(field, n);                                                                                      \
        if (ok)                                                                                              \
            pact_mem_huge(w->field, (n) * sizeof(*w->field));                                                \
    } while (0)

static inline int ev_before(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->key < b->key);
}

static inline gboolean ev_push(pact_model_eval *w, double t, uint8_t type, uint32_t id, uint32_t ver,
                               uint64_t key)
{
    /* the common case inline: after the instant that runs, at the end of its type's run, which has room
     * (0 goes through evq_push, which makes -0 and 0 one instant) */
    evq *q = &w->q;
    const int k = evq_run_of[type];
    if (k >= 0 && q->active && t > q->cur_t && t >= q->run[k].tail && q->run[k].n < q->run[k].cap && t != 0) {
        evrun *r = &q->run[k];
        r->v[(r->head + r->n) & (r->cap - 1)] =
            (event){t, ((uint64_t)ev_class[type] << 56) | key, id, ver, type, NONE};
        r->n++;
        r->tail = t;
        q->n++;
        return TRUE;
    }
    return evq_push(q, t, type, id, ver, key);
}


typedef struct {
    pact_model_eval *w;
    const pact_model_sched *s;
    const pact_model_params *m;
    int ppn;
    uint64_t ppn_m; /* pact_div_m(ppn), where ppn > 1: node_of */
    gboolean oom;
    const pact_model_routes *rt; /* shared links along routes, or NULL */
    gboolean prefetch;           /* eval.c: fetch each rank's records ahead */
    uint32_t fill_scan;          /* links.c: components of up to this many links find their most constrained
                                  * link by a scan, larger ones from a heap */
    int share_local;             /* links.c: try a local sharing first (PACT_MODEL_SHARE_LOCAL: 0 never, 2 and
                                  * check it against the whole one) */
    int comp_keep; /* links.c: a whole sharing reuses the component kept (PACT_MODEL_COMP_KEEP) */
    int share_dense; /* links.c: one switch of at most DENSE_NODES nodes shared whole by share_dense
                      * (PACT_MODEL_SHARE_DENSE=0: never) */
    int share_isolated; /* links.c: classes alone on their links shared without share_local's passes
                         * (PACT_MODEL_SHARE_ISOLATED=0: never) */
    int share_memo;     /* links.c: share_local's checks take R's link sums once a round (share_sums;
                         * PACT_MODEL_SHARE_MEMO=0: each check walks its link); 2, on one switch, R's lists
                         * walked once a round into an array that the filling and the sums read (share_unit);
                         * 3, share_unit's A of two classes at most (its hand-over to share_local tested) */
    int coalesce;       /* eval.c: a class end within COALESCE_REL after the pending sharing's instant joins
                         * that instant (PACT_MODEL_COALESCE=0: never) */
    int posted;         /* eval.c: the posted path runs (deliveries raise their ranks' exits) */
    int direct; /* eval.c, direct.c: try the posted or direct path first (PACT_MODEL_DIRECT: 0 never, 2 and
                 * compare the event path's exit times with its own, to the bit) */
    size_t nshare_local, nshare_whole;
    double share_diff, share_diff_t; /* PACT_MODEL_SHARE_LOCAL=2: the largest relative difference, and when */
} sim_t;

/* Up to this many links, fill finds the most constrained by a scan of those left, not by the heap: each class
 * it fixes then costs a division, not a climb and a descent of the heap, and the scans cost at most links^2
 * comparisons (a sharing of linear alltoall on 32 nodes' 64 links fixes up to 992 classes).  Both choose the
 * least (key, link): the same rates, which the tests check by setting PACT_MODEL_FILL_SCAN (0: the heap
 * always; a large number: the scan always). */
#define FILL_SCAN 128

/* The instants that a sharing's rounding split (events_loop): a class end within this much of the instant's
 * time after the instant whose sharing is pending is taken at that instant, unless its class is alone on its
 * links.  Two classes that share links get rates from sums of other classes' rates, taken in an order that
 * follows the classes' history (lists, links in order of index): in exact arithmetic symmetric classes end
 * together, in floating point an ulp apart, and each such instant then shares alone, with rates the other
 * half's ends have not yet freed.  Pairwise alltoall on 1024 ranks (32 x 32, no delay) fell into that at 512
 * B and 1 KiB and not at 511 B or 1023 B: d^ 8% and 4.6% below SimGrid's, which keeps them together, and 2.1
 * times the events.  1e-12 relative: 10^4 ulps of the time, a femtosecond at 1 ms, where the splits are a few
 * ulps; results from 1e-14 to 1e-10 were the same at those cells.  A class alone on its links has its rate
 * without sums (share_isolated: capacity over flows), so its ends are left as they are, which keeps the
 * direct path (direct.c, classes alone on their links) the events' to the bit. */
#define COALESCE_REL 1e-12

/* The wakes' levels for P ranks: each level's first word in off[], their number in *nlev; the words in all.
 */
static inline size_t pact_wk_layout(size_t P, uint32_t *off, uint32_t *nlev)
{
    size_t total = 0, n = P;
    uint32_t l = 0;
    do {
        n = (n + 63) / 64;
        off[l++] = (uint32_t)total;
        total += n;
    } while (n > 1 && l < WK_LEVELS);
    *nlev = l;
    return total;
}

/* Rank r's bit in each level where its word had none. */
static inline void pact_wk_set(pact_model_eval *w, uint32_t r)
{
    for (uint32_t l = 0; l < w->wlev; l++) {
        uint64_t *word = &w->wbits[w->woff[l] + (r >> 6)];
        const uint64_t was = *word;
        *word = was | (uint64_t)1 << (r & 63);
        if (was) /* the levels above know it */
            break;
        r >>= 6;
    }
}

/* Rank r, not among the wakes, joins them.  A lone wake stays out of the bits (wlone) until a second comes:
 * under random arrivals nearly every wake is alone, taken as it came (wake_now). */
static inline void pact_wk_push(pact_model_eval *w, uint32_t r)
{
    if (w->nwake == 0) {
        w->nwake = 1;
        w->wmin = r;
        w->wlone = 1;
        return;
    }
    if (w->wlone) {
        pact_wk_set(w, w->wmin);
        w->wlone = 0;
    }
    pact_wk_set(w, r);
    w->nwake++;
    if (r < w->wmin)
        w->wmin = r;
}

/* The least rank of the wakes (wmin; nwake > 0), taken out; the next least found from the top level down. */
static inline uint32_t pact_wk_pop(pact_model_eval *w)
{
    const uint32_t r = w->wmin;
    if (w->wlone) {
        w->wlone = 0;
        w->nwake = 0;
        return r;
    }
    for (uint32_t l = 0, i = r; l < w->wlev; l++, i >>= 6) {
        uint64_t *word = &w->wbits[w->woff[l] + (i >> 6)];
        if ((*word &= ~((uint64_t)1 << (i & 63))) != 0)
            break;
    }
    if (--w->nwake > 0) {
        uint32_t m = 0;
        for (uint32_t l = w->wlev; l-- > 0;)
            m = m << 6 | (uint32_t)__builtin_ctzll(w->wbits[w->woff[l] + m]);
        w->wmin = m;
    }
    return r;
}

/* a / d for a 32-bit a, by the multiplier m = pact_div_m(d) (d >= 2): the high 64 bits of m a, exact for
 * every 32-bit a and d (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019, with F = 64 =
 * 2N). A message's links ask for two ranks' nodes (and whether they share one): four divisions a message, a
 * hardware division's latency each, where this is a multiplication. */
static inline uint64_t pact_div_m(uint32_t d)
{
    return UINT64_MAX / d + 1;
}

static inline uint32_t pact_div_by(uint32_t a, uint64_t m)
{
    __extension__ typedef unsigned __int128 u128;
    return (uint32_t)(((u128)m * a) >> 64);
}

static inline int node_of(const sim_t *x, int r)
{
    return x->ppn > 1 ? (int)pact_div_by((uint32_t)r, x->ppn_m) : r;
}

static inline int same_node(const sim_t *x, int a, int b)
{
    return x->ppn > 1 && pact_div_by((uint32_t)a, x->ppn_m) == pact_div_by((uint32_t)b, x->ppn_m);
}

/* eval.c: each rank's state, dependencies and ready operations as an evaluation starts (exit: its arrival) */
void pact_ev_ranks_init(sim_t *x, const double *arrivals);

/* direct.c: the evaluation without events where no two messages flow on one shared link at once; FALSE where
 * that does not hold, or the path cannot tell (then the event path runs), with the ranks' exit times in
 * w->exit and their operations done otherwise.  *runs: the ranks' runs it took. */
gboolean pact_ev_direct(sim_t *x, const double *arrivals, size_t *runs);

/* eval.c: a flow's message is delivered (its requests complete) at `now`; the flow is freed */
void pact_ev_deliver(sim_t *x, uint32_t f, double now);

/* The shared links of a message from rank a to rank b (0: a private link, of bandwidth *bw), its latency and
 * weight: the routes', or on one switch each node's up (2n) and down (2n + 1) link.  Inline: each message
 * asks at its match, and as a call it cost ring allreduce at 1024 ranks 3% of its instructions. */
static inline int pact_ev_flow_links(const sim_t *x, int a, int b, uint32_t *l, double *lat, double *iw,
                                     double *bw)
{
    if (x->rt)
        return pact_model_route(x->rt, a, b, l, lat, iw, bw);
    if (same_node(x, a, b)) {
        *lat = x->m->alpha_intra;
        *bw = 1.0 / x->m->beta_intra;
        *iw = 1;
        return 0;
    }
    l[0] = 2u * (uint32_t)node_of(x, a);
    l[1] = 2u * (uint32_t)node_of(x, b) + 1;
    *lat = x->m->alpha;
    *bw = 1.0 / x->m->beta;
    *iw = 1;
    return 2;
}

/* A message of `sent` bytes over a private link (pact_ev_flow_links 0: latency lat, rate bw), matched at tm:
 * delivered its latency and then its bytes and envelope later.  The events (match), the direct path and the
 * posted path all take it from here, so that their times are the same bits. */
static inline double private_end(const sim_t *x, double tm, double lat, double bw, double sent)
{
    const double t = tm + lat, dt = (sent + x->m->envelope) / bw;
    return t + (dt > 0 ? dt : 0);
}

/* links.c: a message's bytes start flowing at `now`; a class delivers its first flows; the rates of
 * everything that changed at `now` */
void pact_ev_flow_start(sim_t *x, uint32_t f, double now);
void pact_ev_class_end(sim_t *x, uint32_t c, double now);
void pact_ev_share(sim_t *x, double now);
guint pact_ev_cmap_hash(gconstpointer key);
/* the first scheduled class end (NULL: none), and its removal */
/* The heap of class ends goes flat from this many entries, and back below a quarter of it: linear alltoall at
 * 1024 ranks moves ends 22.6 million times in a heap of 958 on average, and takes the least 61,000 times; a
 * move in no order costs a store and a comparison, where sifting cost a quarter of the cell.  Pairwise
 * alltoall's 49 (1.4 moves a sharing, a least taken each) stay a heap. */
#define CE_FLAT_ON 128
/* ... and a heap for good once its scans cost more than the heap would: the entries scanned to find the
 * least, against CE_SCAN_PER_LEVEL times the moves times the heap's depth (from CE_SCAN_FLOOR entries
 * scanned). Linear alltoall at 1024 ranks scans 66 million entries for 22.6 million moves (depth 10): flat.
 * On a switch of 256 nodes under random arrivals it scanned 59 million for 224,000 moves, and took twice as
 * long as in a heap. */
#define CE_SCAN_PER_LEVEL 4
#define CE_SCAN_FLOOR 65536
/* ce_flat: the least entry found (ce_min) */
void pact_ev_class_scan(pact_model_eval *w);
static inline const ce_ent *pact_ev_class_next(pact_model_eval *w)
{
    if (!w->ncend)
        return NULL;
    if (!w->ce_flat)
        return &w->cend[0];
    if (w->ce_min == NONE)
        pact_ev_class_scan(w);
    return &w->cend[w->ce_min];
}
void pact_ev_class_pop(pact_model_eval *w);

/* ---- a rank's machinery, shared by the evaluation's two paths (eval.c, direct.c) ---- */

/* Per-rank ready operations (eval_int.h, rq_push): in rsm while they fit there in one ascending run, else in
 * heap[base[r] ..]; either way the least comes first. */
static inline void ready_push(sim_t *x, int r, uint32_t op)
{
    pact_model_eval *w = x->w;
    if (!w->rs[r].rq_big) {
        uint32_t *v = w->rs[r].rsm, n = w->rs[r].heap_n, h = w->rs[r].rq_head;
        if (n < RSM && (n == h || v[n - 1] < op)) {
            v[n] = op;
            w->rs[r].heap_n = n + 1;
            return;
        }
        memcpy(w->heap + x->s->base[r], v + h, (n - h) * sizeof(uint32_t));
        w->rs[r].heap_n = n - h;
        w->rs[r].rq_head = 0;
        w->rs[r].rq_big = 1;
    }
    rq_push(w->heap + x->s->base[r], &w->rs[r].heap_n, &w->rs[r].rq_head, op);
}

static inline uint32_t ready_pop(sim_t *x, int r)
{
    pact_model_eval *w = x->w;
    if (!w->rs[r].rq_big)
        return rq_pop(w->rs[r].rsm, &w->rs[r].heap_n, &w->rs[r].rq_head);
    uint32_t op = rq_pop(w->heap + x->s->base[r], &w->rs[r].heap_n, &w->rs[r].rq_head);
    w->rs[r].rq_big = w->rs[r].heap_n > 0;
    return op;
}

/* How far ahead a rank's records are fetched.  Each rank walks its own operations in order, but the ranks
 * interleave (a thousand walks at once, which no hardware prefetcher follows), so each record came from
 * memory when its rank reached it: at 1024 ranks the loads of release's successors alone were a fifth of a
 * cell.  A rank fetches the records of its operations PREFETCH ahead, and they are in cache when it gets
 * there; up to PREFETCH_RANKS ranks, beyond which a rank comes back after its lines have left the cache
 * (recursive doubling at 2^20 ranks took twice as long fetching them). */
#define PREFETCH 16
#define PREFETCH_RANKS 16384

/* Operation op of rank r done, its record o given (b, e: the rank's first operation and the next rank's):
 * each successor whose last predecessor it was is ready. */
static inline void release_rec(sim_t *x, int r, uint32_t op, const sop *o, uint32_t b, uint32_t e)
{
    const pact_model_sched *s = x->s;
    uint32_t *wo = x->w->wo;
    x->w->rs[r].done++;
    if (x->prefetch && op + PREFETCH < e) { /* its own: a rank of a few operations, nothing */
        __builtin_prefetch(o + PREFETCH);
        __builtin_prefetch(&wo[op + PREFETCH], 1);
        __builtin_prefetch(&s->chan[op + PREFETCH]);
        __builtin_prefetch(&s->succ[o[PREFETCH / 2].sfirst]);
    }
    for (uint32_t k = o[0].sfirst; k < o[1].sfirst; k++)
        if (--wo[b + s->succ[k]] == 0)
            ready_push(x, r, b + s->succ[k]);
}

static inline void release(sim_t *x, int r, uint32_t op)
{
    const pact_model_sched *s = x->s;
    const uint32_t b = s->base[r];
    release_rec(x, r, op, &s->op[s->shb[r] + (op - b)], b, s->base[r + 1]);
}

/* The direct and posted paths' matching (direct.c, eval.c): operation op posts the next send (send) or
 * receive of channel c at `now`, message *msg.  Where the other end was posted first: 1, with that end's
 * operation in *other and its post time in *t1 (the slot still holds them); else 0, with op and now kept in
 * the slot for the other end to find. */
static inline int slot_post(pact_model_eval *w, const pact_model_sched *s, uint32_t c, int send, uint32_t op,
                            double now, uint32_t *msg, uint32_t *other, double *t1)
{
    const uint32_t k = w->nsr[2 * c + !send]++;
    *msg = s->ch[c].slot + k;
    if (!(w->nsr[2 * c + send] > k)) {
        w->mtime[*msg] = now;
        w->mslot[*msg] = op;
        return 0;
    }
    *other = w->mslot[*msg];
    *t1 = w->mtime[*msg];
    return 1;
}

static inline double local_cost(const sim_t *x, const sop *o)
{
    switch (SOP_KIND(o)) {
    case PACT_OP_REDUCE:
        return x->m->gamma * x->s->bval[SOP_BIDX(o)];
    case PACT_OP_COPY:
        return x->m->copy_beta * x->s->bval[SOP_BIDX(o)];
    default:
        return 0;
    }
}

#endif
