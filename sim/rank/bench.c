/*
 * bench.c - the bench driver: one source, built with smpicc (simulation) and with mpicc (real machines).
 *
 * For each call (Salimi Beni et al., Listing 1): synchronise, wait until the rank's arrival time, record
 * a_i, run the collective, record e_i; rank 0 gathers them and writes
 *     total delay d* = max(e_i) - min(a_i)      last delay d^ = max(e_i) - max(a_i).
 * In simulation all ranks share SimGrid's clock, so waiting is a simulated sleep to an absolute time; on
 * real machines clocks are aligned to rank 0 by ping-pong (the shortest of 20 round trips, midpoint rule, as
 * HCA-style and MPIX_Harmonize-style synchronisation do), all ranks agree on a common start (the latest
 * clock plus a margin), and each sleeps, then spins, until start + its delay.  A rank that reaches the
 * common start after its deadline marks the call late, and the call is repeated with a doubled margin; a
 * rank that overshoots its arrival by more than --arrival-tol (not scheduled in time) has the call
 * repeated too.  So recorded arrivals are the intended ones; "late" marks a call that never made it.
 *
 *   pact-bench --coll allreduce --alg ring --count 1024 [--dtype double] [--op sum] [--reps 5]
 *              [--pattern FILE] [--gamma G] [--check] [--out FILE] [--arrivals FILE]
 *   pact-bench --plan PLAN [--out FILE] [--arrivals FILE]     many cells in one launch
 *   pact-bench --matrix [--algs a,b] [--counts 0,1,P-1,1000] [--dtypes int,double] [--ops sum,max]
 *                                                             correctness against the library's collective
 *
 * A plan line is: cell coll alg count dtype op root reps gamma pattern-file|- [params|-]  ('#': comment);
 * params are the algorithm's parameter overrides, name=value,name=value.
 * alg "mpi" is the MPI library's own collective (under SMPI, the one smpirun's --cfg selects).
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "bench_int.h"

#ifndef PACT_SMPI
#include <dlfcn.h>
#endif

/* --libpact: libpact's interface (tuner/libpact/libpact.h), found in the process when it is preloaded. */
static int (*lp_force_next)(const char *coll, const char *spec);
static const char *(*lp_last)(void);

/* Runs the cell's algorithm through MPI_<Collective> after asking libpact for it, and checks that libpact
 * ran it rather than the library's own. */
static int libpact_call(const cell_t *c, call_t *k, MPI_Comm comm)
{
    char spec[400], want[200];
    int n = snprintf(spec, sizeof spec, "%s%s%s", k->alg->name, c->params[0] ? ":" : "", c->params);
    for (int i = 0; i < n && i < (int)sizeof spec; i++)
        if (spec[i] == ',')
            spec[i] = ':';
    if (lp_force_next(pact_coll_name(c->coll), spec) != 0) {
        fprintf(stderr, "pact-bench: --libpact: %s\n", lp_last());
        return PACT_ERR_ARG;
    }
    int rc = pb_library_call(c, k, comm);
    snprintf(want, sizeof want, "routed %s %s", pact_coll_name(c->coll), k->alg->name);
    if (rc == PACT_OK && strcmp(lp_last(), want) != 0) {
        fprintf(stderr, "pact-bench: --libpact: %s: libpact says '%s'\n", want, lp_last());
        rc = PACT_ERR_CHECK;
    }
    return rc;
}

int pb_run_call(const cell_t *c, call_t *k, MPI_Comm comm)
{
    if (!k->alg)
        return pb_library_call(c, k, comm);
    if (lp_force_next)
        return libpact_call(c, k, comm);
    return pact_plan_run(k->plan, &k->x);
}

#ifdef PACT_SMPI
/* Timing-only payloads under SMPI.  SMPI_SHARED_MALLOC maps its one block over the whole request with
 * MAP_POPULATE, so every call costs a page-table entry per 4 KiB: a reduce of 64 MiB on 96 ranks spent 1.7 s
 * of system time per call setting up its buffers (4 x 64 MiB on each rank).  Without privatization
 * (pact_smpi_cfg) the ranks share this process's globals, so one region per buffer (SEND, RECV, TMP0, TMP1)
 * serves every rank: its bytes are never looked at (a timing-only run reduces nothing and checks nothing, and
 * SMPI copies nothing out of shared memory).  A larger request maps a larger region and keeps the old one,
 * which another rank may still hold; all are left to the end of the process.  With privatization each rank
 * would have a pool of its own: slower, as before, not wrong. */
