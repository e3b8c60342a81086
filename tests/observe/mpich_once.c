/* mpich_once.c: run one MPICH collective once and tell which MPIR algorithm ran.
 *
 *   mpiexec.mpich -n NP [env, see mpich-observe.sh] mpich_once COLL BYTES [builtin|user]
 *
 * COLL: allreduce reduce bcast alltoall allgather barrier.  BYTES: per process (per block for alltoall and
 * allgather; rounded down to whole ints).  Root 0.  The reductions use MPI_SUM on MPI_INT, or with "user" a
 * user-defined commutative sum (MPICH's built-in tree then sees is_op_built_in=no, and reduce_scatter_allgather
 * and reduce_scatter_gather assert HANDLE_IS_BUILTIN(op)).  Records are taken only around the collective:
 *   - with "user", the op logs the length of every call on every rank (checked against the algorithm too);
 *   - mpich_spy.so (LD_PRELOAD) logs every UCX tag send, whose endpoint a calibration round after the
 *     collective maps to a destination rank.
 * Rank 0 gathers both, compares them with the send pattern and reduction pattern each MPICH 4.0.2 MPIR
 * algorithm produces at this size (written out below from src/mpi/coll/<coll>/<coll>_intra_*.c), and prints
 * the one algorithm that matches.  No match, or a record the spy could not take: a message and exit 2.
 * MPICH_OBSERVE_VERBOSE=1 prints the records on stderr. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpich_spy.h"

#define MAX_REC 128
#define TEXT 2048

struct record {
    int n_ops;
    int op_len[MAX_REC];
    int n_sends;       /* -1: the spy overflowed or is missing */
    int peer[MAX_REC]; /* -1: endpoint not calibrated */
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

/* ---- expected patterns: per rank, the destinations of its sends in order, and its op call lengths ---- */

struct pattern {
    char sends[64][TEXT / 8]; /* per rank: "2,1" */
    char ops[64][TEXT / 8];   /* per rank: "c,c" with numbers */
};

static void add(char *s, long v)
{
    size_t n = strlen(s);
    snprintf(s + n, TEXT / 8 - n, "%s%ld", n ? "," : "", v);
}

static int ilog2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* binomial tree from root 0: the children rank r sends to, in MPICH's order (largest subtree first) */
static void binomial_sends(char *s, int r, int np)
{
    int mask = 1;
    while (mask < np && !(r & mask))
        mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < np)
            add(s, r + mask);
}

