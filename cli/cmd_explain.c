/* cmd_explain.c - pact explain: an algorithm's steps for P ranks in words, with a drawing of every rank's
 * buffers after each step (issue 20), made from the schedules themselves.
 *
 * Each element holds the set of ranks whose data it contains (a bit per rank, so P <= 64): a rank's send
 * buffer starts with its own bit (bcast: the root's receive buffer), a message copies the sender's slice, a
 * reduction joins the two sets, a copy copies.  The ranks run in rounds, as if every message took one unit
 * of time: each rank does the local work its dependencies allow, then every message whose send and receive
 * are both posted is delivered at once; such a round is a step.  The last drawing must be the collective's
 * result (tests/integration/timeline.sh checks it for every algorithm of the seven collectives). */
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_coll.h"

typedef struct {
    pact_sched s;
    uint64_t *buf[PACT_NBUF];
    uint8_t *state; /* per operation: 0 waiting, 1 posted (a send or receive), 2 done */
    size_t done;
} rank_t;

static const char *const buf_name[PACT_NBUF] = {"send", "recv", "tmp0", "tmp1"};

/* "0-3", "0,2,5-7", "." for none. */
static void set_text(uint64_t m, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    if (!m) {
        snprintf(out, n, ".");
        return;
    }
    for (int i = 0; i < 64 && k < n; i++) {
        if (!(m >> i & 1))
            continue;
        int j = i;
        while (j + 1 < 64 && (m >> (j + 1) & 1))
            j++;
        k += (size_t)snprintf(out + k, n - k, "%s%d", k ? "," : "", i);
        if (j > i && k < n)
            k += (size_t)snprintf(out + k, n - k, j == i + 1 ? ",%d" : "-%d", j);
        i = j;
    }
}

static int deps_done(const rank_t *r, size_t i)
{
    const uint32_t *d = pact_op_deps(&r->s, i);
    for (uint32_t k = 0; k < r->s.ops[i].ndeps; k++)
        if (r->state[d[k]] != 2)
            return 0;
    return 1;
}

/* The buffers that matter in a drawing: receive and scratch where any rank has them. */
static void draw(GString *o, rank_t *rk, int P)
{
    size_t width = 1;
    char t[256];
    for (int r = 0; r < P; r++)
        for (int b = PACT_BUF_RECV; b < PACT_NBUF; b++)
            for (size_t e = 0; e < rk[r].s.buf_count[b]; e++) {
                set_text(rk[r].buf[b][e], t, sizeof t);
                width = MAX(width, strlen(t));
            }
    for (int r = 0; r < P; r++) {
        g_string_append_printf(o, "  rank %-3d", r);
        for (int b = PACT_BUF_RECV; b < PACT_NBUF; b++) {
            int any = 0;
            for (int q = 0; q < P; q++)
                any |= rk[q].s.buf_count[b] > 0;
            if (!any)
                continue;
            g_string_append_printf(o, " %s [", buf_name[b]);
            for (size_t e = 0; e < rk[r].s.buf_count[b]; e++) {
                set_text(rk[r].buf[b][e], t, sizeof t);
                g_string_append_printf(o, "%s%*s", e ? " " : "", (int)width, t);
            }
            g_string_append(o, "]");
        }
        g_string_append_c(o, '\n');
    }
}

/* A slice as words: "recv[2]", "recv[0..3]". */
static void slice_text(const pact_slice *s, char *out, size_t n)
{
    if (s->count == 1)
        snprintf(out, n, "%s[%zu]", buf_name[s->buf], s->off);
    else
        snprintf(out, n, "%s[%zu..%zu]", buf_name[s->buf], s->off, s->off + s->count - 1);
}

/* Local work: every reduction, copy and NOP whose dependencies are done, and every send and receive becomes
 * posted; repeated until nothing changes.  Reductions and copies are listed in `words`. */