static struct {
    void *p;
    size_t n;
} shared_pool[PACT_NBUF];
#endif

/* Buffer `role` (PACT_BUF_*) of `bytes` for a call. */
static void *balloc(const bench_t *b, size_t bytes, int role)
{
#ifdef PACT_SMPI
    if (b->timing_only) {
        if (shared_pool[role].n < bytes + 16) {
            void *p = SMPI_SHARED_MALLOC(bytes + 16);
            if (!p)
                return NULL;
            shared_pool[role].p = p;
            shared_pool[role].n = bytes + 16;
        }
        return shared_pool[role].p;
    }
#endif
    (void)b;
    (void)role;
    return calloc(1, bytes + 16);
}

static void bfree(const bench_t *b, void *p)
{
    if (!p)
        return;
#ifdef PACT_SMPI
    if (b->timing_only)
        return; /* shared_pool's */
#endif
    (void)b;
    free(p);
}

void pb_call_free(const bench_t *b, call_t *k)
{
    bfree(b, k->send);
    bfree(b, k->recv);
    for (int i = PACT_BUF_TMP0; i < PACT_NBUF; i++)
        bfree(b, k->x.buf[i]);
    pact_plan_free(k->plan);
    pact_sched_free(&k->sched);
    free(k->params);
    pact_place_free(&k->place);
    memset(k, 0, sizeof(*k));
}

int pb_place(const bench_t *b, pact_place *p)
{
    return pact_place_of_comm(b->comm, p);
}

/* Builds the schedule and allocates buffers for a cell.  PACT_ERR_RESTRICTED leaves `why` set; the
 * restriction is agreed over all ranks, since reduce's root alone may be in place, and so is a failure. */
