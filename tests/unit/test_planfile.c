/* test_planfile.c - the plan file's one writer and one reader agree, and the reader refuses malformed lines. */
#include <glib.h>
#include <string.h>

#include "pact_coll.h"

static void test_roundtrip(void)
{
    pact_plan_line l = {.coll = PACT_COLL_REDUCE, .count = 123456789012ull, .root = 5, .reps = 3, .gamma = 2e-10};
    strcpy(l.id, "17");
    strcpy(l.alg, "chain");
    strcpy(l.dtype, "double");
    strcpy(l.op, "sum");
    strcpy(l.pattern, "pattern-2-65536.txt");
    strcpy(l.params, "segsize=1024,fanout=2");
    char buf[8192];
    g_assert_cmpint(pact_plan_line_format(&l, buf, sizeof buf), ==, PACT_OK);
    g_assert_cmpstr(buf, ==, "17 reduce chain 123456789012 double sum 5 3 2.0000000000000001e-10 pattern-2-65536.txt "
                             "segsize=1024,fanout=2\n");
    pact_plan_line back;
    g_assert_cmpint(pact_plan_line_parse(buf, &back), ==, PACT_OK);
    g_assert_cmpstr(back.id, ==, l.id);
    g_assert_cmpint(back.coll, ==, l.coll);
    g_assert_cmpstr(back.alg, ==, l.alg);
    g_assert_cmpuint(back.count, ==, l.count);
    g_assert_cmpstr(back.dtype, ==, l.dtype);
    g_assert_cmpstr(back.op, ==, l.op);
    g_assert_cmpint(back.root, ==, l.root);
    g_assert_cmpint(back.reps, ==, l.reps);
    g_assert_cmpfloat(back.gamma, ==, l.gamma);
    g_assert_cmpstr(back.pattern, ==, l.pattern);
    g_assert_cmpstr(back.params, ==, l.params);
    /* no pattern and no parameters: "-" both ways */
    l.pattern[0] = 0;
    l.params[0] = 0;
    g_assert_cmpint(pact_plan_line_format(&l, buf, sizeof buf), ==, PACT_OK);
    g_assert_true(g_str_has_suffix(buf, " - -\n"));
    g_assert_cmpint(pact_plan_line_parse(buf, &back), ==, PACT_OK);
    g_assert_cmpstr(back.pattern, ==, "");
    g_assert_cmpstr(back.params, ==, "");
    /* a path with a blank would split the line */
    strcpy(l.pattern, "my pattern.txt");
    g_assert_cmpint(pact_plan_line_format(&l, buf, sizeof buf), ==, PACT_ERR_ARG);
}

static void test_malformed(void)
{
    pact_plan_line l;
    const char *bad[] = {
        "1 reduce chain 8 double sum 0 1 0",               /* no pattern */
        "1 allgatherv ring 8 double sum 0 1 0 -",          /* unknown collective */
        "1 reduce chain -8 double sum 0 1 0 -",            /* negative count */
        "1 reduce chain 8K double sum 0 1 0 -",            /* a suffix */
        "1 reduce chain 8 double sum 0 0 0 -",             /* no repetition */
        "1 reduce chain 8 double sum 0 1 -1e-9 -",         /* negative gamma */
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
        if (pact_plan_line_parse(bad[i], &l) != PACT_ERR_ARG)
            g_error("accepted: %s", bad[i]);
    g_assert_cmpint(pact_plan_line_parse("1 reduce chain 8 double sum 0 1 0 -", &l), ==, PACT_OK);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/planfile/roundtrip", test_roundtrip);
    g_test_add_func("/planfile/malformed", test_malformed);
    return g_test_run();
}
