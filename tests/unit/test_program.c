/* test_program.c - the order of a rank's MPI calls (sim/program.c): hand-built schedules with their expected
 * programs, and for every algorithm the rules any program must keep (each request posted once and waited
 * once or by the final waitall, nothing started before its dependencies, reductions and copies present
 * exactly when they do something). */
#include <glib.h>
#include <string.h>

#include "pact_coll.h"

/* The program as text: "P3 W3 C4 A" = post 3, wait 3, compute 4, waitall; "W1+" a wait joined to the next. */
static char *program_text(const pact_sched *s, unsigned flags)
{
    pact_program g;
    size_t stalled = 0;
    g_assert_cmpint(pact_program_build(s, flags, &g, &stalled), ==, PACT_OK);
    GString *t = g_string_new(NULL);
    for (size_t k = 0; k < g.nacts; k++) {
        const pact_act *a = &g.acts[k];
        if (t->len)
            g_string_append_c(t, ' ');
        if (a->kind == PACT_ACT_WAITALL)
            g_string_append(t, "A");
        else
            g_string_append_printf(t, "%c%u%s", "PCW"[a->kind], a -> op, a -> joined ? "+" : "");
    }
    pact_program_free(&g);
    return g_string_free(t, FALSE);
}

static void expect(const pact_sched *s, unsigned flags, const char *want)
{
    g_autofree char *got = program_text(s, flags);
    g_assert_cmpstr(got, ==, want);
}

/* Rank 0 of 3 receives a half from each peer and copies both halves on; with `send`, it also answers the
 * first peer as soon as its half is in. */
static void gather_two(pact_sched *s, int send)
{
    pact_sched_reset(s, 0, 3, 8);
    pact_need(s, PACT_BUF_TMP0, 8);
    int a = pact_recv(s, 1, pact_sl(PACT_BUF_TMP0, 0, 4));
    int b = pact_recv(s, 2, pact_sl(PACT_BUF_TMP0, 4, 4));
    pact_copy(s, pact_sl(PACT_BUF_RECV, 0, 8), pact_sl(PACT_BUF_TMP0, 0, 8));
    pact_after(s, a);
    pact_after(s, b);
    if (send) {
        pact_send(s, 1, pact_sl(PACT_BUF_SEND, 0, 1));
        pact_after(s, a);
    }
}

static void test_hand_built(void)
{
    pact_sched s;
    pact_sched_init(&s);

    /* a chain link: receive, reduce into the buffer, pass on; the last send is left to the final waitall */
    pact_sched_reset(&s, 1, 3, 8);
    int r = pact_recv(&s, 0, pact_sl(PACT_BUF_TMP0, 0, 4));
    pact_need(&s, PACT_BUF_TMP0, 4);
    int red = pact_reduce(&s, pact_sl(PACT_BUF_RECV, 0, 4), pact_sl(PACT_BUF_TMP0, 0, 4));
    pact_after(&s, r);
    pact_send(&s, 2, pact_sl(PACT_BUF_RECV, 0, 4));
    pact_after(&s, red);
    expect(&s, PACT_PROG_DATA, "P0 W0 C1 P2 A");
    expect(&s, PACT_PROG_CHARGE, "P0 W0 C1 P2 A");
    expect(&s, 0, "P0 W0 P2 A"); /* a timing-only run with gamma 0: the reduction does nothing */

    /* one operation needing two receives, completing the first alone starts nothing: one joined wait */
    gather_two(&s, 0);
    expect(&s, PACT_PROG_DATA, "P0 P1 W0+ W1 C2");
    /* ... but when the first alone lets something start, one wait at a time */
    gather_two(&s, 1);
    expect(&s, PACT_PROG_DATA, "P0 P1 W0 P3 W1 C2 A");

    /* two receives of one key: the second is needed first, the older one is waited for before it (MPI
     * completes it first anyway), and what it releases runs at once */
    pact_sched_reset(&s, 0, 2, 8);
    pact_need(&s, PACT_BUF_TMP0, 8);
    int a = pact_recv(&s, 1, pact_sl(PACT_BUF_TMP0, 0, 4));
    int b = pact_recv(&s, 1, pact_sl(PACT_BUF_TMP0, 4, 4));
    pact_copy(&s, pact_sl(PACT_BUF_RECV, 0, 4), pact_sl(PACT_BUF_TMP0, 4, 4));
    pact_after(&s, b);
    pact_copy(&s, pact_sl(PACT_BUF_RECV, 4, 4), pact_sl(PACT_BUF_TMP0, 0, 4));
    pact_after(&s, a);
    expect(&s, PACT_PROG_DATA, "P0 P1 W0 C3 W1 C2");
    pact_sched_free(&s);
}

static int is_message(const pact_op *o)
{
    return o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV;
}

/* Whether a reduction or copy does something under these flags, so that the program must run it. */
static int does_something(const pact_op *o, unsigned flags)
{
    if (o->src.count == 0)
        return 0;
    if (o->kind == PACT_OP_REDUCE)
        return (flags & (PACT_PROG_DATA | PACT_PROG_CHARGE)) != 0;
    return o->kind == PACT_OP_COPY && (flags & PACT_PROG_DATA);
}

typedef struct {
    const pact_sched *s;
    unsigned flags;
    guint8 *waited, *posted, *computed;
} state_t;

/* Operation i is complete at this point of the program: a message waited for, a computation run, and one
 * that does nothing (a NOP, an idle reduction) once its dependencies are complete. */
