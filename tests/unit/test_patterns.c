/* test_patterns.c - arrival pattern generators, files, traces and metrics (patterns/). */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "pact_host.h"
#include "pact_patterns.h"

static void range(const double *d, int p, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < p; i++) {
        *lo = fmin(*lo, d[i]);
        *hi = fmax(*hi, d[i]);
    }
}

static void gen(const char *shape, int p, double skew, guint64 seed, const int *node_of, double *d)
{
    GError *err = NULL;
    pact_pattern_opts o = {.skew = skew, .seed = seed, .node_of = node_of, .intra = -1};
    g_assert_true(pact_pattern_gen(shape, p, &o, d, &err));
    g_assert_no_error(err);
}

/* Every shape: p delays in [0, s], spanning exactly s (except where the shape is flat by definition). */
static void test_span(void)
{
    const int sizes[] = {2, 3, 7, 8, 64, 1000};
    static double d[1000];
    for (const char *const *s = pact_pattern_shapes(); *s; s++)
        for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
            int p = sizes[k];
            for (int i = 0; i < p; i++)
                d[i] = NAN;
            gen(*s, p, 2.5e-4, 7, NULL, d);
            double lo, hi;
            range(d, p, &lo, &hi);
            g_assert_false(isnan(lo) || isnan(hi)); /* all p filled */
            g_assert_cmpfloat(lo, ==, 0);
            g_assert_cmpfloat(hi, <=, 2.5e-4);
            gboolean flat = !strcmp(*s, "no_delay") ||
                            (p < 3 && (!strcmp(*s, "middle_delayed") || !strcmp(*s, "ends_delayed")));
            g_assert_cmpfloat(hi, ==, flat ? 0 : 2.5e-4); /* exactly s, not s within rounding */
        }
}

static void test_defining_properties(void)
{
    double d[64];
    const int p = 64;
    gen("ascending", p, 1, 1, NULL, d);
    for (int i = 1; i < p; i++)
        g_assert_cmpfloat(d[i], >, d[i - 1]);
    gen("descending", p, 1, 1, NULL, d);
    for (int i = 1; i < p; i++)
        g_assert_cmpfloat(d[i], <, d[i - 1]);
    gen("first_delayed", p, 1, 1, NULL, d);
    g_assert_cmpfloat(d[0], ==, 1);
    for (int i = 1; i < p; i++)
        g_assert_cmpfloat(d[i], ==, 0);
    gen("last_delayed", 8, 1, 1, NULL, d);
    for (int i = 0; i < 7; i++)
        g_assert_cmpfloat(d[i], ==, 0);
    g_assert_cmpfloat(d[7], ==, 1);
    /* mountain: rises to the middle, falls after, mirror-symmetric; valley: the opposite */
    for (int q = 9; q <= 10; q++) {
        gen("middle_delayed", q, 1, 1, NULL, d);
        g_assert_cmpfloat(d[0], ==, 0);
        g_assert_cmpfloat(d[q - 1], ==, 0);
        g_assert_cmpfloat(d[q / 2], ==, 1);
        for (int i = 0; i < q; i++) {
            g_assert_cmpfloat(d[i], ==, d[q - 1 - i]);
            if (i > 0 && i <= (q - 1) / 2)
                g_assert_cmpfloat(d[i], >, d[i - 1]);
        }
        gen("ends_delayed", q, 1, 1, NULL, d);
        g_assert_cmpfloat(d[0], ==, 1);
        g_assert_cmpfloat(d[q - 1], ==, 1);
        g_assert_cmpfloat(d[q / 2], ==, 0);
        for (int i = 1; i <= (q - 1) / 2; i++)
            g_assert_cmpfloat(d[i], <, d[i - 1]);
    }
    gen("half_delayed", 7, 1, 1, NULL, d);
    for (int i = 0; i < 7; i++)
        g_assert_cmpfloat(d[i], ==, i >= 3 ? 1 : 0);
}

/* 4 nodes x 8 ranks, cyclic: rank i on node i % 4, so a late node is not a block of ranks. */
static void cyclic_nodes(int *node_of)
{
    for (int i = 0; i < 32; i++)
        node_of[i] = i % 4;
}

