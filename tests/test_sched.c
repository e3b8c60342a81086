/* test_sched.c - every registered builder, run by the dry-run executor for many P and counts, must give
 * the reference result; the IR's validation and the dry run must catch broken schedules. */
#include <glib.h>
#include <string.h>

#include "pact_dryrun.h"
#include "pact_sim.h"

static void dsum(const void *in, void *inout, size_t n)
{
    const double *a = in;
    double *b = inout;
    for (size_t i = 0; i < n; i++)
        b[i] = a[i] + b[i];
}

/* A non-commutative operation on doubles: affine maps x -> (a, b) stored as pairs composed left to
 * right would need pairs; instead "take the left operand unless it is zero" checks operand order. */
static double value(int rank, size_t i)
{
    return (double)((rank * 37 + (int)(i % 1000) * 11) % 199) - 99 + 0.25 * rank;
}

/* Builds all P schedules of `a` for `count` elements and runs them; returns the number of wrong
 * elements over all ranks, or -1 when the algorithm does not apply. */
static long run_alg(const pact_alg *a, int P, size_t count, int inplace)
{
    pact_sched *s = g_new0(pact_sched, P);
    const pact_sched **sp = g_new0(const pact_sched *, P);
    void *(*bufs)[PACT_NBUF] = g_malloc0(sizeof(*bufs) * (size_t)P);
    long bad = 0;
    for (int r = 0; r < P; r++) {
        pact_build_args args = {.coll = a->coll,
                                .rank = r,
                                .size = P,
                                .root = 0,
                                .count = count,
                                .elem_size = sizeof(double),
                                .commutative = 1,
                                .inplace = inplace};
        pact_args_defaults(a, &args);
        pact_sched_init(&s[r]);
        int rc = pact_build(a, &args, &s[r]);
        if (rc == PACT_ERR_RESTRICTED) {
            bad = -1;
            goto out;
        }
        g_assert_cmpint(rc, ==, PACT_OK);
        char why[256];
        if (pact_sched_validate(&s[r], why, sizeof(why)) != PACT_OK)
            g_error("%s P=%d count=%zu: %s", a->name, P, count, why);
        sp[r] = &s[r];
        double *send = g_new0(double, count + 1), *recv = g_new0(double, count + 1);
        for (size_t i = 0; i < count; i++)
            (inplace ? recv : send)[i] = value(r, i);
        bufs[r][PACT_BUF_SEND] = inplace ? recv : send;
        bufs[r][PACT_BUF_RECV] = recv;
        for (int b = PACT_BUF_TMP0; b < PACT_NBUF; b++)
            bufs[r][b] = g_malloc0(s[r].buf_count[b] * sizeof(double) + 8);
        if (inplace)
            g_free(send);
    }
    char why[256] = "";
    int rc = pact_dryrun(sp, P, bufs, dsum, why, sizeof(why));
    if (rc != PACT_OK)
        g_error("%s P=%d count=%zu: %s", a->name, P, count, why);
    for (int r = 0; r < P; r++)
        for (size_t i = 0; i < count; i++) {
            double want = 0;
            for (int q = 0; q < P; q++)
                want += value(q, i);
            if (((double *)bufs[r][PACT_BUF_RECV])[i] != want)
                bad++;
        }
out:
    for (int r = 0; r < P; r++) {
        if (bufs[r][PACT_BUF_SEND] != bufs[r][PACT_BUF_RECV])
            g_free(bufs[r][PACT_BUF_SEND]);
        for (int b = PACT_BUF_RECV; b < PACT_NBUF; b++)
            g_free(bufs[r][b]);
        pact_sched_free(&s[r]);
    }
    g_free(bufs);
    g_free(sp);
    g_free(s);
    return bad;
}

static void test_every_algorithm(void)
{
    static const int procs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 31, 32, 33, 64, 100};
    int checked = 0;
    for (size_t ai = 0; ai < pact_alg_count(); ai++) {
        const pact_alg *a = pact_alg_at(ai);
        if (a->coll != PACT_COLL_ALLREDUCE)
            continue;
        for (size_t pi = 0; pi < G_N_ELEMENTS(procs); pi++) {
            int P = procs[pi];
            size_t counts[] = {0, 1, 7, (size_t)P - 1 + (P == 1), (size_t)P + 1, 1000};
            for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    long bad = run_alg(a, P, counts[ci], inplace);
                    if (bad > 0)
                        g_error("%s P=%d count=%zu%s: %ld elements wrong", a->name, P, counts[ci],
                                inplace ? " in place" : "", bad);
                    checked += bad == 0;
                }
        }
    }
    g_assert_cmpint(checked, >, 100);
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
