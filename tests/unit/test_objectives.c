/* test_objectives.c - the objectives over a hand-made table of d^ whose answers are known. */
#include <glib.h>
#include <math.h>

#include "pact_objectives.h"

/* 3 algorithms x 3 patterns (no_delay, last_delayed, random), stride 4 (a padding column). */
static const double d[] = {
    1.0, 3.0, 2.0, -1, /* a0: best without delay, suffers late arrivals */
    1.5, 1.5, 1.5, -1, /* a1: robust */
    2.0, 1.0, NAN, -1, /* a2: best under last_delayed, did not run under random */
};
static const pact_obj_table t = {.na = 3, .np = 3, .d = d, .stride = 4, .nd = 0};

static void test_best_and_runner_up(void)
{
    g_assert_cmpuint(pact_obj_best(&t, 0, PACT_OBJ_NONE), ==, 0);
    g_assert_cmpuint(pact_obj_best(&t, 1, PACT_OBJ_NONE), ==, 2);
    g_assert_cmpuint(pact_obj_best(&t, 1, 2), ==, 1); /* runner-up under last_delayed */
    g_assert_cmpuint(pact_obj_best(&t, 2, PACT_OBJ_NONE), ==, 1);
    g_assert_cmpuint(pact_obj_choice(&t), ==, 0);
    /* within a relative 1e-9 the first listed wins */
    const double tie[] = {1.0, 1.0 - 1e-12};
    pact_obj_table tt = {.na = 2, .np = 1, .d = tie, .stride = 1, .nd = -1};
    g_assert_cmpuint(pact_obj_best(&tt, 0, PACT_OBJ_NONE), ==, 0);
    g_assert_cmpuint(pact_obj_choice(&tt), ==, PACT_OBJ_NONE);
}

static void test_scores(void)
{
    unsigned miss;
    g_assert_cmpfloat_with_epsilon(pact_obj_robustness(&t, 0, 1), 200.0, 1e-12);
    g_assert_cmpfloat_with_epsilon(pact_obj_normalized(&t, 0, 1), 3.0, 1e-12);
    /* a0: (1 + 3 + 2/1.5) / 3; a1: (1.5 + 1.5 + 1) / 3 */
    g_assert_cmpfloat_with_epsilon(pact_obj_score(&t, 0, &miss), (1 + 3 + 2 / 1.5) / 3, 1e-12);
    g_assert_cmpuint(miss, ==, PACT_OBJ_NONE);
    g_assert_cmpfloat_with_epsilon(pact_obj_score(&t, 1, NULL), 4.0 / 3, 1e-12);
    g_assert_cmpfloat_with_epsilon(pact_obj_regret(&t, 0, NULL), 3.0, 1e-12);
    g_assert_cmpfloat_with_epsilon(pact_obj_regret(&t, 1, NULL), 1.5, 1e-12);
    g_assert_true(isnan(pact_obj_score(&t, 2, &miss))); /* lacks random */
    g_assert_cmpuint(miss, ==, 2);
    double score[3] = {pact_obj_score(&t, 0, NULL), pact_obj_score(&t, 1, NULL), pact_obj_score(&t, 2, NULL)};
    g_assert_cmpint(pact_obj_rank(score, 3, 1), ==, 1);
    g_assert_cmpint(pact_obj_rank(score, 3, 0), ==, 2);
    g_assert_cmpint(pact_obj_rank(score, 3, 2), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/objectives/best-and-runner-up", test_best_and_runner_up);
    g_test_add_func("/objectives/scores", test_scores);
    return g_test_run();
}
