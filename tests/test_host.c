/* test_host.c - host-side modules: size lists, patterns, platform export. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "pact_host.h"
#include "pact_patterns.h"
#include "pact_platforms.h"

static void test_size_lists(void)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(guint64));
    GError *err = NULL;
    g_assert_true(pact_parse_size_list("8,1K,64K,1M", "--sizes", a, &err));
    g_assert_cmpuint(a->len, ==, 4);
    g_assert_cmpuint(g_array_index(a, guint64, 3), ==, 1048576);
    g_array_set_size(a, 0);
    g_assert_true(pact_parse_size_list("8..1M", "--sizes", a, &err));
    g_assert_cmpuint(a->len, ==, 18);
    g_assert_false(pact_parse_size_list("8,,1K", "--sizes", a, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
    g_assert_false(pact_parse_size_list("1Q", "--sizes", a, &err));
    g_assert_nonnull(strstr(err->message, "--sizes"));
    g_assert_nonnull(strstr(err->message, "1Q"));
    g_clear_error(&err);
    g_assert_false(pact_parse_size_list("1M..8", "--sizes", a, &err));
    g_clear_error(&err);
    g_array_unref(a);
}

static void range(const double *d, int p, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < p; i++) {
        *lo = fmin(*lo, d[i]);
        *hi = fmax(*hi, d[i]);
    }
}

static void test_patterns(void)
{
    const int sizes[] = {2, 7, 8, 64};
    double d[64], e[64];
    GError *err = NULL;
    for (const char *const *s = pact_pattern_shapes(); *s; s++)
        for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
            int p = sizes[k];
            g_assert_true(pact_pattern_gen(*s, p, 2.0, 7, d, &err));
            double lo, hi;
            range(d, p, &lo, &hi);
            g_assert_cmpfloat(lo, >=, 0);
            g_assert_cmpfloat(hi, <=, 2.0);
            /* two ranks have no middle: mountain and valley are flat */
            if (strcmp(*s, "no_delay") &&
                !(p < 3 && (!strcmp(*s, "middle_delayed") || !strcmp(*s, "ends_delayed"))))
                g_assert_cmpfloat(fabs(hi - lo - 2.0), <, 1e-12);
            else
                g_assert_cmpfloat(hi, ==, 0);
        }
    g_assert_true(pact_pattern_gen("last_delayed", 8, 1.0, 1, d, &err));
    for (int i = 0; i < 7; i++)
        g_assert_cmpfloat(d[i], ==, 0);
    g_assert_cmpfloat(d[7], ==, 1.0);
    g_assert_true(pact_pattern_gen("ascending", 8, 1.0, 1, d, &err));
    for (int i = 1; i < 8; i++)
        g_assert_cmpfloat(d[i], >, d[i - 1]);
    g_assert_true(pact_pattern_gen("middle_delayed", 9, 1.0, 1, d, &err));
    g_assert_cmpfloat(d[4], ==, 1.0);
    g_assert_cmpfloat(d[0], ==, 0);
    g_assert_cmpfloat(d[8], ==, 0);
    /* same seed, same vector; another seed, another vector */
    g_assert_true(pact_pattern_gen("random", 64, 1.0, 42, d, &err));
    g_assert_true(pact_pattern_gen("random", 64, 1.0, 42, e, &err));
    g_assert_cmpmem(d, sizeof(d), e, sizeof(e));
    g_assert_true(pact_pattern_gen("random", 64, 1.0, 43, e, &err));
    g_assert_true(memcmp(d, e, sizeof(d)) != 0);
    g_assert_false(pact_pattern_gen("sideways", 8, 1.0, 1, d, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/host/size-lists", test_size_lists);
    g_test_add_func("/patterns/shapes", test_patterns);
    return g_test_run();
}