static void test_node_shapes(void)
{
    int node_of[32];
    double d[32], e[32];
    cyclic_nodes(node_of);
    gboolean chosen[4] = {FALSE};
    for (guint64 seed = 1; seed <= 20; seed++) {
        gen("node_delayed", 32, 1e-3, seed, node_of, d);
        int late = -1;
        for (int i = 0; i < 32; i++)
            if (d[i] == 1e-3) {
                g_assert_true(late < 0 || late == node_of[i]); /* one node only */
                late = node_of[i];
            } else {
                g_assert_cmpfloat(d[i], ==, 0);
            }
        g_assert_cmpint(late, >=, 0);
        for (int i = 0; i < 32; i++) /* every rank of the late node is late */
            g_assert_cmpfloat(d[i], ==, node_of[i] == late ? 1e-3 : 0);
        chosen[late] = TRUE;
        gen("node_delayed", 32, 1e-3, seed, node_of, e);
        g_assert_cmpmem(d, sizeof d, e, sizeof e);
    }
    int n = 0;
    for (int k = 0; k < 4; k++)
        n += chosen[k];
    g_assert_cmpint(n, >=, 2); /* the seed chooses the node */

    /* two_level: spans s; each node's own spread at most intra x s (default 0.25) and not zero */
    for (guint64 seed = 1; seed <= 20; seed++) {
        gen("two_level", 32, 1e-3, seed, node_of, d);
        double lo, hi;
        range(d, 32, &lo, &hi);
        g_assert_cmpfloat(lo, ==, 0);
        g_assert_cmpfloat(hi, ==, 1e-3);
        pact_imbalance node = pact_imbalance_nodes(d, 32, node_of);
        g_assert_cmpfloat(node.worst, <=, PACT_TWO_LEVEL_INTRA * 1e-3 * (1 + 1e-12));
        g_assert_cmpfloat(node.worst, >, 0);
    }
    /* one node: no late node; two_level is then only the node-wide part */
    int one[8] = {0};
    gen("node_delayed", 8, 1, 3, one, d);
    for (int i = 0; i < 8; i++)
        g_assert_cmpfloat(d[i], ==, 0);
}

static void test_seeds(void)
{
    int node_of[32];
    double d[32], e[32];
    cyclic_nodes(node_of);
    const char *seeded[] = {"random", "two_level"};
    for (size_t k = 0; k < G_N_ELEMENTS(seeded); k++) {
        gen(seeded[k], 32, 1, 42, node_of, d);
        gen(seeded[k], 32, 1, 42, node_of, e);
        g_assert_cmpmem(d, sizeof d, e, sizeof e);
        gen(seeded[k], 32, 1, 43, node_of, e);
        g_assert_true(memcmp(d, e, sizeof d) != 0);
    }
    /* the deterministic shapes ignore the seed */
    gen("middle_delayed", 32, 1, 1, NULL, d);
    gen("middle_delayed", 32, 1, 99, NULL, e);
    g_assert_cmpmem(d, sizeof d, e, sizeof e);
}

