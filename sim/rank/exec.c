/*
 * exec.c - the MPI executor: runs one rank's schedule with MPI point-to-point calls and local reductions.
 *
 * The order of calls is decided once per schedule (program.c: post what is ready, in schedule order;
 * when nothing is ready, wait for the one request the lowest blocked operation needs).  pact_plan_new()
 * turns that order into a flat array of MPI calls with their arguments, and a run walks the array: it
 * reads memory in sequence, allocates nothing and decides nothing.  That matters under SMPI, where a rank
 * resumes after every MPI call with its data evicted by the other ranks (at 256 ranks the executor's
 * loop over a dependency graph cost about six cache misses per ring step).
 *
 * While turning the program into calls, a post and the wait that follows it become one call where that
 * changes nothing simulated: the requests are started in the same order at the same moment, and the
 * waits that complete them are one wait (the last request posted before a wait and waited for there
 * becomes a blocking MPI_Send or MPI_Recv; a send then a receive, MPI_Sendrecv, which SMPI also starts
 * send first).  These are the calls of Open MPI's own code: Irecv / Send / Wait per ring step, as
 * ompi_coll_base_sendrecv makes them.  Other posts stay nonblocking, held until the next wait or until
 * a reduction or copy that takes time or touches data.  A joined wait for several requests is one
 * MPI_Waitall on real MPI; under SMPI it is one MPI_Wait per request, because SMPI's MPI_Waitall runs one
 * waitany per request over all of them (quadratic, and a simcall each), while its MPI_Wait of a finished
 * eager send returns without one.  The returns are the same: nothing starts between those waits.
 *
 * Under SMPI, a receive then a send that one wait completes (Open MPI's sendrecv step: Irecv, Send, Wait)
 * is a PAIR of persistent requests, made on a plan's first run and reused: one MPI_Startall (receive
 * first, as before) and one MPI_Waitall.  SMPI's price is per MPI call (argument checks, a trace record
 * allocated and freed, actor look-ups), so two calls cost less than three (allgather neighbor 8 B at 256
 * ranks: 1.15 -> 1.05 s for 6 calls).  Simulated times are the same: the requests start in the same order
 * at the same moment, and the rank resumes when both have completed either way.
 *
 * Under SMPI, the sends that only the rank's last wait completes (I_ISEND_END: linear alltoall's, a linear
 * tree's root's) go as MPI_Issend when the run reads no per-rank exit (pact_exec_ctx.late_sends).  SimGrid
 * 3.32 detaches a send below smpi/send-is-detached-thresh, and the end of each detached send removes it from
 * one std::list of every detached send in flight, walking all of it (CommImpl::finish; 3.34 made it a set):
 * quadratic in the sends in flight, 60 s of linear alltoall's 64 s per call at 256 ranks.  SMPI's MPI_Issend
 * is MPI_Isend not detached (with smpi/async-small-thresh 0, pact's): the message flows as before, and only
 * the sender's request now completes at its delivery, which is when its receiver's receive completes; so
 * every message, every other call and the last exit keep their times (sim.sh compares the two, byte for
 * byte).
 */
#include "pact_mpi.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef PACT_SMPI
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#endif

/* Under SMPI a reduction costs exactly `seconds` of simulated time, whatever the host.  SimGrid 3.32's
 * smpi_execute(s) runs s x smpi/host-speed flops on the rank's host (src/smpi/internals/smpi_bench.cpp), so a
 * host of the platform's 30-42 Gf finished it 30-42 times early; flops at the host's own speed would still
 * depend on its cores (ranks sharing one core would share its speed).  A sleep is s on any host, and it is
 * what the replay engine writes (replay.c) and what the model charges. */
void pact_charge(double seconds)
{
#ifdef PACT_SMPI
    if (seconds > 0)
        sg_actor_sleep_for(seconds);
#else
    (void)seconds;
#endif
}

/* The calls of a plan.  SENDRECV, PAIR, REDUCE and COPY take a second record: the receive, the send, the
 * destination. */
enum {
    I_ISEND,
    I_IRECV,
    I_SEND,
    I_RECV,
    I_SENDRECV,
    I_PAIR,
    I_REDUCE,
    I_COPY,
    I_SECOND,
    I_WAIT,
    I_WAITALL,
    I_ISEND_END
};

