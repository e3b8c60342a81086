/* smpi_env.c - the environment of pact's smpirun children: which memory allocator they preload
 * (PACT_SMPI_MALLOC), and LD_PRELOAD put together for the SMPI and replay engines. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <string.h>

#include "pact_host.h"

#define JEMALLOC "libjemalloc.so.2"

/* jemalloc's file where the C library is (Debian's libjemalloc2 puts it beside libc.so.6, in the
 * architecture's folder), else NULL. */
static char *find_jemalloc(void)
{
    Dl_info info;
    if (!dladdr((void *)gnu_get_libc_version, &info) || !info.dli_fname || info.dli_fname[0] != '/')
        return NULL;
    g_autofree char *dir = g_path_get_dirname(info.dli_fname);
    char *p = g_build_filename(dir, JEMALLOC, NULL);
    if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
        return p;
    g_free(p);
    return NULL;
}

gboolean pact_smpi_malloc(char **lib, GError **err)
{
    const char *v = g_getenv("PACT_SMPI_MALLOC");
    *lib = NULL;
    if (!v || !*v) { /* the default: jemalloc where it is installed, else the C library's */
        *lib = find_jemalloc();
        return TRUE;
    }
    if (!strcmp(v, "glibc"))
        return TRUE;
    if (!strcmp(v, "jemalloc")) {
        *lib = find_jemalloc();
        if (!*lib)
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "PACT_SMPI_MALLOC=jemalloc: %s not found beside the C library (install libjemalloc2)",
                        JEMALLOC);
        return *lib != NULL;
    }
    if (v[0] == '/' && !strpbrk(v, " :")) { /* LD_PRELOAD splits its list at spaces and colons */
        if (g_file_test(v, G_FILE_TEST_IS_REGULAR)) {
            *lib = g_strdup(v);
            return TRUE;
        }
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "PACT_SMPI_MALLOC=%s: no such file", v);
        return FALSE;
    }
    g_set_error(
        err, PACT_ERROR, PACT_ERROR_INPUT,
        "PACT_SMPI_MALLOC=%s: expected glibc, jemalloc or the absolute path of a shared library (no spaces "
        "or colons), or empty for the default",
        v);
    return FALSE;
}

char **pact_smpi_environ(const char *first, char **preload)
{
    char **envp = g_get_environ();
    g_autofree char *lib = NULL;
    GError *e = NULL;
    if (!pact_smpi_malloc(&lib, &e)) /* checked when pact started (cli/pact.c): only a file gone since */
        g_clear_error(&e);
    GPtrArray *parts = g_ptr_array_new();
    if (first)
        g_ptr_array_add(parts, (gpointer)first);
    if (lib)
        g_ptr_array_add(parts, lib);
    const char *was = g_environ_getenv(envp, "LD_PRELOAD");
    if (was && *was)
        g_ptr_array_add(parts, (gpointer)was);
    g_ptr_array_add(parts, NULL);
    *preload = parts->len > 1 ? g_strjoinv(" ", (char **)parts->pdata) : NULL;
    g_ptr_array_free(parts, TRUE);
    if (*preload)
        envp = g_environ_setenv(envp, "LD_PRELOAD", *preload, TRUE);
    return envp;
}
