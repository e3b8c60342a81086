/* test_host.c - host-side helpers: size lists.  Patterns: test_patterns.c; platforms: test_platforms.c. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "pact_host.h"

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/host/size-lists", test_size_lists);
    return g_test_run();
}