static void local_work(rank_t *rk, int P, GString *words, int *nlocal)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int r = 0; r < P; r++)
            for (size_t i = 0; i < rk[r].s.nops; i++) {
                const pact_op *op = &rk[r].s.ops[i];
                if (rk[r].state[i] != 0 || !deps_done(&rk[r], i))
                    continue;
                changed = 1;
                if (op->kind == PACT_OP_SEND || op->kind == PACT_OP_RECV) {
                    rk[r].state[i] = 1;
                    continue;
                }
                if (op->kind == PACT_OP_REDUCE || op->kind == PACT_OP_COPY) {
                    uint64_t *src = rk[r].buf[op->src.buf] + op->src.off,
                             *dst = rk[r].buf[op->dst.buf] + op->dst.off;
                    for (size_t e = 0; e < op->src.count; e++)
                        dst[e] = op->kind == PACT_OP_REDUCE ? dst[e] | src[e] : src[e];
                    char a[64], b[64];
                    slice_text(&op->src, a, sizeof a);
                    slice_text(&op->dst, b, sizeof b);
                    if (op->kind == PACT_OP_REDUCE || op->src.buf != op->dst.buf ||
                        op->src.off != op->dst.off)
                        g_string_append_printf(words, "    rank %d %s %s %s %s\n", r,
                                               op->kind == PACT_OP_REDUCE ? "reduces" : "copies", a,
                                               op->kind == PACT_OP_REDUCE ? "into" : "to", b);
                    (*nlocal)++;
                }
                rk[r].state[i] = 2;
                rk[r].done++;
            }
    }
}

/* Delivers every message whose send and receive are both posted, matched in order per (source, destination,
 * tag) as MPI does; returns how many. */
static int deliver(rank_t *rk, int P, GString *words)
{
    int n = 0;
    for (int src = 0; src < P; src++)
        for (size_t i = 0; i < rk[src].s.nops; i++) {
            const pact_op *so = &rk[src].s.ops[i];
            if (so->kind != PACT_OP_SEND || rk[src].state[i] == 2)
                continue;
            int dst = so->peer;
            /* the k-th unfinished send to dst with this tag meets the k-th unfinished receive from src */
            size_t k = 0;
            for (size_t j = 0; j < i; j++)
                k += rk[src].s.ops[j].kind == PACT_OP_SEND && rk[src].s.ops[j].peer == dst &&
                     rk[src].s.ops[j].tag == so->tag && rk[src].state[j] != 2;
            for (size_t j = 0; j < rk[dst].s.nops; j++) {
                const pact_op *ro = &rk[dst].s.ops[j];
                if (ro->kind != PACT_OP_RECV || ro->peer != src || ro->tag != so->tag ||
                    rk[dst].state[j] == 2)
                    continue;
                if (k-- > 0)
                    continue;
                if (rk[src].state[i] == 1 && rk[dst].state[j] == 1) {
                    memcpy(rk[dst].buf[ro->dst.buf] + ro->dst.off, rk[src].buf[so->src.buf] + so->src.off,
                           sizeof(uint64_t) * MIN(so->src.count, ro->dst.count));
                    char a[64], b[64], c[256];
                    slice_text(&so->src, a, sizeof a);
                    slice_text(&ro->dst, b, sizeof b);
                    set_text(rk[src].buf[so->src.buf][so->src.off], c, sizeof c);
                    g_string_append_printf(words,
                                           "    %d -> %d: %s into %s (%zu element%s, the first holding %s)\n",
                                           src, dst, a, b, so->src.count, so->src.count == 1 ? "" : "s", c);
                    rk[src].state[i] = rk[dst].state[j] = 3; /* done at the end of the step */
                    n++;
                }
                break;
            }
        }
    for (int r = 0; r < P; r++)
        for (size_t i = 0; i < rk[r].s.nops; i++)
            if (rk[r].state[i] == 3) {
                rk[r].state[i] = 2;
                rk[r].done++;
            }
    return n;
}

/* The collective's result, element e of rank r's receive buffer (UINT64_MAX: not part of the result). */
static uint64_t expected(pact_coll c, int r, int P, int root, size_t e, size_t n)
{
    uint64_t all = P == 64 ? UINT64_MAX : ((uint64_t)1 << P) - 1;
    switch (c) {
    case PACT_COLL_ALLREDUCE:
        return all;
    case PACT_COLL_REDUCE:
        return r == root ? all : UINT64_MAX;
    case PACT_COLL_BCAST:
        return (uint64_t)1 << root;
    case PACT_COLL_ALLTOALL:
    case PACT_COLL_ALLGATHER:
        return (uint64_t)1 << (e * (size_t)P / n); /* block i comes from rank i */
    case PACT_COLL_REDUCE_SCATTER:
        return all;
    default:
        return UINT64_MAX;
    }
}