/* fill p for algorithm name at np ranks, c elements per process; 0 when not modelled at this np/c */
static int expect(const char *alg, int np, int c, struct pattern *p)
{
    memset(p, 0, sizeof(*p));
    int pof2 = (1 << ilog2(np)) == np;
    for (int r = 0; r < np; r++) {
        char *s = p->sends[r], *o = p->ops[r];
        if (!strcmp(alg, "MPIR_Allreduce_intra_recursive_doubling")) {
            if (!pof2)
                return 0;
            for (int m = 1; m < np; m <<= 1) {
                add(s, r ^ m);
                add(o, c);
            }
        } else if (!strcmp(alg, "MPIR_Allreduce_intra_reduce_scatter_allgather")) {
            if (!pof2 || c % np)
                return 0;
            for (int m = 1, len = c / 2; m < np; m <<= 1, len /= 2) {
                add(s, r ^ m);
                add(o, len);
            }
            for (int m = np / 2; m > 0; m >>= 1)
                add(s, r ^ m);
        } else if (!strcmp(alg, "MPIR_Allreduce_intra_smp") || !strcmp(alg, "MPIR_Reduce_intra_smp") ||
                   !strcmp(alg, "MPIR_Bcast_intra_smp") || !strcmp(alg, "MPIR_Barrier_intra_smp")) {
            /* with MPIR_CVAR_NOLOCAL=1 the communicator has neither node_comm nor node_roots_comm: the smp
             * algorithms skip every step and send nothing, reduce nothing */
        } else if (!strcmp(alg, "MPIR_Reduce_intra_binomial")) {
            /* commutative op, root 0: receive from children (smallest subtree first), then send to parent */
            int m = 1;
            for (; m < np && !(r & m); m <<= 1)
                if (r + m < np)
                    add(o, c);
            if (r)
                add(s, r & ~m);
        } else if (!strcmp(alg, "MPIR_Reduce_intra_reduce_scatter_gather")) {
            if (!pof2 || c % np)
                return 0;
            for (int m = 1, len = c / 2; m < np; m <<= 1, len /= 2) {
                add(s, r ^ m);
                add(o, len);
            }
            /* gather of the pieces to root 0: mask from pof2/2 down, send at the first bit set in r */
            for (int m = np / 2; m > 0; m >>= 1)
                if (r & m) {
                    add(s, r ^ m);
                    break;
                }
        } else if (!strcmp(alg, "MPIR_Bcast_intra_binomial")) {
            binomial_sends(s, r, np);
        } else if (!strcmp(alg, "MPIR_Bcast_intra_scatter_recursive_doubling_allgather")) {
            if (!pof2)
                return 0;
            binomial_sends(s, r, np);
            for (int m = 1; m < np; m <<= 1)
                add(s, r ^ m);
        } else if (!strcmp(alg, "MPIR_Bcast_intra_scatter_ring_allgather")) {
            binomial_sends(s, r, np);
            for (int i = 1; i < np; i++)
                add(s, (r + 1) % np);
        } else if (!strcmp(alg, "MPIR_Allgather_intra_ring")) {
            for (int i = 1; i < np; i++)
                add(s, (r + 1) % np);
        } else if (!strcmp(alg, "MPIR_Allgather_intra_recursive_doubling")) {
            if (!pof2)
                return 0;
            for (int m = 1; m < np; m <<= 1)
                add(s, r ^ m);
        } else if (!strcmp(alg, "MPIR_Allgather_intra_brucks")) {
            if (!pof2)
                return 0;
            for (int m = 1; m < np; m <<= 1)
                add(s, (r - m + np) % np);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_brucks")) {
            for (int m = 1; m < np; m <<= 1)
                add(s, (r + m) % np);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_scattered")) {
            if (np > 32) /* MPIR_CVAR_ALLTOALL_THROTTLE batches */
                return 0;
            for (int i = 0; i < np; i++) /* i = 0: to itself, through UCX too */
                add(s, (r - i + np) % np);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_pairwise")) {
            for (int i = 1; i < np; i++)
                add(s, pof2 ? r ^ i : (r + i) % np);
        } else if (!strcmp(alg, "MPIR_Alltoall_intra_pairwise_sendrecv_replace")) {
            for (int j = 0; j < np; j++) /* j = r: MPIC_Sendrecv_replace with itself */
                add(s, j);
        } else if (!strcmp(alg, "MPIR_Barrier_intra_dissemination")) {
            for (int m = 1; m < np; m <<= 1)
                add(s, (r + m) % np);
        } else {
            return 0;
        }
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
};

static const char *const colls[] = {"allreduce", "reduce", "bcast", "alltoall", "allgather", "barrier"};
static const char *const prefixes[] = {"MPIR_Allreduce_", "MPIR_Reduce_", "MPIR_Bcast_",
                                       "MPIR_Alltoall_", "MPIR_Allgather_", "MPIR_Barrier_"};

static void run(int coll, int c, int np, int me, int user_op)
{
    int *a = calloc((size_t)c * np + 1, sizeof(int)), *b = calloc((size_t)c * np + 1, sizeof(int));
    MPI_Op op = MPI_SUM;
    if (user_op)
        MPI_Op_create(sum_op, 1, &op);
    for (int i = 0; i < c * np; i++)
        a[i] = me + i;
    void *spy = dlsym(RTLD_DEFAULT, "mpich_spy_record");
    mpich_spy_record_fn record = (mpich_spy_record_fn)spy;
    MPI_Barrier(MPI_COMM_WORLD);
    op_on = 1;
    if (record)
        record(1);
    switch (coll) {
    case 0: MPI_Allreduce(a, b, c, MPI_INT, op, MPI_COMM_WORLD); break;
    case 1: MPI_Reduce(a, b, c, MPI_INT, op, 0, MPI_COMM_WORLD); break;
    case 2: MPI_Bcast(a, c, MPI_INT, 0, MPI_COMM_WORLD); break;
    case 3: MPI_Alltoall(a, c, MPI_INT, b, c, MPI_INT, MPI_COMM_WORLD); break;
    case 4: MPI_Allgather(a, c, MPI_INT, b, c, MPI_INT, MPI_COMM_WORLD); break;
    default: MPI_Barrier(MPI_COMM_WORLD); break;
    }
    if (record)
        record(0);
    op_on = 0;
    if (user_op)
        MPI_Op_free(&op);
    free(a);
    free(b);
}

/* after the collective: each rank sends one message to every other rank, telling the spy its destination */
static void calibrate(int np, int me)
{
    mpich_spy_label_fn label = (mpich_spy_label_fn)dlsym(RTLD_DEFAULT, "mpich_spy_label");
    mpich_spy_events_fn events = (mpich_spy_events_fn)dlsym(RTLD_DEFAULT, "mpich_spy_events");
    mpich_spy_peer_fn peer = (mpich_spy_peer_fn)dlsym(RTLD_DEFAULT, "mpich_spy_peer");
    rec.n_sends = -1;
    if (!label || !events || !peer)
        return;
    MPI_Barrier(MPI_COMM_WORLD);
    int in[64], out = me;
    MPI_Request rq[64];
    MPI_Status st[64];
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
    for (int i = 0; i < k; i++) {
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
        add(sends, r->peer[i]);
        size_t n = strlen(sizes);
        snprintf(sizes + n, TEXT / 8 - n, "%s%s%ld", n ? "," : "", r->contig[i] ? "" : "x", r->bytes[i]);
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
    if (coll < 0 || bytes < 0 || np > 64) {
        if (me == 0)
            fprintf(stderr, "usage: mpich_once allreduce|reduce|bcast|alltoall|allgather|barrier BYTES [builtin|user]"
                            " (<= 64 ranks)\n");
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
        static char sends[64][TEXT / 8], sizes[64][TEXT / 8], ops[64][TEXT / 8];
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
                fprintf(stderr, "rank %d: sends to [%s] sizes [%s] op lens [%s]\n", r, sends[r], sizes[r], ops[r]);
        const char *found = NULL;
        int n_found = 0;
        static struct pattern p;
        for (size_t i = 0; ok && i < sizeof(algs) / sizeof(algs[0]); i++) {
            if (strncmp(algs[i], prefixes[coll], strlen(prefixes[coll])) || !expect(algs[i], np, c, &p))
                continue;
            int match = 1;
            for (int r = 0; r < np && match; r++)
                match = !strcmp(p.sends[r], sends[r]) && (!user_op || !strcmp(p.ops[r], ops[r]));
            if (match) {
                found = algs[i];
                n_found++;
            }
        }
        if (!ok) {
            fprintf(stderr, "mpich_once: no send record (is mpich_spy.so preloaded and MPIR_CVAR_NOLOCAL=1?)\n");
            rc = 2;
        } else if (n_found != 1) {
            fprintf(stderr, "mpich_once: %s %ld bytes at %d ranks: the pattern matches %s known MPIR algorithm\n",
                    colls[coll], bytes, np, n_found ? "more than one" : "no");
            for (int r = 0; r < np; r++)
                fprintf(stderr, "  rank %d: sends to [%s] sizes [%s] op lens [%s]\n", r, sends[r], sizes[r], ops[r]);
            rc = 2;
        } else {
            printf("%s\n", found);
        }
        free(all);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