/* One call with its arguments, four to a cache line: a run reads them in sequence, and at 256 simulated
 * ranks the first record read after an MPI call misses the cache (perf, ring allreduce 64 KiB: the loop
 * took 0.30 s of the 5.8 s with 40-byte records, 0.20 s with these). */
typedef struct {
    uint8_t code;
    uint8_t buf;
    int16_t tag; /* MPI guarantees tags up to 32767 only */
    int32_t peer;
    uint32_t count; /* elements; WAITALL: requests */
    uint32_t arg;   /* element offset in buf; WAIT: the request; WAITALL: its first request in waits[] */
} ins_t;
_Static_assert(sizeof(ins_t) == 16, "four records to a cache line");

struct pact_plan {
    int rank;
    unsigned flags; /* PACT_PROG_*: what the calls were decided for */
    size_t elem_size;
    size_t buf_count[PACT_NBUF];
    ins_t *ins;
    size_t nins;
    size_t nops;            /* of the schedule */
    uint32_t *ins_op;       /* the schedule operation of each record (UINT32_MAX: a wait), for x->rec */
    uint32_t *slot_op;      /* the operation of each nonblocking post */
    uint32_t *waits;        /* the requests of the WAITALLs */
    MPI_Request *reqs;      /* by posting number of nonblocking posts */
    MPI_Request *tmp;       /* one MPI_Waitall's */
    MPI_Status *sts;        /* its statuses (not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's prototype) */
    void *owned[PACT_NBUF]; /* scratch buffers the context did not give, kept for the next run */
    /* SMPI: the PAIRs' persistent requests (receive, send), made by the first run for its buffers,
     * communicator, datatype and tag, and made again when a run brings others */
    size_t npairs;
    MPI_Request *pers;
    int bound, persistent; /* bound to the key below; persistent: pers made (a predefined datatype) */
    char *bound_base[PACT_NBUF];
    MPI_Comm bound_comm;
    MPI_Datatype bound_dt;
    int bound_tag;
};

/* Frees the PAIRs' persistent requests. */
static void unbind(pact_plan *p)
{
    if (p->bound)
        for (size_t k = 0; k < 2 * p->npairs; k++)
            if (p->pers[k] != MPI_REQUEST_NULL)
                MPI_Request_free(&p->pers[k]);
    p->bound = 0;
}

void pact_plan_free(pact_plan *p)
{
    if (!p)
        return;
    unbind(p);
    free(p->pers);
    for (int b = 0; b < PACT_NBUF; b++)
        free(p->owned[b]);
    free(p->ins);
    free(p->ins_op);
    free(p->slot_op);
    free(p->waits);
    free(p->reqs);
    free(p->tmp);
    free(p->sts);
    free(p);
}

static unsigned ctx_flags(const pact_exec_ctx *x)
{
    return (x->no_compute ? 0 : PACT_PROG_DATA) | (x->gamma > 0 ? PACT_PROG_CHARGE : 0);
}

/* Turning a program into calls. */
typedef struct {
    pact_plan *p;
    const pact_sched *s;
    uint32_t *slot;  /* of an operation posted nonblocking */
    uint8_t *waited; /* by slot */
    uint32_t *post_ins; /* by slot: the record that posts it */
    uint32_t nslots, nwaits;
    int err; /* an offset, count or tag that does not fit a record */
} compile_t;

/* Appends a call on operation op's source (or, for a receive or a second record, its destination). */
static void add(compile_t *c, int code, uint32_t op, int dst)
{
    const pact_op *o = &c->s->ops[op];
    const pact_slice *sl = dst || o->kind == PACT_OP_RECV ? &o->dst : &o->src;
    if (sl->off > UINT32_MAX || sl->count > INT_MAX || o->tag < 0 || o->tag > INT16_MAX)
        c->err = 1;
    c->p->ins_op[c->p->nins] = op;
    c->p->ins[c->p->nins++] = (ins_t){.code = (uint8_t)code,
                                      .buf = (uint8_t)sl->buf,
                                      .tag = (int16_t)o->tag,
                                      .peer = o->peer,
                                      .count = (uint32_t)sl->count,
                                      .arg = (uint32_t)sl->off};
}

