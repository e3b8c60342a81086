/*
 * libpact.c - pact's kernels behind MPI_Allreduce & co. (libpact.h says how to use it).
 *
 * Each wrapped call asks, in this order, whether pact can run it, and falls back to the library's own
 * collective (PMPI_) at the first "no", counting why:
 *   1. a table (PACT_TABLE) or a forced algorithm (pact_lib_force_next), a thread level up to SERIALIZED, an
 *      intra-communicator;  (all ranks of a communicator agree on these)
 *   2. the communicator's private duplicate and placement, made at its first routed call (collective);
 *   3. a contiguous datatype, equal send and receive types (alltoall, allgather), receive counts in pact's
 *      even split (reduce_scatter);
 *   4. a table row for (communicator size, processes per node, bytes); the algorithm's restrictions
 *      (commutative operation, not in place, power of two ...);
 *   5. a plan: the schedule built and turned into MPI calls once per (algorithm, parameters, count,
 *      element size, root, in place, commutative) and cached on the communicator.
 * Step 3 is decided by each rank alone: ranks that pass one collective the same signature through datatypes
 * of different layouts (contiguous on one, strided on another) would disagree and hang.  MPI allows that;
 * libraries that choose by size alone do not care.  libpact does not handle it (PACT_VERBOSE shows it).
 *
 * Sizes are counted as pact counts them, from the type size (not the extent): per process for allreduce,
 * reduce, bcast and reduce_scatter (the whole vector), per block for alltoall and allgather, 0 for barrier.
 *
 * The private duplicate of each communicator (an attribute, freed with it) carries pact's messages, so that
 * they never match the application's.
 */
#include "lp_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    R_NO_TABLE,
    R_TABLE_BAD,
    R_FORCED_MPI,
    R_THREADS,
    R_INTERCOMM,
    R_DATATYPE,
    R_TYPES_DIFFER,
    R_COUNTS,
    R_ARGS,
    R_NO_ROW,
    R_COMMUTATIVE,
    R_INPLACE,
    R_RESTRICTED,
    R_SETUP,
    NREASON
};
static const char *const reason_text[NREASON] = {
    "no table (PACT_TABLE unset)",
    "the table could not be read",
    "the library's own was asked for",
    "thread level MPI_THREAD_MULTIPLE",
    "inter-communicator",
    "non-contiguous datatype",
    "send and receive types or counts differ",
    "receive counts other than pact's split",
    "arguments the library must judge (negative count, bad root)",
    "no table row covers it",
    "the algorithm needs a commutative operation",
    "in place, which the algorithm does not allow",
    "the algorithm's restrictions (processes, count)",
    "set-up failed (schedule, plan or memory)",
};

/* A cached plan and what it was made for. */
typedef struct lp_plan_ent {
    const pact_alg *alg;
    long params[16];
    size_t count, extent;
    int root, inplace, commutative;
    pact_plan *plan;
    struct lp_plan_ent *next;
} lp_plan_ent;

/* Per communicator: past this many plans, or this much scratch memory in them, the cache starts over. */
#define MAX_PLANS 256
#define MAX_SCRATCH ((size_t)256 << 20)

/* What libpact keeps per communicator (an attribute of it). */
typedef struct lp_comm {
    int size, rank, inter, world;
    int ready; /* private duplicate and placement made */
    MPI_Comm priv;
    pact_place place;
    int ppn; /* the most ranks on one node */
    lp_plan_ent *plans;
    int nplans;
    size_t scratch; /* bytes of scratch buffers the plans hold */
    struct lp_comm *prev, *next;
} lp_comm;

static struct {
    int inited, finalized, threads;
    int strict, verbose;
    lp_table table;
    int table_state;   /* 0: none, 1: read, -1: could not be read */
    unsigned has_rows; /* bit per collective with rows in the table */
    char table_path[1024];
    int keyval;
    lp_comm *comms;
    long *routed; /* per registry algorithm */
    long fallback[PACT_NCOLL][NREASON];
    /* the last call, formatted only when pact_lib_last asks */
    int last_coll, last_reason;
    const pact_alg *last_alg;
    char last[256];
    /* pact_lib_force_next: 1 an algorithm, 2 the library's own */
    int force[PACT_NCOLL];
    const pact_alg *force_alg[PACT_NCOLL];
    long *force_params[PACT_NCOLL];
} g = {.last_coll = -1};

/* ---- communicators ------------------------------------------------------------------------------- */

