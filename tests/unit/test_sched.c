/* test_sched.c - every registered builder, run by the dry-run executor for many P and counts, must give
 * the reference result; the IR's validation and the dry run must catch broken schedules. */
#include <glib.h>
#include <string.h>

#include "common.h"
#include "pact_dryrun.h"
#include "pact_coll.h"

static void dsum(const void *in, void *inout, size_t n)
{
    const double *a = in;
    double *b = inout;
    for (size_t i = 0; i < n; i++)
        b[i] = a[i] + b[i];
}

/* A non-commutative operation on (a, b) pairs of unsigned ints, the maps x -> a*x + b composed in rank order
 * (the bench driver's "compose"): any reordering of operands changes the result. */
static void compose(const void *in, void *inout, size_t n)
{
    const unsigned *x = in;
    unsigned *y = inout;
    for (size_t i = 0; i < n; i++) {
        unsigned a1 = x[2 * i], b1 = x[2 * i + 1], a2 = y[2 * i], b2 = y[2 * i + 1];
        y[2 * i] = a1 * a2;
        y[2 * i + 1] = b1 * a2 + b2;
    }
}

/* Element gi of rank `rank`'s input, as 8 bytes: a double, or a pair for the non-commutative runs. */
static void value(int rank, size_t gi, int pairs, void *out)
{
    long v = (long)(((size_t)rank * 37 + gi * 11) % 199) - 99;
    if (pairs) {
        unsigned p[2] = {2u * (unsigned)(v + 99) + 1u, (unsigned)rank * 7u + (unsigned)gi};
        memcpy(out, p, 8);
    } else {
        double d = (double)v + 0.25 * rank; /* exact in double: sums are order-independent */
        memcpy(out, &d, 8);
    }
}

typedef struct {
    const pact_alg *alg;
    int P, root, inplace, pairs;
    size_t count;
    long segsize; /* > 0: override a "segsize" parameter */
    int cyclic; /* where the ranks run: nodes of 3 ranks (0), or ranks dealt round-robin to ceil(P/3) nodes */
} case_t;

/* The reduction of element gi over all ranks, in rank order. */
static void reduced(const case_t *c, size_t gi, void *out)
{
    char x[8];
    value(0, gi, c->pairs, out);
    for (int r = 1; r < c->P; r++) {
        value(r, gi, c->pairs, x);
        if (c->pairs)
            compose(out, x, 1), memcpy(out, x, 8);
        else
            dsum(x, out, 1);
    }
}

/* Builds all P schedules of the case and runs them in one process; returns the number of wrong elements
 * over all ranks, or -1 when the algorithm does not apply. */
