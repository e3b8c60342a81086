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
 *   - "compute FLOPS" runs FLOPS on the rank's host, as smpi_execute(seconds) runs seconds x smpi/host-speed
 *     (the executor's pact_charge), but only when smpi/simulate-computation is on; "sleep S" sleeps S
 * seconds.
 *   - when the last rank ends, smpi_replay_main logs "Simulation time" in category smpi_replay; a log format
 *     with %r prints the simulated clock at that moment to any precision.  init, finalize and that log
 *     cost no simulated time, so the clock is the last rank's exit.
 *
 * The linearization.  The executor (exec.c) posts every ready operation (sends and receives nonblocking,
 * reductions in turn, schedule order among ready ones) and, when nothing is ready, waits for ONE request:
 * the posted dependency (earliest posted) of the lowest-numbered operation still blocked, or an older
 * request of the same (source, destination, tag), which MPI's non-overtaking rule completes first anyway.
 * Each rank's trace is written by running that same loop (same ready heap, same release rule) with a
 * "wait" for each such request.  Where the executor merges waits or calls (one MPI_Waitall for several
 * requests, MPI_Send/Recv/Sendrecv for requests posted and waited together), it does so only when one
 * wait at a time would let nothing start earlier, so the simulated times are the same.  SimGrid's "wait"
 * pops the oldest request of its key, which is the request the executor waits for.  Requests nothing
 * depends on go to one final waitall.
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

#include "heap.h"
#include "pact_host.h"
#include "pact_platforms.h"

#define TAG_BASE 100 /* the bench driver's base tag (pact_exec_ctx.tag), so SMPI sees the same tags */
#define CLOCK_MARK "PACT_CLOCK="

enum { UNRELEASED, POSTED, DONE };

/* ---- the algorithm spec ---------------------------------------------------------------------------- */

/* NAME[:param=value...] into the algorithm and its parameters (defaults, then overrides). */
static const pact_alg *parse_alg(pact_coll coll, const char *spec, pact_build_args *a, GError **err)
{
    g_auto(GStrv) parts = g_strsplit(spec ? spec : "", ":", -1);
    const pact_alg *alg = parts[0] ? pact_alg_find(coll, parts[0]) : NULL;
    if (!alg) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "alg '%s': no such %s algorithm (pact list algorithms)", spec ? spec : "",
                    pact_coll_name(coll));
        return NULL;
    }
    pact_args_defaults(alg, a);
    for (int i = 1; parts[i]; i++) {
        char *eq = strchr(parts[i], '=');
        uint64_t v = 0;
        int k = 0;
        if (eq)
            *eq = 0;
        while (k < PACT_MAX_PARAMS && alg->params[k].name && strcmp(alg->params[k].name, parts[i]))
            k++;
        if (!eq || k == PACT_MAX_PARAMS || !alg->params[k].name || pact_parse_size(eq + 1, &v) != PACT_OK ||
            v > LONG_MAX) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "alg '%s': expected %s:param=value with a parameter of %s and a size", spec, parts[0],
                        alg->name);
            return NULL;
        }
        a->params[k] = (long)v;
    }
    return alg;
}

/* ---- SMPI options the trace must agree with ------------------------------------------------------- */

/* The value of --cfg=NAME:VALUE in pact_smpi_cfg(), or NULL. */
static const char *smpi_cfg_value(const char *name)
{
    size_t l = strlen(name);
    for (const char *const *c = pact_smpi_cfg(); *c; c++)
        if (g_str_has_prefix(*c, "--cfg=") && !strncmp(*c + 6, name, l) && (*c)[6 + l] == ':')
            return *c + 7 + l;
    return NULL;
}

/* smpi/host-speed (flop/s, SimGrid's speed units) and smpi/cpu-threshold (s): smpi_execute(t) runs
 * t x host-speed flops when t >= the threshold. */
static gboolean smpi_exec_params(double *speed, double *thresh, GError **err)
{
    static const struct {
        const char *unit;
        double mult;
    } units[] = {{"Ef", 1e18}, {"Pf", 1e15}, {"Tf", 1e12}, {"Gf", 1e9}, {"Mf", 1e6}, {"kf", 1e3}, {"f", 1}};
    const char *sp = smpi_cfg_value("smpi/host-speed"), *th = smpi_cfg_value("smpi/cpu-threshold");
    char *end = NULL;
    *speed = sp ? g_ascii_strtod(sp, &end) : 20000.0; /* SimGrid's default: 20 kflop/s */
    gboolean ok = !sp || end != sp;
    if (sp && ok && *end) {
        size_t u = 0;
        while (u < G_N_ELEMENTS(units) && strcmp(end, units[u].unit))
            u++;
        ok = u < G_N_ELEMENTS(units);
        if (ok)
            *speed *= units[u].mult;
    }
    *thresh = th ? g_ascii_strtod(th, &end) : 1e-6;
    if (!ok || !(*speed > 0) || (th && (end == th || *end))) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "pact_smpi_cfg: cannot read smpi/host-speed '%s' or smpi/cpu-threshold '%s'",
                    sp ? sp : "", th ? th : "");
        return FALSE;
    }
    return TRUE;
}