int pb_call_setup(const bench_t *b, const cell_t *c, call_t *k, int inplace, const char **why)
{
    memset(k, 0, sizeof(*k));
    pact_sched_init(&k->sched);
    k->inplace = pact_coll_rank_inplace(c->coll, b->rank, c->root, inplace);
    *why = NULL;
    size_t ns, nr, es = c->dt->size;
    int rc = PACT_OK;
    pact_coll_buf_counts(c->coll, b->rank, b->size, c->root, c->count, &ns, &nr);
    if (strcmp(c->alg, "mpi") != 0) {
        k->alg = pact_alg_find(c->coll, c->alg);
        if (!k->alg) {
            *why = "unknown algorithm";
            return PACT_ERR_ARG;
        }
        pact_build_args a = {.coll = c->coll,
                             .rank = b->rank,
                             .size = b->size,
                             .root = c->root,
                             .count = c->count,
                             .elem_size = es,
                             .commutative = c->op->commutative,
                             .inplace = k->inplace};
        if (!(k->params = calloc(pact_alg_nparams(k->alg) + 1, sizeof(long))))
            return PACT_ERR_NOMEM;
        /* Only for the algorithms that need it: its collectives would shift every later call's start. */
        if (k->alg->restrictions & PACT_R_PLACE) {
            int rc = pb_place(b, &k->place);
            if (rc != PACT_OK)
                return rc;
            a.place = &k->place;
        }
        pact_params_defaults(k->alg, k->params);
        if (pact_params_parse(k->alg, c->params, ',', k->params, k->msg, sizeof k->msg) != PACT_OK) {
            *why = k->msg;
            return PACT_ERR_ARG;
        }
        a.params = k->params;
        const char *mine = NULL;
        int restricted = pact_alg_applies(k->alg, &a, &mine) == PACT_ERR_RESTRICTED, any = 0;
        MPI_Allreduce(&restricted, &any, 1, MPI_INT, MPI_MAX, b->comm);
        if (any) {
            static const char elsewhere[] = "restricted on another rank";
            *why = mine ? mine : elsewhere;
            return PACT_ERR_RESTRICTED;
        }
        if ((rc = pact_build(k->alg, &a, &k->sched)) != PACT_OK) {
            *why = "schedule builder failed";
            goto agree;
        }
        const char *inj = getenv("PACT_BENCH_FAIL_SETUP"); /* fault injection for the tests: one rank fails */
        if (inj && *inj) {
            char *end;
            long fr = strtol(inj, &end, 10);
            if (*end || fr < 0) {
                *why = "PACT_BENCH_FAIL_SETUP is not a rank";
                rc = PACT_ERR_ARG;
                goto agree;
            }
            if (fr == b->rank) {
                *why = "set-up failure injected (PACT_BENCH_FAIL_SETUP)";
                rc = PACT_ERR_ARG;
                goto agree;
            }
        }
    }
    if (k->inplace && pact_coll_inplace_whole(c->coll) && ns > nr)
        nr = ns; /* reduce_scatter in place: the receive buffer holds the whole input vector */
    k->send = balloc(b, ns * es, PACT_BUF_SEND);
    k->recv = balloc(b, nr * es, PACT_BUF_RECV);
    if (!k->send || !k->recv) {
        rc = PACT_ERR_NOMEM;
        goto agree;
    }
    k->x.comm = b->comm;
    k->x.dtype = c->dt->type;
    k->x.op = c->op->op;
    k->x.tag = 100;
    k->x.gamma = c->gamma;
    k->x.no_compute = b->timing_only;
    k->x.buf[PACT_BUF_SEND] = k->send;
    if (k->inplace) /* the input sits in RECV: all of it, or this rank's block for allgather */
        k->x.buf[PACT_BUF_SEND] =
            (char *)k->recv + pact_coll_inplace_offset(c->coll, b->rank, b->size, c->count) * es;
    k->x.buf[PACT_BUF_RECV] = k->recv;
    for (int i = PACT_BUF_TMP0; i < PACT_NBUF; i++)
        if (k->sched.buf_count[i] > 0 && !(k->x.buf[i] = balloc(b, k->sched.buf_count[i] * es, i))) {
            rc = PACT_ERR_NOMEM;
            goto agree;
        }
    if (k->alg)
        rc = pact_plan_new(&k->sched, &k->x, &k->plan);
agree:;
    /* A rank whose set-up failed runs no call: the others must not run theirs either (they would wait for it
     * in the collective for ever), so every rank learns whether any failed. */
    int bad = rc != PACT_OK, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, b->comm);
    if (any && !bad) {
        *why = "set-up failed on another rank";
        rc = PACT_ERR_ARG;
    }
    if (rc != PACT_OK)
        return rc;
    pact_sched_free(&k->sched); /* the plan has what the calls need: keep each rank's memory small */
    return PACT_OK;
}

/* ---- measuring ------------------------------------------------------------------------------------ */

/* Reads the pattern file on rank 0 and scatters one delay to each rank.  A missing file means no delay. */
static int read_delay(const bench_t *b, const cell_t *c, double *delay)
{
    int rc = PACT_OK, ok = 1;
    double *all = NULL;
    *delay = 0;
    if (strcmp(c->pattern, "-") == 0 || c->pattern[0] == 0)
        return PACT_OK;
    if (b->rank == 0) {
        all = calloc((size_t)b->size, sizeof(double));
        FILE *f = fopen(c->pattern, "r");
        char line[256];
        int n = 0, lineno = 0;
        if (!all || !f) {
            fprintf(stderr, "pact-bench: %s: cannot read pattern file\n", c->pattern);
            ok = 0;
        }
        while (ok && fgets(line, sizeof(line), f)) {
            lineno++;
            char *p = line, *end;
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '#' || *p == 0)
                continue;
            errno = 0;
            double v = strtod(p, &end);
            while (isspace((unsigned char)*end))
                end++;
            if (end == p || errno || (*end && *end != '#') || !(v >= 0) || !isfinite(v) || n >= b->size) {
                fprintf(stderr, "pact-bench: %s:%d: expected one delay >= 0 in seconds per rank (%d ranks)\n",
                        c->pattern, lineno, b->size);
                ok = 0;
                break;
            }
            all[n++] = v;
        }
        if (ok && n != b->size) {
            fprintf(stderr, "pact-bench: %s: %d delays for %d ranks\n", c->pattern, n, b->size);
            ok = 0;
        }
        if (f)
            fclose(f);
    }
    PACT_MPI_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, b->comm));
    if (!ok) {
        rc = PACT_ERR_ARG;
        goto out;
    }
    PACT_MPI_CHECK(MPI_Scatter(all, 1, MPI_DOUBLE, delay, 1, MPI_DOUBLE, 0, b->comm));
