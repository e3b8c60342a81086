/*
 * replay.c - one cell as SMPI time-independent traces, replayed with `smpirun -replay`.
 *
 * What SimGrid 3.32 does with a trace (read in src/smpi/internals/smpi_replay.cpp, src/xbt/xbt_replay.cpp,
 * src/smpi/internals/smpi_deployment.cpp and examples/smpi/replay at tag v3.32; no code taken from there):
 *   - smpirun -replay FILE runs smpireplaymain once per rank; FILE lists one trace per rank, one per line
 *     (a single line means one trace shared by all ranks).  A line of a trace is "RANK ACTION ARGS...",
 *     and a trace must end with a newline (the reader drops an unterminated last line).
 *   - "init" sets the default datatype (MPI_BYTE without an argument), so sizes below are bytes.
 *   - "isend PEER TAG SIZE" and "irecv PEER TAG SIZE" go through the same Request::isend/irecv as MPI_Isend
 *     and MPI_Irecv (same 16-byte envelope, same detached-send threshold), with no buffer.
 *   - "wait SRC DST TAG" pops the oldest request of that (source, destination, tag) and waits for it;
 * "waitall" waits for all of the rank's requests.
 *   - "sleep S" sleeps S seconds (this_actor::sleep_for), on any host.  A reduction is such a sleep, as the
 *     executor's pact_charge is: "compute FLOPS" would run FLOPS at the host's speed (30-42 Gf on the
 *     built-in machines) and only with smpi/simulate-computation on.
 *   - when the last rank ends, smpi_replay_main logs "Simulation time" in category smpi_replay; a log format
 *     with %r prints the simulated clock at that moment to any precision.  init, finalize and that log
 *     cost no simulated time, so the clock is the last rank's exit.
 *
 * The linearization.  A rank's trace is its program (program.c), the same order of posts, reductions
 * and waits the executor (exec.c) turns into MPI calls, written one request at a time.  Where the
 * executor merges calls (one MPI_Waitall for a joined wait, MPI_Send/Recv/Sendrecv for a post and the
 * wait that follows it), nothing can start between the calls it merges, so the simulated times are the
 * same.  SimGrid's "wait" pops the oldest request of its key, which is the request the program waits
 * for.  Requests nothing depends on go to one final waitall.
 */
#include "pact_replay.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "pact_host.h"
#include "pact_platforms.h"

#define TAG_BASE 100 /* the bench driver's base tag (pact_exec_ctx.tag), so SMPI sees the same tags */
#define CLOCK_MARK "PACT_CLOCK="


/* ---- one rank's trace ------------------------------------------------------------------------------- */

static int op_tag(const pact_op *o)
{
    return TAG_BASE + o->tag;
}

/* Writes the program of one schedule as trace actions: what the executor calls, one request at a time. */
static void write_actions(FILE *f, const pact_sched *s, const pact_program *g, double gamma)
{
    const int me = s->rank;
    for (size_t k = 0; k < g->nacts; k++) {
        const pact_act *t = &g->acts[k];
        const pact_op *o = t->kind == PACT_ACT_WAITALL ? NULL : &s->ops[t->op];
        switch (t->kind) {
        case PACT_ACT_POST:
            fprintf(f, "%d %s %d %d %zu\n", me, o->kind == PACT_OP_SEND ? "isend" : "irecv", o->peer,
                    op_tag(o), pact_op_bytes(s, o));
            break;
        case PACT_ACT_COMPUTE: { /* pact_charge's sleep, to the same double */
            double sec = gamma * (double)(o->src.count * s->elem_size);
            if (o->kind == PACT_OP_REDUCE && sec > 0)
                fprintf(f, "%d sleep %.17g\n", me, sec);
            break;
        }
        case PACT_ACT_WAIT: /* SimGrid pops the oldest request of the key: the program waits for that one */
            fprintf(f, "%d wait %d %d %d\n", me, o->kind == PACT_OP_SEND ? me : o->peer,
                    o->kind == PACT_OP_SEND ? o->peer : me, op_tag(o));
            break;
        case PACT_ACT_WAITALL:
            fprintf(f, "%d waitall\n", me);
            break;
        }
    }
}