static void drop_plans(lp_comm *s)
{
    for (lp_plan_ent *e = s->plans, *n; e; e = n) {
        n = e->next;
        pact_plan_free(e->plan);
        free(e);
    }
    s->plans = NULL;
    s->nplans = 0;
    s->scratch = 0;
}

/* The last communicator a call named and its state: most programs call on one communicator after another. */
static MPI_Comm last_comm = MPI_COMM_NULL;
static lp_comm *last_state;

static void comm_free(lp_comm *s)
{
    if (last_state == s) {
        last_state = NULL;
        last_comm = MPI_COMM_NULL;
    }
    drop_plans(s);
    if (s->ready) {
        PMPI_Comm_free(&s->priv);
        pact_place_free(&s->place);
    }
    if (s->prev)
        s->prev->next = s->next;
    else
        g.comms = s->next;
    if (s->next)
        s->next->prev = s->prev;
    free(s);
}

static int delete_attr(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    if (!g.finalized)
        comm_free(value);
    return MPI_SUCCESS;
}

/* The communicator's state, made at its first wrapped call (local: no message). */
static lp_comm *state_of(MPI_Comm comm)
{
    void *v = NULL;
    int flag = 0;
    if (comm == last_comm && last_state)
        return last_state;
    if (PMPI_Comm_get_attr(comm, g.keyval, &v, &flag) == MPI_SUCCESS && flag) {
        last_comm = comm;
        last_state = v;
        return v;
    }
    lp_comm *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    PMPI_Comm_test_inter(comm, &s->inter);
    PMPI_Comm_size(comm, &s->size);
    PMPI_Comm_rank(comm, &s->rank);
    if (!s->inter) {
        int res = MPI_UNEQUAL;
        PMPI_Comm_compare(comm, MPI_COMM_WORLD, &res);
        s->world = res == MPI_IDENT || res == MPI_CONGRUENT;
    }
    if (PMPI_Comm_set_attr(comm, g.keyval, s) != MPI_SUCCESS) {
        free(s);
        return NULL;
    }
    s->next = g.comms;
    if (g.comms)
        g.comms->prev = s;
    g.comms = s;
    last_comm = comm;
    last_state = s;
    return s;
}

/* The private duplicate and the placement: collective, at the communicator's first routed call. */
static int make_ready(lp_comm *s, MPI_Comm comm)
{
    if (s->ready)
        return PACT_OK;
    if (PMPI_Comm_dup(comm, &s->priv) != MPI_SUCCESS)
        return PACT_ERR_MPI;
    int rc = pact_place_of_comm(s->priv, &s->place);
    if (rc != PACT_OK) {
        PMPI_Comm_free(&s->priv);
        return rc;
    }
    for (int n = 0; n < s->place.nnodes; n++) {
        int k = s->place.node_first[n + 1] - s->place.node_first[n];
        if (k > s->ppn)
            s->ppn = k;
    }
    s->ready = 1;
    return PACT_OK;
}

/* ---- set-up and the end ------------------------------------------------------------------------- */

/* "0"/"1" (or unset: 0); anything else is named and taken as 0. */
static int env_flag(const char *name, int rank)
{
    const char *v = getenv(name);
    if (!v || !*v || !strcmp(v, "0"))
        return 0;
    if (!strcmp(v, "1"))
        return 1;
    if (rank == 0)
        fprintf(stderr, "libpact: %s='%s': expected 0 or 1; taken as 0\n", name, v);
    return 0;
}