/* Starts operations held[0..nh) nonblocking, in order; a run numbers their requests the same way. */
static void post(compile_t *c, const uint32_t *held, size_t nh)
{
    for (size_t k = 0; k < nh; k++) {
        add(c, c->s->ops[held[k]].kind == PACT_OP_SEND ? I_ISEND : I_IRECV, held[k], 0);
        c->post_ins[c->nslots] = (uint32_t)(c->p->nins - 1);
        c->p->slot_op[c->nslots] = held[k];
        c->slot[held[k]] = c->nslots++;
    }
}

/* Whether op is in grp[0..ng); with `drop`, takes it out. */
static int in_group(uint32_t *grp, size_t *ng, uint32_t op, int drop)
{
    for (size_t k = 0; k < *ng; k++)
        if (grp[k] == op) {
            if (drop) {
                memmove(&grp[k], &grp[k + 1], (*ng - k - 1) * sizeof(*grp));
                (*ng)--;
            }
            return 1;
        }
    return 0;
}

/* Waits for slots (of the given operations, or all outstanding when ops is NULL). */
static void wait_slots(compile_t *c, const uint32_t *ops, size_t n)
{
    const uint32_t first = c->nwaits;
    if (ops)
        for (size_t k = 0; k < n; k++)
            c->p->waits[c->nwaits++] = c->slot[ops[k]];
    else
        for (uint32_t q = 0; q < c->nslots; q++)
            if (!c->waited[q])
                c->p->waits[c->nwaits++] = q;
    const uint32_t m = c->nwaits - first;
    for (uint32_t k = first; k < c->nwaits; k++)
        c->waited[c->p->waits[k]] = 1;
    if (m == 1) {
        c->p->ins_op[c->p->nins] = UINT32_MAX;
        c->p->ins[c->p->nins++] = (ins_t){.code = I_WAIT, .arg = c->p->waits[first]};
        c->nwaits = first;
    } else if (m > 1) {
        c->p->ins_op[c->p->nins] = UINT32_MAX;
        c->p->ins[c->p->nins++] = (ins_t){.code = I_WAITALL, .count = m, .arg = first};
    }
}

static void compile(compile_t *c, const pact_program *g, uint32_t *held, uint32_t *grp)
{
    size_t nh = 0;
    for (size_t a = 0; a < g->nacts; a++) {
        const pact_act *t = &g->acts[a];
        switch (t->kind) {
        case PACT_ACT_POST:
            held[nh++] = t->op;
            break;
        case PACT_ACT_COMPUTE:
            post(c, held, nh);
            nh = 0;
            add(c, c->s->ops[t->op].kind == PACT_OP_REDUCE ? I_REDUCE : I_COPY, t->op, 0);
            add(c, I_SECOND, t->op, 1);
            break;
        case PACT_ACT_WAIT: {
            size_t ng = 0;
            grp[ng++] = t->op;
            while (g->acts[a].joined)
                grp[ng++] = g->acts[++a].op;
            /* the last posts before the wait, when it waits for them: one blocking call */
            const pact_op *last = nh > 0 ? &c->s->ops[held[nh - 1]] : NULL;
            const pact_op *prev = nh > 1 ? &c->s->ops[held[nh - 2]] : NULL;
            if (prev && prev->kind == PACT_OP_SEND && last->kind == PACT_OP_RECV &&
                in_group(grp, &ng, held[nh - 2], 0) && in_group(grp, &ng, held[nh - 1], 0)) {
                in_group(grp, &ng, held[nh - 2], 1);
                in_group(grp, &ng, held[nh - 1], 1);
                post(c, held, nh - 2);
                add(c, I_SENDRECV, held[nh - 2], 0);
                add(c, I_SECOND, held[nh - 1], 1);
#ifdef PACT_SMPI
            } else if (ng == 2 && prev && prev->kind == PACT_OP_RECV && last->kind == PACT_OP_SEND &&
                       in_group(grp, &ng, held[nh - 2], 0) && in_group(grp, &ng, held[nh - 1], 0)) {
                /* a receive then a send, and the wait is for both: one MPI_Startall, one MPI_Waitall */
                post(c, held, nh - 2);
                add(c, I_PAIR, held[nh - 2], 0);
                add(c, I_SECOND, held[nh - 1], 0);
                c->p->npairs++;
                ng = 0;
#endif
            } else if (last && in_group(grp, &ng, held[nh - 1], 1)) {
                post(c, held, nh - 1);
                add(c, last->kind == PACT_OP_SEND ? I_SEND : I_RECV, held[nh - 1], 0);
            } else {
                post(c, held, nh);
            }
            nh = 0;
            wait_slots(c, grp, ng);
            break;
        }
        case PACT_ACT_WAITALL:
            post(c, held, nh);
            nh = 0;
#ifdef PACT_SMPI
            /* the rank's last call: the sends it completes are I_ISEND_END (see pact_exec_ctx.late_sends) */
            if (a + 1 == g->nacts)
                for (uint32_t q = 0; q < c->nslots; q++)
                    if (!c->waited[q] && c->p->ins[c->post_ins[q]].code == I_ISEND)
                        c->p->ins[c->post_ins[q]].code = I_ISEND_END;
#endif
            wait_slots(c, NULL, 0);
            break;
        }
    }
}