out:
    free(all);
    return rc;
}

/* One measured call: returns through *late whether any rank reached its start after its deadline. */
static int timed_call(bench_t *b, const cell_t *c, call_t *k, double delay, double *res, double *gathered,
                      int *late)
{
    int rc = PACT_OK;
    double ref;
    if ((rc = pb_proto_start(b, &ref)) != PACT_OK)
        goto out;
    b->last_ref = ref;
    double mine[NREC];
    mine[2] = pb_now_global(b) > ref + delay;
    mine[3] = b->offset;
    mine[4] = b->mono_offset;
    pb_wait_until(b, ref + delay);
    mine[0] = pb_now_global(b);
    /* Overslept (a rank that shares a core is not scheduled in time): the arrival is not the pattern's. */
    if (!mine[2] && mine[0] - (ref + delay) > b->tol)
        mine[2] = 2;
    if ((rc = pb_run_call(c, k, b->comm)) != PACT_OK)
        goto out;
    mine[1] = pb_now_global(b);
    mine[0] -= ref;
    mine[1] -= ref;
    if ((rc = pb_proto_gather(b, mine, gathered)) != PACT_OK)
        goto out;
    int l = 0;
    if (b->rank == 0) {
        double amin = gathered[0], amax = gathered[0], emax = gathered[1];
        for (int i = 0; i < b->size; i++) {
            amin = fmin(amin, gathered[NREC * i]);
            amax = fmax(amax, gathered[NREC * i]);
            emax = fmax(emax, gathered[NREC * i + 1]);
            l = l > (int)gathered[NREC * i + 2] ? l : (int)gathered[NREC * i + 2];
        }
        res[0] = emax - amax;
        res[1] = emax - amin;
    }
    if ((rc = pb_proto_share(b, &l)) != PACT_OK)
        goto out;
    *late = l;
out:
    return rc;
}

/* PACT_BENCH_OPS=FILE (pact timeline --engine smpi): the last measured call's operations, every rank's,
 * written by rank 0 as rank,op,start_s,end_s from the call's common reference (op -1: the rank's arrival and
 * exit; empty times: an operation the plan does not run, such as a copy of no data in a timing-only run). */
static int write_ops(bench_t *b, const call_t *k, const double *rec, const double *gathered, const char *path)
{
    int rc = PACT_OK, n = (int)(2 * pact_plan_nops(k->plan)), *counts = NULL, *displs = NULL;
    double *all = NULL;
    if (b->rank == 0 && (!(counts = calloc((size_t)b->size, sizeof(int))) ||
                         !(displs = calloc((size_t)b->size, sizeof(int))))) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    PACT_MPI_CHECK(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, b->comm));
    int total = 0;
    if (b->rank == 0) {
        for (int i = 0; i < b->size; i++) {
            displs[i] = total;
            total += counts[i];
        }
        if (!(all = malloc(sizeof(double) * (size_t)(total + 1)))) {
            rc = PACT_ERR_NOMEM;
            goto out;
        }
    }
    PACT_MPI_CHECK(MPI_Gatherv(rec, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, b->comm));
    if (b->rank == 0) {
        FILE *f = fopen(path, "w");
        if (!f) {
            fprintf(stderr, "pact-bench: PACT_BENCH_OPS=%s: cannot write\n", path);
            rc = PACT_ERR_ARG;
            goto out;
        }
        fprintf(f, "rank,op,start_s,end_s\n");
        for (int i = 0; i < b->size; i++) {
            fprintf(f, "%d,-1,%.17g,%.17g\n", i, gathered[NREC * i], gathered[NREC * i + 1]);
            for (int j = 0; j < counts[i] / 2; j++) {
                double t0 = all[displs[i] + 2 * j], t1 = all[displs[i] + 2 * j + 1];
                if (isnan(t0) || isnan(t1))
                    fprintf(f, "%d,%d,,\n", i, j);
                else
                    fprintf(f, "%d,%d,%.17g,%.17g\n", i, j, t0 - b->last_ref, t1 - b->last_ref);
            }
        }
        if (fclose(f) != 0)
            rc = PACT_ERR_ARG;
    }
