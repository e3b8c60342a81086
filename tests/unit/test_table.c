/* test_table.c - the selection table: table.csv written and read back, order and coverage refused with
 * FILE:LINE, the matching rule. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "pact_host.h"
#include "pact_table.h"

static void add(pact_table *t, pact_coll c, int procs, int ppn, uint64_t lo, uint64_t hi, const char *alg,
                long *params)
{
    pact_table_row r = {.coll = c, .procs = procs, .ppn = ppn, .min_bytes = lo, .max_bytes = hi,
                        .alg = pact_alg_find(c, alg), .params = params, .objective = "robust", .value = 1.25,
                        .runner_up = "ring", .runner_up_value = 1.5};
    g_assert_nonnull(r.alg);
    if (c != PACT_COLL_ALLREDUCE)
        r.runner_up = NULL;
    pact_table_add(t, &r);
}

static void sample(pact_table *t)
{
    pact_table_init(t);
    add(t, PACT_COLL_ALLREDUCE, 4, 1, 0, 1023, "recursive_doubling", NULL);
    add(t, PACT_COLL_ALLREDUCE, 4, 1, 1024, PACT_TABLE_INF, "ring", NULL);
    add(t, PACT_COLL_ALLREDUCE, 16, 1, 0, PACT_TABLE_INF, "rabenseifner", NULL);
    long seg[] = {8192};
    add(t, PACT_COLL_BCAST, 4, 1, 0, PACT_TABLE_INF, "pipeline", seg);
}

static void test_roundtrip(void)
{
    pact_table t, u;
    GError *err = NULL;
    sample(&t);
    g_assert_true(pact_table_check(&t, &err));
    char *text = pact_table_format(&t);
    if (g_test_verbose()) g_printerr("%s", text);
    g_assert_nonnull(strstr(text, "bcast,4,1,0,inf,pipeline,segsize=8192,robust,1.25,,\n"));
    g_assert_nonnull(strstr(text, "allreduce,4,1,0,1023,recursive_doubling,,robust,1.25,ring,1.5\n"));
    pact_table_init(&u);
    g_assert_true(pact_table_parse(text, strlen(text), "t.csv", &u, &err));
    g_assert_no_error(err);
    char *again = pact_table_format(&u);
    g_assert_cmpstr(text, ==, again);
    g_assert_cmpstr(pact_table_spec(&g_array_index(u.rows, pact_table_row, 3)), ==, "pipeline:segsize=8192");
    g_free(again);
    g_free(text);
    pact_table_clear(&u);
    pact_table_clear(&t);
}

static void test_lookup(void)
{
    pact_table t;
    sample(&t);
    g_assert_cmpstr(pact_table_lookup(&t, PACT_COLL_ALLREDUCE, 4, 1, 1023)->alg->name, ==, "recursive_doubling");
    g_assert_cmpstr(pact_table_lookup(&t, PACT_COLL_ALLREDUCE, 4, 1, 1024)->alg->name, ==, "ring");
    /* 2 ranks: the smallest tuned count; 15: the largest tuned <= 15 */
    g_assert_cmpstr(pact_table_lookup(&t, PACT_COLL_ALLREDUCE, 2, 1, 8)->alg->name, ==, "recursive_doubling");
    g_assert_cmpstr(pact_table_lookup(&t, PACT_COLL_ALLREDUCE, 15, 4, 1 << 20)->alg->name, ==, "ring");
    g_assert_cmpstr(pact_table_lookup(&t, PACT_COLL_ALLREDUCE, 4096, 1, 8)->alg->name, ==, "rabenseifner");
    g_assert_null(pact_table_lookup(&t, PACT_COLL_REDUCE, 4, 1, 8));
    pact_table_clear(&t);
}

/* Each bad file is refused with the line and the column or the reason. */
static void test_refused(void)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"nonsense\n", "t.csv:1: expected the header line"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,inf,nope,,robust,1,,\n", "t.csv:2: column algorithm: 'nope'"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,inf,ring,segsize=8,robust,1,,\n", "t.csv:2: column params"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,inf,ring,,robust,1,,\n# c\nallreduce,4,1,0,inf,ring,,robust,1\n",
         "t.csv:4: 9 columns"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,99,ring,,robust,1,,\nallreduce,4,1,101,inf,ring,,robust,1,,\n",
         "t.csv:3: min_bytes 101 must follow"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,8,inf,ring,,robust,1,,\n", "t.csv:2: the first range"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,99,ring,,robust,1,,\n", "t.csv:2: the last range"},
        {PACT_TABLE_HEADER "\nallreduce,8,1,0,inf,ring,,robust,1,,\nallreduce,4,1,0,inf,ring,,robust,1,,\n",
         "t.csv:3: out of order"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,inf,ring,,robust,x,,\n", "t.csv:2: column value: 'x'"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,inf,ring,,robust,1,zz,\n", "t.csv:2: column runner_up"},
        {PACT_TABLE_HEADER "\nallreduce,4,1,0,-1,ring,,robust,1,,\n", "t.csv:2: column max_bytes"},
        {PACT_TABLE_HEADER "\nreduce,4,8,0,inf,binomial,,robust,1,,\n", "t.csv:2: procs 4 and ppn 8"},
        {PACT_TABLE_HEADER "\n", "t.csv: the table has no rows"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        pact_table t;
        GError *err = NULL;
        pact_table_init(&t);
        g_assert_false(pact_table_parse(cases[i].text, strlen(cases[i].text), "t.csv", &t, &err));
        g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
        if (!strstr(err->message, cases[i].msg))
            g_error("case %zu: '%s' lacks '%s'", i, err->message, cases[i].msg);
        g_error_free(err);
        pact_table_clear(&t);
    }
}

/* expected:WEIGHTS's ',' is written ';'; a runner-up of two parameters (NAME:p=v:p=v); both read back. */
static void test_commas(void)
{
    pact_table t, u;
    GError *err = NULL;
    pact_table_init(&t);
    pact_table_row r = {.coll = PACT_COLL_BCAST, .procs = 4, .ppn = 1, .min_bytes = 0, .max_bytes = PACT_TABLE_INF,
                        .alg = pact_alg_find(PACT_COLL_BCAST, "binomial"), .objective = "expected:no_delay=2,random=1",
                        .value = 1e-5, .runner_up = "knomial:segsize=1024:radix=8", .runner_up_value = 2e-5};
    pact_table_add(&t, &r);
    char *text = pact_table_format(&t);
    g_assert_nonnull(strstr(text, ",expected:no_delay=2;random=1,1e-05,knomial:segsize=1024:radix=8,2e-05\n"));
    pact_table_init(&u);
    pact_table_parse(text, strlen(text), "t.csv", &u, &err);
    g_assert_no_error(err);
    char *again = pact_table_format(&u);
    g_assert_cmpstr(text, ==, again);
    g_free(again);
    g_free(text);
    pact_table_clear(&u);
    pact_table_clear(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/table/roundtrip", test_roundtrip);
    g_test_add_func("/table/commas", test_commas);
    g_test_add_func("/table/lookup", test_lookup);
    g_test_add_func("/table/refused", test_refused);
    return g_test_run();
}