int pact_plan_new(const pact_sched *s, const pact_exec_ctx *x, pact_plan **out)
{
    const size_t n = s->nops;
    pact_program g = {0};
    compile_t c = {0};
    uint32_t *held = NULL, *grp = NULL;
    size_t stalled = 0;
    int rc = PACT_OK;
    pact_plan *p = calloc(1, sizeof(*p));
    *out = NULL;
    if (!p)
        return PACT_ERR_NOMEM;
    p->rank = s->rank;
    p->flags = ctx_flags(x);
    p->elem_size = s->elem_size;
    memcpy(p->buf_count, s->buf_count, sizeof(p->buf_count));
    if ((rc = pact_program_build(s, p->flags, &g, &stalled)) != PACT_OK) {
        if (rc == PACT_ERR_ARG)
            fprintf(stderr, "pact: rank %d: schedule stalled at operation %zu of %zu\n", s->rank, stalled, n);
        goto out;
    }
    c = (compile_t){.p = p, .s = s};
    p->ins = malloc((2 * g.nacts + 1) * sizeof(*p->ins)); /* two records per action at most */
    p->ins_op = malloc((2 * g.nacts + 1) * sizeof(*p->ins_op));
    p->slot_op = malloc((g.nposts + 1) * sizeof(*p->slot_op));
    p->nops = n;
    p->waits = malloc((g.nposts + 1) * sizeof(*p->waits));
    p->reqs = malloc((g.nposts + 1) * sizeof(*p->reqs));
    p->tmp = malloc((g.nposts + 1) * sizeof(*p->tmp));
    p->sts = malloc((g.nposts + 1) * sizeof(*p->sts));
    c.slot = malloc((n + 1) * sizeof(*c.slot));
    c.waited = calloc(g.nposts + 1, sizeof(*c.waited));
    c.post_ins = malloc((g.nposts + 1) * sizeof(*c.post_ins));
    held = malloc((n + 1) * sizeof(*held));
    grp = malloc((n + 1) * sizeof(*grp));
    if (!p->ins || !p->ins_op || !p->slot_op || !p->waits || !p->reqs || !p->tmp || !p->sts || !c.slot ||
        !c.waited || !c.post_ins || !held || !grp) {
        rc = PACT_ERR_NOMEM;
        goto out;
    }
    compile(&c, &g, held, grp);
    if (c.err) {
        fprintf(stderr,
                "pact: rank %d: an offset beyond 2^32 elements, a count beyond INT_MAX or a tag beyond "
                "32767 in the schedule\n",
                s->rank);
        rc = PACT_ERR_ARG;
        goto out;
    }
    /* the arrays of a run, trimmed to what it uses */
    ins_t *ins = realloc(p->ins, (p->nins + 1) * sizeof(*p->ins));
    if (ins)
        p->ins = ins;
    if (p->npairs && !(p->pers = malloc(2 * p->npairs * sizeof(*p->pers))))
        rc = PACT_ERR_NOMEM;
out:
    pact_program_free(&g);
    free(c.slot);
    free(c.waited);
    free(c.post_ins);
    free(held);
    free(grp);
    if (rc != PACT_OK)
        pact_plan_free(p);
    else
        *out = p;
    return rc;
}

static inline char *at(char *const *base, const ins_t *c, size_t elem_size)
{
    return base[c->buf] + (size_t)c->arg * elem_size;
}

/* Makes the persistent requests of the PAIRs for these buffers and this communicator (none for a derived
 * datatype: p->persistent 0). */