out:
    free(counts);
    free(displs);
    free(all);
    return rc;
}

static void csv_status(FILE *f, const char *why)
{
    fputs("restricted:", f);
    for (const char *p = why; *p; p++)
        fputc(*p == ',' ? ';' : (*p == ' ' ? '_' : *p), f);
}

static int run_cell(bench_t *b, const cell_t *c)
{
    int rc = PACT_OK;
    call_t k;
    const char *why = NULL;
    double delay = 0, *gathered = NULL, *rec = NULL;
    if ((rc = read_delay(b, c, &delay)) != PACT_OK)
        return rc;
    rc = pb_call_setup(b, c, &k, 0, &why);
    if (rc == PACT_ERR_RESTRICTED) {
        if (b->rank == 0)
            for (int r = 0; r < c->reps; r++) {
                fprintf(b->out, "%s,%d,,,", c->id, r);
                csv_status(b->out, why);
                fputc('\n', b->out);
            }
        rc = PACT_OK;
        goto out;
    }
    if (rc != PACT_OK) {
        fprintf(stderr, "pact-bench: cell %s: %s\n", c->id, why ? why : "set-up failed");
        goto out;
    }
    if (b->rank == 0 && !(gathered = malloc(NREC * sizeof(double) * (size_t)b->size))) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    const char *status = "ok";
    if (c->check && !b->timing_only) {
        size_t bad = 0;
        if ((rc = pb_check_call(b, c, &k, &bad)) != PACT_OK)
            goto out;
        if (bad)
            status = "wrong";
    }
    const char *ops_path = getenv("PACT_BENCH_OPS");
    /* --no-warmup (pact sim under SimGrid): a pact algorithm's first call is one more sample of what any
     * call gives, so its warm-up call only doubled SimGrid's work.  Calls in a row differ where SimGrid
     * rounds event times to its surf/precision (1e-9 s) at the call's absolute start (ring allreduce on 96
     * ranks at 128 B: 290.634, 290.679, 290.657, 290.634 us; 290.7228 us each with precision 1e-15), and in
     * some cells beyond it, whichever call comes first (pairwise alltoall on 256 ranks, 64 B, descending
     * arrivals, precision 1e-15: 786.9, 802.6, 802.4, 802.4 us without the warm-up, 802.6, 802.4, 802.4,
     * 792.5 us after it); the seven collectives' 56 algorithms on 64 ranks moved by 5.3e-14 s at most.
     * SimGrid's own collectives keep theirs: SMPI sets up a communicator's node layout (Comm::init_smp,
     * messages in simulated time) in the first call that needs it. */
    const int warmup = b->no_warmup && k.plan ? 0 : c->warmup;
    for (int r = -warmup; r < c->reps; r++) {
        double res[2] = {0, 0};
        int late = 1;
        if (ops_path && *ops_path && k.plan && r == c->reps - 1 && !rec &&
            !(rec = malloc(sizeof(double) * (2 * pact_plan_nops(k.plan) + 1)))) {
            rc = PACT_ERR_NOMEM;
            goto out;
        }
        k.x.rec = r == c->reps - 1 ? rec : NULL;
        k.x.late_sends = !k.x.rec && !b->arr && !b->detached; /* what no per-rank exit is read from */
        for (int tries = 0; late && tries < MAX_TRIES; tries++) {
            if ((rc = timed_call(b, c, &k, delay, res, gathered, &late)) != PACT_OK)
                goto out;
            if (late == 1) /* the common start came too soon for some rank: give it more time */
                b->margin *= 2;
        }
        k.x.rec = NULL;
        if (rec && r == c->reps - 1 && (rc = write_ops(b, &k, rec, gathered, ops_path)) != PACT_OK)
            goto out;
        if (r < 0 || b->rank != 0)
            continue;
        fprintf(b->out, "%s,%d,%.17g,%.17g,%s\n", c->id, r, res[0], res[1], late ? "late" : status);
        if (b->arr)
            for (int i = 0; i < b->size; i++)
                fprintf(b->arr, "%s,%d,%d,%.17g,%.17g,%.17g,%.17g\n", c->id, r, i, gathered[NREC * i],
                        gathered[NREC * i + 1], gathered[NREC * i + 3], gathered[NREC * i + 4]);
    }
    if (b->rank == 0) {
        fflush(b->out);
        if (b->arr)
            fflush(b->arr);
    }
out:
    free(gathered);
    free(rec);
    pb_call_free(b, &k);
    return rc;
}