static void lp_init(void)
{
    if (g.inited)
        return;
    g.inited = 1;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Query_thread(&g.threads);
    g.strict = env_flag("PACT_STRICT", rank);
    g.verbose = env_flag("PACT_VERBOSE", rank);
    g.routed = calloc(pact_alg_count(), sizeof(long));
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_attr, &g.keyval, NULL);
    const char *path = getenv("PACT_TABLE");
    if (path && *path) {
        char why[512];
        snprintf(g.table_path, sizeof g.table_path, "%s", path);
        if (lp_table_read(path, &g.table, why, sizeof why) == PACT_OK) {
            g.table_state = 1;
            for (size_t i = 0; i < g.table.n; i++)
                g.has_rows |= 1u << g.table.rows[i].coll;
        } else {
            g.table_state = -1;
            if (rank == 0)
                fprintf(stderr, "libpact: PACT_TABLE: %s; %s\n", why,
                        g.strict ? "fatal (PACT_STRICT=1)"
                                 : "every call goes to the library's own collectives");
            if (g.strict)
                PMPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (lp_trace_init() != PACT_OK && g.strict)
        PMPI_Abort(MPI_COMM_WORLD, 2);
}

/* Rank 0 prints the counts of its calls, with all ranks' sums in parentheses. */
static void report(void)
{
    size_t na = pact_alg_count(), n = na + (size_t)PACT_NCOLL * NREASON;
    long *mine = calloc(n, sizeof(long)), *all = calloc(n, sizeof(long));
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!mine || !all)
        goto out;
    memcpy(mine, g.routed, na * sizeof(long));
    memcpy(mine + na, g.fallback, sizeof g.fallback);
    PMPI_Reduce(mine, all, (int)n, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0)
        goto out;
    fprintf(stderr, "libpact: %s%s: calls of rank 0 (of all ranks)\n",
            g.table_state ? "PACT_TABLE=" : "no table", g.table_state ? g.table_path : "");
    int any = 0;
    for (int c = 0; c < PACT_NCOLL; c++) {
        for (size_t i = 0; i < na; i++)
            if (pact_alg_at(i)->coll == (pact_coll)c && all[i]) {
                fprintf(stderr, "libpact:   %-15s routed    %-48s %8ld (%ld)\n", pact_coll_name(c),
                        pact_alg_at(i)->name, mine[i], all[i]);
                any = 1;
            }
        for (int r = 0; r < NREASON; r++) {
            size_t k = na + (size_t)c * NREASON + (size_t)r;
            if (all[k]) {
                fprintf(stderr, "libpact:   %-15s fallback  %-48s %8ld (%ld)\n", pact_coll_name(c),
                        reason_text[r], mine[k], all[k]);
                any = 1;
            }
        }
    }
    if (!any)
        fprintf(stderr, "libpact:   no wrapped call\n");
out:
    free(mine);
    free(all);
}

static void lp_finalize(void)
{
    if (!g.inited || g.finalized)
        return;
    if (g.verbose)
        report();
    lp_trace_finalize();
    while (g.comms)
        comm_free(g.comms);
    g.finalized = 1; /* the attributes' delete callbacks now leave everything alone */
    PMPI_Comm_free_keyval(&g.keyval);
    lp_table_free(&g.table);
    for (int c = 0; c < PACT_NCOLL; c++)
        free(g.force_params[c]);
    free(g.routed);
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        lp_init();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        lp_init();
    return rc;
}

int MPI_Finalize(void)
{
    lp_finalize();
    return PMPI_Finalize();
}

/* ---- the programming interface (libpact.h) ------------------------------------------------------- */

int pact_lib_force_next(const char *coll, const char *spec)
{
    int c = coll ? pact_coll_from_name(coll) : -1;
    g.last_coll = -1;
    if (c < 0) {
        snprintf(g.last, sizeof g.last, "pact_lib_force_next: '%s': not one of %s", coll ? coll : "(null)",
                 pact_coll_list());
        return -1;
    }
    if (spec && !strcmp(spec, "mpi")) {
        g.force[c] = 2;
        return 0;
    }
    const pact_alg *a;
    long *params;
    char why[200];
    if (!spec || pact_spec_parse((pact_coll)c, spec, &a, &params, why, sizeof why) != PACT_OK) {
        snprintf(g.last, sizeof g.last, "pact_lib_force_next: %s: %s", coll, spec ? why : "no algorithm");
        return -1;
    }
    free(g.force_params[c]);
    g.force[c] = 1;
    g.force_alg[c] = a;
    g.force_params[c] = params;
    return 0;
}

const char *pact_lib_last(void)
{
    if (g.last_coll < 0)
        return g.last[0] ? g.last : "no wrapped call yet";
    if (g.last_alg)
        snprintf(g.last, sizeof g.last, "routed %s %s", pact_coll_name(g.last_coll), g.last_alg->name);
    else
        snprintf(g.last, sizeof g.last, "fallback %s: %s", pact_coll_name(g.last_coll),
                 reason_text[g.last_reason]);
    return g.last;
}

/* ---- routing ------------------------------------------------------------------------------------- */