static int complete(const state_t *t, uint32_t i)
{
    const pact_op *o = &t->s->ops[i];
    if (is_message(o))
        return t->waited[i];
    if (does_something(o, t->flags))
        return t->computed[i];
    for (uint32_t d = 0; d < o->ndeps; d++)
        if (!complete(t, pact_op_deps(t->s, i)[d]))
            return 0;
    return 1;
}

/* The rules, checked on one rank's program. */
static void check_program(const pact_sched *s, unsigned flags, const char *what)
{
    const size_t n = s->nops;
    pact_program g;
    size_t stalled = 0;
    g_assert_cmpint(pact_program_build(s, flags, &g, &stalled), ==, PACT_OK);
    state_t t = {.s = s, .flags = flags};
    t.waited = g_new0(guint8, n + 1);
    t.posted = g_new0(guint8, n + 1);
    t.computed = g_new0(guint8, n + 1);
    size_t waitall = 0;
    for (size_t k = 0; k < g.nacts; k++) {
        const pact_act *a = &g.acts[k];
        if (a->kind == PACT_ACT_WAITALL) {
            if (k + 1 != g.nacts)
                g_error("%s: waitall before the end", what);
            waitall++;
            continue;
        }
        g_assert_cmpuint(a->op, <, n);
        const pact_op *o = &s->ops[a->op];
        if (a->joined &&
            (a->kind != PACT_ACT_WAIT || k + 1 == g.nacts || g.acts[k + 1].kind != PACT_ACT_WAIT))
            g_error("%s: joined action %zu is not a wait followed by a wait", what, k);
        if (a->kind == PACT_ACT_WAIT) {
            if (!t.posted[a->op] || t.waited[a->op])
                g_error("%s: wait %zu for operation %u, not outstanding", what, k, a->op);
            t.waited[a->op] = 1;
            continue;
        }
        for (uint32_t d = 0; d < o->ndeps; d++)
            if (!complete(&t, pact_op_deps(s, a->op)[d]))
                g_error("%s: operation %u starts before its dependency %u is complete", what, a->op,
                        pact_op_deps(s, a->op)[d]);
        if (a->kind == PACT_ACT_POST) {
            if (!is_message(o) || t.posted[a->op]++)
                g_error("%s: post %zu of operation %u: not a message, or posted twice", what, k, a->op);
        } else if (!does_something(o, flags) || t.computed[a->op]++) {
            g_error("%s: compute %zu of operation %u: does nothing, or computed twice", what, k, a->op);
        }
    }
    size_t messages = 0, outstanding = 0;
    for (size_t i = 0; i < n; i++) {
        const pact_op *o = &s->ops[i];
        if (is_message(o)) {
            messages++;
            if (!t.posted[i])
                g_error("%s: message %zu never posted", what, i);
            outstanding += !t.waited[i];
        } else if (does_something(o, flags) && !t.computed[i]) {
            g_error("%s: operation %zu never computed", what, i);
        }
    }
    g_assert_cmpuint(g.nposts, ==, messages);
    g_assert_cmpuint(waitall, ==, outstanding > 0);
    g_free(t.waited);
    g_free(t.posted);
    g_free(t.computed);
    pact_program_free(&g);
}

static void test_every_algorithm(void)
{
    static const int procs[] = {1, 2, 3, 5, 8, 13};
    static const size_t counts[] = {0, 1, 7, 1000};
    pact_sched s;
    pact_sched_init(&s);
    long checked = 0;
    for (size_t ai = 0; ai < pact_alg_count(); ai++) {
        const pact_alg *alg = pact_alg_at(ai);
        const long before = checked;
        for (size_t pi = 0; pi < G_N_ELEMENTS(procs); pi++)
            for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++) {
                const int P = procs[pi];
                int *node_of = g_new(int, P); /* nodes of two ranks, for the algorithms that need them */
                for (int r = 0; r < P; r++)
                    node_of[r] = r / 2;
                pact_place place;
                g_assert_cmpint(pact_place_init(&place, P, node_of), ==, PACT_OK);
                g_free(node_of);
                for (int r = 0; r < P; r++) {
                    pact_build_args args = {.coll = alg->coll,
                                            .rank = r,
                                            .size = P,
                                            .root = P - 1,
                                            .count = counts[ci],
                                            .elem_size = 8,
                                            .commutative = 1,
                                            .inplace = (alg->restrictions & PACT_R_INPLACE) != 0,
                                            .place = &place};
                    if (pact_build(alg, &args, &s) != PACT_OK)
                        continue; /* restricted: tests/test_sched.c checks why */
                    for (unsigned flags = 0; flags < 4; flags++) {
                        g_autofree char *what =
                            g_strdup_printf("%s %s P=%d count=%zu rank %d flags %u",
                                            pact_coll_name(alg->coll), alg->name, P, counts[ci], r, flags);
                        check_program(&s, flags, what);
                        checked++;
                    }
                }
                pact_place_free(&place);
            }
        /* restricted everywhere would test nothing; barrier two_proc runs at P <= 2 only: 3 x 4 x 4 */
        if (alg->restrictions & PACT_R_TWO_PROCS)
            g_assert_cmpint(checked - before, >=, 48);
        else
            g_assert_cmpint(checked - before, >, 100);
    }
    pact_sched_free(&s);
    g_assert_cmpint(checked, >, 400 * (long)pact_alg_count());
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/program/hand-built", test_hand_built);
    g_test_add_func("/program/every-algorithm", test_every_algorithm);
    return g_test_run();
}