/* ---- plan files and options ------------------------------------------------------------------------- */

int pb_parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || errno || s[0] == '-')
        return 0;
    *out = (size_t)v;
    return 1;
}

/* Parses "cell coll alg count dtype op root reps gamma pattern [params]". */
/* A line of the plan file (pact_plan_line_parse) as a cell. */
static int parse_plan_line(const char *line, cell_t *c, const char *file, int lineno)
{
    pact_plan_line l;
    memset(c, 0, sizeof(*c));
    if (pact_plan_line_parse(line, &l) != PACT_OK || !(c->dt = pb_find_dtype(l.dtype)) ||
        !(c->op = pb_find_op(l.op))) {
        fprintf(stderr, "pact-bench: %s:%d: malformed plan line\n", file, lineno);
        return PACT_ERR_ARG;
    }
    snprintf(c->id, sizeof(c->id), "%s", l.id);
    c->coll = l.coll;
    snprintf(c->alg, sizeof(c->alg), "%s", l.alg);
    c->count = l.count;
    snprintf(c->pattern, sizeof(c->pattern), "%s", l.pattern[0] ? l.pattern : "-");
    snprintf(c->params, sizeof(c->params), "%s", l.params);
    c->root = l.root;
    c->reps = l.reps;
    c->gamma = l.gamma;
    c->warmup = 1;
    return PACT_OK;
}

static int run_plan(bench_t *b, const char *file)
{
    int rc = PACT_OK;
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "pact-bench: %s: %s\n", file, strerror(errno));
        return PACT_ERR_ARG;
    }
    char line[8192];
    int lineno = 0;
    while (fgets(line, sizeof(line), f)) {
        lineno++;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#' || *p == 0)
            continue;
        cell_t c;
        if ((rc = parse_plan_line(p, &c, file, lineno)) != PACT_OK)
            break;
        if ((rc = run_cell(b, &c)) != PACT_OK)
            break;
    }
    fclose(f);
    return rc;
}

static void usage(void)
{
    fputs("usage: pact-bench --coll C --alg A --count N [--dtype int|float|double] [--op sum|max|min]\n"
          "                  [--root R] [--reps R] [--pattern FILE] [--gamma G] [--check] [--timing-only]\n"
          "                  [--params segsize=64K,fanout=4]\n"
          "       pact-bench --plan FILE [--timing-only] [--no-warmup]\n"
          "       pact-bench --matrix [--coll C,D|all] [--algs a,b|all] [--counts 0,1,P-1,P+1,1000]\n"
          "                  [--dtypes int,float,double,pair] [--ops sum,max,compose] [--roots 0,P-1,P/2]\n"
          "                  [--max-bytes B]\n"
          "  checks: [--check-twice] (each plan runs once on other input before the checked run)\n"
          "          [--place] (prints the node of every rank, as algorithms that need it see them)\n"
          "          [--libpact] (pact's algorithms through MPI_Allreduce & co., routed by a preloaded "
          "libpact)\n"
          "  common: [--out FILE] [--arrivals FILE] [--arrival-tol SECONDS (default 5e-6)]\n",
          stderr);
}

/* A switch of the environment, unset, 0 or 1, into *on; anything else is refused (rank 0 says so). */
static int env_flag(const bench_t *b, const char *name, int *on)
{
    const char *v = getenv(name);
    if (v && strcmp(v, "0") && strcmp(v, "1")) {
        if (b->rank == 0)
            fprintf(stderr, "pact-bench: %s=%s: expected 0 or 1\n", name, v);
        return 0;
    }
    *on = v && !strcmp(v, "1");
    return 1;
}

