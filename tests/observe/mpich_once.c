/* mpich_once.c: run one MPICH collective once and tell which MPIR algorithm ran.
 *
 *   mpiexec.mpich -n NP [env, see mpich-observe.sh] mpich_once COLL BYTES [builtin|user]
 *
 * COLL: allreduce reduce bcast alltoall allgather barrier reduce_scatter.  BYTES: per process (per block for
 * alltoall and allgather, per rank's result for reduce_scatter; rounded down to whole ints).  Root 0.  The
 * reductions use MPI_SUM on MPI_INT, or with "user" a user-defined commutative sum (MPICH's built-in tree
 * then sees is_op_built_in=no, and reduce_scatter_allgather and reduce_scatter_gather assert
 * HANDLE_IS_BUILTIN(op)). Records are taken only around the collective:
 *   - with "user", the op logs the length of every call on every rank (checked against the algorithm too);
 *   - mpich_spy.so (LD_PRELOAD) logs every UCX tag send: its endpoint, which a calibration round after the
 *     collective maps to a destination rank, its size, and its tag's context id, which tells a collective on
 *     MPI_COMM_WORLD ('w') from one on its node_comm ('n', what the smp algorithms use on one node).
 * Rank 0 gathers both, compares them with the pattern each MPICH 4.0.2 MPIR algorithm produces at this size
 * (written out below from src/mpi/coll/<coll>/<coll>_intra_*.c: per rank, the communicator, destination and
 * size of each send in order, and with "user" the length of each op call), and prints the one algorithm that
 * matches.  No match, more than one, or a record the spy could not take: a message and exit 2.
 * MPICH_OBSERVE_VERBOSE=1 prints the records on stderr.  MPICH_ONCE_WARMUP=N: N unrecorded calls first.
 * MPICH_ONCE_ROOT=R: reduce and bcast from root R (the patterns below assume 0: with another root only DUMP).
 * MPICH_ONCE_DUMP=1: no matching; rank 0 prints every rank's sends as "RANK DEST BYTES" lines, in the order
 * the rank made them, destinations as MPI_COMM_WORLD ranks whatever the communicator (tests/integration/
 * tune-obey.sh compares them with the sends of pact's own schedule for the algorithm MPICH was told to run).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpich_spy.h"

#define MAX_NP 16
#define MAX_REC 128 /* sends and op calls per rank */
#define LINE 2048   /* one rank's record as text: MAX_REC entries of up to 15 characters fit */

struct record {
    int n_ops;
    int op_len[MAX_REC];
    int n_sends;        /* -1: the spy overflowed or is missing */
    int peer[MAX_REC];  /* -1: endpoint not calibrated */
    char comm[MAX_REC]; /* 'w': a collective on MPI_COMM_WORLD, 'n': on its node_comm, '?': other */
    long bytes[MAX_REC];
    int contig[MAX_REC];
};

static struct record rec;
static int op_on;

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    if (op_on && rec.n_ops < MAX_REC)
        rec.op_len[rec.n_ops++] = *len;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* ---- expected patterns: per rank, its sends in order (destination and size) and its op call lengths ---- */

struct pattern {
    char sends[MAX_NP][LINE]; /* per rank: communicator and destination, "w2,w1" */
    char sizes[MAX_NP][LINE]; /* per rank: bytes, or "x<count>" for a noncontiguous datatype */
    char ops[MAX_NP][LINE];   /* per rank: lengths of the op calls */
    int sized;                /* sizes modelled (else destinations only) */
    int ops_unmodelled;       /* op calls not modelled (not compared) */
};

static void add(char *s, long v)
{
    size_t n = strlen(s);
    snprintf(s + n, LINE - n, "%s%ld", n ? "," : "", v);
}

static void add_peer(char *s, char comm, int peer)
{
    size_t n = strlen(s);
    snprintf(s + n, LINE - n, "%s%c%d", n ? "," : "", comm, peer);
}

