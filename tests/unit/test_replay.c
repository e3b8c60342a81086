/* test_replay.c - SMPI time-independent traces of every algorithm: the files, their actions, messages that
 * pair up across ranks, the compute charge, bad input.  Replaying them under smpirun and comparing with the
 * smpi engine is tests/integration/replay.sh. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pact_host.h"
#include "pact_replay.h"

static char *tmp_dir(void)
{
    GError *err = NULL;
    char *d = g_dir_make_tmp("pact-test-replay-XXXXXX", &err);
    g_assert_no_error(err);
    return d;
}

/* Messages of one (source, destination, tag): sizes in posting order at each end. */
typedef struct {
    GArray *sent, *received;
} chan_t;

static void chan_free(gpointer p)
{
    chan_t *c = p;
    g_array_unref(c->sent);
    g_array_unref(c->received);
    g_free(c);
}

static chan_t *chan(GHashTable *t, int src, int dst, int tag)
{
    char *k = g_strdup_printf("%d %d %d", src, dst, tag);
    chan_t *c = g_hash_table_lookup(t, k);
    if (!c) {
        c = g_new(chan_t, 1);
        c->sent = g_array_new(FALSE, FALSE, sizeof(long));
        c->received = g_array_new(FALSE, FALSE, sizeof(long));
        g_hash_table_insert(t, k, c);
    } else {
        g_free(k);
    }
    return c;
}

/* Checks the traces in `dir` for P ranks: the index, one file per rank with "R init" first and "R finalize"
 * last, every line for its rank and newline-terminated, every wait for a request still outstanding (SimGrid's
 * per-key FIFO), nothing outstanding at the end without a waitall, the sleep of each rank's delay, and every
 * message sent as often and as large as it is received.  Returns the number of compute actions. */
static int check_traces(const char *dir, int P, const double *delays)
{
    g_autofree char *ipath = g_build_filename(dir, "index.txt", NULL);
    g_autofree char *index = NULL;
    g_assert_true(g_file_get_contents(ipath, &index, NULL, NULL));
    g_auto(GStrv) names = g_strsplit(index, "\n", -1);
    g_assert_cmpint(g_strv_length(names), ==, P + 1);
    GHashTable *chans = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, chan_free);
    int computes = 0;
    for (int r = 0; r < P; r++) {
        g_autofree char *want = g_strdup_printf("rank-%d.ti", r);
        g_assert_cmpstr(names[r], ==, want);
        g_autofree char *path = g_build_filename(dir, names[r], NULL);
        g_autofree char *text = NULL;
        gsize len = 0;
        g_assert_true(g_file_get_contents(path, &text, &len, NULL));
        g_assert_true(len > 0 && text[len - 1] == '\n');
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        guint n = g_strv_length(lines) - 1;
        GHashTable *pending = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        int outstanding = 0, slept = 0;
        for (guint i = 0; i < n; i++) {
            g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
            g_assert_cmpint(atoi(f[0]), ==, r);
            const char *act = f[1];
            if (i == 0)
                g_assert_cmpstr(act, ==, "init");
            if (i == n - 1)
                g_assert_cmpstr(act, ==, "finalize");
            if (!strcmp(act, "isend") || !strcmp(act, "irecv")) {
                int peer = atoi(f[2]), tag = atoi(f[3]);
                long bytes = atol(f[4]);
                gboolean send = !strcmp(act, "isend");
                chan_t *c = chan(chans, send ? r : peer, send ? peer : r, tag);
                g_array_append_val(send ? c->sent : c->received, bytes);
                char *k = g_strdup_printf("%d %d %d", send ? r : peer, send ? peer : r, tag);
                g_hash_table_insert(pending, k,
                                    GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(pending, k)) + 1));
                outstanding++;
            } else if (!strcmp(act, "wait")) {
                g_autofree char *k = g_strdup_printf("%s %s %s", f[2], f[3], f[4]);
                int left = GPOINTER_TO_INT(g_hash_table_lookup(pending, k));
                g_assert_cmpint(left, >, 0);
                g_hash_table_insert(pending, g_strdup(k), GINT_TO_POINTER(left - 1));
                outstanding--;
            } else if (!strcmp(act, "waitall")) {
                g_hash_table_remove_all(pending);
                outstanding = 0;
            } else if (!strcmp(act, "sleep") && i == 1) { /* the arrival, after the common start */
                double want = PACT_START_MARGIN + (delays ? delays[r] : 0);
                g_assert_cmpfloat(g_ascii_strtod(f[2], NULL), ==, want);
                slept = 1;
            } else if (!strcmp(act, "sleep")) { /* a reduction */
                g_assert_cmpfloat(g_ascii_strtod(f[2], NULL), >, 0);
                computes++;
            } else {
                g_assert_true(!strcmp(act, "init") || !strcmp(act, "finalize"));
            }
        }
        g_assert_cmpint(outstanding, ==, 0);
        g_assert_cmpint(slept, ==, 1);
        g_hash_table_unref(pending);
    }
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, chans);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        chan_t *c = v;
        if (c->sent->len != c->received->len)
            g_error("%s: %u sent, %u received", (char *)k, c->sent->len, c->received->len);
        for (guint i = 0; i < c->sent->len; i++)
            g_assert_cmpint(g_array_index(c->sent, long, i), ==, g_array_index(c->received, long, i));
    }
    g_hash_table_unref(chans);
    return computes;
}