static int bind(pact_plan *p, char *const *base, const pact_exec_ctx *x)
{
    int rc = PACT_OK;
    if (p->bound && !memcmp(p->bound_base, base, sizeof(p->bound_base)) && p->bound_comm == x->comm &&
        p->bound_dt == x->dtype && p->bound_tag == x->tag)
        return PACT_OK;
    unbind(p);
    for (size_t k = 0; k < 2 * p->npairs; k++)
        p->pers[k] = MPI_REQUEST_NULL;
    p->bound = 1;
    /* SMPI 3.32 packs a derived datatype's send buffer when the request is made and again only when it
     * restarts, so a first start would send what the buffer held at MPI_Send_init (wrong wherever a step
     * sends what an earlier step computed): with derived datatypes the PAIRs make their calls one by one */
    int ni, na, nd, combiner;
    PACT_MPI_CHECK(MPI_Type_get_envelope(x->dtype, &ni, &na, &nd, &combiner));
    p->persistent = combiner == MPI_COMBINER_NAMED;
    MPI_Request *q = p->pers;
    for (const ins_t *c = p->ins, *const e = p->ins + p->nins; p->persistent && c < e; c++) {
        if (c->code != I_PAIR)
            continue;
        const ins_t *r = &c[1];
        PACT_MPI_CHECK(MPI_Recv_init(at(base, c, p->elem_size), (int)c->count, x->dtype, c->peer,
                                     x->tag + c->tag, x->comm, q++));
        PACT_MPI_CHECK(MPI_Send_init(at(base, r, p->elem_size), (int)r->count, x->dtype, r->peer,
                                     x->tag + r->tag, x->comm, q++));
    }
    memcpy(p->bound_base, base, sizeof(p->bound_base));
    p->bound_comm = x->comm;
    p->bound_dt = x->dtype;
    p->bound_tag = x->tag;
out:
    if (rc != PACT_OK)
        unbind(p);
    return rc;
}

/* The clock of x->rec: SimGrid's under SMPI (MPI_Wtime there may add simulated time, smpi/wtime), MPI_Wtime
 * otherwise. */
static inline double rec_now(void)
{
#ifdef PACT_SMPI
    return simgrid_get_clock();
#else
    return MPI_Wtime();
#endif
}

/* After record c ran (begun at t0): the start and end of the operations it posted, ran or completed. */
static void record(const pact_plan *p, const ins_t *c, double *rec, double t0)
{
    const double t1 = rec_now();
    const uint32_t op = p->ins_op[c - p->ins];
    switch (c->code) {
    case I_ISEND:
    case I_ISEND_END:
    case I_IRECV:
        rec[2 * op] = t0;
        break;
    case I_SENDRECV:
    case I_PAIR: { /* both operations: posted together, done when the call returned */
        const uint32_t op2 = p->ins_op[c + 1 - p->ins];
        rec[2 * op2] = t0;
        rec[2 * op2 + 1] = t1;
    }
        /* fall through */
    case I_SEND:
    case I_RECV:
    case I_REDUCE:
    case I_COPY:
        rec[2 * op] = t0;
        rec[2 * op + 1] = t1;
        break;
    case I_WAIT:
        rec[2 * p->slot_op[c->arg] + 1] = t1;
        break;
    case I_WAITALL:
#ifndef PACT_SMPI
        for (uint32_t k = 0; k < c->count; k++)
            rec[2 * p->slot_op[p->waits[c->arg + k]] + 1] = t1;
#endif
        break;
    default:
        break;
    }
}

size_t pact_plan_nops(const pact_plan *p)
{
    return p->nops;
}