static void cat(char *s, const char *t)
{
    size_t n = strlen(s);
    if (*t)
        snprintf(s + n, LINE - n, "%s%s", n ? "," : "", t);
}

static void add_noncontig(char *s, long count)
{
    size_t n = strlen(s);
    snprintf(s + n, LINE - n, "%sx%ld", n ? "," : "", count);
}

static int ilog2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* binomial tree from root 0: rank r sends to r + m for m from its lowest set bit (np for the root) down */
static int binomial_top(int r, int np)
{
    int mask = 1;
    while (mask < np && !(r & mask))
        mask <<= 1;
    return mask;
}

/* fill p for algorithm alg run on communicator comm ('w' or 'n', all np ranks), c ints per process (per block
 * for alltoall and allgather, per rank's result for reduce_scatter), b = the bytes of those (1 for the byte
 * that barrier smp broadcasts).  1: modelled; 0: not modelled at this np (mpich_once then refuses to name any
 * algorithm of that collective); -1: MPICH asserts here (a restriction the JSON path does not check), so it
 * cannot have run to completion */
static int expect(const char *alg, int np, int c, long b, char comm, struct pattern *p)
{
    memset(p, 0, sizeof(*p));
    int pof2 = (1 << ilog2(np)) == np;
    int pof2_floor = pof2 ? np : 1 << (ilog2(np) - 1); /* comm_ptr->coll.pof2 */
    /* sizes of the algorithms that halve or chunk are modelled when that divides evenly */
    int even = pof2 && c % np == 0 && b % np == 0;
    p->sized = 1;
    long ch = b / np; /* the bcast scatter chunk */
    for (int r = 0; r < np; r++) {
        char *s = p->sends[r], *z = p->sizes[r], *o = p->ops[r];
#define SEND(peer, bytes) (add_peer(s, comm, (peer)), add(z, (bytes)))
        if (!strcmp(alg, "MPIR_Allreduce_intra_recursive_doubling")) {
            if (!pof2)
                return 0;
            for (int m = 1; m < np; m <<= 1) {
                SEND(r ^ m, b);
                add(o, c);
            }
        } else if (!strcmp(alg, "MPIR_Allreduce_intra_reduce_scatter_allgather")) {
            if (c < pof2_floor) /* MPIR_Assert(count >= pof2) */
                return -1;
            if (!pof2)
                return 0;
            p->sized = even;
            for (int m = 1; m < np; m <<= 1) {
                SEND(r ^ m, b / (2 * m));
                add(o, c / (2 * m));
            }
            for (int m = np / 2; m > 0; m >>= 1)
                SEND(r ^ m, b / (2 * m));
        } else if (!strcmp(alg, "MPIR_Reduce_intra_binomial")) {
            /* commutative op, root 0: reduce what the children send (smallest subtree first), send to parent
             */
            int m = 1;
            for (; m < np && !(r & m); m <<= 1)
                if (r + m < np)
                    add(o, c);
            if (r)
                SEND(r & ~m, b);
        } else if (!strcmp(alg, "MPIR_Reduce_intra_reduce_scatter_gather")) {
            if (c < pof2_floor) /* MPIR_Assert(count >= pof2) */
                return -1;
            if (!pof2)
                return 0;
            p->sized = even;
            for (int m = 1; m < np; m <<= 1) {
                SEND(r ^ m, b / (2 * m));
                add(o, c / (2 * m));
            }
            /* gather of the pieces to root 0: mask from np/2 down, send at the first bit set in r, holding
             * np/(2m) pieces by then */
            for (int m = np / 2; m > 0; m >>= 1)
                if (r & m) {
                    SEND(r ^ m, b / (2 * m));
                    break;
                }
        } else if (!strcmp(alg, "MPIR_Bcast_intra_binomial")) {
            for (int m = binomial_top(r, np) >> 1; m > 0; m >>= 1)
                if (r + m < np)
                    SEND(r + m, b);
        } else if (!strcmp(alg, "MPIR_Bcast_intra_scatter_recursive_doubling_allgather") ||
                   !strcmp(alg, "MPIR_Bcast_intra_scatter_ring_allgather")) {
            int rd = strstr(alg, "recursive_doubling") != NULL;
            if (rd && !pof2)
                return 0;
            p->sized = even;
            /* binomial scatter: the subtree of r + m gets m chunks */
            for (int m = binomial_top(r, np) >> 1; m > 0; m >>= 1)
                if (r + m < np)
                    SEND(r + m, m * ch);
            for (int m = 1; rd && m < np; m <<= 1)
                SEND(r ^ m, m * ch);
            for (int i = 1; !rd && i < np; i++)
                SEND((r + 1) % np, ch);
        } else if (!strcmp(alg, "MPIR_Allgather_intra_ring")) {
            for (int i = 1; i < np; i++)
                SEND((r + 1) % np, b);
        } else if (!strcmp(alg, "MPIR_Allgather_intra_recursive_doubling")) {
            if (!pof2) /* MPIR_Assert(!(comm_size & (comm_size - 1))) */
                return -1;
            for (int m = 1; m < np; m <<= 1)
                SEND(r ^ m, m * b);
        } else if (!strcmp(alg, "MPIR_Allgather_intra_brucks")) {
            int m = 1;
            for (; m <= np / 2; m <<= 1)
                SEND((r - m + np) % np, m * b);
            if (np - m > 0) /* the rest: np - m blocks */
                SEND((r - m + np) % np, (np - m) * b);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_brucks")) {
            for (int m = 1; m < np; m <<= 1) { /* packs the blocks whose index has bit m */
                int blocks = 0;
                for (int i = 0; i < np; i++)
                    blocks += (i & m) != 0;
                SEND((r + m) % np, blocks * b);
            }
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_scattered")) {
            if (np > 32) /* MPIR_CVAR_ALLTOALL_THROTTLE batches */
                return 0;
            for (int i = 0; i < np; i++) /* i = 0: to itself, through UCX too */
                SEND((r - i + np) % np, b);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_pairwise")) {
            for (int i = 1; i < np; i++)
                SEND(pof2 ? r ^ i : (r + i) % np, b);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_pairwise_sendrecv_replace")) {
            for (int j = 0; j < np; j++) /* j = r: MPIC_Sendrecv_replace with itself */
                SEND(j, b);
        } else if (!strcmp(alg, "MPIR_Barrier_intra_dissemination")) {
            for (int m = 1; m < np; m <<= 1)
                SEND((r + m) % np, 0);
        } else if (!strcmp(alg, "MPIR_Reduce_scatter_intra_recursive_halving")) {
            if (!pof2) /* (reduce_scatter moves whole blocks of c: its sizes are exact) */
                return 0;
            for (int m = np / 2; m > 0; m >>= 1) {
                SEND(r ^ m, m * b);
                add(o, m * c);
            }
        } else if (!strcmp(alg, "MPIR_Reduce_scatter_intra_pairwise")) {
            for (int i = 1; i < np; i++) {
                SEND((r + i) % np, b);
                add(o, c);
            }
        } else if (!strcmp(alg, "MPIR_Reduce_scatter_intra_recursive_doubling")) {
            if (!pof2) /* (reduce_scatter moves whole blocks of c: its sizes are exact) */
                return 0;
            /* at mask m, all blocks but those of r's subtree [root, root + m): an indexed datatype of two
             * pieces, sent as 1 element, which MPICH finds contiguous when the upper piece is empty */
            p->ops_unmodelled = 1;
            for (int m = 1; m < np; m <<= 1) {
                int root = r & ~(m - 1);
                add_peer(s, comm, r ^ m);
                if (root + m >= np)
                    add(z, (np - m) * b);
                else
                    add_noncontig(z, 1);
            }
        } else if (!strcmp(alg, "MPIR_Reduce_scatter_intra_noncommutative")) {
            if (!pof2) /* MPIR_Assert(pof2 == comm_size) */
                return -1;
            for (int m = 1; m < np; m <<= 1) {
                SEND(r ^ m, np / (2 * m) * b);
                add(o, np / (2 * m) * c);
            }
        } else {
            return 0;
        }
#undef SEND
    }
    return 1;
}