/* ---- one rank's trace ------------------------------------------------------------------------------- */

/* Requests posted and not yet waited for that share one (source, destination, tag), oldest first. */
typedef struct {
    uint32_t head, tail;
} fifo_t;

typedef struct {
    const pact_sched *s;
    FILE *f;
    double gamma, speed, thresh;
    uint32_t *pending, *first, *succ;
    uint8_t *state;
    uint32_t *seq;    /* posting order of requests */
    uint32_t *next;   /* next request of the same key */
    uint32_t *slot;   /* fifo of a request */
    GHashTable *keys; /* key -> fifo index + 1 */
    GArray *fifos;
    pact_heap ready;
    size_t outstanding;
} lin_t;

#define NONE UINT32_MAX

static int op_tag(const pact_op *o)
{
    return TAG_BASE + o->tag;
}

/* SimGrid's key of a request: (source, destination, tag); a message to oneself shares it both ways. */
static guint64 op_key(const pact_sched *s, const pact_op *o)
{
    guint64 recv = o->kind == PACT_OP_RECV && o->peer != s->rank;
    return ((guint64)(uint32_t)o->peer << 33) | (recv << 32) | (uint32_t)op_tag(o);
}

static void post(lin_t *L, uint32_t i, uint32_t seq)
{
    const pact_op *o = &L->s->ops[i];
    guint64 k = op_key(L->s, o);
    gpointer v = g_hash_table_lookup(L->keys, &k);
    if (!v) {
        fifo_t q = {NONE, NONE};
        g_array_append_val(L->fifos, q);
        guint64 *kp = g_new(guint64, 1);
        *kp = k;
        v = GUINT_TO_POINTER(L->fifos->len);
        g_hash_table_insert(L->keys, kp, v);
    }
    fifo_t *q = &g_array_index(L->fifos, fifo_t, GPOINTER_TO_UINT(v) - 1);
    L->slot[i] = GPOINTER_TO_UINT(v) - 1;
    L->next[i] = NONE;
    if (q->tail == NONE)
        q->head = i;
    else
        L->next[q->tail] = i;
    q->tail = i;
    L->state[i] = POSTED;
    L->seq[i] = seq;
    L->outstanding++;
    fprintf(L->f, "%d %s %d %d %zu\n", L->s->rank, o->kind == PACT_OP_SEND ? "isend" : "irecv", o->peer,
            op_tag(o), pact_op_bytes(L->s, o));
}

/* Waits for the oldest request of i's key (i itself unless an older one shares it); returns the one done. */
static uint32_t wait_for(lin_t *L, uint32_t i)
{
    fifo_t *q = &g_array_index(L->fifos, fifo_t, L->slot[i]);
    uint32_t h = q->head;
    const pact_op *o = &L->s->ops[h];
    int me = L->s->rank;
    q->head = L->next[h];
    if (q->head == NONE)
        q->tail = NONE;
    fprintf(L->f, "%d wait %d %d %d\n", me, o->kind == PACT_OP_SEND ? me : o->peer,
            o->kind == PACT_OP_SEND ? o->peer : me, op_tag(o));
    L->state[h] = DONE;
    L->outstanding--;
    return h;
}

/* Runs the executor's loop on one schedule, writing actions instead of calling MPI. */
static gboolean linearize(lin_t *L, GError **err)
{
    const pact_sched *s = L->s;
    const size_t n = s->nops;
    uint32_t seq = 0;
    size_t cursor = 0;
    for (size_t i = 0; i < n; i++)
        if (L->pending[i] == 0)
            pact_heap_push(&L->ready, (uint32_t)i);
    for (;;) {
        while (L->ready.n > 0) {
            uint32_t i = pact_heap_pop(&L->ready);
            const pact_op *o = &s->ops[i];
            if (o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV) {
                post(L, i, seq++);
                continue;
            }
            if (o->kind == PACT_OP_REDUCE) { /* pact_charge -> smpi_execute, to the same double */
                double sec = L->gamma * (double)(o->src.count * s->elem_size);
                if (sec > 0 && sec >= L->thresh)
                    fprintf(L->f, "%d compute %.17g\n", s->rank, sec * L->speed);
            }
            L->state[i] = DONE;
            pact_release(&L->ready, L->pending, L->first, L->succ, i);
        }
        while (cursor < n && L->state[cursor] != UNRELEASED)
            cursor++;
        if (cursor == n)
            break;
        /* The lowest-numbered blocked operation: every dependency it still lacks is a posted request (one
         * not yet released would have a lower number). */
        uint32_t best = NONE;
        const uint32_t *d = pact_op_deps(s, cursor);
        for (uint32_t k = 0; k < s->ops[cursor].ndeps; k++)
            if (L->state[d[k]] == POSTED && (best == NONE || L->seq[d[k]] < L->seq[best]))
                best = d[k];
        if (best == NONE) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "rank %d: schedule stalled at operation %zu of %zu", s->rank, cursor, n);
            return FALSE;
        }
        uint32_t h = wait_for(L, best);
        pact_release(&L->ready, L->pending, L->first, L->succ, h);
    }
    if (L->outstanding > 0)
        fprintf(L->f, "%d waitall\n", s->rank);
    return TRUE;
}

