/* host.c - host-side helpers: error domain, list and size parsing. */
#include "pact_host.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "pact_coll.h"

G_DEFINE_QUARK(pact - error - quark, pact_error)

int pact_exit_status(const GError *err)
{
    if (!err)
        return 0;
    return err->domain == PACT_ERROR ? err->code : 1;
}

gboolean pact_split_list(const char *text, const char *what, GPtrArray *out, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(text ? text : "", ",", -1);
    if (!parts[0]) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: empty list", what);
        return FALSE;
    }
    for (int i = 0; parts[i]; i++) {
        char *t = g_strstrip(parts[i]);
        if (!*t) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: empty item in '%s'", what, text);
            return FALSE;
        }
        g_ptr_array_add(out, g_strdup(t));
    }
    return TRUE;
}

gboolean pact_parse_size_list(const char *text, const char *what, GArray *out, GError **err)
{
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
    if (!pact_split_list(text, what, items, err))
        return FALSE;
    for (guint i = 0; i < items->len; i++) {
        const char *it = items->pdata[i];
        const char *dots = strstr(it, "..");
        guint64 lo, hi;
        if (dots) {
            g_autofree char *a = g_strndup(it, (gsize)(dots - it));
            if (pact_parse_size(a, &lo) != PACT_OK || pact_parse_size(dots + 2, &hi) != PACT_OK || lo == 0 ||
                hi < lo) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: malformed range '%s' (expected LOW..HIGH, e.g. 8..1M)", what, it);
                return FALSE;
            }
            for (guint64 v = lo; v <= hi; v *= 2)
                g_array_append_val(out, v);
        } else {
            if (pact_parse_size(it, &lo) != PACT_OK) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: malformed size '%s' (expected bytes with an optional K, M or G suffix)",
                            what, it);
                return FALSE;
            }
            g_array_append_val(out, lo);
        }
    }
    return TRUE;
}

char *pact_find_tool(const char *name, const char *env_var, GError **err)
{
    const char *env = env_var ? g_getenv(env_var) : NULL;
    if (env)
        return g_strdup(env);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    if (self) {
        g_autofree char *dir = g_path_get_dirname(self);
        char *p = g_build_filename(dir, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_EXECUTABLE))
            return p;
        g_free(p);
    }
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot find %s next to pact; build it (make)%s%s", name,
                env_var ? " or set " : "", env_var ? env_var : "");
    return NULL;
}

gboolean pact_parse_seconds(const char *text, const char *what, double *out, GError **err)
{
    char *end;
    double v = g_ascii_strtod(text, &end);
    double scale = 1;
    if (!strcmp(end, "ms"))
        scale = 1e-3;
    else if (!strcmp(end, "us"))
        scale = 1e-6;
    else if (!strcmp(end, "ns"))
        scale = 1e-9;
    else if (*end && strcmp(end, "s"))
        end = (char *)text;
    if (end == text || !isfinite(v) || v < 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected seconds >= 0 (e.g. 1e-3, 1ms, 100us)",
                    what, text);
        return FALSE;
    }
    *out = v * scale;
    return TRUE;
}

void pact_child_setup(gpointer unused)
{
    (void)unused;
    /* SIGTERM when the thread that started the child ends: smpirun traps it and stops its simulation, so a
     * killed pact sim (SIGINT, SIGKILL) leaves no simulation running that a resumed one would race with. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
}

gboolean pact_parse_number(const char *text, const char *what, double *out, GError **err)
{
    char *end;
    double v = g_ascii_strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a number >= 0", what, text);
        return FALSE;
    }
    *out = v;
    return TRUE;
}

void pact_rm_rf(const char *path)
{
    if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
        GDir *d = g_dir_open(path, 0, NULL);
        const char *n;
        while (d && (n = g_dir_read_name(d))) {
            g_autofree char *c = g_build_filename(path, n, NULL);
            pact_rm_rf(c);
        }
        if (d)
            g_dir_close(d);
        g_rmdir(path);
    } else {
        g_unlink(path);
    }
}

/* SimGrid prints "[time] ./src/file.cpp:48: [category/CRITICAL] message" and then a backtrace of "  ->"
 * lines ending in "Aborted"; a builder's refusal comes as "pact-bench: ...".  What a user needs is the first
 * message, so rank the lines: the driver's own, then SimGrid's errors, then well-known causes. */
char *pact_smpirun_cause(const char *output)
{
    static const char *const known[] = {"Failed to allocate", "not found", "Assertion", "error", "Error"};
    g_auto(GStrv) lines = g_strsplit(output ? output : "", "\n", -1);
    const char *best = NULL, *last = NULL;
    int rank = 4;
    for (int i = 0; lines[i]; i++) {
        const char *l = g_strstrip(lines[i]);
        if (!*l || g_str_has_prefix(l, "->") || strstr(l, "backtrace") || !strcmp(l, "Aborted") ||
            g_str_has_prefix(l, "Execution failed") || g_str_has_prefix(l, "$ "))
            continue;
        int r = 3;
        if (g_str_has_prefix(l, "pact-bench"))
            r = 0;
        else if (strstr(l, "/CRITICAL]") || strstr(l, "/ERROR]"))
            r = 1;
        else
            for (guint k = 0; k < G_N_ELEMENTS(known); k++)
                if (strstr(l, known[k]))
                    r = 2;
        if (r < rank) {
            best = l;
            rank = r;
        }
        if (!strstr(l, "/WARNING]"))
            last = l;
    }
    if (!best)
        best = last ? last : "no message";
    /* "[0.000000] ./src/xbt/exception.cpp:48: [xbt_exception/CRITICAL] Uncaught exception ...: Host..."
     * -> the message after the category */
    const char *cat = rank == 1 ? strstr(best, "/CRITICAL] ") : NULL;
    if (rank == 1 && !cat)
        cat = strstr(best, "/ERROR] ");
    if (cat)
        best = strchr(cat, ']') + 2;
    const char *unc = strstr(best, "Uncaught exception ");
    if (unc && strstr(unc, ": "))
        best = strstr(unc, ": ") + 2;
    return g_strdup(best);
}

char *pact_read_file(const char *path, gsize *len, GError **err)
{
    char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    return text;
}