static const char *const algs[] = {
    "MPIR_Allreduce_intra_smp",
    "MPIR_Allreduce_intra_recursive_doubling",
    "MPIR_Allreduce_intra_reduce_scatter_allgather",
    "MPIR_Reduce_intra_binomial",
    "MPIR_Reduce_intra_smp",
    "MPIR_Reduce_intra_reduce_scatter_gather",
    "MPIR_Bcast_intra_binomial",
    "MPIR_Bcast_intra_scatter_recursive_doubling_allgather",
    "MPIR_Bcast_intra_scatter_ring_allgather",
    "MPIR_Bcast_intra_smp",
    "MPIR_Alltoall_intra_brucks",
    "MPIR_Alltoall_intra_pairwise",
    "MPIR_Alltoall_intra_pairwise_sendrecv_replace",
    "MPIR_Alltoall_intra_scattered",
    "MPIR_Allgather_intra_brucks",
    "MPIR_Allgather_intra_recursive_doubling",
    "MPIR_Allgather_intra_ring",
    "MPIR_Barrier_intra_smp",
    "MPIR_Barrier_intra_dissemination",
    "MPIR_Reduce_scatter_intra_noncommutative",
    "MPIR_Reduce_scatter_intra_pairwise",
    "MPIR_Reduce_scatter_intra_recursive_doubling",
    "MPIR_Reduce_scatter_intra_recursive_halving",
};