/* Writes path (through path.tmp, then a rename) with rank's actions. */
static gboolean write_rank(const pact_sched *s, double delay, double gamma, const char *path, GError **err)
{
    gboolean ok = FALSE;
    g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
    pact_program g = {0};
    FILE *f = NULL;
    size_t stalled = 0;
    int saved = 0, rc = pact_program_build(s, gamma > 0 ? PACT_PROG_CHARGE : 0, &g, &stalled);
    if (rc != PACT_OK) {
        if (rc == PACT_ERR_ARG)
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "rank %d: schedule stalled at operation %zu of %zu", s->rank, stalled, s->nops);
        else
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "rank %d: out of memory", s->rank);
        goto out;
    }
    if (!(f = fopen(tmp, "w"))) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", tmp, g_strerror(errno));
        goto out;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fprintf(f, "%d init\n", s->rank);
    fprintf(f, "%d sleep %.17g\n", s->rank, PACT_START_MARGIN + delay); /* as the bench driver starts */
    write_actions(f, s, &g, gamma);
    fprintf(f, "%d finalize\n", s->rank);
    saved = ferror(f) ? errno : 0;
    if (fclose(f) != 0 && !saved)
        saved = errno ? errno : EIO;
    f = NULL;
    if (saved || g_rename(tmp, path) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", path, g_strerror(saved ? saved : errno));
        goto out;
    }
    ok = TRUE;
out:
    if (f)
        fclose(f);
    if (!ok)
        g_remove(tmp);
    pact_program_free(&g);
    return ok;
}

/* ---- writing a cell ----------------------------------------------------------------------------------- */