/* One wrapped call, as pact sees it. */
typedef struct {
    pact_coll coll;
    MPI_Comm comm;
    const void *send;
    void *recv;
    long count; /* pact's count: elements per process, or per block (alltoall, allgather) */
    MPI_Datatype dt;
    MPI_Op op;
    int root, inplace; /* inplace: the caller passed MPI_IN_PLACE */
    int mismatch;      /* send and receive types differ (alltoall, allgather) */
    const int *recvcounts;
    /* filled by lp_enter */
    lp_comm *s;
    pact_plan *plan;
    size_t extent;
    int rank_inplace;
} lp_call;

static int fall(lp_call *c, int reason)
{
    g.fallback[c->coll][reason]++;
    g.last_coll = (int)c->coll;
    g.last_alg = NULL;
    g.last_reason = reason;
    return 0;
}

/* What libpact asks of a datatype, for the last few datatypes it saw; MPI_Type_free (wrapped below) forgets a
 * handle, which MPI may then give to another type. */
typedef struct {
    MPI_Datatype dt;
    int size, contig;
    size_t extent;
} dt_info;
#define NDT 8
static dt_info dts[NDT];
static int ndts, next_dt;

static const dt_info *dt_of(MPI_Datatype dt)
{
    for (int i = 0; i < ndts; i++)
        if (dts[i].dt == dt)
            return &dts[i];
    dt_info d = {.dt = dt};
    MPI_Aint lb, ext, tlb, text;
    if (PMPI_Type_size(dt, &d.size) == MPI_SUCCESS && PMPI_Type_get_extent(dt, &lb, &ext) == MPI_SUCCESS &&
        PMPI_Type_get_true_extent(dt, &tlb, &text) == MPI_SUCCESS) {
        d.extent = (size_t)ext;
        d.contig = d.size > 0 && lb == 0 && tlb == 0 && ext == d.size && text == d.size;
    }
    int k = ndts < NDT ? ndts++ : next_dt++ % NDT;
    dts[k] = d;
    return &dts[k];
}

int MPI_Type_free(MPI_Datatype *dt)
{
    for (int i = 0; dt && i < ndts; i++)
        if (dts[i].dt == *dt)
            dts[i] = (dt_info){.dt = MPI_DATATYPE_NULL}; /* not contiguous: such a call goes to the library */
    return PMPI_Type_free(dt);
}

static pact_plan *plan_for(lp_call *c, const pact_alg *a, const long *params, const pact_build_args *args)
{
    lp_comm *s = c->s;
    size_t np = pact_alg_nparams(a);
    for (lp_plan_ent **pe = &s->plans, *e; (e = *pe); pe = &e->next)
        if (e->alg == a && e->count == args->count && e->extent == args->elem_size && e->root == args->root &&
            e->inplace == args->inplace && e->commutative == args->commutative &&
            !memcmp(e->params, params, np * sizeof(long))) {
            *pe = e->next; /* to the front: a program repeats its calls */
            e->next = s->plans;
            s->plans = e;
            return e->plan;
        }
    if (np > 16)
        return NULL;
    pact_sched sch;
    pact_sched_init(&sch);
    if (pact_build(a, args, &sch) != PACT_OK) {
        pact_sched_free(&sch);
        return NULL;
    }
    size_t scratch = (sch.buf_count[PACT_BUF_TMP0] + sch.buf_count[PACT_BUF_TMP1]) * args->elem_size;
    if (s->nplans >= MAX_PLANS || s->scratch + scratch > MAX_SCRATCH)
        drop_plans(s);
    lp_plan_ent *e = calloc(1, sizeof(*e));
    pact_exec_ctx x = {.comm = s->priv, .dtype = c->dt, .op = c->op, .tag = 1};
    if (!e || pact_plan_new(&sch, &x, &e->plan) != PACT_OK) {
        pact_sched_free(&sch);
        free(e);
        return NULL;
    }
    pact_sched_free(&sch);
    s->scratch += scratch;
    e->alg = a;
    memcpy(e->params, params, np * sizeof(long));
    e->count = args->count;
    e->extent = args->elem_size;
    e->root = args->root;
    e->inplace = args->inplace;
    e->commutative = args->commutative;
    e->next = s->plans;
    s->plans = e;
    s->nplans++;
    return e->plan;
}