static const char *const colls[] = {"allreduce", "reduce",  "bcast",         "alltoall",
                                    "allgather", "barrier", "reduce_scatter"};
static const char *const prefixes[] = {
    "MPIR_Allreduce_intra_", "MPIR_Reduce_intra_",  "MPIR_Bcast_intra_",         "MPIR_Alltoall_intra_",
    "MPIR_Allgather_intra_", "MPIR_Barrier_intra_", "MPIR_Reduce_scatter_intra_"};

static int root_of(void)
{
    const char *r = getenv("MPICH_ONCE_ROOT");
    return r ? atoi(r) : 0;
}

static void call(int coll, int c, int np, int *a, int *b, MPI_Op op)
{
    switch (coll) {
    case 0:
        MPI_Allreduce(a, b, c, MPI_INT, op, MPI_COMM_WORLD);
        break;
    case 1:
        MPI_Reduce(a, b, c, MPI_INT, op, root_of(), MPI_COMM_WORLD);
        break;
    case 2:
        MPI_Bcast(a, c, MPI_INT, root_of(), MPI_COMM_WORLD);
        break;
    case 3:
        MPI_Alltoall(a, c, MPI_INT, b, c, MPI_INT, MPI_COMM_WORLD);
        break;
    case 4:
        MPI_Allgather(a, c, MPI_INT, b, c, MPI_INT, MPI_COMM_WORLD);
        break;
    case 5:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    default: {
        int counts[MAX_NP];
        for (int i = 0; i < np; i++)
            counts[i] = c;
        MPI_Reduce_scatter(a, b, counts, MPI_INT, op, MPI_COMM_WORLD);
        break;
    }
    }
}

/* MPICH_ONCE_WARMUP=N: N unrecorded calls of the same collective first (the POSIX release_gather path, when
 * it is reachable, only starts after MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD calls) */