gboolean pact_replay_write(const pact_replay_cell *c, const char *dir, GError **err)
{
    gboolean ok = FALSE;
    pact_sched s;
    pact_sched_init(&s);
    pact_build_args a = {.coll = c->coll,
                         .size = c->P,
                         .root = c->root,
                         .count = c->count,
                         .elem_size = c->elem_size,
                         .commutative = c->commutative};
    const char *why = NULL;
    double dmin = 0, dmax = 0;
    GString *index = g_string_new(NULL);
    g_autofree char *index_path = g_build_filename(dir, "index.txt", NULL);
    g_autofree char *cell_path = g_build_filename(dir, "cell.txt", NULL);
    const pact_alg *alg = NULL;
    g_autofree char *cell = NULL;
    long *params = NULL;
    char why_buf[256];
    pact_place own = {0};
    if (!c->place && pact_place_init(&own, c->P > 0 ? c->P : 1, NULL) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "out of memory");
        goto out;
    }
    a.place = c->place ? c->place : &own;

    if ((unsigned)c->coll >= PACT_NCOLL || c->P < 1 || c->elem_size == 0 || !(c->gamma >= 0) ||
        (pact_coll_rooted(c->coll) && (c->root < 0 || c->root >= c->P))) {
        g_set_error(
            err, PACT_ERROR, PACT_ERROR_INPUT,
            "replay cell: needs a collective, P >= 1, an element size, gamma >= 0 and a root in 0..P-1");
        goto out;
    }
    if (pact_spec_parse(c->coll, c->alg ? c->alg : "", &alg, &params, why_buf, sizeof why_buf) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "alg '%s': %s", c->alg ? c->alg : "", why_buf);
        goto out;
    }
    a.params = params;
    if (pact_alg_applies(alg, &a, &why) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "alg '%s': restricted: %s", c->alg, why);
        goto out;
    }
    for (int r = 0; c->delays && r < c->P; r++) {
        if (!(c->delays[r] >= 0) || !isfinite(c->delays[r])) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "delays[%d]: expected seconds >= 0, got %g", r,
                        c->delays[r]);
            goto out;
        }
        dmin = r == 0 ? c->delays[r] : fmin(dmin, c->delays[r]);
        dmax = r == 0 ? c->delays[r] : fmax(dmax, c->delays[r]);
    }
    if (g_mkdir_with_parents(dir, 0755) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", dir, g_strerror(errno));
        goto out;
    }
    if (g_remove(index_path) != 0 && errno != ENOENT) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", index_path, g_strerror(errno));
        goto out;
    }
    for (int r = 0; r < c->P; r++) {
        a.rank = r;
        int rc = pact_build(alg, &a, &s);
        if (rc == PACT_OK)
            rc = pact_sched_validate(&s, why_buf, sizeof why_buf);
        else
            g_snprintf(why_buf, sizeof why_buf, "builder failed (%d)", rc);
        if (rc != PACT_OK) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "alg '%s': rank %d: %s", c->alg, r, why_buf);
            goto out;
        }
        for (size_t i = 0; i < s.nops; i++)
            if ((s.ops[i].kind == PACT_OP_SEND || s.ops[i].kind == PACT_OP_RECV) &&
                pact_op_bytes(&s, &s.ops[i]) > INT_MAX) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "alg '%s': rank %d: a message of %zu bytes, more than SMPI's replay takes",
                            c->alg, r, pact_op_bytes(&s, &s.ops[i]));
                goto out;
            }
        g_autofree char *name = g_strdup_printf("rank-%d.ti", r);
        g_autofree char *path = g_build_filename(dir, name, NULL);
        if (!write_rank(&s, c->delays ? c->delays[r] : 0, c->gamma, path, err))
            goto out;
        g_string_append_printf(index, "%s\n", name);
    }
    cell = g_strdup_printf("# pact replay cell: what the traces in this folder were written for\n"
                           "collective %s\nalgorithm %s\nprocs %d\nroot %d\ncount %zu\nelem_size %zu\n"
                           "commutative %d\ngamma %.17g\ndelay_min %.17g\ndelay_max %.17g\n",
                           pact_coll_name(c->coll), c->alg, c->P, c->root, c->count, c->elem_size,
                           c->commutative, c->gamma, dmin, dmax);
    if (!g_file_set_contents(cell_path, cell, -1, err) ||
        !g_file_set_contents(index_path, index->str, (gssize)index->len, err))
        goto out;
    ok = TRUE;
out:
    pact_sched_free(&s);
    g_string_free(index, TRUE);
    free(params);
    pact_place_free(&own);
    return ok;
}

/* ---- running it ------------------------------------------------------------------------------------------
 */

/* The value of "KEY value" in cell.txt. */
static gboolean cell_value(const char *text, const char *path, const char *key, double *v, GError **err)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    size_t l = strlen(key);
    for (int i = 0; lines[i]; i++) {
        if (strncmp(lines[i], key, l) || lines[i][l] != ' ')
            continue;
        char *end;
        *v = g_ascii_strtod(lines[i] + l + 1, &end);
        if (end == lines[i] + l + 1 || *end) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s: expected a number", path, i + 1, key);
            return FALSE;
        }
        return TRUE;
    }
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: no %s line", path, key);
    return FALSE;
}

/* One trace file per rank is open at once: make room where the soft limit is low (runs in the child). */
static void raise_nofile(gpointer data)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)GPOINTER_TO_INT(data) + 256;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < want) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