static long run_case(const case_t *c)
{
    const pact_alg *a = c->alg;
    int P = c->P;
    pact_coll coll = a->coll;
    pact_sched *s = g_new0(pact_sched, P);
    const pact_sched **sp = g_new0(const pact_sched *, P);
    void *(*bufs)[PACT_NBUF] = g_malloc0(sizeof(*bufs) * (size_t)P);
    void **owned_send = g_new0(void *, P);
    long bad = 0;
    size_t n = c->count;
    int *node_of = g_new(int, P);
    for (int r = 0; r < P; r++)
        node_of[r] = c->cyclic ? r % ((P + 2) / 3) : r / 3;
    pact_place place;
    g_assert_cmpint(pact_place_init(&place, P, node_of), ==, PACT_OK);
    g_free(node_of);
    for (int r = 0; r < P; r++) {
        int inplace = c->inplace && coll != PACT_COLL_BCAST && (coll != PACT_COLL_REDUCE || r == c->root);
        pact_build_args args = {.coll = coll,
                                .rank = r,
                                .size = P,
                                .root = c->root,
                                .count = n,
                                .elem_size = 8,
                                .commutative = !c->pairs,
                                .inplace = inplace,
                                .place = &place};
        long params[16] = {0};
        g_assert_cmpuint(pact_alg_nparams(a), <=, G_N_ELEMENTS(params));
        pact_params_defaults(a, params);
        args.params = params;
        /* the variant run: tiny segments, a window of two outstanding requests */
        for (size_t k = 0; k < pact_alg_nparams(a); k++) {
            if (c->segsize > 0 && !strcmp(a->params[k].name, "segsize"))
                params[k] = c->segsize;
            if (c->segsize > 0 && !strcmp(a->params[k].name, "max_requests"))
                params[k] = 2;
        }
        pact_sched_init(&s[r]);
        int rc = pact_build(a, &args, &s[r]);
        if (rc == PACT_ERR_RESTRICTED) {
            bad = -1;
            goto out;
        }
        if (rc != PACT_OK)
            g_error("%s %s P=%d count=%zu root=%d: builder returned %d", pact_coll_name(coll), a->name, P, n,
                    c->root, rc);
        char why[256];
        if (pact_sched_validate(&s[r], why, sizeof(why)) != PACT_OK)
            g_error("%s %s P=%d count=%zu root=%d: %s", pact_coll_name(coll), a->name, P, n, c->root, why);
        sp[r] = &s[r];
        size_t ns, nr;
        pact_coll_buf_counts(coll, r, P, c->root, n, &ns, &nr);
        /* in place, reduce_scatter's receive buffer holds the whole input vector */
        size_t nalloc = inplace && pact_coll_inplace_whole(coll) && ns > nr ? ns : nr;
        char *recv = g_malloc0(nalloc * 8 + 8), *send = g_malloc0(ns * 8 + 8);
        owned_send[r] = send;
        /* stage the input where the call reads it */
        if (coll == PACT_COLL_BCAST) {
            for (size_t i = 0; r == c->root && i < n; i++)
                value(r, i, c->pairs, recv + 8 * i);
        } else {
            char *in = inplace ? recv + (coll == PACT_COLL_ALLGATHER ? (size_t)r * n * 8 : 0) : send;
            for (size_t i = 0; i < ns; i++)
                value(r, i, c->pairs, in + 8 * i);
            bufs[r][PACT_BUF_SEND] = in;
        }
        if (!bufs[r][PACT_BUF_SEND])
            bufs[r][PACT_BUF_SEND] = send;
        bufs[r][PACT_BUF_RECV] = recv;
        for (int b = PACT_BUF_TMP0; b < PACT_NBUF; b++)
            bufs[r][b] = g_malloc0(s[r].buf_count[b] * 8 + 8);
    }
    char why[256] = "";
    if (pact_dryrun(sp, P, bufs, c->pairs ? compose : dsum, why, sizeof(why)) != PACT_OK)
        g_error("%s %s P=%d count=%zu root=%d%s: %s", pact_coll_name(coll), a->name, P, n, c->root,
                c->inplace ? " in place" : "", why);
    for (int r = 0; r < P; r++) {
        const char *got = bufs[r][PACT_BUF_RECV];
        char want[8];
        size_t ns, nr;
        pact_coll_buf_counts(coll, r, P, c->root, n, &ns, &nr);
        for (size_t j = 0; j < nr; j++) {
            switch (coll) {
            case PACT_COLL_ALLREDUCE:
            case PACT_COLL_REDUCE:
                reduced(c, j, want);
                break;
            case PACT_COLL_BCAST:
                value(c->root, j, c->pairs, want);
                break;
            case PACT_COLL_REDUCE_SCATTER: { /* rank r's block of the reduced vector */
                size_t off, len;
                pact_block(n, P, r, &off, &len);
                reduced(c, off + j, want);
                break;
            }
            case PACT_COLL_ALLTOALL: /* block q of rank r = block r of rank q */
                value((int)(j / n), (size_t)r * n + j % n, c->pairs, want);
                break;
            default: /* allgather: block q = rank q's input */
                value((int)(j / n), j % n, c->pairs, want);
            }
            bad += memcmp(got + 8 * j, want, 8) != 0;
        }
    }
out:
    for (int r = 0; r < P; r++) {
        g_free(owned_send[r]);
        for (int b = PACT_BUF_RECV; b < PACT_NBUF; b++)
            g_free(bufs[r][b]);
        pact_sched_free(&s[r]);
    }
    g_free(owned_send);
    g_free(bufs);
    g_free(sp);
    g_free(s);
    pact_place_free(&place);
    return bad;
}

static int has_variant(const pact_alg *a)
{
    for (size_t k = 0; k < pact_alg_nparams(a); k++)
        if (!strcmp(a->params[k].name, "segsize") || !strcmp(a->params[k].name, "max_requests"))
            return 1;
    return 0;
}

/* Every registered algorithm x P x counts x roots x {out of place, in place} x {sum, non-commutative}, and
 * with tiny segments where the algorithm pipelines. */