static void run(int coll, int c, int np, int me, int user_op)
{
    int *a = calloc((size_t)c * np + 1, sizeof(int)), *b = calloc((size_t)c * np + 1, sizeof(int));
    MPI_Op op = MPI_SUM;
    if (user_op)
        MPI_Op_create(sum_op, 1, &op);
    for (int i = 0; i < c * np; i++)
        a[i] = me + i;
    const char *w = getenv("MPICH_ONCE_WARMUP");
    for (int i = 0, n = w ? atoi(w) : 0; i < n; i++)
        call(coll, c, np, a, b, op);
    mpich_spy_record_fn record = (mpich_spy_record_fn)dlsym(RTLD_DEFAULT, "mpich_spy_record");
    MPI_Barrier(MPI_COMM_WORLD);
    op_on = 1;
    if (record)
        record(1);
    call(coll, c, np, a, b, op);
    if (record)
        record(0);
    op_on = 0;
    if (user_op)
        MPI_Op_free(&op);
    free(a);
    free(b);
}

typedef char table[MAX_NP][LINE];

static int same(const struct pattern *p, int np, int user_op, table sends, table sizes, table ops)
{
    for (int r = 0; r < np; r++)
        if (strcmp(p->sends[r], sends[r]) || (p->sized && strcmp(p->sizes[r], sizes[r])) ||
            (user_op && !p->ops_unmodelled && strcmp(p->ops[r], ops[r])))
            return 0;
    return 1;
}

/* p = first then second, rank by rank */
static void compose(struct pattern *p, const struct pattern *first, const struct pattern *second)
{
    *p = *first;
    for (int r = 0; r < MAX_NP; r++) {
        cat(p->sends[r], second->sends[r]);
        cat(p->sizes[r], second->sizes[r]);
        cat(p->ops[r], second->ops[r]);
    }
    p->sized = first->sized && second->sized;
    p->ops_unmodelled = first->ops_unmodelled || second->ops_unmodelled;
}

/* the algorithms an smp algorithm runs on the node_comm (with MPIR_CVAR_DEVICE_COLLECTIVES=none, through the
 * MPIR tree again: node_comm is no parent communicator, so not smp) */
static const char *const inner_reduce[] = {"MPIR_Reduce_intra_binomial",
                                           "MPIR_Reduce_intra_reduce_scatter_gather"};
static const char *const inner_bcast[] = {"MPIR_Bcast_intra_binomial",
                                          "MPIR_Bcast_intra_scatter_recursive_doubling_allgather",
                                          "MPIR_Bcast_intra_scatter_ring_allgather"};
static const char *const inner_barrier[] = {"MPIR_Barrier_intra_dissemination"};
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* NULL when alg's pattern is not the observed one; else "" or, for an smp algorithm, what ran on node_comm.
 * On one node the smp algorithms (src/mpi/coll/<coll>/<coll>_intra_smp.c, node_roots_comm NULL) are:
 * allreduce = reduce to node rank 0 + bcast from it, reduce = reduce, bcast = bcast, barrier = barrier + a
 * one-byte bcast, all on node_comm; the root is 0 on both communicators. */
static const char *matches(const char *alg, int np, int c, int user_op, table sends, table sizes, table ops)
{
    static struct pattern p, q, pq;
    static char how[256];
    long b = (long)c * (long)sizeof(int);
    if (!strstr(alg, "_intra_smp"))
        return expect(alg, np, c, b, 'w', &p) > 0 && same(&p, np, user_op, sends, sizes, ops) ? "" : NULL;
    const char *const *first = inner_reduce, *const *second = NULL;
    size_t n_first = N_OF(inner_reduce), n_second = 1;
    long b2 = b;
    if (strstr(alg, "Allreduce")) {
        second = inner_bcast;
        n_second = N_OF(inner_bcast);
    } else if (strstr(alg, "Bcast")) {
        first = inner_bcast;
        n_first = N_OF(inner_bcast);
    } else if (strstr(alg, "Barrier")) {
        first = inner_barrier;
        n_first = N_OF(inner_barrier);
        second = inner_bcast;
        n_second = N_OF(inner_bcast);
        b2 = 1;
    }
    for (size_t i = 0; i < n_first; i++)
        for (size_t j = 0; j < n_second; j++) {
            if (expect(first[i], np, c, b, 'n', &p) <= 0)
                continue;
            if (second && expect(second[j], np, b2 == 1 ? 1 : c, b2, 'n', &q) <= 0)
                continue;
            if (second)
                compose(&pq, &p, &q);
            if (same(second ? &pq : &p, np, user_op, sends, sizes, ops)) {
                snprintf(how, sizeof(how), "%s%s%s", first[i], second ? " then " : "",
                         second ? second[j] : "");
                return how;
            }
        }
    return NULL;
}