/* Every algorithm of the registry at several P and counts, rooted ones at a root other than 0. */
static void test_all_algorithms(void)
{
    const int Ps[] = {1, 5, 8};
    const size_t counts[] = {0, 1, 7, 1000};
    g_autofree char *dir = tmp_dir();
    int cells = 0;
    for (size_t ai = 0; ai < pact_alg_count(); ai++) {
        const pact_alg *a = pact_alg_at(ai);
        for (size_t pi = 0; pi < G_N_ELEMENTS(Ps); pi++)
            for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++) {
                int P = Ps[pi];
                double delays[8];
                for (int r = 0; r < P; r++)
                    delays[r] = r % 3 == 1 ? 1e-6 * r : 0;
                pact_replay_cell c = {.coll = a->coll,
                                      .alg = a->name,
                                      .P = P,
                                      .root = pact_coll_rooted(a->coll) ? P / 2 : 0,
                                      .count = counts[ci],
                                      .elem_size = 8,
                                      .commutative = 1,
                                      .gamma = 2e-10,
                                      .delays = delays};
                pact_build_args args = {
                    .coll = a->coll, .size = P, .count = counts[ci], .elem_size = 8, .commutative = 1};
                if (pact_alg_applies(a, &args, NULL) != PACT_OK)
                    continue;
                GError *err = NULL;
                if (!pact_replay_write(&c, dir, &err))
                    g_error("%s %s P=%d count=%zu: %s", pact_coll_name(a->coll), a->name, P, counts[ci],
                            err->message);
                check_traces(dir, P, delays);
                cells++;
            }
    }
    g_assert_cmpint(cells, >, 300);
    pact_rm_rf(dir);
}

/* A reduction costs what pact_charge would: a sleep of gamma x bytes seconds, to the same double, on any host
 * (never flops, whose time depends on the host's speed); with gamma 0 nothing. */
static void test_compute(void)
{
    g_autofree char *dir = tmp_dir();
    pact_replay_cell c = {.coll = PACT_COLL_ALLREDUCE,
                          .alg = "recursive_doubling",
                          .P = 2,
                          .count = 4,
                          .elem_size = 8,
                          .commutative = 1,
                          .gamma = 2.0000000000000003e-10};
    GError *err = NULL;
    g_assert_true(pact_replay_write(&c, dir, &err));
    g_assert_cmpint(check_traces(dir, 2, NULL), ==, 2);
    g_autofree char *path = g_build_filename(dir, "rank-0.ti", NULL);
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    char want[64];
    g_snprintf(want, sizeof want, "0 sleep %.17g\n", c.gamma * (double)(4 * 8));
    g_assert_nonnull(strstr(text, want));
    g_assert_null(strstr(text, "compute"));
    /* rank 0's exchange with rank 1: receive and send posted at once, both waited for, then the reduction */
    g_assert_nonnull(strstr(text, "\n0 irecv 1 100 32\n0 isend 1 100 32\n0 wait 1 0 100\n0 wait 0 1 100\n"));
    c.gamma = 0;
    g_assert_true(pact_replay_write(&c, dir, &err));
    g_assert_cmpint(check_traces(dir, 2, NULL), ==, 0);
    g_autofree char *cell = NULL;
    g_autofree char *cpath = g_build_filename(dir, "cell.txt", NULL);
    g_assert_true(g_file_get_contents(cpath, &cell, NULL, NULL));
    g_assert_nonnull(strstr(cell, "procs 2\n"));
    g_assert_nonnull(strstr(cell, "delay_max 0\n"));
    pact_rm_rf(dir);
}

static void bad_cell(const pact_replay_cell *c, const char *dir, const char *want)
{
    GError *err = NULL;
    g_assert_false(pact_replay_write(c, dir, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    if (!strstr(err->message, want))
        g_error("expected '%s' in: %s", want, err->message);
    g_clear_error(&err);
}

static void test_bad_input(void)
{
    g_autofree char *dir = tmp_dir();
    double delays[4] = {0, 0, -1, 0};
    pact_replay_cell c = {.coll = PACT_COLL_ALLREDUCE,
                          .alg = "nope",
                          .P = 4,
                          .count = 16,
                          .elem_size = 8,
                          .commutative = 1,
                          .gamma = 0};
    bad_cell(&c, dir, "alg 'nope'");
    c.alg = "segmented_ring:bogus=1";
    bad_cell(&c, dir, "segmented_ring:param=value");
    c.alg = "ring";
    c.commutative = 0;
    bad_cell(&c, dir, "restricted: needs a commutative operation");
    c.commutative = 1;
    c.delays = delays;
    bad_cell(&c, dir, "delays[2]");
    c.coll = PACT_COLL_BCAST;
    c.alg = "binomial";
    c.delays = NULL;
    c.root = 4;
    bad_cell(&c, dir, "root");

    double last, total;
    GError *err = NULL;
    g_assert_false(pact_replay_run(dir, "platform.xml", "hostfile", 4, &last, &total, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_assert_nonnull(strstr(err->message, "no index.txt"));
    g_clear_error(&err);
    c.root = 0;
    g_assert_true(pact_replay_write(&c, dir, &err));
    g_assert_false(pact_replay_run(dir, "platform.xml", "hostfile", 8, &last, &total, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_assert_nonnull(strstr(err->message, "traces for 4 ranks, asked to run 8"));
    g_clear_error(&err);
    pact_rm_rf(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/replay/all-algorithms", test_all_algorithms);
    g_test_add_func("/replay/compute", test_compute);
    g_test_add_func("/replay/bad-input", test_bad_input);
    return g_test_run();
}