static void test_every_algorithm(void)
{
    static const int procs[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                12, 13, 14, 15, 16, 17, 31, 32, 33, 64, 100};
    long checked = 0, restricted = 0;
    for (size_t ai = 0; ai < pact_alg_count(); ai++) {
        const pact_alg *a = pact_alg_at(ai);
        int rooted = pact_coll_rooted(a->coll), blocks = pact_coll_m_per_block(a->coll);
        long mine = 0;
        for (size_t pi = 0; pi < G_N_ELEMENTS(procs); pi++) {
            int P = procs[pi];
            size_t counts[] = {
                0, 1, 7, (size_t)P - 1 + (P == 1), (size_t)P + 1, blocks && P > 17 ? 40 : 1000};
            int roots[] = {0, P - 1, P / 2};
            for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++)
                for (int ri = 0; ri < (rooted ? 3 : 1); ri++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        for (int pairs = 0; pairs < 2; pairs++)
                            for (int seg = 0; seg < (has_variant(a) && P <= 17 ? 2 : 1); seg++)
                                for (int cyc = 0; cyc < ((a->restrictions & PACT_R_PLACE) ? 2 : 1); cyc++) {
                                    if ((pairs || seg) && counts[ci] > 1000)
                                        continue;
                                    case_t c = {.alg = a,
                                                .P = P,
                                                .count = counts[ci],
                                                .root = roots[ri],
                                                .inplace = inplace,
                                                .pairs = pairs,
                                                .segsize = seg ? 24 : 0,
                                                .cyclic = cyc};
                                    long bad = run_case(&c);
                                    if (bad > 0)
                                        g_error("%s %s P=%d count=%zu root=%d%s%s%s%s: %ld elements wrong",
                                                pact_coll_name(a->coll), a->name, P, c.count, c.root,
                                                inplace ? " in place" : "", pairs ? " non-commutative" : "",
                                                seg ? " segsize=24/max_requests=2" : "",
                                                cyc ? " round-robin nodes" : " nodes of 3", bad);
                                    if (bad == 0)
                                        mine++;
                                    else
                                        restricted++;
                                }
        }
        if (g_test_verbose())
            g_printerr("%s %s: %ld cases right\n", pact_coll_name(a->coll), a->name, mine);
        g_assert_cmpint(mine, >, 0); /* an algorithm restricted everywhere would test nothing */
        checked += mine;
    }
    g_assert_cmpint(checked, >, 100 * (long)pact_alg_count());
}

/* The schedule shapes the model and the simulation rely on: message counts per rank. */
static void test_message_counts(void)
{
    pact_sched s;
    pact_sched_init(&s);
    pact_build_args args = {
        .coll = PACT_COLL_ALLREDUCE, .size = 8, .count = 800, .elem_size = 8, .commutative = 1};
    const pact_alg *ring = pact_alg_find(PACT_COLL_ALLREDUCE, "ring");
    const pact_alg *rd = pact_alg_find(PACT_COLL_ALLREDUCE, "recursive_doubling");
    g_assert_nonnull(ring);
    g_assert_nonnull(rd);
    for (args.rank = 0; args.rank < 8; args.rank++) {
        g_assert_cmpint(pact_build(ring, &args, &s), ==, PACT_OK);
        int sends = 0;
        size_t bytes = 0;
        for (size_t i = 0; i < s.nops; i++)
            if (s.ops[i].kind == PACT_OP_SEND) {
                sends++;
                bytes += pact_op_bytes(&s, &s.ops[i]);
            }
        g_assert_cmpint(sends, ==, 2 * (8 - 1));      /* 2(P-1) steps */
        g_assert_cmpuint(bytes, ==, 2 * 7 * 100 * 8); /* each m/P */
        g_assert_cmpint(pact_build(rd, &args, &s), ==, PACT_OK);
        sends = 0;
        for (size_t i = 0; i < s.nops; i++)
            sends += s.ops[i].kind == PACT_OP_SEND;
        g_assert_cmpint(sends, ==, 3); /* log2 8 */
    }
    /* Non power of two: the folded even ranks send twice... once, and receive the result. */
    args.size = 6;
    args.rank = 0;
    g_assert_cmpint(pact_build(rd, &args, &s), ==, PACT_OK);
    int sends = 0, recvs = 0;
    for (size_t i = 0; i < s.nops; i++) {
        sends += s.ops[i].kind == PACT_OP_SEND;
        recvs += s.ops[i].kind == PACT_OP_RECV;
    }
    g_assert_cmpint(sends, ==, 1);
    g_assert_cmpint(recvs, ==, 1);
    pact_sched_free(&s);
}

static void test_restrictions(void)
{
    const pact_alg *ring = pact_alg_find(PACT_COLL_ALLREDUCE, "ring");
    pact_build_args args = {
        .coll = PACT_COLL_ALLREDUCE, .size = 4, .count = 8, .elem_size = 8, .commutative = 0};
    const char *why = NULL;
    g_assert_cmpint(pact_alg_applies(ring, &args, &why), ==, PACT_ERR_RESTRICTED);
    g_assert_nonnull(strstr(why, "commutative"));
    args.commutative = 1;
    g_assert_cmpint(pact_alg_applies(ring, &args, &why), ==, PACT_OK);
    g_assert_null(pact_alg_find(PACT_COLL_ALLREDUCE, "no_such_algorithm"));
    g_assert_null(pact_alg_find(PACT_COLL_BCAST, "ring"));
}