/* after the collective: each rank sends one message to every other rank, telling the spy its destination */
static void calibrate(int np, int me)
{
    mpich_spy_label_fn label = (mpich_spy_label_fn)dlsym(RTLD_DEFAULT, "mpich_spy_label");
    mpich_spy_events_fn events = (mpich_spy_events_fn)dlsym(RTLD_DEFAULT, "mpich_spy_events");
    mpich_spy_peer_fn peer = (mpich_spy_peer_fn)dlsym(RTLD_DEFAULT, "mpich_spy_peer");
    mpich_spy_label_context_fn label_context =
        (mpich_spy_label_context_fn)dlsym(RTLD_DEFAULT, "mpich_spy_label_context");
    rec.n_sends = -1;
    if (!label || !events || !peer || !label_context)
        return;
    MPI_Barrier(MPI_COMM_WORLD);
    int in[MAX_NP], out = me;
    MPI_Request rq[MAX_NP];
    MPI_Status st[MAX_NP];
    for (int j = 0; j < np; j++)
        MPI_Irecv(&in[j], 1, MPI_INT, j, 4711, MPI_COMM_WORLD, &rq[j]);
    for (int j = 0; j < np; j++) { /* itself included: MPICH sends to itself through UCX as well */
        label(j);
        MPI_Send(&out, 1, MPI_INT, j, 4711, MPI_COMM_WORLD);
    }
    MPI_Waitall(np, rq, st);
    const struct mpich_spy_event *ev;
    int k = events(&ev);
    if (k < 0 || k > MAX_REC)
        return;
    /* context ids (src/include/mpir_contextid.h): MPI_COMM_WORLD's point-to-point one is the calibration's,
     * its collectives use that + MPIR_CONTEXT_INTRA_COLL (1), its node_comm that +
     * MPIR_CONTEXT_INTRANODE_OFFSET (1 << 1) and its collectives + 1 again */
    int world = label_context();
    for (int i = 0; i < k; i++) {
        int rel = MPICH_SPY_CONTEXT(ev[i].tag) - world;
        rec.comm[i] = rel == 1 ? 'w' : rel == 3 ? 'n' : '?';
        rec.peer[i] = peer(ev[i].ep);
        rec.bytes[i] = (long)ev[i].count;
        rec.contig[i] = ev[i].contig;
    }
    rec.n_sends = k;
}