gboolean pact_replay_run(const char *dir, const char *platform_xml, const char *hostfile, int P, double *last,
                         double *total, GError **err)
{
    gboolean ok = FALSE;
    g_autofree char *cell_path = g_build_filename(dir, "cell.txt", NULL);
    g_autofree char *index_path = g_build_filename(dir, "index.txt", NULL);
    g_autofree char *log_path = g_build_filename(dir, "smpirun.log", NULL);
    g_autofree char *xml = g_canonicalize_filename(platform_xml, NULL);
    g_autofree char *hosts = g_canonicalize_filename(hostfile, NULL);
    g_autofree char *cell = NULL, *sout = NULL, *serr = NULL, *cmdline = NULL, *log = NULL, *preload = NULL,
                    *env = NULL;
    g_auto(GStrv) lines = NULL;
    GError *e = NULL;
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    double procs = 0, dmin = 0, dmax = 0, clock = NAN;
    int status = 0;

    if (!g_file_test(index_path, G_FILE_TEST_IS_REGULAR)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: no index.txt (traces not written, or unfinished)",
                    dir);
        goto out;
    }
    if (!g_file_get_contents(cell_path, &cell, NULL, err) ||
        !cell_value(cell, cell_path, "procs", &procs, err) ||
        !cell_value(cell, cell_path, "delay_min", &dmin, err) ||
        !cell_value(cell, cell_path, "delay_max", &dmax, err))
        goto out;
    if (procs != P) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: traces for %g ranks, asked to run %d", cell_path,
                    procs, P);
        goto out;
    }
    g_ptr_array_add(argv, g_strdup("smpirun"));
    g_ptr_array_add(argv, g_strdup("-no-privatize")); /* the replayer has no globals of the application */
    g_ptr_array_add(argv, g_strdup("-np"));
    g_ptr_array_add(argv, g_strdup_printf("%d", P));
    g_ptr_array_add(argv, g_strdup("-platform"));
    g_ptr_array_add(argv, g_strdup(xml));
    g_ptr_array_add(argv, g_strdup("-hostfile"));
    g_ptr_array_add(argv, g_strdup(hosts));
    g_ptr_array_add(argv, g_strdup("-replay"));
    g_ptr_array_add(argv, g_strdup("index.txt"));
    for (const char *const *c = pact_smpi_cfg(); *c; c++)
        g_ptr_array_add(argv, g_strdup(*c));
    g_ptr_array_add(argv, g_strdup("--log=smpi_replay.thres:info"));
    /* No spaces or glob characters: smpirun splits --log values on white space. */
    g_ptr_array_add(argv, g_strdup("--log=smpi_replay.fmt:" CLOCK_MARK "%.20r:%m%n"));
    g_ptr_array_add(argv, NULL);
    cmdline = g_strjoinv(" ", (char **)argv->pdata);

    char **envp = pact_smpi_environ(NULL, &preload); /* the allocator: pact_smpi_malloc */
    gboolean spawned = g_spawn_sync(dir, (char **)argv->pdata, envp, G_SPAWN_SEARCH_PATH, raise_nofile,
                                    GINT_TO_POINTER(P), &sout, &serr, &status, &e);
    g_strfreev(envp);
    env = preload ? g_strdup_printf("LD_PRELOAD='%s' ", preload) : g_strdup("");
    log = g_strdup_printf("$ %s%s\n%s%s", env, cmdline, sout ? sout : "", serr ? serr : "");
    g_file_set_contents(log_path, log, -1, NULL);
    if (!spawned) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot run smpirun: %s", e->message);
        g_error_free(e);
        goto out;
    }
    lines = g_strsplit(serr ? serr : "", "\n", -1);
    for (int i = 0; lines[i]; i++) {
        const char *m = strstr(lines[i], CLOCK_MARK);
        char *end;
        if (m && strstr(m, ":Simulation time")) {
            double t = g_ascii_strtod(m + strlen(CLOCK_MARK), &end);
            if (end != m + strlen(CLOCK_MARK) && *end == ':')
                clock = t;
        }
    }
    if (!g_spawn_check_wait_status(status, NULL) || isnan(clock)) {
        g_autofree char *cause = pact_smpirun_cause(serr); /* not the backtrace's tail */
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "smpirun -replay %s: %s (log: %s)",
                    g_spawn_check_wait_status(status, NULL) ? "printed no simulated time" : "failed", cause,
                    log_path);
        goto out;
    }
    *last = clock - (PACT_START_MARGIN + dmax);
    *total = clock - (PACT_START_MARGIN + dmin);
    ok = TRUE;
out:
    g_ptr_array_unref(argv);
    return ok;
}