int main(int argc, char **argv)
{
    int rc = PACT_OK;
    bench_t b = {.comm = MPI_COMM_WORLD, .margin = PACT_START_MARGIN, .tol = 5e-6, .out = stdout};
    cell_t one = {.coll = PACT_COLL_ALLREDUCE, .reps = 5, .warmup = 1, .pattern = "-"};
    const char *plan = NULL, *outf = NULL, *arrf = NULL;
    matrix_opts mx = {.colls = NULL,
                      .algs = "all",
                      .counts = "0,1,P-1,P+1,1000",
                      .dtypes = "int,float,double,pair",
                      .ops = "sum,max,compose",
                      .roots = "0,P-1,P/2",
                      .max_bytes = 64.0 * 1024 * 1024};
    int matrix = 0, show_place = 0, bad_args = 0, libpact = 0;
    snprintf(one.id, sizeof(one.id), "0");
    snprintf(one.alg, sizeof(one.alg), "mpi");
    one.dt = pb_find_dtype("double");
    one.op = pb_find_op("sum");

    MPI_Init(&argc, &argv);
#ifdef PACT_SMPI
    if (pact_smpi_clock_freeze && !sg_cfg_get_boolean("smpi/simulate-computation"))
        pact_smpi_clock_freeze(1);
#endif
    MPI_Comm_rank(b.comm, &b.rank);
    MPI_Comm_size(b.comm, &b.size);
    /* Once per process: under SMPI without privatization (pact_smpi_cfg) all ranks share these tables, and
     * an SMPI datatype or operation serves every rank.  Nothing else in the rank programs is global. */
    if (pb_dtypes[3].type == MPI_DATATYPE_NULL) {
        MPI_Type_contiguous(2, MPI_UNSIGNED, &pb_dtypes[3].type);
        MPI_Type_commit(&pb_dtypes[3].type);
        MPI_Op_create(pb_compose_fn, 0, &pb_ops[3].op);
    }

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (!strcmp(o, "--check"))
            one.check = 1, used = 0;
        else if (!strcmp(o, "--place"))
            show_place = 1, used = 0;
        else if (!strcmp(o, "--check-twice"))
            b.check_twice = 1, used = 0;
        else if (!strcmp(o, "--timing-only"))
            b.timing_only = 1, used = 0;
        else if (!strcmp(o, "--no-warmup"))
            b.no_warmup = 1, used = 0;
        else if (!strcmp(o, "--matrix"))
            matrix = 1, used = 0;
        else if (!strcmp(o, "--libpact"))
            libpact = 1, used = 0;
        else if (!v)
            bad_args = 1;
        else if (!strcmp(o, "--coll"))
            mx.colls = v, one.coll = (pact_coll)pact_coll_from_name(v);
        else if (!strcmp(o, "--alg"))
            snprintf(one.alg, sizeof(one.alg), "%s", v);
        else if (!strcmp(o, "--count"))
            bad_args |= !pb_parse_size(v, &one.count);
        else if (!strcmp(o, "--dtype"))
            bad_args |= !(one.dt = pb_find_dtype(v));
        else if (!strcmp(o, "--op"))
            bad_args |= !(one.op = pb_find_op(v));
        else if (!strcmp(o, "--root"))
            one.root = atoi(v);
        else if (!strcmp(o, "--reps"))
            bad_args |= (one.reps = atoi(v)) < 1;
        else if (!strcmp(o, "--params"))
            snprintf(one.params, sizeof(one.params), "%s", v);
        else if (!strcmp(o, "--pattern"))
            snprintf(one.pattern, sizeof(one.pattern), "%s", v);
        else if (!strcmp(o, "--gamma"))
            one.gamma = atof(v);
        else if (!strcmp(o, "--plan"))
            plan = v;
        else if (!strcmp(o, "--out"))
            outf = v;
        else if (!strcmp(o, "--arrivals"))
            arrf = v;
        else if (!strcmp(o, "--arrival-tol"))
            bad_args |= !((b.tol = atof(v)) >= 0);
        else if (!strcmp(o, "--algs"))
            mx.algs = v;
        else if (!strcmp(o, "--counts"))
            mx.counts = v;
        else if (!strcmp(o, "--dtypes"))
            mx.dtypes = v;
        else if (!strcmp(o, "--ops"))
            mx.ops = v;
        else if (!strcmp(o, "--roots"))
            mx.roots = v;
        else if (!strcmp(o, "--max-bytes"))
            bad_args |= !((mx.max_bytes = atof(v)) > 0);
        else
            bad_args = 1;
        i += used;
        if (bad_args) {
            if (b.rank == 0) {
                fprintf(stderr, "pact-bench: bad option or value: %s\n", o);
                usage();
            }
            rc = PACT_ERR_ARG;
            goto out;
        }
    }
    if (b.rank == 0 && outf && !(b.out = fopen(outf, "w"))) {
        fprintf(stderr, "pact-bench: %s: %s\n", outf, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    if (b.rank == 0 && arrf && !(b.arr = fopen(arrf, "w"))) {
        fprintf(stderr, "pact-bench: %s: %s\n", arrf, strerror(errno));
        rc = PACT_ERR_ARG;
    }
    if (!env_flag(&b, "PACT_BENCH_DETACHED", &b.detached) || !env_flag(&b, "PACT_BENCH_ANY_ORDER", &b.any_order))
        rc = PACT_ERR_ARG;
    MPI_Bcast(&rc, 1, MPI_INT, 0, b.comm);
    if (rc != PACT_OK)
        goto out;

    if (!matrix && mx.colls && pact_coll_from_name(mx.colls) < 0) {
        if (b.rank == 0)
            fprintf(stderr, "pact-bench: --coll %s: expected one collective\n", mx.colls);
        rc = PACT_ERR_ARG;
        goto out;
    }
    if (!mx.colls)
        mx.colls = "all";
    if (libpact) {
#ifndef PACT_SMPI
        *(void **)&lp_force_next = dlsym(RTLD_DEFAULT, "pact_lib_force_next");
        *(void **)&lp_last = dlsym(RTLD_DEFAULT, "pact_lib_last");
#endif
        if (!lp_force_next || !lp_last) {
            if (b.rank == 0)
                fprintf(stderr,
                        "pact-bench: --libpact: libpact is not loaded (LD_PRELOAD=build/lib/libpact-ompi.so "
                        "or libpact-mpich.so)\n");
            lp_force_next = NULL;
            rc = PACT_ERR_ARG;
            goto out;
        }
    }
#ifdef PACT_SMPI
    /* SimGrid lays the ranks' stacks out alike, so the lines a context switch saves and restores sit at
     * the same offset in each and crowd into few cache sets: at 256 ranks they evict each other.  Each
     * rank starts its calls 64 bytes further down than the one before (perf, allgather neighbor 8 B at
     * 256 ranks: time in raw_swapcontext 93-106 ms -> 58-62 ms, total -5 to -10%, either engine). */
    volatile char *stagger = __builtin_alloca(64 * (size_t)(b.rank % 256) + 1);
    stagger[0] = 0;
#endif
    if (show_place) {
        pact_place p;
        if ((rc = pb_place(&b, &p)) != PACT_OK)
            goto out;
        for (int r = 0; b.rank == 0 && r < b.size; r++)
            fprintf(b.out, "%d%c", p.node_of[r], r + 1 < b.size ? ' ' : '\n');
        pact_place_free(&p);
    } else if (matrix) {
        rc = pb_run_matrix(&b, &mx);
    } else {
        if ((rc = pb_clock_sync(&b)) != PACT_OK)
            goto out;
#ifdef PACT_SMPI
        if ((rc = pb_shm_setup(&b)) != PACT_OK)
            goto out;
#endif
        if (b.rank == 0)
            fprintf(b.out, "cell,rep,last_delay_s,total_delay_s,status\n");
        if (b.rank == 0 && b.arr)
            fprintf(b.arr, "cell,rep,rank,arrival_s,exit_s,clock_offset_s,mono_offset_s\n");
        rc = plan ? run_plan(&b, plan) : run_cell(&b, &one);
    }
out:
    if (b.rank == 0 && b.out && b.out != stdout)
        fclose(b.out);
    if (b.rank == 0 && b.arr)
        fclose(b.arr);
    {
        int any = rc != PACT_OK, all = 0;
        MPI_Allreduce(&any, &all, 1, MPI_INT, MPI_MAX, b.comm);
        if (all && rc == PACT_OK)
            rc = PACT_ERR_CHECK;
    }
#ifdef PACT_SMPI
    pb_shm_free(&b);
#endif
    MPI_Finalize();
    return rc == PACT_OK ? 0 : (rc == PACT_ERR_ARG ? 2 : 1);
}