/* Writes path (through path.tmp, then a rename) with rank's actions. */
static gboolean write_rank(const pact_sched *s, double delay, double gamma, double speed, double thresh,
                           const char *path, GError **err)
{
    gboolean ok = FALSE;
    g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
    lin_t L = {.s = s, .gamma = gamma, .speed = speed, .thresh = thresh};
    const size_t n = s->nops;
    int saved = 0;
    if (pact_sched_successors(s, &L.pending, &L.first, &L.succ) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "rank %d: out of memory", s->rank);
        goto out;
    }
    L.state = g_new0(uint8_t, n + 1);
    L.seq = g_new(uint32_t, n + 1);
    L.next = g_new(uint32_t, n + 1);
    L.slot = g_new(uint32_t, n + 1);
    L.ready.v = g_new(uint32_t, n + 1);
    L.keys = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    L.fifos = g_array_new(FALSE, FALSE, sizeof(fifo_t));
    if (!(L.f = fopen(tmp, "w"))) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", tmp, g_strerror(errno));
        goto out;
    }
    setvbuf(L.f, NULL, _IOFBF, 1 << 20);
    fprintf(L.f, "%d init\n", s->rank);
    if (delay > 0)
        fprintf(L.f, "%d sleep %.17g\n", s->rank, delay);
    if (!linearize(&L, err))
        goto out;
    fprintf(L.f, "%d finalize\n", s->rank);
    saved = ferror(L.f) ? errno : 0;
    if (fclose(L.f) != 0 && !saved)
        saved = errno ? errno : EIO;
    L.f = NULL;
    if (saved || g_rename(tmp, path) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", path, g_strerror(saved ? saved : errno));
        goto out;
    }
    ok = TRUE;
out:
    if (L.f)
        fclose(L.f);
    if (!ok)
        g_remove(tmp);
    free(L.pending);
    free(L.first);
    free(L.succ);
    g_free(L.state);
    g_free(L.seq);
    g_free(L.next);
    g_free(L.slot);
    g_free(L.ready.v);
    if (L.keys)
        g_hash_table_unref(L.keys);
    if (L.fifos)
        g_array_unref(L.fifos);
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
    double speed, thresh, dmin = 0, dmax = 0;
    GString *index = g_string_new(NULL);
    g_autofree char *index_path = g_build_filename(dir, "index.txt", NULL);
    g_autofree char *cell_path = g_build_filename(dir, "cell.txt", NULL);
    const pact_alg *alg = NULL;
    g_autofree char *cell = NULL;

    if ((unsigned)c->coll >= PACT_NCOLL || c->P < 1 || c->elem_size == 0 || !(c->gamma >= 0) ||
        (pact_coll_rooted(c->coll) && (c->root < 0 || c->root >= c->P))) {
        g_set_error(
            err, PACT_ERROR, PACT_ERROR_INPUT,
            "replay cell: needs a collective, P >= 1, an element size, gamma >= 0 and a root in 0..P-1");
        goto out;
    }
    if (!(alg = parse_alg(c->coll, c->alg, &a, err)) || !smpi_exec_params(&speed, &thresh, err))
        goto out;
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
        char why_buf[256];
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
        if (!write_rank(&s, c->delays ? c->delays[r] : 0, c->gamma, speed, thresh, path, err))
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
    g_autofree char *cell = NULL, *sout = NULL, *serr = NULL, *cmdline = NULL, *log = NULL;
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
    /* Later options win: `compute` does nothing without it, and a replay runs no application code that
     * SMPI could time. */
    g_ptr_array_add(argv, g_strdup("--cfg=smpi/simulate-computation:yes"));
    g_ptr_array_add(argv, g_strdup("--log=smpi_replay.thres:info"));
    /* No spaces or glob characters: smpirun splits --log values on white space. */
    g_ptr_array_add(argv, g_strdup("--log=smpi_replay.fmt:" CLOCK_MARK "%.20r:%m%n"));
    g_ptr_array_add(argv, NULL);
    cmdline = g_strjoinv(" ", (char **)argv->pdata);

    gboolean spawned = g_spawn_sync(dir, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, raise_nofile,
                                    GINT_TO_POINTER(P), &sout, &serr, &status, &e);
    log = g_strdup_printf("$ %s\n%s%s", cmdline, sout ? sout : "", serr ? serr : "");
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
        guint nl = g_strv_length(lines), from = nl > 6 ? nl - 6 : 0;
        g_autofree char *tail = g_strjoinv("\n  ", lines + from);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "smpirun -replay %s (log: %s):\n  %s",
                    isnan(clock) ? "printed no simulated time" : "failed", log_path, tail);
        goto out;
    }
    *last = clock - dmax;
    *total = clock - dmin;
    ok = TRUE;
out:
    g_ptr_array_unref(argv);
    return ok;
}