static void test_bad_args(void)
{
    double d[8];
    GError *err = NULL;
    pact_pattern_opts o = {.skew = 1, .intra = -1};
    g_assert_false(pact_pattern_gen("sideways", 8, &o, d, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
    g_assert_false(pact_pattern_gen("file", 8, &o, d, &err)); /* read, not generated */
    g_clear_error(&err);
    o.skew = -1;
    g_assert_false(pact_pattern_gen("ascending", 8, &o, d, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
    o.skew = NAN;
    g_assert_false(pact_pattern_gen("ascending", 8, &o, d, &err));
    g_clear_error(&err);
}

static char *temp_file(const char *text)
{
    GError *err = NULL;
    char *path = NULL;
    int fd = g_file_open_tmp("pact-pattern-XXXXXX", &path, &err);
    g_assert_no_error(err);
    close(fd);
    g_assert_true(g_file_set_contents(path, text, -1, &err));
    return path;
}

/* The file's error for `text`: it must name the file and `where` (":LINE:"), with the input code. */
static void expect_read_error(const char *text, int p, const char *where, const char *words)
{
    g_autofree char *path = temp_file(text);
    GError *err = NULL;
    g_assert_null(pact_pattern_read(path, p, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_autofree char *want = g_strconcat(path, where, NULL);
    if (!g_str_has_prefix(err->message, want) || !strstr(err->message, words))
        g_error("'%s' should start with '%s' and say '%s'", err->message, want, words);
    g_clear_error(&err);
    g_unlink(path);
}

static void test_files(void)
{
    GError *err = NULL;
    double d[5] = {0, 1e-6, 2.5e-4, 0.125, 3};
    g_autofree char *path = temp_file("");
    g_assert_true(pact_pattern_write(path, d, 5, "a comment", &err));
    GArray *a = pact_pattern_read(path, 5, &err);
    g_assert_no_error(err);
    g_assert_cmpmem(a->data, sizeof d, d, sizeof d); /* full precision round trip */
    g_array_unref(a);
    g_unlink(path);

    g_autofree char *ok = temp_file("# header\n\n0   # first\n 1e-3\n2.5e-4\n");
    a = pact_pattern_read(ok, 3, &err);
    g_assert_no_error(err);
    g_assert_cmpfloat(g_array_index(a, double, 1), ==, 1e-3);
    g_array_unref(a);
    g_unlink(ok);

    expect_read_error("0\n0.5\nabc\n1\n", 4, ":3:", "not a number");
    expect_read_error("0\n1e-3s\n", 2, ":2:", "not a number");
    expect_read_error("0\n-1e-3\n", 2, ":2:", "negative");
    expect_read_error("0\nnan\n", 2, ":2:", "not a number");
    expect_read_error("0\n1\n2\n", 2, ":3:", "more than 2");
    expect_read_error("# c\n0\n1\n", 4, ":3:", "2 delays for 4");
    expect_read_error("# nothing\n", 0, ":1:", "0 delays");
}

static void test_traces(void)
{
    GError *err = NULL;
    pact_trace t;
    /* 3 ranks, calls 10 and 12 (the tracer sampled every other call), rows in any order */
    g_autofree char *path = temp_file("# from a PMPI tracer\nrank,call,arrival_s\n"
                                      "0,10,5.0\n1,10,5.5\n2,10,5.25\n"
                                      "2,12,9.0\n1,12,8.0\n0,12,8.5\n");
    g_assert_true(pact_trace_read(path, &t, &err));
    g_assert_cmpint(t.ranks, ==, 3);
    g_assert_cmpint(t.calls, ==, 2);
    g_assert_cmpint(t.call_id[1], ==, 12);
    double d[3];
    pact_trace_to_pattern(&t, d);
    /* call 10: 0, 0.5, 0.25 after the first; call 12: 0.5, 0, 1 */
    g_assert_cmpfloat(fabs(d[0] - 0.25), <, 1e-15);
    g_assert_cmpfloat(fabs(d[1] - 0.25), <, 1e-15);
    g_assert_cmpfloat(fabs(d[2] - 0.625), <, 1e-15);
    pact_trace_free(&t);
    /* pact_pattern_load tells the trace from a pattern file and turns it into the same pattern */
    GArray *a = pact_pattern_load(path, 3, &t, &err);
    g_assert_no_error(err);
    g_assert_cmpint(t.calls, ==, 2);
    g_assert_cmpfloat(g_array_index(a, double, 2), ==, d[2]);
    g_array_unref(a);
    pact_trace_free(&t);
    g_assert_null(pact_pattern_load(path, 4, NULL, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
    g_unlink(path);

    const struct {
        const char *text, *where, *words;
    } bad[] = {
        {"rank,call,arrival_s\n0,1,0\n0,1,0.5\n1,1,0\n", ":3:", "second arrival"},
        {"rank,call,arrival_s\n0,1,0\n1,1,0\n0,2,0\n", ":", "call 2 has no arrival for rank 1"},
        {"rank,call,arrival_s\n0,1,x\n", ":2:", "arrival_s"},
        {"rank,call,arrival_s\n-1,1,0\n", ":2:", "rank"},
        {"rank,call,arrival_s\n0,1\n", ":2:", "2 fields"},
        {"rank,arrival_s\n0,1\n", ":1:", "no column 'call'"},
    };
    for (size_t k = 0; k < G_N_ELEMENTS(bad); k++) {
        g_autofree char *p = temp_file(bad[k].text);
        g_assert_false(pact_trace_read(p, &t, &err));
        g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
        g_autofree char *want = g_strconcat(p, bad[k].where, NULL);
        if (!g_str_has_prefix(err->message, want) || !strstr(err->message, bad[k].words))
            g_error("'%s' should start with '%s' and say '%s'", err->message, want, bad[k].words);
        g_clear_error(&err);
        g_unlink(p);
    }
}

static void test_metrics(void)
{
    double a[4] = {0, 0, 0, 1};
    pact_imbalance m = pact_imbalance_of(a, 4);
    g_assert_cmpfloat(m.worst, ==, 1);
    g_assert_cmpfloat(fabs(m.avg - 0.375), <, 1e-15); /* mean 0.25: (3 x 0.25 + 0.75) / 4 */
    double b[4] = {2, 4, 10, 10};
    int nodes[4] = {0, 0, 1, 1};
    pact_imbalance n = pact_imbalance_nodes(b, 4, nodes);
    g_assert_cmpfloat(n.worst, ==, 1); /* (2 + 0) / 2 */
    g_assert_cmpfloat(n.avg, ==, 0.5); /* (1 + 0) / 2 */
    m = pact_imbalance_of(b, 1);
    g_assert_cmpfloat(m.worst, ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/patterns/span", test_span);
    g_test_add_func("/patterns/defining-properties", test_defining_properties);
    g_test_add_func("/patterns/node-shapes", test_node_shapes);
    g_test_add_func("/patterns/seeds", test_seeds);
    g_test_add_func("/patterns/bad-args", test_bad_args);
    g_test_add_func("/patterns/files", test_files);
    g_test_add_func("/patterns/traces", test_traces);
    g_test_add_func("/patterns/metrics", test_metrics);
    return g_test_run();
}