/* Broken schedules must be caught, or the tests above could not fail. */
static void test_broken_schedules(void)
{
    pact_sched s[2];
    const pact_sched *sp[2] = {&s[0], &s[1]};
    double b0[4] = {1, 2, 3, 4}, b1[4] = {0};
    void *bufs[2][PACT_NBUF] = {{b0, b0, NULL, NULL}, {b1, b1, NULL, NULL}};
    char why[256];
    for (int r = 0; r < 2; r++) {
        pact_sched_init(&s[r]);
        pact_sched_reset(&s[r], r, 2, sizeof(double));
        s[r].buf_count[PACT_BUF_SEND] = s[r].buf_count[PACT_BUF_RECV] = 4;
    }
    /* rank 1 waits for a message rank 0 never sends */
    pact_recv(&s[1], 0, pact_sl(PACT_BUF_RECV, 0, 4));
    g_assert_cmpint(pact_dryrun(sp, 2, bufs, dsum, why, sizeof(why)), ==, PACT_ERR_ARG);
    g_assert_nonnull(strstr(why, "deadlock"));
    /* lengths differ */
    pact_send(&s[0], 1, pact_sl(PACT_BUF_SEND, 0, 3));
    g_assert_cmpint(pact_dryrun(sp, 2, bufs, dsum, why, sizeof(why)), ==, PACT_ERR_ARG);
    g_assert_nonnull(strstr(why, "receives 4"));
    /* out of bounds, writes to SEND, forward dependency */
    pact_sched_reset(&s[0], 0, 2, sizeof(double));
    s[0].buf_count[PACT_BUF_SEND] = s[0].buf_count[PACT_BUF_RECV] = 4;
    pact_send(&s[0], 1, pact_sl(PACT_BUF_SEND, 2, 3));
    g_assert_cmpint(pact_sched_validate(&s[0], why, sizeof(why)), ==, PACT_ERR_ARG);
    pact_sched_reset(&s[0], 0, 2, sizeof(double));
    s[0].buf_count[PACT_BUF_SEND] = s[0].buf_count[PACT_BUF_RECV] = 4;
    pact_recv(&s[0], 1, pact_sl(PACT_BUF_SEND, 0, 1));
    g_assert_cmpint(pact_sched_validate(&s[0], why, sizeof(why)), ==, PACT_ERR_ARG);
    pact_sched_reset(&s[0], 0, 2, sizeof(double));
    pact_copy(&s[0], pact_sl(PACT_BUF_RECV, 0, 0), pact_sl(PACT_BUF_SEND, 0, 0));
    pact_after(&s[0], 0); /* itself */
    g_assert_cmpint(s[0].err, ==, PACT_ERR_ARG);
    pact_sched_free(&s[0]);
    pact_sched_free(&s[1]);
}

static void test_sizes(void)
{
    uint64_t v;
    g_assert_cmpint(pact_parse_size("8", &v), ==, PACT_OK);
    g_assert_cmpuint(v, ==, 8);
    g_assert_cmpint(pact_parse_size("1K", &v), ==, PACT_OK);
    g_assert_cmpuint(v, ==, 1024);
    g_assert_cmpint(pact_parse_size("64k", &v), ==, PACT_OK);
    g_assert_cmpuint(v, ==, 65536);
    g_assert_cmpint(pact_parse_size("1M", &v), ==, PACT_OK);
    g_assert_cmpuint(v, ==, 1048576);
    g_assert_cmpint(pact_parse_size("2GB", &v), ==, PACT_OK);
    g_assert_cmpuint(v, ==, 2147483648ull);
    const char *bad[] = {"", "x", "1X", "-1", "1.5K", "K", "99999999999999999999", "17179869184G"};
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
        g_assert_cmpint(pact_parse_size(bad[i], &v), ==, PACT_ERR_ARG);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sched/every-algorithm-dryrun", test_every_algorithm);
    g_test_add_func("/sched/message-counts", test_message_counts);
    g_test_add_func("/sched/restrictions", test_restrictions);
    g_test_add_func("/sched/broken-schedules-are-caught", test_broken_schedules);
    g_test_add_func("/sizes/parse", test_sizes);
    return g_test_run();
}