/* Traces the call, then decides: 1 with c->plan set (run it with lp_run), or 0 (call the library). */
static int lp_enter(lp_call *c)
{
    if (!g.inited || g.finalized)
        return 0;
    /* the cheapest refusals first: a call that falls back should cost next to nothing */
    int forced = g.force[c->coll];
    g.force[c->coll] = 0;
    const dt_info *d = NULL;
    if (lp_tracing()) {
        double t = PMPI_Wtime();
        lp_comm *s = state_of(c->comm);
        d = c->coll == PACT_COLL_BARRIER ? NULL : dt_of(c->dt);
        lp_trace_arrive(c->coll, s && s->world,
                        d && c->count > 0 ? (uint64_t)c->count * (uint64_t)d->size : 0, t);
    }
    if (forced == 2)
        return fall(c, R_FORCED_MPI);
    if (!forced && g.table_state != 1)
        return fall(c, g.table_state < 0 ? R_TABLE_BAD : R_NO_TABLE);
    if (!forced && !(g.has_rows & (1u << c->coll)))
        return fall(c, R_NO_ROW);
    if (g.threads == MPI_THREAD_MULTIPLE)
        return fall(c, R_THREADS);
    lp_comm *s = state_of(c->comm);
    if (!s)
        return fall(c, R_SETUP);
    if (s->inter)
        return fall(c, R_INTERCOMM);
    c->s = s;
    if (make_ready(s, c->comm) != PACT_OK) /* every rank gets here at its first call on this communicator */
        return fall(c, R_SETUP);
    if (c->count < 0 || (pact_coll_rooted(c->coll) && (c->root < 0 || c->root >= s->size)))
        return fall(c, R_ARGS);
    static const dt_info none = {.size = 1, .contig = 1, .extent = 1};
    if (!d)
        d = c->coll == PACT_COLL_BARRIER ? &none : dt_of(c->dt);
    if (!d->contig)
        return fall(c, R_DATATYPE);
    uint64_t bytes = c->count > 0 ? (uint64_t)c->count * (uint64_t)d->size : 0;
    if (c->mismatch)
        return fall(c, R_TYPES_DIFFER);
    if (c->recvcounts) { /* reduce_scatter: pact splits count in P blocks, the first count mod P one longer */
        long q = c->count / s->size, r = c->count % s->size;
        for (int i = 0; i < s->size; i++)
            if (c->recvcounts[i] != q + (i < r))
                return fall(c, R_COUNTS);
    }
    const pact_alg *a;
    const long *params;
    if (forced) {
        a = g.force_alg[c->coll];
        params = g.force_params[c->coll];
    } else {
        const lp_row *row = lp_table_lookup(&g.table, c->coll, s->size, s->ppn, bytes);
        if (!row)
            return fall(c, R_NO_ROW);
        a = row->alg;
        params = row->params;
    }
    int commutative = 1;
    if (pact_coll_traits_of(c->coll)->reduces)
        PMPI_Op_commutative(c->op, &commutative);
    c->rank_inplace = pact_coll_rank_inplace(c->coll, s->rank, c->root, c->inplace);
    c->extent = d->extent;
    pact_build_args args = {.coll = c->coll,
                            .rank = s->rank,
                            .size = s->size,
                            .root = pact_coll_rooted(c->coll) ? c->root : 0,
                            .count = (size_t)c->count,
                            .elem_size = c->extent,
                            .commutative = commutative,
                            .inplace = c->rank_inplace,
                            .params = params,
                            .place = &s->place};
    const char *why = NULL;
    if (pact_alg_applies(a, &args, &why) != PACT_OK) {
        if ((a->restrictions & PACT_R_COMMUTATIVE) && !commutative)
            return fall(c, R_COMMUTATIVE);
        if ((a->restrictions & PACT_R_NOT_INPLACE) && args.inplace)
            return fall(c, R_INPLACE);
        return fall(c, R_RESTRICTED);
    }
    if (!(c->plan = plan_for(c, a, params, &args))) {
        if (g.strict) {
            fprintf(stderr, "libpact: rank %d: %s %s: no plan for %ld elements (PACT_STRICT=1)\n", s->rank,
                    pact_coll_name(c->coll), a->name, c->count);
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
        return fall(c, R_SETUP);
    }
    for (size_t i = 0; i < pact_alg_count(); i++)
        if (pact_alg_at(i) == a) {
            g.routed[i]++;
            break;
        }
    g.last_coll = (int)c->coll;
    g.last_alg = a;
    return 1;
}

/* Runs the plan lp_enter chose on the call's buffers. */
static int lp_run(lp_call *c)
{
    pact_exec_ctx x = {.comm = c->s->priv, .dtype = c->dt, .op = c->op, .tag = 1};
    x.buf[PACT_BUF_SEND] = (void *)(uintptr_t)c->send;
    if (c->rank_inplace) /* the input sits in RECV: all of it, or this rank's block (allgather) */
        x.buf[PACT_BUF_SEND] =
            (char *)c->recv +
            pact_coll_inplace_offset(c->coll, c->s->rank, c->s->size, (size_t)c->count) * c->extent;
    x.buf[PACT_BUF_RECV] = c->recv;
    int rc = pact_plan_run(c->plan, &x);
    if (rc != PACT_OK) {
        fprintf(stderr, "libpact: rank %d: %s: pact's kernel failed (%d)\n", c->s->rank,
                pact_coll_name(c->coll), rc);
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

/* ---- the wrappers -------------------------------------------------------------------------------- */

int MPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    lp_call c = {.coll = PACT_COLL_ALLREDUCE,
                 .comm = comm,
                 .send = sb,
                 .recv = rb,
                 .count = count,
                 .dt = dt,
                 .op = op,
                 .inplace = sb == MPI_IN_PLACE};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Allreduce(sb, rb, count, dt, op, comm);
}

int MPI_Reduce(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    lp_call c = {.coll = PACT_COLL_REDUCE,
                 .comm = comm,
                 .send = sb,
                 .recv = rb,
                 .count = count,
                 .dt = dt,
                 .op = op,
                 .root = root,
                 .inplace = sb == MPI_IN_PLACE};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Reduce(sb, rb, count, dt, op, root, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    lp_call c = {.coll = PACT_COLL_BCAST, .comm = comm, .recv = buf, .count = count, .dt = dt, .root = root};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Bcast(buf, count, dt, root, comm);
}

int MPI_Alltoall(const void *sb, int scount, MPI_Datatype st, void *rb, int rcount, MPI_Datatype rt,
                 MPI_Comm comm)
{
    int inplace = sb == MPI_IN_PLACE;
    lp_call c = {.coll = PACT_COLL_ALLTOALL,
                 .comm = comm,
                 .send = sb,
                 .recv = rb,
                 .count = rcount,
                 .dt = rt,
                 .inplace = inplace,
                 .mismatch = !inplace && (st != rt || scount != rcount)};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Alltoall(sb, scount, st, rb, rcount, rt, comm);
}

int MPI_Allgather(const void *sb, int scount, MPI_Datatype st, void *rb, int rcount, MPI_Datatype rt,
                  MPI_Comm comm)
{
    int inplace = sb == MPI_IN_PLACE;
    lp_call c = {.coll = PACT_COLL_ALLGATHER,
                 .comm = comm,
                 .send = sb,
                 .recv = rb,
                 .count = rcount,
                 .dt = rt,
                 .inplace = inplace,
                 .mismatch = !inplace && (st != rt || scount != rcount)};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Allgather(sb, scount, st, rb, rcount, rt, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    lp_call c = {.coll = PACT_COLL_BARRIER, .comm = comm, .dt = MPI_BYTE};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Barrier(comm);
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int recvcounts[], MPI_Datatype dt, MPI_Op op,
                       MPI_Comm comm)
{
    int size = 0, inter = 0;
    long total = 0;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    for (int i = 0; !inter && i < size; i++)
        total += recvcounts[i] > 0 ? recvcounts[i] : 0;
    lp_call c = {.coll = PACT_COLL_REDUCE_SCATTER,
                 .comm = comm,
                 .send = sb,
                 .recv = rb,
                 .count = total,
                 .dt = dt,
                 .op = op,
                 .inplace = sb == MPI_IN_PLACE,
                 .recvcounts = recvcounts};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Reduce_scatter(sb, rb, recvcounts, dt, op, comm);
}

int MPI_Reduce_scatter_block(const void *sb, void *rb, int recvcount, MPI_Datatype dt, MPI_Op op,
                             MPI_Comm comm)
{
    int size = 0;
    PMPI_Comm_size(comm, &size);
    lp_call c = {.coll = PACT_COLL_REDUCE_SCATTER,
                 .comm = comm,
                 .send = sb,
                 .recv = rb,
                 .count = recvcount < 0 ? -1 : (long)recvcount * size,
                 .dt = dt,
                 .op = op,
                 .inplace = sb == MPI_IN_PLACE};
    if (lp_enter(&c))
        return lp_run(&c);
    return PMPI_Reduce_scatter_block(sb, rb, recvcount, dt, op, comm);
}