int pact_plan_run(pact_plan *p, pact_exec_ctx *x)
{
    int rc = PACT_OK;
    char *base[PACT_NBUF];
    if (ctx_flags(x) != p->flags) {
        fprintf(stderr, "pact: rank %d: plan made for other compute settings than this run's\n", p->rank);
        return PACT_ERR_ARG;
    }
    for (int b = 0; b < PACT_NBUF; b++) {
        base[b] = x->buf[b];
        if (b >= PACT_BUF_TMP0 && !base[b] && p->buf_count[b] > 0) {
            if (!p->owned[b] && !(p->owned[b] = malloc(p->buf_count[b] * p->elem_size))) {
                rc = PACT_ERR_NOMEM;
                goto out;
            }
            base[b] = p->owned[b];
        }
    }
    if (p->npairs && (rc = bind(p, base, x)) != PACT_OK)
        goto out;
    const int persistent = p->npairs && p->persistent;
    MPI_Request *pair = p->pers, one;
    const MPI_Comm comm = x->comm;
    const MPI_Datatype dt = x->dtype;
    const int tag = x->tag;
    const size_t es = p->elem_size;
    MPI_Request *reqs = p->reqs, *next = p->reqs; /* nonblocking posts take the requests in order */
    double *const rec = x->rec, t0 = 0;
    if (rec)
        for (size_t i = 0; i < 2 * p->nops; i++)
            rec[i] = NAN;
    for (const ins_t *c = p->ins, *const e = p->ins + p->nins; c < e; c++) {
        const ins_t *const r = &c[1]; /* the second record of SENDRECV, REDUCE and COPY */
        if (rec)
            t0 = rec_now();
        switch (c->code) {
        case I_ISEND:
            PACT_MPI_CHECK(
                MPI_Isend(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm, next++));
            break;
        case I_ISEND_END:
            if (x->late_sends)
                PACT_MPI_CHECK(
                    MPI_Issend(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm, next++));
            else
                PACT_MPI_CHECK(
                    MPI_Isend(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm, next++));
            break;
        case I_IRECV:
            PACT_MPI_CHECK(
                MPI_Irecv(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm, next++));
            break;
        case I_SEND:
            PACT_MPI_CHECK(MPI_Send(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm));
            break;
        case I_RECV:
            PACT_MPI_CHECK(
                MPI_Recv(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm, MPI_STATUS_IGNORE));
            break;
        case I_SENDRECV: {
            PACT_MPI_CHECK(MPI_Sendrecv(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag,
                                        at(base, r, es), (int)r->count, dt, r->peer, tag + r->tag, comm,
                                        MPI_STATUS_IGNORE));
            break;
        }
        case I_PAIR:
            if (!persistent) {
                PACT_MPI_CHECK(
                    MPI_Irecv(at(base, c, es), (int)c->count, dt, c->peer, tag + c->tag, comm, &one));
                PACT_MPI_CHECK(MPI_Send(at(base, r, es), (int)r->count, dt, r->peer, tag + r->tag, comm));
                PACT_MPI_CHECK(MPI_Wait(&one, MPI_STATUS_IGNORE));
                break;
            }
#ifdef PACT_SMPI
            /* SMPI's requests are objects that MPI_Startall reads one after the other, each line a cache
             * miss at 256 ranks: ask for their first five lines at once (a prefetch never faults) */
            for (int k = 0; k < 2; k++)
                for (int l = 0; l < 320; l += 64)
                    __builtin_prefetch((const char *)pair[k] + l);
#endif
            PACT_MPI_CHECK(MPI_Startall(2, pair));
            PACT_MPI_CHECK(MPI_Waitall(2, pair, p->sts));
            pair += 2;
            break;
        case I_REDUCE: {
            if (p->flags & PACT_PROG_DATA)
                PACT_MPI_CHECK(MPI_Reduce_local(at(base, c, es), at(base, r, es), (int)c->count, dt, x->op));
            if (p->flags & PACT_PROG_CHARGE)
                pact_charge(x->gamma * (double)((size_t)c->count * es));
            break;
        }
        case I_COPY: {
            char *src = at(base, c, es), *dst = at(base, r, es);
            if (dst != src)
                memcpy(dst, src, (size_t)c->count * es);
            break;
        }
        case I_WAIT:
            PACT_MPI_CHECK(MPI_Wait(&reqs[c->arg], MPI_STATUS_IGNORE));
            break;
        case I_WAITALL: {
            const uint32_t *w = &p->waits[c->arg];
#ifdef PACT_SMPI
            for (uint32_t k = 0; k < c->count; k++) {
                PACT_MPI_CHECK(MPI_Wait(&reqs[w[k]], MPI_STATUS_IGNORE));
                if (rec)
                    rec[2 * p->slot_op[w[k]] + 1] = rec_now();
            }
#else
            for (uint32_t k = 0; k < c->count; k++)
                p->tmp[k] = reqs[w[k]];
            PACT_MPI_CHECK(MPI_Waitall((int)c->count, p->tmp, p->sts));
#endif
            break;
        }
        default:
            rc = PACT_ERR_ARG;
            goto out;
        }
        if (rec)
            record(p, c, rec, t0);
        if (c->code == I_SENDRECV || c->code == I_PAIR || c->code == I_REDUCE || c->code == I_COPY)
            c++;
    }
out:
    return rc;
}