/* Whether the last drawing is the collective's result; else FALSE with why. */
static gboolean result_holds(rank_t *rk, pact_coll c, int P, int root, const char *spec, int step,
                             GError **err)
{
    for (int r = 0; r < P; r++) {
        size_t ne = rk[r].s.buf_count[PACT_BUF_RECV];
        for (size_t e = 0; e < ne; e++) {
            uint64_t want = expected(c, r, P, root, e, ne), got = rk[r].buf[PACT_BUF_RECV][e];
            if (want != UINT64_MAX && got != want) {
                char a[256], b[256];
                set_text(got, a, sizeof a);
                set_text(want, b, sizeof b);
                g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                            "%s after %d steps: rank %d recv[%zu] holds %s, the collective's result is %s",
                            spec, step, r, e, a, b);
                return FALSE;
            }
        }
    }
    return TRUE;
}

int pact_cmd_explain(int argc, char **argv)
{
    char *coll_name = NULL, *spec = NULL, *output = NULL;
    int P = 0, root = 0, ppn = 0;
    GOptionEntry entries[] = {
        {"coll", 0, 0, G_OPTION_ARG_STRING, &coll_name, "the collective (pact list collectives)", "C"},
        {"alg", 0, 0, G_OPTION_ARG_STRING, &spec, "the algorithm, NAME[:param=value...]", "A"},
        {"procs", 'P', 0, G_OPTION_ARG_INT, &P, "ranks, 1 to 64", "N"},
        {"root", 0, 0, G_OPTION_ARG_INT, &root, "the root of a rooted collective (default 0)", "R"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &ppn,
         "ranks per node, for algorithms that use nodes (default: all on one)", "K"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "the file (default: stdout)", "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("");
    g_option_context_set_summary(
        ctx,
        "An algorithm's steps for P ranks in words, with every rank's buffers after each step: each element\n"
        "shows the ranks whose data it holds.  A step is a round in which every rank does what it can,\n"
        "then every message that can move does.\n\nexample:\n  pact explain --coll allreduce --alg ring -P "
        "4");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    GString *o = g_string_new(NULL);
    rank_t *rk = NULL;
    long *params = NULL;
    pact_place place = {0};
    int rc = 2, placed = 0;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    int c = coll_name ? pact_coll_from_name(coll_name) : -1;
    if (c < 0) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--coll '%s': expected one of pact list collectives",
                    coll_name ? coll_name : "");
        goto fail;
    }
    if (P < 1 || P > 64) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "-P %d: expected 1 to 64 ranks (a bit per rank)", P);
        goto fail;
    }
    if (root < 0 || root >= P || (ppn && (ppn < 1 || P % ppn))) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    ppn && (ppn < 1 || P % ppn) ? "--ppn %d: %d ranks are not nodes of it"
                                                : "--root %d: not a rank of %d",
                    ppn && (ppn < 1 || P % ppn) ? ppn : root, P);
        goto fail;
    }
    const pact_alg *alg = NULL;
    char why[256];
    if (!spec || pact_spec_parse((pact_coll)c, spec, &alg, &params, why, sizeof why) != PACT_OK) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--alg: %s", spec ? why : "which algorithm?");
        goto fail;
    }
    int *node_of = g_new(int, P);
    for (int r = 0; r < P; r++)
        node_of[r] = ppn ? r / ppn : 0;
    placed = pact_place_init(&place, P, node_of) == PACT_OK;
    g_free(node_of);
    const pact_coll_traits *tr = pact_coll_traits_of((pact_coll)c);
    /* one element per block: the vector collectives get P of them */
    size_t count = c == PACT_COLL_ALLTOALL || c == PACT_COLL_ALLGATHER ? 1 : (size_t)P;
    rk = g_new0(rank_t, P);
    for (int r = 0; r < P; r++) {
        pact_build_args a = {.coll = (pact_coll)c,
                             .rank = r,
                             .size = P,
                             .root = tr->rooted ? root : 0,
                             .count = count,
                             .elem_size = 8,
                             .commutative = 1,
                             .params = params,
                             .place = placed ? &place : NULL};
        const char *restricted = NULL;
        pact_sched_init(&rk[r].s);
        if (pact_alg_applies(alg, &a, &restricted) != PACT_OK) {
            g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "%s does not apply to %d ranks: %s", spec, P,
                        restricted);
            goto fail;
        }
        if (pact_build(alg, &a, &rk[r].s) != PACT_OK) {
            g_set_error(&err, PACT_ERROR, PACT_ERROR_RUN, "%s: rank %d: the builder failed", spec, r);
            rc = 1;
            goto fail;
        }
        for (int b = 0; b < PACT_NBUF; b++)
            rk[r].buf[b] = g_new0(uint64_t, rk[r].s.buf_count[b] + 1);
        rk[r].state = g_new0(uint8_t, rk[r].s.nops + 1);
        /* what each rank brings */
        uint64_t me = (uint64_t)1 << r;
        if (c == PACT_COLL_BCAST) {
            if (r == root)
                for (size_t e = 0; e < rk[r].s.buf_count[PACT_BUF_RECV]; e++)
                    rk[r].buf[PACT_BUF_RECV][e] = me;
        } else
            for (size_t e = 0; e < rk[r].s.buf_count[PACT_BUF_SEND]; e++)
                rk[r].buf[PACT_BUF_SEND][e] = me;
    }
    char rootw[32] = "";
    if (tr->rooted)
        snprintf(rootw, sizeof rootw, ", root %d", root);
    g_string_append_printf(
        o,
        "%s %s on %d ranks%s: %zu element%s per %s; each element shows the ranks whose data it "
        "holds (%s)\n\nbefore:\n",
        pact_coll_name((pact_coll)c), spec, P, rootw, count, count == 1 ? "" : "s",
        pact_coll_m_per_block((pact_coll)c) ? "block" : "process",
        tr->reduces ? "reduced together" : "copied");
    draw(o, rk, P);
    int step = 0;
    size_t total = 0;
    for (int r = 0; r < P; r++)
        total += rk[r].s.nops;
    GString *words = g_string_new(NULL);
    int nlocal = 0;
    local_work(rk, P, words, &nlocal);
    if (words->len)
        g_string_append_printf(o, "\nbefore any message:\n%s", words->str);
    for (;;) {
        size_t done = 0;
        for (int r = 0; r < P; r++)
            done += rk[r].done;
        if (done == total)
            break;
        g_string_truncate(words, 0);
        int n = deliver(rk, P, words);
        if (n == 0) {
            g_string_free(words, TRUE);
            g_set_error(&err, PACT_ERROR, PACT_ERROR_RUN, "the schedules stall after step %d", step);
            rc = 1;
            goto fail;
        }
        step++;
        g_string_append_printf(o, "\nstep %d: %d message%s\n%s", step, n, n == 1 ? "" : "s", words->str);
        g_string_truncate(words, 0);
        local_work(rk, P, words, &nlocal);
        if (words->len)
            g_string_append_printf(o, "  then:\n%s", words->str);
        g_string_append(o, "after it:\n");
        draw(o, rk, P);
    }
    g_string_free(words, TRUE);
    /* the schedules and this stepping are checked against what the collective must leave */
    if (!result_holds(rk, (pact_coll)c, P, tr->rooted ? root : 0, spec, step, &err)) {
        rc = 1;
        goto fail;
    }
    g_string_append_printf(o, "\n%d step%s; the last drawing is %s's result.\n", step, step == 1 ? "" : "s",
                           pact_coll_name((pact_coll)c));
    if (!output || !strcmp(output, "-"))
        fwrite(o->str, 1, o->len, stdout);
    else if (!g_file_set_contents(output, o->str, (gssize)o->len, &err))
        goto fail;
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err) == 1 || rc == 1 ? 1 : 2;
out:
    for (int r = 0; rk && r < P; r++) {
        pact_sched_free(&rk[r].s);
        for (int b = 0; b < PACT_NBUF; b++)
            g_free(rk[r].buf[b]);
        g_free(rk[r].state);
    }
    g_free(rk);
    free(params);
    if (placed)
        pact_place_free(&place);
    g_string_free(o, TRUE);
    g_option_context_free(ctx);
    g_free(coll_name);
    g_free(spec);
    g_free(output);
    return rc;
}
