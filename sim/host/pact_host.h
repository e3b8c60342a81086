/*
 * pact_host.h - host-side helpers shared by the layers above the rank code (patterns, platforms, models,
 * the sweep runner, the tuner, the CLI): the GError domain and exit codes.  Uses GLib; never included
 * by code that runs inside MPI ranks.
 */
#ifndef PACT_HOST_H
#define PACT_HOST_H

#include <glib.h>

#define PACT_ERROR (pact_error_quark())
GQuark pact_error_quark(void);

/* Error codes of the PACT_ERROR domain; they are also the process exit status. */
typedef enum {
    PACT_ERROR_RUN = 1,   /* a run failed (smpirun, a missing binary, a write) */
    PACT_ERROR_INPUT = 2, /* bad input: names, sizes, files, flags */
} PactErrorCode;

/* Exit status for an error: its code in the PACT_ERROR domain, 1 for any other domain. */
int pact_exit_status(const GError *err);

/* Parses "8,1K,64K" or "8..1M" (powers of two) into bytes, appended to `out` (guint64).  `what` names the
 * field in messages. */
gboolean pact_parse_size_list(const char *text, const char *what, GArray *out, GError **err);

/* Seconds with an optional unit: 0.001, 1e-3, 1ms, 100us, 250ns, 2s; >= 0 and finite.  `what` names the
 * flag in messages. */
gboolean pact_parse_seconds(const char *text, const char *what, double *out, GError **err);

/* Splits a comma list into non-empty trimmed items; an empty item is an error naming `what`. */
gboolean pact_split_list(const char *text, const char *what, GPtrArray *out, GError **err);

/* A helper program installed next to the pact binary (or named by the environment variable `env_var`). */
char *pact_find_tool(const char *name, const char *env_var, GError **err);

/* A number >= 0 (no unit), finite; `what` names the flag in messages. */
gboolean pact_parse_number(const char *text, const char *what, double *out, GError **err);
/* The whole file (g_free it) and its length (len may be NULL), or NULL with PACT_ERROR_INPUT naming it. */
char *pact_read_file(const char *path, gsize *len, GError **err);
/* Removes a file, or a folder with everything in it (symbolic links are removed, not followed). */
void pact_rm_rf(const char *path);
/* A g_spawn child setup function: the child gets SIGTERM when the thread that spawned it dies. */
void pact_child_setup(gpointer unused);

/* The line of a failed smpirun's output that says why (the bench driver's message, SimGrid's CRITICAL or
 * ERROR message without its location prefix, "Failed to allocate", ...), never the backtrace that follows;
 * the last plain line when none matches.  Free with g_free. */
char *pact_smpirun_cause(const char *output);

/* The allocator that smpirun's children preload, from PACT_SMPI_MALLOC (smpi_env.c): unset or empty,
 * jemalloc where it is installed (else the C library's); glibc, the C library's; jemalloc, jemalloc or an
 * error; an absolute path, that library.  *lib: its file, or NULL for the C library's (g_free).  FALSE and
 * err (PACT_ERROR_INPUT) for any other value.  SimGrid 3.32 walks each actor's list of pending comms at
 * each comm's end; with glibc's allocator the list's nodes lie apart among the comms' other objects, with
 * jemalloc's (one run of memory per size class) side by side: alltoall on 256 ranks about twice as fast, the
 * same simulated times. */
gboolean pact_smpi_malloc(char **lib, GError **err);

/* The environment for an smpirun child (g_strfreev): LD_PRELOAD with `first` (NULL: none), then the
 * allocator above, then what LD_PRELOAD held; *preload (g_free) the value set, NULL where none, for the
 * run's log. */
char **pact_smpi_environ(const char *first, char **preload);

#endif