static void render(const struct record *r, char *sends, char *sizes, char *ops)
{
    sends[0] = sizes[0] = ops[0] = 0;
    for (int i = 0; i < r->n_sends; i++) {
        add_peer(sends, r->comm[i], r->peer[i]);
        size_t n = strlen(sizes);
        snprintf(sizes + n, LINE - n, "%s%s%ld", n ? "," : "", r->contig[i] ? "" : "x", r->bytes[i]);
    }
    for (int i = 0; i < r->n_ops; i++)
        add(ops, r->op_len[i]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np, me, coll = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int args_ok = argc == 3 || (argc == 4 && (!strcmp(argv[3], "user") || !strcmp(argv[3], "builtin")));
    for (int i = 0; args_ok && i < (int)(sizeof(colls) / sizeof(colls[0])); i++)
        if (!strcmp(argv[1], colls[i]))
            coll = i;
    long bytes = args_ok ? atol(argv[2]) : -1;
    int user_op = argc == 4 && !strcmp(argv[3], "user");
    /* a collective on 0 elements sends nothing, like a forced smp: refuse it rather than guess */
    if (coll < 0 || bytes < 0 || (coll != 5 && bytes < (long)sizeof(int)) || np > MAX_NP || root_of() < 0 ||
        root_of() >= np) {
        if (me == 0)
            fprintf(stderr,
                    "usage: mpich_once allreduce|reduce|bcast|alltoall|allgather|barrier|reduce_scatter BYTES"
                    " [builtin|user]\n(BYTES >= 4 but for barrier, <= 16 ranks)\n");
        MPI_Finalize();
        return 2;
    }
    int c = (int)(bytes / (long)sizeof(int));
    run(coll, c, np, me, user_op);
    calibrate(np, me);

    struct record *all = me == 0 ? calloc((size_t)np, sizeof(*all)) : NULL;
    MPI_Gather(&rec, (int)sizeof(rec), MPI_BYTE, all, (int)sizeof(rec), MPI_BYTE, 0, MPI_COMM_WORLD);
    int rc = 0;
    if (me == 0) {
        static table sends, sizes, ops;
        int ok = 1;
        for (int r = 0; r < np; r++) {
            render(&all[r], sends[r], sizes[r], ops[r]);
            if (all[r].n_sends < 0)
                ok = 0;
            for (int i = 0; i < all[r].n_sends; i++)
                if (all[r].peer[i] < 0)
                    ok = 0;
        }
        if (getenv("MPICH_OBSERVE_VERBOSE") && *getenv("MPICH_OBSERVE_VERBOSE") == '1')
            for (int r = 0; r < np; r++)
                fprintf(stderr, "rank %d: sends to [%s] sizes [%s] op lens [%s]\n", r, sends[r], sizes[r],
                        ops[r]);
        const char *dump = getenv("MPICH_ONCE_DUMP");
        int dumped = 0;
        if (ok && dump && *dump == '1') {
            for (int r = 0; r < np; r++)
                for (int i = 0; i < all[r].n_sends; i++)
                    printf("%d %d %ld\n", r, all[r].peer[i], all[r].bytes[i]);
            ok = 0; /* no matching */
            dumped = 1;
        } else if (!ok)
            fprintf(stderr, "mpich_once: no send record (is mpich_spy.so preloaded?) or a send to an "
                            "uncalibrated endpoint\n");
        const char *found = NULL, *inner = "", *unmodelled = NULL;
        int n_found = 0;
        static struct pattern scratch;
        for (size_t i = 0; ok && i < sizeof(algs) / sizeof(algs[0]); i++) {
            if (strncmp(algs[i], prefixes[coll], strlen(prefixes[coll])))
                continue;
            if (!strstr(algs[i], "_intra_smp") &&
                expect(algs[i], np, c, (long)c * (long)sizeof(int), 'w', &scratch) == 0) {
                unmodelled = algs[i]; /* it could have run, and its pattern might be the one seen */
                continue;
            }
            const char *how = matches(algs[i], np, c, user_op, sends, sizes, ops);
            if (how) {
                found = algs[i];
                inner = how;
                n_found++;
            }
        }
        if (!ok) {
            rc = dumped ? 0 : 2;
        } else if (unmodelled) {
            fprintf(stderr,
                    "mpich_once: %s %ld bytes at %d ranks: cannot tell, %s is not modelled at %d ranks\n",
                    colls[coll], bytes, np, unmodelled, np);
            rc = 2;
        } else if (n_found != 1) {
            fprintf(stderr,
                    "mpich_once: %s %ld bytes at %d ranks: the pattern matches %s known MPIR algorithm\n",
                    colls[coll], bytes, np, n_found ? "more than one" : "no");
            for (int r = 0; r < np; r++)
                fprintf(stderr, "  rank %d: sends to [%s] sizes [%s] op lens [%s]\n", r, sends[r], sizes[r],
                        ops[r]);
            rc = 2;
        } else {
            printf("%s\n", found);
            if (*inner && getenv("MPICH_OBSERVE_VERBOSE") && *getenv("MPICH_OBSERVE_VERBOSE") == '1')
                fprintf(stderr, "%s: on node_comm %s\n", found, inner);
        }
        free(all);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
