/* test_models.c - the schedule evaluator against the closed forms (recursive doubling, ring, Rabenseifner
 * allreduce to 1e-9), arrival offsets, shared links, every algorithm evaluated without deadlock, the fit
 * recovering known parameters, and the parameter and arrival files' errors. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "eval_int.h" /* the event queue */
#include "pact_host.h"
#include "pact_models.h"

static const double ALPHA = 1.5e-6, BETA = 6.25e-11, GAMMA = 2e-10;

/* The arguments of every test here: doubles, a commutative operation, root 0. */
static pact_build_args args_of(const pact_alg *a, int P, size_t bytes)
{
    pact_build_args args = {0};
    args.coll = a->coll;
    args.size = P;
    args.elem_size = 8;
    args.count = bytes / 8;
    args.commutative = 1;
    return args;
}

static gboolean applies(const pact_alg *a, int P, size_t bytes)
{
    pact_build_args args = args_of(a, P, bytes);
    return pact_alg_applies(a, &args, NULL) == PACT_OK;
}

static pact_model_sched *prepare(const pact_alg *a, int P, size_t bytes)
{
    pact_build_args args = args_of(a, P, bytes);
    GError *err = NULL;
    pact_model_sched *s = pact_model_prepare(a, &args, &err);
    g_assert_no_error(err);
    return s;
}

static double eval_dhat(pact_model_eval *w, const pact_model_sched *s, const double *arr,
                        const pact_model_params *m, pact_model_result *res)
{
    GError *err = NULL;
    gboolean ok = pact_model_evaluate(w, s, arr, m, res, &err);
    g_assert_no_error(err);
    g_assert_true(ok);
    return res->dhat;
}

static void test_closed_equals_evaluator(void)
{
    const char *names[] = {"recursive_doubling", "ring", "rabenseifner"};
    const size_t sizes[] = {8, 64, 1024, 8192, 65536, 1 << 20};
    const double eager[] = {0, PACT_SMPI_EAGER};
    pact_model_eval *w = pact_model_eval_new();
    int checked = 0;
    for (size_t a = 0; a < G_N_ELEMENTS(names); a++) {
        const pact_alg *alg = pact_alg_find(PACT_COLL_ALLREDUCE, names[a]);
        for (int P = 2; P <= 64; P *= 2)
            for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
                pact_model_sched *s = prepare(alg, P, sizes[k]);
                for (size_t e = 0; e < G_N_ELEMENTS(eager); e++) {
                    pact_model_params m;
                    pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
                    m.eager_limit = eager[e];
                    pact_model_result r;
                    double got = eval_dhat(w, s, NULL, &m, &r);
                    double want = pact_model_closed(alg, P, (double)sizes[k], &m);
                    if (fabs(got / want - 1) > 1e-9)
                        g_error("%s P=%d m=%zu eager=%g: evaluator %.12g, closed form %.12g", names[a], P,
                                sizes[k], eager[e], got, want);
                    g_assert_cmpfloat(r.dstar, ==, r.dhat);
                    checked++;
                }
                pact_model_sched_free(s);
            }
    }
    g_assert_cmpint(checked, ==, 3 * 6 * 6 * 2);
    pact_model_eval_free(w);
}

/* The last rank arrives a second late.  Reduce binomial (P = 32, root 0): rank 31 is a leaf whose data climbs
 * 31 -> 30 -> 28 -> 24 -> 16 -> 0, one message and one reduction per hop, everything else done long before:
 * d^ = 5 (alpha + beta m + gamma m).  Bcast binomial: rank 31 gets one message from rank 15: d^ = alpha +
 * beta m.  Recursive doubling: every step of the late rank's exchanges is on the critical path: d^ is the
 * no-delay time.  d* = 1 s + d^ each time. */
static void test_last_delayed(void)
{
    const int P = 32;
    double arr[32] = {0};
    arr[P - 1] = 1.0;
    pact_model_eval *w = pact_model_eval_new();
    const size_t sizes[] = {8, 4096, 1 << 20};
    for (int net = 0; net < 2; net++)
        for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
            double m = (double)sizes[k];
            pact_model_params prm;
            pact_model_params_hockney(&prm, ALPHA, BETA, GAMMA);
            prm.net = net ? PACT_NET_SHARED : PACT_NET_PORT;
            pact_model_result r;
            struct {
                pact_coll c;
                const char *name;
                double want;
            } cases[] = {
                {PACT_COLL_REDUCE, "binomial", 5 * (ALPHA + BETA * m + GAMMA * m)},
                {PACT_COLL_BCAST, "binomial", ALPHA + BETA * m},
                {PACT_COLL_ALLREDUCE, "recursive_doubling", 5 * (ALPHA + BETA * m + GAMMA * m)},
            };
            for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
                pact_model_sched *s = prepare(pact_alg_find(cases[c].c, cases[c].name), P, sizes[k]);
                double got = eval_dhat(w, s, arr, &prm, &r);
                if (fabs(got / cases[c].want - 1) > 1e-9)
                    g_error("%s %s m=%g net=%d: d^ %.12g, want %.12g", pact_coll_name(cases[c].c),
                            cases[c].name, m, net, got, cases[c].want);
                g_assert_cmpfloat(fabs(r.dstar - 1.0 - got), <, 1e-12);
                g_assert_cmpfloat(r.exit[P - 1], >=, 1.0);
                pact_model_sched_free(s);
            }
        }
    pact_model_eval_free(w);
}

/* A small eager message does not hold its sender: with the root of a linear bcast late, nothing changes for
 * the others, but with the first receiver late a rendezvous root waits for it (its sends complete in order
 * of the receives), an eager root does not. */
static void test_eager_sender_not_delayed(void)
{
    const int P = 4;
    const pact_alg *a = pact_alg_find(PACT_COLL_BCAST, "basic_linear");
    double arr[4] = {0, 0.5, 0, 0};
    pact_model_eval *w = pact_model_eval_new();
    pact_model_params m;
    pact_model_params_hockney(&m, ALPHA, BETA, 0);
    pact_model_result r;
    pact_model_sched *s = prepare(a, P, 1024);
    eval_dhat(w, s, arr, &m, &r);
    g_assert_cmpfloat(r.exit[0], <, 1e-3); /* eager: the root leaves at once */
    m.eager_limit = 0;
    eval_dhat(w, s, arr, &m, &r);
    g_assert_cmpfloat(r.exit[0], >, 0.5); /* rendezvous: it waits for rank 1 */
    pact_model_sched_free(s);
    pact_model_eval_free(w);
}

/* Shared links: a linear bcast's P-1 messages share the root's up link (all end at alpha + (P-1) b beta);
 * on single ports they go one after another ((P-1)(alpha + b beta)). */
static void test_shared_links(void)
{
    const int P = 8;
    const size_t bytes = 1 << 20;
    const pact_alg *a = pact_alg_find(PACT_COLL_BCAST, "basic_linear");
    pact_model_sched *s = prepare(a, P, bytes);
    pact_model_eval *w = pact_model_eval_new();
    pact_model_params m;
    pact_model_params_hockney(&m, ALPHA, BETA, 0);
    m.envelope = 16;
    pact_model_result r;
    double b = bytes + 16.0;
    g_assert_cmpfloat(fabs(eval_dhat(w, s, NULL, &m, &r) / ((P - 1) * (ALPHA + BETA * b)) - 1), <, 1e-12);
    m.net = PACT_NET_SHARED;
    g_assert_cmpfloat(fabs(eval_dhat(w, s, NULL, &m, &r) / (ALPHA + (P - 1) * BETA * b) - 1), <, 1e-9);
    /* Two ranks per node: the root's node mate gets it over the loopback, unshared. */
    m.ppn = 2;
    m.alpha_intra = 1e-7;
    m.beta_intra = BETA / 4;
    eval_dhat(w, s, NULL, &m, &r);
    g_assert_cmpfloat(fabs(r.exit[1] / (1e-7 + BETA / 4 * b) - 1), <, 1e-9);
    g_assert_cmpfloat(fabs(r.dhat / (ALPHA + (P - 2) * BETA * b) - 1), <, 1e-9);
    pact_model_sched_free(s);
    pact_model_eval_free(w);
}

/* Every algorithm of the registry, several P and sizes, all three networks, random arrivals: no deadlock,
 * d* >= d^ >= 0, every rank leaves after it arrives; and a closed form exists. */
/* Every algorithm at each P of Ps (where it applies) and 8 B, 8000 B and 1 MiB, its schedule set prepared. */
typedef struct {
    pact_model_eval *w;
    GRand *rng;
    size_t cells, tight, quick_tight;
} cells_ctx;
typedef void (*cell_fn)(const pact_alg *a, int P, size_t bytes, const pact_model_sched *s, cells_ctx *x);

static void each_cell(const int *Ps, size_t nP, cell_fn fn, cells_ctx *x)
{
    const size_t sizes[] = {8, 1000 * 8, 1 << 20};
    for (size_t i = 0; i < pact_alg_count(); i++)
        for (size_t p = 0; p < nP; p++)
            for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
                const pact_alg *a = pact_alg_at(i);
                if (!applies(a, Ps[p], sizes[k]))
                    continue;
                pact_model_sched *s = prepare(a, Ps[p], sizes[k]);
                fn(a, Ps[p], sizes[k], s, x);
                pact_model_sched_free(s);
            }
}

static void every_algorithm_cell(const pact_alg *a, int P, size_t bytes, const pact_model_sched *s,
                                 cells_ctx *x)
{
    double arr[32];
    for (int r = 0; r < P; r++)
        arr[r] = g_rand_double_range(x->rng, 0, 1e-4);
    for (int net = 0; net < 3; net++) {
        pact_model_params m;
        pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
        m.net = (pact_net)net;
        m.o = 1e-7;
        m.g = 2e-7;
        m.G = BETA;
        pact_model_result r;
        double dh = eval_dhat(x->w, s, arr, &m, &r);
        g_assert_cmpfloat(dh, >=, 0);
        g_assert_cmpfloat(r.dstar, >=, dh);
        for (int q = 0; q < P; q++)
            g_assert_cmpfloat(r.exit[q], >=, arr[q]);
    }
    pact_model_terms t;
    g_assert_true(pact_model_terms_of(a, P, (double)bytes, &t, NULL));
    g_assert_cmpfloat(t.a, >=, 0);
}

static void test_every_algorithm(void)
{
    const int Ps[] = {1, 2, 3, 5, 8, 13, 32};
    cells_ctx x = {pact_model_eval_new(), g_rand_new_with_seed(7), 0, 0, 0};
    each_cell(Ps, G_N_ELEMENTS(Ps), every_algorithm_cell, &x);
    g_rand_free(x.rng);
    pact_model_eval_free(x.w);
}

/* pact_model_bound never exceeds the evaluator's d^: every algorithm, P = 2..32, 8 B..1 MiB, no delay, random
 * arrivals and one late rank, on single ports, shared links of one switch (one and four ranks a node), LogGP,
 * and cedar's routes.  And it is no empty bound: more than half the cells come within half of d^, ring
 * allreduce without delay is bounded by more than P-1 latencies (its channels carry many messages, which
 * loosens the bound: not 2(P-1)), recursive doubling exactly on single ports at a power of two, alltoall
 * within 15% on shared links (the bytes each node link carries). */
/* The networks of bound_cell: single ports, shared links of one switch (one and four ranks a node), LogGP,
 * cedar's routes (P a multiple of 4: else FALSE). */
#define QUICK_A2A 0.85 /* the quick bound on alltoall: as pact_model_bounds (0.91-1.00 here) */
static gboolean bound_net(int net, int P, pact_model_params *m)
{
    pact_model_params_hockney(m, ALPHA, BETA, GAMMA);
    if (net == 4) {
        if (P % 4)
            return FALSE;
        pact_model_params_platform(m, pact_platform_find("cedar"), 4);
        m->mapping = PACT_MAP_CYCLIC; /* routed: not one switch */
        return TRUE;
    }
    m->net = net == 3 ? PACT_NET_SHARED : (pact_net)net;
    m->envelope = 16;
    m->o = 1e-7;
    m->g = 2e-7;
    m->G = BETA;
    if (net == 3) { /* four ranks a node */
        m->ppn = P % 4 ? 1 : 4;
        m->alpha_intra = ALPHA / 5;
        m->beta_intra = BETA / 4;
    }
    return TRUE;
}

static void bound_cell(const pact_alg *a, int P, size_t bytes, const pact_model_sched *s, cells_ctx *x)
{
    double arrs[3][32] = {{0}}, lbs[5][3], lqs[5][3];
    for (int shape = 0; shape < 3; shape++) {
        double *arr = arrs[shape];
        for (int r = 0; r < P && shape > 0; r++)
            arr[r] = shape == 1 ? g_rand_double_range(x->rng, 0, 1e-4) : (r == P / 2 ? 1e-3 : 0);
        for (int net = 0; net < 5; net++) {
            pact_model_params m;
            if (!bound_net(net, P, &m))
                continue;
            pact_model_result r;
            double dh = eval_dhat(x->w, s, arr, &m, &r), lb = -1;
            GError *err = NULL;
            g_assert_true(pact_model_bound(x->w, s, arr, &m, &lb, &err));
            g_assert_no_error(err);
            if (!(lb <= dh))
                g_error("%s %s P=%d %zu B shape %d net %d: bound %.17g > d^ %.17g", pact_coll_name(a->coll),
                        a->name, P, bytes, shape, net, lb, dh);
            g_assert_cmpfloat(lb, >=, 0);
            lbs[net][shape] = lb;
            x->cells++;
            x->tight += lb >= 0.5 * dh;
            /* the quick bound, below d^ too */
            const double *one[1] = {arr};
            double lq = -1;
            g_assert_true(pact_model_bounds_quick(x->w, s, one, 1, &m, &lq, &err));
            g_assert_no_error(err);
            if (!(lq <= dh) || !(lq >= 0))
                g_error("%s %s P=%d %zu B shape %d net %d: quick bound %.17g, d^ %.17g",
                        pact_coll_name(a->coll), a->name, P, bytes, shape, net, lq, dh);
            lqs[net][shape] = lq;
            x->quick_tight += lq >= 0.5 * dh;
        }
    }
    /* the three patterns bounded in one pass: each the bits of its own pass (no delay as a NULL) */
    for (int net = 0; net < 5; net++) {
        pact_model_params m;
        if (!bound_net(net, P, &m))
            continue;
        const double *arr[3] = {NULL, arrs[1], arrs[2]};
        double lb3[3];
        g_assert_true(pact_model_bounds(x->w, s, arr, 3, &m, lb3, NULL));
        for (int k = 0; k < 3; k++)
            if (lb3[k] != lbs[net][k])
                g_error("%s %s P=%d %zu B net %d: pattern %d bounded with two others %.17g, alone %.17g",
                        pact_coll_name(a->coll), a->name, P, bytes, net, k, lb3[k], lbs[net][k]);
        /* as many as a pass takes (pact tune: a candidate's 11 shapes at once), the three in turn */
        const double *arrn[PACT_MODEL_BOUND_LANES];
        double lbn[PACT_MODEL_BOUND_LANES];
        for (int k = 0; k < PACT_MODEL_BOUND_LANES; k++)
            arrn[k] = arr[k % 3];
        g_assert_true(pact_model_bounds(x->w, s, arrn, PACT_MODEL_BOUND_LANES, &m, lbn, NULL));
        for (int k = 0; k < PACT_MODEL_BOUND_LANES; k++)
            if (lbn[k] != lbs[net][k % 3])
                g_error("%s %s P=%d %zu B net %d: lane %d of %d %.17g, its pattern alone %.17g",
                        pact_coll_name(a->coll), a->name, P, bytes, net, k, PACT_MODEL_BOUND_LANES, lbn[k],
                        lbs[net][k % 3]);
        /* the quick bound's lanes likewise */
        g_assert_true(pact_model_bounds_quick(x->w, s, arrn, PACT_MODEL_BOUND_LANES, &m, lbn, NULL));
        for (int k = 0; k < PACT_MODEL_BOUND_LANES; k++)
            if (lbn[k] != lqs[net][k % 3])
                g_error("%s %s P=%d %zu B net %d: quick bound's lane %d of %d %.17g, its pattern alone %.17g",
                        pact_coll_name(a->coll), a->name, P, bytes, net, k, PACT_MODEL_BOUND_LANES, lbn[k],
                        lqs[net][k % 3]);
    }
}

static void test_bound(void)
{
    const int Ps[] = {2, 3, 5, 8, 13, 32};
    cells_ctx x = {pact_model_eval_new(), g_rand_new_with_seed(11), 0, 0, 0};
    pact_model_eval *w = x.w;
    each_cell(Ps, G_N_ELEMENTS(Ps), bound_cell, &x);
    size_t cells = x.cells, tight = x.tight;
    g_test_message("bound: %zu cells, %zu within half of d^ (the quick bound: %zu)", cells, tight,
                   x.quick_tight);
    g_assert_cmpuint(tight, >, cells / 2);
    g_assert_cmpuint(x.quick_tight, >, cells / 3);
    const pact_alg *ring = pact_alg_find(PACT_COLL_ALLREDUCE, "ring"),
                   *rd = pact_alg_find(PACT_COLL_ALLREDUCE, "recursive_doubling");
    pact_model_params m;
    pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
    pact_model_sched *s = prepare(ring, 32, 8 * 32);
    double lb, dh;
    pact_model_result r;
    g_assert_true(pact_model_bound(w, s, NULL, &m, &lb, NULL));
    g_assert_cmpfloat(lb, >=, 31 * ALPHA);
    /* the quick bound: a rank's own receives (each posted a step ahead, so not 2(P-1) latencies in a row) */
    const double *none[1] = {NULL};
    g_assert_true(pact_model_bounds_quick(w, s, none, 1, &m, &lb, NULL));
    dh = eval_dhat(w, s, NULL, &m, &r);
    g_test_message("ring allreduce, 32 ranks, 8 B a rank: quick bound %.6g, d^ %.6g", lb, dh);
    g_assert_cmpfloat(lb, >=, 31 * ALPHA);
    g_assert_cmpfloat(lb, <=, dh);
    pact_model_sched_free(s);
    s = prepare(rd, 16, 1 << 16);
    g_assert_true(pact_model_bound(w, s, NULL, &m, &lb, NULL));
    dh = eval_dhat(w, s, NULL, &m, &r);
    g_assert_cmpfloat(lb, <=, dh);
    g_assert_cmpfloat(lb, >=, dh * (1 - 1e-5));
    pact_model_sched_free(s);
    /* shared links: alltoall moves the same bytes over each node's links whatever the algorithm, and its
     * messages queue there; the bound counts what each link must carry (32 ranks, 4 a node, 64 KiB a block,
     * without delay and under random arrivals) */
    m.net = PACT_NET_SHARED;
    m.envelope = 16;
    m.ppn = 4;
    m.alpha_intra = ALPHA / 5;
    m.beta_intra = BETA / 4;
    const char *a2a[] = {"linear", "pairwise", "modified_bruck"};
    double arr[32];
    for (int r = 0; r < 32; r++)
        arr[r] = g_rand_double_range(x.rng, 0, 2e-3);
    for (size_t i = 0; i < G_N_ELEMENTS(a2a); i++)
        for (int shape = 0; shape < 2; shape++) {
            s = prepare(pact_alg_find(PACT_COLL_ALLTOALL, a2a[i]), 32, 1 << 16);
            g_assert_true(pact_model_bound(w, s, shape ? arr : NULL, &m, &lb, NULL));
            dh = eval_dhat(w, s, shape ? arr : NULL, &m, &r);
            const double *one[1] = {shape ? arr : NULL};
            double lq;
            g_assert_true(pact_model_bounds_quick(w, s, one, 1, &m, &lq, NULL));
            g_test_message("alltoall %s shape %d: bound %.6g, quick %.6g, d^ %.6g (%.3f, %.3f)", a2a[i],
                           shape, lb, lq, dh, lb / dh, lq / dh);
            g_assert_cmpfloat(lb, <=, dh);
            g_assert_cmpfloat(lb, >=, 0.85 * dh); /* 0.01-0.34 of d^ from latencies and paths alone */
            g_assert_cmpfloat(lq, <=, dh);
            g_assert_cmpfloat(lq, >=, QUICK_A2A * dh);
            pact_model_sched_free(s);
        }
    g_rand_free(x.rng);
    pact_model_eval_free(w);
}

/* The schedule set of args b prepared with preparing's shortcuts (returned) and without them
 * (pact_model_prep_plain), which must be the same arrays to the byte; the plain one takes no shortcut. */
static pact_model_sched *prepared_alike(const pact_alg *a, const pact_build_args *b, int ppn)
{
    GError *err = NULL;
    pact_model_sched *fast = pact_model_prepare(a, b, &err);
    g_assert_no_error(err);
    pact_model_prep_plain = 1;
    pact_model_sched *plain = pact_model_prepare(a, b, &err);
    pact_model_prep_plain = 0;
    g_assert_no_error(err);
    g_autofree char *df = pact_model_sched_digest(fast), *dp = pact_model_sched_digest(plain);
    if (strcmp(df, dp) != 0)
        g_error(
            "%s %s on %d ranks (%d a node), count %zu: prepared %s with the shortcuts (%zu ranks turned), "
            "%s without",
            pact_coll_name(a->coll), a->name, b->size, ppn, b->count, df, fast->nturned, dp);
    g_assert_cmpuint(plain->nsame_ir + plain->nmerged + plain->nbucketed + plain->nturned, ==, 0);
    pact_model_sched_free(plain);
    return fast;
}

/* Preparing's shortcuts (a rank whose IR is the last rank's takes its shape; receive keys in one or two
 * monotone runs are merged, others sorted by a count per source, not by qsort) give the arrays of preparing
 * without them, to the byte: every algorithm at several P, placements, roots and sizes (ranks without
 * receives: a broadcast's root), and each shortcut is taken. */
static void test_prepare_shortcuts(void)
{
    const int Ps[] = {2, 3, 5, 12, 32, 40};
    const size_t counts[] = {1, 7, 1000};
    size_t sets = 0, same_ir = 0, merged = 0, bucketed = 0;
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        for (size_t pi = 0; pi < G_N_ELEMENTS(Ps); pi++)
            for (int ppn = 1; ppn <= 4; ppn += 3) {
                int P = Ps[pi], node[40], order[40];
                if (P % ppn)
                    continue;
                for (int r = 0; r < P; r++) {
                    node[r] = r / ppn;
                    order[r] = (7 * r + 3) % P;
                }
                pact_place pl;
                g_assert_cmpint(pact_place_init(&pl, P, node), ==, PACT_OK);
                for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++) {
                    pact_build_args b = {.coll = a->coll,
                                         .size = P,
                                         .root = P > 2 ? 1 : 0,
                                         .count = counts[ci],
                                         .elem_size = 8,
                                         .commutative = 1,
                                         .place = &pl,
                                         .order = order};
                    if (pact_alg_applies(a, &b, NULL) != PACT_OK)
                        continue;
                    pact_model_sched *fast = prepared_alike(a, &b, ppn);
                    same_ir += fast->nsame_ir;
                    merged += fast->nmerged;
                    bucketed += fast->nbucketed;
                    sets++;
                    pact_model_sched_free(fast);
                }
                pact_place_free(&pl);
            }
    }
    g_test_message("prepare: %zu schedule sets, %zu ranks by their IR, %zu merged receives, %zu by source",
                   sets, same_ir, merged, bucketed);
    g_assert_cmpuint(sets, >, 1000);
    g_assert_cmpuint(same_ir, >, 10000);
    g_assert_cmpuint(merged, >, 1000);
    g_assert_cmpuint(bucketed, >, 1000);
}

/* Whether a and b hold the same arrays, to the byte (their hashes aside). */
static gboolean same_arrays(const pact_model_sched *a, const pact_model_sched *b)
{
#define SAME(f, k) (memcmp(a->f, b->f, (k) * sizeof(*a->f)) == 0)
    return a->P == b->P && a->n == b->n && a->nshop == b->nshop && a->nchan == b->nchan &&
           a->nmsg == b->nmsg && a->nbval == b->nbval && a->posted == b->posted &&
           SAME(base, (size_t)a->P + 1) && SAME(shb, (size_t)a->P) && SAME(op, a->nshop) &&
           a->op[a->nshop].sfirst == b->op[b->nshop].sfirst && SAME(pend0, a->nshop) &&
           SAME(succ, a->op[a->nshop].sfirst) && SAME(chan, a->n) && SAME(bval, a->nbval) &&
           SAME(ch, a->nchan + 1);
#undef SAME
}

/* Ring allreduce with each rank's peers two ranks on: the same kinds, sizes and dependencies as ring's, other
 * peers (resize must see it). */
static int ring_by_two(pact_sched *s, const pact_build_args *a)
{
    const pact_alg *ring = pact_alg_find(PACT_COLL_ALLREDUCE, "ring");
    int rc = ring->build(s, a);
    for (size_t i = 0; i < s->nops; i++)
        if (s->ops[i].kind == PACT_OP_SEND)
            s->ops[i].peer = (a->rank + 2) % a->size;
        else if (s->ops[i].kind == PACT_OP_RECV)
            s->ops[i].peer = (a->rank - 2 + a->size) % a->size;
    return rc;
}

/* pact_model_resize: a set made from another size's is the set preparing gives, to the byte, for every
 * algorithm at several P, placements and sizes, from each size to each other; it is made (the same structure:
 * most algorithms at most sizes) and refused (segmented ring's segments, sizes below P, a root's own); a
 * build whose peers alone differ (ring by two) is refused; its sets share the arrays, are freed in any order.
 */
static void test_prepare_resize(void)
{
    const int Ps[] = {3, 8, 12, 32};
    const size_t counts[] = {1, 7, 64, 1000, 4096, 1 << 17};
    size_t made = 0, refused = 0, tried = 0;
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        for (size_t pi = 0; pi < G_N_ELEMENTS(Ps); pi++)
            for (int ppn = 1; ppn <= 4; ppn += 3) {
                int P = Ps[pi], node[32];
                if (P % ppn)
                    continue;
                for (int r = 0; r < P; r++)
                    node[r] = r / ppn;
                pact_place pl;
                g_assert_cmpint(pact_place_init(&pl, P, node), ==, PACT_OK);
                pact_model_sched *set[G_N_ELEMENTS(counts)] = {NULL};
                pact_build_args b[G_N_ELEMENTS(counts)];
                for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++) {
                    b[ci] = (pact_build_args){.coll = a->coll,
                                              .size = P,
                                              .root = P > 2 ? 1 : 0,
                                              .count = counts[ci],
                                              .elem_size = 8,
                                              .commutative = 1,
                                              .place = &pl};
                    if (pact_alg_applies(a, &b[ci], NULL) != PACT_OK)
                        continue;
                    GError *err = NULL;
                    set[ci] = pact_model_prepare(a, &b[ci], &err);
                    g_assert_no_error(err);
                }
                for (size_t c0 = 0; c0 < G_N_ELEMENTS(counts); c0++)
                    for (size_t c1 = 0; c1 < G_N_ELEMENTS(counts); c1++) {
                        if (!set[c0] || !set[c1] || c0 == c1)
                            continue;
                        GError *err = NULL;
                        pact_model_sched *r = pact_model_resize(set[c0], a, &b[c1], &err);
                        g_assert_no_error(err);
                        tried++;
                        if (!r) {
                            refused++;
                            continue;
                        }
                        made++;
                        g_autofree char *dr = pact_model_sched_digest(r),
                                        *dp = pact_model_sched_digest(set[c1]);
                        if (!same_arrays(r, set[c1]) || strcmp(dr, dp) != 0)
                            g_error("%s %s on %d ranks (%d a node): count %zu made from count %zu is not the "
                                    "set prepared (digest %s, prepared %s)",
                                    pact_coll_name(a->coll), a->name, P, ppn, counts[c1], counts[c0], dr, dp);
                        g_assert_true(r->core == set[c0]->core); /* its arrays shared */
                        pact_model_sched_free(r);
                    }
                for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++)
                    pact_model_sched_free(set[ci]);
                pact_place_free(&pl);
            }
    }
    g_test_message("resize: %zu tried, %zu made, %zu refused", tried, made, refused);
    g_assert_cmpuint(made, >, tried / 3);
    g_assert_cmpuint(refused, >, 100);

    /* other peers, alike otherwise: refused; a share outlives the set it came from */
    pact_alg one = *pact_alg_find(PACT_COLL_ALLREDUCE, "ring"), two = one;
    one.name = "ring_unturned";
    one.rotates = NULL; /* each rank built, as ring_by_two's: their hashes tell them apart, not the turning */
    two.name = "ring_by_two";
    two.build = ring_by_two;
    two.rotates = NULL;
    const pact_alg *ring = &one;
    pact_model_sched *s = prepare(ring, 16, 1 << 12), *t = prepare(&two, 16, 1 << 12);
    pact_build_args b2 = args_of(&two, 16, 1 << 13), b1 = args_of(ring, 16, 1 << 13);
    GError *err = NULL;
    g_assert_null(pact_model_resize(s, &two, &b2, &err));
    g_assert_no_error(err);
    g_assert_null(pact_model_resize(t, ring, &b1, &err));
    g_assert_no_error(err);
    pact_model_sched *u = pact_model_resize(s, ring, &b1, &err), *v = pact_model_sched_share(s),
                     *fresh = prepare(ring, 16, 1 << 13);
    g_assert_nonnull(u);
    g_assert_true(same_arrays(u, fresh));
    g_assert_false(same_arrays(s, fresh)); /* the sizes differ */
    pact_model_sched_free(s);
    pact_model_sched_free(t);
    g_assert_true(same_arrays(u, fresh)); /* the arrays outlive s */
    g_assert_true(u->core == v->core);
    pact_model_sched_free(v);
    pact_model_sched_free(u);
    pact_model_sched_free(fresh);
}

/* A schedule whose receives come in no order, several tags from one source: rank r exchanges, for each
 * distance d in 1..P-1, tags(d) messages with ranks r - d (receives) and r + d (sends), tags 0..tags(d)-1,
 * its receives posted in an order scrambled by a stride coprime with their count, tags descending for
 * every third distance, each tag twice at distances 2, 7, 12, ... (messages of one tag match in posting
 * order).  tags(d): 1, 3 or 2; 20 at distance 2 (more than insertion sorts in one source). */
static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int scrambled_tags(int d)
{
    return d == 2 ? 20 : 1 + (d % 3 == 1 ? 2 : d % 3 == 2);
}

static int scrambled_build(pact_sched *s, const pact_build_args *a)
{
    const int P = a->size, r = a->rank;
    int n = 0, dd[4096], tt[4096];
    for (int d = 1; d < P; d++)
        for (int t = 0; t < scrambled_tags(d); t++) {
            g_assert_cmpint(n, <, 4096);
            dd[n] = d;
            tt[n++] = (d % 3 == 0 ? scrambled_tags(d) - 1 - t : t) / (d % 5 == 2 ? 2 : 1);
        }
    int stride = 7; /* the first odd number from 7 coprime with n: k * stride + r mod n visits each once */
    while (gcd(n, stride) != 1)
        stride += 2;
    for (int k = 0; k < n; k++) {
        int i = (int)(((long)k * stride + r) % n);
        pact_recv(s, (r - dd[i] + P) % P, pact_sl(PACT_BUF_RECV, 0, 1));
        pact_set_tag(s, tt[i]);
    }
    for (int i = 0; i < n; i++) {
        pact_send(s, (r + dd[i]) % P, pact_sl(PACT_BUF_SEND, 0, 1));
        pact_set_tag(s, tt[i]);
    }
    return PACT_OK;
}

/* Receives sorted by a count per source (sort_keys' bucket_keys), several tags from one source in no order
 * and more than its insertion sorts (qsort within a source), give the arrays of qsort, to the byte, at each
 * rank. */
static void test_prepare_bucketed(void)
{
    const pact_alg *lin = pact_alg_find(PACT_COLL_ALLTOALL, "linear");
    pact_alg scr = *lin;
    scr.name = "scrambled";
    scr.build = scrambled_build;
    scr.rotates = NULL;
    size_t bucketed = 0;
    const int Ps[] = {3, 4, 17, 32, 100};
    for (size_t pi = 0; pi < G_N_ELEMENTS(Ps); pi++) {
        pact_build_args b = args_of(&scr, Ps[pi], 8);
        pact_model_sched *s = prepared_alike(&scr, &b, 1);
        g_assert_cmpuint(s->nbucketed, ==, (size_t)Ps[pi]);
        bucketed += s->nbucketed;
        pact_model_sched_free(s);
    }
    g_test_message("prepare: %zu ranks' receives sorted by source", bucketed);
}

/* Schedules whose sends and receives do not pair up, every rank's rank 0's turned: each rank receives once
 * from rank - 1 (tag 0) and sends to rank + 1 twice with tag 0 (unpaired = 1), or once with tag 0 and once
 * with tag 7, which no rank receives (unpaired = 2). */
static int unpaired;
static int unpaired_build(pact_sched *s, const pact_build_args *a)
{
    const int P = a->size, r = a->rank;
    pact_recv(s, (r - 1 + P) % P, pact_sl(PACT_BUF_RECV, 0, 1));
    pact_set_tag(s, 0);
    for (int k = 0; k < 2; k++) {
        pact_send(s, (r + 1) % P, pact_sl(PACT_BUF_SEND, 0, 1));
        pact_set_tag(s, unpaired == 2 && k == 1 ? 7 : 0);
    }
    return PACT_OK;
}

static int turns_by_adding(const pact_build_args *a)
{
    (void)a;
    return PACT_TURN_ADD;
}

/* Preparing refuses them with one message, whether the ranks are turned from rank 0 (turned_setup finds them
 * unpaired, and the search that follows says where) or built one by one. */
static void test_prepare_unpaired(void)
{
    const pact_alg *lin = pact_alg_find(PACT_COLL_ALLTOALL, "linear");
    const char *want[] = {"", "2 sends from rank 7 to rank 0 (tag 0) but 1 receives",
                          "1 sends from rank 0 to rank 1 (tag 7) but 0 receives"};
    for (unpaired = 1; unpaired <= 2; unpaired++)
        for (int turned = 0; turned < 2; turned++) {
            pact_alg u = *lin;
            u.name = "unpaired";
            u.build = unpaired_build;
            u.rotates = turned ? turns_by_adding : NULL;
            pact_build_args b = args_of(&u, 8, 8);
            GError *err = NULL;
            pact_model_sched *s = pact_model_prepare(&u, &b, &err);
            g_assert_null(s);
            g_assert_nonnull(err);
            g_test_message("unpaired %d, turned %d: %s", unpaired, turned, err->message);
            g_assert_nonnull(strstr(err->message, want[unpaired]));
            g_error_free(err);
        }
}

/* Rank 0's schedule turned for the other ranks (pact_alg.rotates): every algorithm that says it turns, at P
 * and counts where it does and where it does not (blocks of unequal sizes, the ring's fallback below P),
 * gives the arrays of preparing rank by rank, to the byte, and is turned wherever it says so.  Algorithms
 * that do not turn, made to claim they do, are found out by the ranks built to check and prepared rank by
 * rank. */
static int claims_to_turn(const pact_build_args *a)
{
    (void)a;
    return PACT_TURN_ADD;
}

static int claims_to_xor(const pact_build_args *a)
{
    (void)a;
    return PACT_TURN_XOR;
}

static void test_prepare_turned(void)
{
    const int Ps[] = {4, 5, 6, 8, 12, 16, 31, 32, 33, 48, 64, 96, 100, 128};
    size_t sets = 0, turned = 0, whole = 0, chturn[3] = {0};
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        if (!a->rotates)
            continue;
        for (size_t pi = 0; pi < G_N_ELEMENTS(Ps); pi++)
            for (int ppn = 1; ppn <= 4; ppn += 3) {
                const int P = Ps[pi];
                if (P % ppn)
                    continue;
                int node[128];
                for (int r = 0; r < P; r++)
                    node[r] = r / ppn;
                pact_place pl;
                g_assert_cmpint(pact_place_init(&pl, P, node), ==, PACT_OK);
                const size_t counts[] = {1, 7, (size_t)P, 2 * (size_t)P, 3 * (size_t)P + 1, 1000, 1024, 4096};
                for (size_t ci = 0; ci < G_N_ELEMENTS(counts); ci++) {
                    pact_build_args b = {.coll = a->coll,
                                         .size = P,
                                         .count = counts[ci],
                                         .elem_size = 8,
                                         .commutative = 1,
                                         .place = &pl};
                    if (pact_alg_applies(a, &b, NULL) != PACT_OK)
                        continue;
                    pact_model_sched *fast = prepared_alike(a, &b, ppn);
                    /* turned wherever it says it turns */
                    g_assert_cmpuint(fast->nturned, ==, a->rotates(&b) ? (size_t)P - 1 : 0);
                    sets++;
                    turned += fast->nturned > 0;
                    whole += fast->nturned == 0;
                    g_assert_true(fast->chturn == 0 || fast->nturned > 0);
                    chturn[fast->chturn]++;
                    pact_model_sched_free(fast);
                }
                pact_place_free(&pl);
            }
    }
    g_test_message("turned: %zu schedule sets, %zu turned, %zu rank by rank; channels of turned ranks found "
                   "by search %zu, rotated from rank 0's %zu, by use from rank 0's %zu",
                   sets, turned, whole, chturn[0], chturn[1], chturn[2]);
    g_assert_cmpuint(turned, >, 300);
    g_assert_cmpuint(whole, >, 50);
    g_assert_cmpuint(chturn[1], >, 100); /* each way taken, and equal to the search's (prepared_alike) */
    g_assert_cmpuint(chturn[2], >, 100);
    /* claims that do not hold: the checked ranks differ, and every rank is built (MPICH's pairwise exchange
     * turns by XOR at 64 ranks, not by adding; Open MPI's by adding, not by XOR) */
    const char *liars[][3] = {{"allreduce", "recursive_doubling", "+"},
                              {"allgather", "neighbor", "+"},
                              {"alltoall", "mpich_pairwise", "+"},
                              {"alltoall", "modified_bruck", "+"},
                              {"bcast", "scatter_allgather_ring", "+"},
                              {"allreduce", "rabenseifner", "+"},
                              {"alltoall", "pairwise", "^"},
                              {"allreduce", "recursive_doubling", "^"},
                              {"allreduce", "ring", "^"}};
    for (size_t k = 0; k < G_N_ELEMENTS(liars); k++) {
        const pact_alg *real = pact_alg_find((pact_coll)pact_coll_from_name(liars[k][0]), liars[k][1]);
        g_assert_nonnull(real);
        pact_alg liar = *real;
        liar.rotates = liars[k][2][0] == '^' ? claims_to_xor : claims_to_turn;
        pact_model_sched *s = prepare(&liar, 64, 1 << 16), *t = prepare(real, 64, 1 << 16);
        g_autofree char *ds = pact_model_sched_digest(s), *dt = pact_model_sched_digest(t);
        g_assert_cmpuint(s->nturned, ==, 0);
        g_assert_cmpstr(ds, ==, dt);
        pact_model_sched_free(s);
        pact_model_sched_free(t);
    }
}

/* The schedule set's digest: one for what builds alike (ring and segmented ring allreduce, whose default
 * segments are whole blocks; ring below a count of P, which is recursive doubling), another for any other
 * algorithm or size, and the same from two builds. */
static void test_digest(void)
{
    const pact_alg *ring = pact_alg_find(PACT_COLL_ALLREDUCE, "ring"),
                   *seg = pact_alg_find(PACT_COLL_ALLREDUCE, "segmented_ring"),
                   *rd = pact_alg_find(PACT_COLL_ALLREDUCE, "recursive_doubling"),
                   *rab = pact_alg_find(PACT_COLL_ALLREDUCE, "rabenseifner");
    pact_model_sched *a = prepare(ring, 64, 1 << 16), *b = prepare(seg, 64, 1 << 16),
                     *c = prepare(ring, 64, 1 << 16), *d = prepare(rab, 64, 1 << 16),
                     *e = prepare(ring, 64, 1 << 17), *f = prepare(ring, 64, 64), *g = prepare(rd, 64, 64);
    g_autofree char *da = pact_model_sched_digest(a), *db = pact_model_sched_digest(b),
                    *dc = pact_model_sched_digest(c), *dd = pact_model_sched_digest(d),
                    *de = pact_model_sched_digest(e), *df = pact_model_sched_digest(f),
                    *dg = pact_model_sched_digest(g);
    g_assert_cmpstr(da, ==, db);
    g_assert_cmpstr(da, ==, dc);
    g_assert_cmpstr(df, ==, dg);
    g_assert_cmpstr(da, !=, dd);
    g_assert_cmpstr(da, !=, de);
    g_assert_cmpstr(da, !=, df);
    /* every array counts: one channel, one size, one successor changed (the arrays' hash is prepare's,
     * made again after each change to them) */
    a->chan[a->n - 1] ^= 1;
    pact_model_sched_rehash(a);
    g_autofree char *x1 = pact_model_sched_digest(a);
    a->chan[a->n - 1] ^= 1;
    pact_model_sched_rehash(a);
    a->bval[0] += 1;
    g_autofree char *x2 = pact_model_sched_digest(a);
    a->bval[0] -= 1;
    a->succ[0] ^= 1;
    pact_model_sched_rehash(a);
    g_autofree char *x3 = pact_model_sched_digest(a);
    a->succ[0] ^= 1;
    pact_model_sched_rehash(a);
    g_autofree char *x4 = pact_model_sched_digest(a);
    g_assert_cmpstr(x1, !=, da);
    g_assert_cmpstr(x2, !=, da);
    g_assert_cmpstr(x3, !=, da);
    g_assert_cmpstr(x4, ==, da);
    pact_model_sched *all[] = {a, b, c, d, e, f, g};
    for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
        pact_model_sched_free(all[i]);
}

/* Ranks that leave before rank `late`, which arrives 1 s after the others, has arrived. */
static int barrier_leavers(pact_model_eval *w, const pact_alg *a, int P, int late, pact_net net)
{
    double arr[64] = {0};
    arr[late] = 1.0;
    pact_model_params m;
    pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
    m.net = net;
    pact_model_sched *s = prepare(a, P, 0);
    pact_model_result r;
    eval_dhat(w, s, arr, &m, &r);
    int early = 0;
    for (int q = 0; q < P; q++)
        early += r.exit[q] < 1.0;
    pact_model_sched_free(s);
    return early;
}

/* Not a barrier: rank 0 tells the others and leaves (the negative control of test_barrier). */
static int fake_barrier_build(pact_sched *s, const pact_build_args *a)
{
    for (int q = 1; a->rank == 0 && q < a->size; q++)
        pact_send(s, q, pact_sl(PACT_BUF_RECV, 0, 0));
    if (a->rank > 0)
        pact_recv(s, 0, pact_sl(PACT_BUF_RECV, 0, 0));
    return PACT_OK;
}

/* Every barrier is one: whichever rank is late (first, middle, last), no rank leaves before it arrives, on
 * single ports and on shared links; the fake above fails the same check.  Without delay, the evaluator on
 * single ports with no envelope gives the closed form exactly. */
static void test_barrier(void)
{
    const int Ps[] = {2, 3, 5, 6, 8, 13, 16, 32, 64};
    const pact_alg fake = {.coll = PACT_COLL_BARRIER, .name = "fake", .build = fake_barrier_build};
    pact_model_eval *w = pact_model_eval_new();
    int checked = 0;
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        if (a->coll != PACT_COLL_BARRIER)
            continue;
        for (size_t p = 0; p < G_N_ELEMENTS(Ps); p++) {
            const int P = Ps[p], lates[] = {0, P / 2, P - 1};
            pact_build_args args = {.coll = PACT_COLL_BARRIER, .size = P, .elem_size = 1};
            if (pact_alg_applies(a, &args, NULL) != PACT_OK)
                continue;
            for (int net = 0; net < 2; net++)
                for (size_t l = 0; l < G_N_ELEMENTS(lates); l++) {
                    int early = barrier_leavers(w, a, P, lates[l], net ? PACT_NET_SHARED : PACT_NET_PORT);
                    if (early)
                        g_error("barrier %s P=%d, rank %d late: %d ranks leave before it arrives", a->name, P,
                                lates[l], early);
                    checked++;
                }
            pact_model_params m;
            pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
            m.envelope = 0;
            pact_model_sched *s = prepare(a, P, 0);
            pact_model_result r;
            double got = eval_dhat(w, s, NULL, &m, &r), want = pact_model_closed(a, P, 0, &m);
            if (fabs(got / want - 1) > 1e-9)
                g_error("barrier %s P=%d: evaluator %.12g, closed form %.12g", a->name, P, got, want);
            pact_model_sched_free(s);
        }
    }
    g_assert_cmpint(checked, >=, 5 * 9 * 2 * 2);
    g_assert_cmpint(barrier_leavers(w, &fake, 8, 7, PACT_NET_PORT), >, 0);
    g_assert_cmpint(barrier_leavers(w, &fake, 8, 7, PACT_NET_SHARED), >, 0);
    pact_model_eval_free(w);
}

/* Reduce-scatter: the closed forms of ring (any P) and of recursive halving and butterfly (P a power of two)
 * are the evaluator's times on single ports, eager or not. */
static void test_reduce_scatter_closed(void)
{
    const struct {
        const char *name;
        int pof2_only;
    } algs[] = {{"ring", 0}, {"recursive_halving", 1}, {"butterfly", 1}};
    const int Ps[] = {2, 3, 4, 5, 6, 8, 13, 16, 32};
    const size_t sizes[] = {8192, 65536, 1 << 20};
    const double eager[] = {0, PACT_SMPI_EAGER};
    pact_model_eval *w = pact_model_eval_new();
    int checked = 0;
    for (size_t a = 0; a < G_N_ELEMENTS(algs); a++) {
        const pact_alg *alg = pact_alg_find(PACT_COLL_REDUCE_SCATTER, algs[a].name);
        g_assert_nonnull(alg);
        for (size_t p = 0; p < G_N_ELEMENTS(Ps); p++) {
            if (algs[a].pof2_only && !pact_is_pof2(Ps[p]))
                continue;
            for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
                pact_model_sched *s = prepare(alg, Ps[p], sizes[k]);
                for (size_t e = 0; e < G_N_ELEMENTS(eager); e++) {
                    pact_model_params m;
                    pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
                    m.eager_limit = eager[e];
                    pact_model_result r;
                    double got = eval_dhat(w, s, NULL, &m, &r),
                           want = pact_model_closed(alg, Ps[p], sizes[k], &m);
                    if (fabs(got / want - 1) > 1e-9)
                        g_error("reduce_scatter %s P=%d m=%zu eager=%g: evaluator %.12g, closed form %.12g",
                                algs[a].name, Ps[p], sizes[k], eager[e], got, want);
                    checked++;
                }
                pact_model_sched_free(s);
            }
        }
    }
    g_assert_cmpint(checked, ==, (9 + 5 + 5) * 3 * 2);
    pact_model_eval_free(w);
}

/* The fit recovers the parameters that generated exact closed-form times, and writes a file it reads back. */
static void test_fit_recovers(void)
{
    const char *names[] = {"ring", "rabenseifner", "recursive_doubling"};
    const double alphas[] = {1.5e-6, 3e-6, 1e-6}, betas[] = {6.25e-11, 1e-10, 8e-11};
    GArray *pts = g_array_new(FALSE, FALSE, sizeof(pact_model_point));
    const int Ps[] = {4, 6, 8, 12, 16};
    for (size_t a = 0; a < 3; a++)
        for (size_t p = 0; p < G_N_ELEMENTS(Ps); p++)
            for (double m = 1024; m <= 4 << 20; m *= 8) {
                pact_model_point x = {pact_alg_find(PACT_COLL_ALLREDUCE, names[a]), Ps[p], m, 0, 0};
                pact_model_terms t;
                pact_model_terms_of(x.alg, x.P, m, &t, NULL);
                x.t = t.a * alphas[a] + t.b * betas[a] + t.c * GAMMA;
                g_array_append_val(pts, x);
            }
    pact_model_fit f;
    pact_model_fit_init(&f);
    GError *err = NULL;
    g_assert_true(pact_model_fit_points(pts, &f, NULL, &err));
    g_assert_no_error(err);
    g_assert_cmpfloat(fabs(f.gamma / GAMMA - 1), <, 1e-6);
    for (size_t a = 0; a < 3; a++) {
        const pact_model_fit_alg *x = pact_model_fit_find(&f, PACT_COLL_ALLREDUCE, names[a]);
        g_assert_nonnull(x);
        g_assert_cmpfloat(fabs(x->alpha / alphas[a] - 1), <, 1e-6);
        g_assert_cmpfloat(fabs(x->beta / betas[a] - 1), <, 1e-6);
        g_assert_cmpfloat(x->r2, >, 0.999999);
    }
    g_autofree char *dir = g_dir_make_tmp("pact-models-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "params.yaml", NULL);
    g_assert_true(pact_model_fit_write(path, &f, &err));
    pact_model_fit back;
    g_assert_true(pact_model_fit_read(path, &back, &err));
    g_assert_no_error(err);
    g_assert_cmpfloat(back.gamma, ==, f.gamma);
    const pact_model_fit_alg *r = pact_model_fit_find(&back, PACT_COLL_ALLREDUCE, "ring");
    g_assert_cmpfloat(r->beta, ==, pact_model_fit_find(&f, PACT_COLL_ALLREDUCE, "ring")->beta);
    pact_model_fit_clear(&back);
    pact_model_fit_clear(&f);
    g_unlink(path);
    g_rmdir(dir);
    g_array_free(pts, TRUE);
}

/* Bad files: the message names file, line and field. */
static void expect_error(const char *text, const char *want, int which)
{
    g_autofree char *dir = g_dir_make_tmp("pact-models-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "f", NULL);
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    GError *err = NULL;
    if (which == 0) {
        pact_model_fit f;
        g_assert_false(pact_model_fit_read(path, &f, &err));
    } else {
        g_assert_null(pact_model_points_read(path, &err));
    }
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    if (!strstr(err->message, want))
        g_error("'%s' does not contain '%s'", err->message, want);
    g_error_free(err);
    g_unlink(path);
    g_rmdir(dir);
}

static void test_bad_files(void)
{
    expect_error("gamma: 1e-10\nalgorithms:\n  - collective: allreduce\n    algorithm: ring\n    alpha: x\n"
                 "    beta: 1e-10\n",
                 "f:5: alpha: expected a number", 0);
    expect_error("gamma: 1e-10\nalgorithms:\n  - collective: allreduce\n    algorithm: nope\n    alpha: 1\n"
                 "    beta: 1\n",
                 "f:4: algorithm: unknown", 0);
    expect_error("gamma: 1e-10\ncolour: red\n", "f:2: colour: unknown field", 0);
    const char *hdr =
        "platform,nodes,ppn,procs,collective,algorithm,bytes,pattern,skew_mode,skew_factor,skew_s,"
        "rep,engine,last_delay_s,total_delay_s,status\n";
    g_autofree char *bad_num =
        g_strconcat(hdr, "p,1,4,4,allreduce,ring,8,no_delay,none,,0,0,smpi,1e-5,1e-5,ok\n",
                    "p,1,4,4,allreduce,ring,8,no_delay,none,,0,0,smpi,fast,1e-5,ok\n", NULL);
    expect_error(bad_num, "f:3: column last_delay_s: 'fast'", 1);
    expect_error("platform,nodes,colour\n", "f:1: not a pact results.csv", 1);
    g_autofree char *bad_alg =
        g_strconcat(hdr, "p,1,4,4,allreduce,best,8,no_delay,none,,0,0,smpi,1e-5,1e-5,ok\n", NULL);
    expect_error(bad_alg, "f:2: algorithm: unknown", 1);
}

/* Routes of SimGrid's DRAGONFLY zone on shaheen2's export (4 chassis x 24 routers x 4 nodes per group): the
 * number of links and the latency (0.375 us per link) of each kind of route, SimGrid's detour included, and
 * a fat tree's trunks and rail binding's hosts. */
static void test_routes(void)
{
    const pact_platform *sh = pact_platform_find("shaheen2"), *ce = pact_platform_find("cedar"),
                        *th = pact_platform_find("thor");
    g_assert_nonnull(sh);
    pact_export_opts o = {.nodes = 500, .ppn = 1, .mapping = PACT_MAP_BLOCK, .rails = PACT_RAILS_SHARING};
    GError *err = NULL;
    const pact_model_routes *t = pact_model_routes_get(sh, &o, &err);
    g_assert_no_error(err);
    static const struct {
        int a, b, links;
    } cases[] = {
        {0, 1, 2},     /* one router */
        {0, 4, 3},     /* one chassis: green */
        {0, 96, 3},    /* chassis 1, same blade: black */
        {4, 96, 4},    /* chassis 1, blade 0 from blade 1: green, then black from chassis 0 */
        {100, 96, 4},  /* within chassis 1, blade 1 to 0: green, then SimGrid's black from chassis 0 */
        {0, 384, 4},   /* group 1: green to blade 1, blue, node */
        {100, 388, 5}, /* chassis 1 blade 1 -> group 1 blade 1: black to chassis 0, blue, green, node */
        {96, 488, 7},  /* chassis 1 blade 0 -> group 1 chassis 1 blade 2: every kind, the longest route */
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint32_t l[PACT_ROUTE_MAX];
        double lat, iw, bw;
        int n = pact_model_route(t, cases[i].a, cases[i].b, l, &lat, &iw, &bw);
        g_assert_cmpint(n, ==, cases[i].links);
        g_assert_cmpfloat_with_epsilon(lat, 0.375e-6 * n, 1e-15);
        g_assert_cmpfloat(iw, <=, 1.0);
    }
    o = (pact_export_opts){.nodes = 64, .ppn = 1, .mapping = PACT_MAP_BLOCK, .rails = PACT_RAILS_SHARING};
    t = pact_model_routes_get(ce, &o, &err);
    g_assert_no_error(err);
    uint32_t l[PACT_ROUTE_MAX];
    double lat, iw, bw;
    g_assert_cmpint(pact_model_route(t, 0, 31, l, &lat, &iw, &bw), ==, 2);
    g_assert_cmpint(pact_model_route(t, 0, 32, l, &lat, &iw, &bw), ==, 4);
    g_assert_cmpfloat_with_epsilon(lat, 1.3e-6, 1e-15);
    o = (pact_export_opts){.nodes = 2, .ppn = 4, .mapping = PACT_MAP_BLOCK, .rails = PACT_RAILS_BINDING};
    t = pact_model_routes_get(th, &o, &err);
    g_assert_no_error(err);
    g_assert_cmpint(pact_model_route(t, 1, 5, l, &lat, &iw, &bw), ==, 2);
    g_assert_cmpuint(l[0], ==, 2 * 1);                                    /* node 0 rail 1 up */
    g_assert_cmpuint(l[1], ==, 2 * 3 + 1);                                /* node 1 rail 1 down */
    g_assert_cmpint(pact_model_route(t, 0, 1, l, &lat, &iw, &bw), ==, 0); /* shared memory */
    o.ranks_on = PACT_ON_GPUS;
    g_assert_null(pact_model_routes_get(ce, &o, &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
}

/* Beyond 65536 ranks (the schedule set used to pair messages by a key that overflowed there): binomial bcast
 * on 2^17 ranks, and on 2^17 + 3 ranks that are not a power of two, equals its closed form on single ports,
 * and every message pairs up (no deadlock, no mismatch). */
static void test_many_ranks(void)
{
    const pact_alg *a = pact_alg_find(PACT_COLL_BCAST, "binomial");
    const int Ps[] = {1 << 17, (1 << 17) + 3};
    pact_model_eval *w = pact_model_eval_new();
    for (size_t i = 0; i < G_N_ELEMENTS(Ps); i++) {
        pact_model_sched *s = prepare(a, Ps[i], 65536);
        g_assert_cmpuint(pact_model_sched_messages(s), ==, (guint)(Ps[i] - 1));
        pact_model_params m;
        pact_model_params_hockney(&m, ALPHA, BETA, GAMMA);
        pact_model_result r;
        double got = eval_dhat(w, s, NULL, &m, &r);
        double want = pact_model_closed(a, Ps[i], 65536, &m);
        if (fabs(got / want - 1) > 1e-9)
            g_error("bcast binomial P=%d: evaluator %.12g, closed form %.12g", Ps[i], got, want);
        pact_model_sched_free(s);
    }
    pact_model_eval_free(w);
}

/* The evaluator's event queue against a sorted reference: 200,000 random steps of pushes (at the current
 * time, at times already queued, at new ones, negative times and -0 included) and pops; every pop is the
 * least (time, class, key) waiting, evq_next_before agrees with the reference, and a push before the last
 * instant taken out is reported (q.past), not misplaced. */
typedef struct {
    double t;
    uint64_t key;
} ref_ev;

static int ref_cmp(const ref_ev *a, const ref_ev *b)
{
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* A rank's ready operations (eval_int.h, rq_push and rq_pop) leave in the order of a heap, least first,
 * through runs that come in order and ones that do not: 100,000 random steps against a sorted reference, each
 * operation pushed once (as in an evaluation), both the sorted run and the heap visited many times. */
static void test_ready_queue(void)
{
    GRand *rng = g_rand_new_with_seed(5);
    enum { OPS = 100000 };
    uint32_t *v = g_new(uint32_t, OPS), n = 0, h = 0, next = 0, nref = 0;
    uint32_t *ref = g_new(uint32_t, OPS); /* the ready ones, ascending */
    size_t in_heap = 0, in_run = 0, pops = 0;
    while (next < OPS || nref > 0) {
        if (next < OPS && (nref == 0 || g_rand_int_range(rng, 0, 100) < 30)) {
            /* a burst of the next operations (8 next + 4: in order), sometimes one below the last pushed
             * (8 (next - 1) + 1: out of order, and distinct) */
            for (int k = g_rand_int_range(rng, 1, 4); k > 0 && next < OPS; k--, next++) {
                uint32_t op =
                    next > 0 && g_rand_int_range(rng, 0, 10) == 0 ? 8 * (next - 1) + 1 : 8 * next + 4;
                rq_push(v, &n, &h, op);
                uint32_t i = nref++;
                while (i > 0 && ref[i - 1] > op) {
                    ref[i] = ref[i - 1];
                    i--;
                }
                ref[i] = op;
                if (h == RQ_HEAP)
                    in_heap++;
                else
                    in_run++;
            }
            continue;
        }
        g_assert_cmpuint(n, >, 0);
        uint32_t op = rq_pop(v, &n, &h);
        g_assert_cmpuint(op, ==, ref[0]);
        memmove(ref, ref + 1, (--nref) * sizeof(uint32_t));
        g_assert_true(nref > 0 ? n > 0 : n == 0 && h == 0);
        pops++;
    }
    g_assert_cmpuint(pops, ==, OPS);
    g_assert_cmpuint(in_heap, >, 1000);
    g_assert_cmpuint(in_run, >, 1000);
    g_free(v);
    g_free(ref);
    g_rand_free(rng);
}

/* The nodes of ranks by a multiplication (eval_int.h, pact_div_by) equal the division's: every divisor from 2
 * to 4,100 (processes per node), every dividend below 2^17 (divisors below 64) or 4,096 (the others), and
 * random ones to 2^31, besides each divisor's extremes; a multiplier one less (UINT64_MAX / d, the rounding
 * down) gives a wrong quotient somewhere, which the test sees too. */
static void test_node_division(void)
{
    GRand *rng = g_rand_new_with_seed(9);
    size_t checked = 0, wrong_down = 0;
    for (uint32_t d = 2; d <= 4100; d++) {
        const uint64_t m = pact_div_m(d), m_down = UINT64_MAX / d;
        const uint32_t fixed[] = {0, 1, d - 1, d, d + 1, 2 * d - 1, INT32_MAX, UINT32_MAX - 1, UINT32_MAX};
        for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++, checked++) {
            g_assert_cmpuint(pact_div_by(fixed[i], m), ==, fixed[i] / d);
            wrong_down += pact_div_by(fixed[i], m_down) != fixed[i] / d;
        }
        for (uint32_t a = 0; a < (d < 64 ? (1u << 17) : 4096u); a++, checked++)
            g_assert_cmpuint(pact_div_by(a, m), ==, a / d);
        for (int k = 0; k < 200; k++, checked++) {
            const uint32_t a = (uint32_t)g_rand_int_range(rng, 0, INT32_MAX);
            g_assert_cmpuint(pact_div_by(a, m), ==, a / d);
        }
    }
    g_assert_cmpuint(checked, >, 10000000);
    g_assert_cmpuint(wrong_down, >, 0);
    g_rand_free(rng);
}

static gint cmp_rank(gconstpointer a, gconstpointer b, gpointer unused)
{
    (void)unused;
    const guint x = GPOINTER_TO_UINT(a), y = GPOINTER_TO_UINT(b);
    return (x > y) - (x < y);
}

/* The wakes (eval_int.h, pact_wk_push and pact_wk_pop): ranks taken least first, against a GTree of the same
 * ranks, through pushes and pops interleaved at random (the set filling, then emptying, and empty again now
 * and then), at sizes about each level's edge: 1 to 262,145 ranks, one to four levels of bits.  Every bit is
 * clear once the set is empty.  Taking the greatest rank, or a stale least, fails it. */
static void test_wake_set(void)
{
    GRand *rng = g_rand_new_with_seed(23);
    const uint32_t sizes[] = {1, 2, 63, 64, 65, 4095, 4096, 4097, 262145};
    pact_model_eval *w = pact_model_eval_new();
    size_t pops = 0;
    for (size_t z = 0; z < G_N_ELEMENTS(sizes); z++) {
        const uint32_t P = sizes[z];
        const size_t words = pact_wk_layout(P, w->woff, &w->wlev);
        g_assert_cmpuint(w->wlev, ==, P <= 64 ? 1 : P <= 4096 ? 2 : P <= 262144 ? 3 : 4);
        free(w->wbits);
        w->wbits = calloc(words, sizeof(uint64_t));
        w->nwake = 0;
        GTree *ref = g_tree_new_full(cmp_rank, NULL, NULL, NULL);
        gboolean *in = g_new0(gboolean, P);
        const int ops = P < 5000 ? 40 * (int)P + 100 : 400000;
        for (int k = 0; k <= ops; k++) {
            const int fill = k < ops / 2 ? 60 : 35; /* per cent of pushes: fills, then empties */
            if (k < ops && (w->nwake == 0 || (w->nwake < P && g_rand_int_range(rng, 0, 100) < fill))) {
                uint32_t r = (uint32_t)g_rand_int_range(rng, 0, (gint32)P);
                while (in[r])
                    r = (r + 1) % P;
                in[r] = TRUE;
                pact_wk_push(w, r);
                g_tree_insert(ref, GUINT_TO_POINTER(r + 1), NULL);
            } else {
                while (w->nwake > 0) {
                    const uint32_t want = GPOINTER_TO_UINT(g_tree_node_key(g_tree_node_first(ref))) - 1;
                    g_assert_cmpuint(w->wmin, ==, want);
                    g_assert_cmpuint(pact_wk_pop(w), ==, want);
                    g_tree_remove(ref, GUINT_TO_POINTER(want + 1));
                    in[want] = FALSE;
                    pops++;
                    if (k < ops) /* one pop a step, all of them at the end */
                        break;
                }
            }
            g_assert_cmpuint(w->nwake, ==, (guint)g_tree_nnodes(ref));
        }
        for (size_t i = 0; i < words; i++)
            g_assert_cmpuint(w->wbits[i], ==, 0);
        g_free(in);
        g_tree_destroy(ref);
    }
    g_assert_cmpuint(pops, >, 400000);
    pact_model_eval_free(w);
    g_rand_free(rng);
}

static void test_event_queue(void)
{
    GRand *rng = g_rand_new_with_seed(17);
    evq q;
    memset(&q, 0, sizeof(q));
    evq_reset(&q);
    GArray *ref = g_array_new(FALSE, FALSE, sizeof(ref_ev));
    double now = -1e-3, times[64];
    int ntimes = 0;
    uint32_t uniq = 0;
    size_t pops = 0, in_runs = 0;
    for (int step = 0; step < 200000; step++) {
        if (ref->len == 0 || g_rand_int_range(rng, 0, 100) < 48) {
            double t;
            uint8_t type = (uint8_t)g_rand_int_range(rng, 0, EV_PRIV_END + 1);
            switch (g_rand_int_range(rng, 0, 7)) {
            case 5: /* a step of its type's own length: in order within the type (queue.c's runs), and equal
                     * times across types and the radix heap */
            case 6:
                t = now + 1e-6 * (1 + type % 3);
                break;
            case 0:
                t = now; /* the instant that runs */
                break;
            case 1: /* a time already queued, if not past */
                t = ntimes ? times[g_rand_int_range(rng, 0, ntimes)] : now;
                if (t < now)
                    t = now;
                break;
            case 2:
                t = now + g_rand_double_range(rng, 0, 1e-9);
                break;
            case 3:
                t = now < 0 && now > -1e-5 ? -0.0 : now + 1e-6 * g_rand_int_range(rng, 0, 4);
                break;
            default:
                t = now + g_rand_double_range(rng, 0, 1e-3);
            }
            if (t < now)
                t = now;
            uint64_t key = ((uint64_t)g_rand_int_range(rng, 0, 1000) << 24) | uniq++;
            size_t runs_before = 0;
            for (int k = 0; k < EVQ_RUNS; k++)
                runs_before += q.run[k].n;
            g_assert_true(evq_push(&q, t, type, (uint32_t)step, 0, key));
            ref_ev r = {t == 0 ? 0.0 : t, ((uint64_t)ev_class[type] << 56) | key};
            g_array_append_val(ref, r);
            times[ntimes < 64 ? ntimes++ : g_rand_int_range(rng, 0, 64)] = t;
            size_t runs_now = 0;
            for (int k = 0; k < EVQ_RUNS; k++)
                runs_now += q.run[k].n;
            in_runs += runs_now > runs_before;
            continue;
        }
        size_t m = 0;
        for (size_t i = 1; i < ref->len; i++)
            if (ref_cmp(&g_array_index(ref, ref_ev, i), &g_array_index(ref, ref_ev, m)) < 0)
                m = i;
        ref_ev want = g_array_index(ref, ref_ev, m);
        if (g_rand_int_range(rng, 0, 4) == 0) { /* evq_next_before at the least event's time or near it */
            event k = {.t = want.t + (g_rand_boolean(rng) ? 0 : 1e-9),
                       .key = (uint64_t)g_rand_int_range(rng, 0, 5) << 56};
            ref_ev kr = {k.t, k.key};
            /* the evaluator's inline forms, or the functions */
            g_assert_cmpint(step % 2 ? evq_next_before_in(&q, &k) : evq_next_before(&q, &k), ==,
                            ref_cmp(&want, &kr) < 0);
        }
        event e;
        g_assert_true(step % 3 ? evq_pop_in(&q, &e) : evq_pop(&q, &e));
        if (e.t != want.t || e.key != want.key)
            g_error("pop %zu: (%.17g, %#" G_GINT64_MODIFIER
                    "x), the least waiting is (%.17g, %#" G_GINT64_MODIFIER "x)",
                    pops, e.t, e.key, want.t, want.key);
        g_array_remove_index_fast(ref, (guint)m);
        now = e.t;
        pops++;
    }
    g_assert_cmpuint(q.n, ==, ref->len);
    g_assert_false(q.past);
    g_assert_cmpuint(in_runs, >, 10000); /* events that went to a run (14,957) */
    /* drain, then a push before the last instant */
    event e;
    while (evq_pop(&q, &e))
        now = e.t;
    g_assert_true(evq_push(&q, now - 1, EV_START, 0, 0, 0));
    g_assert_true(q.past);
    g_assert_cmpuint(pops, >, 50000);
    /* an event at +inf (a run's mark of empty) is not lost behind the runs */
    evq_reset(&q);
    g_assert_true(evq_push(&q, 1.0, EV_FLOW_END, 0, 0, 1));
    g_assert_true(evq_push(&q, INFINITY, EV_FLOW_END, 0, 0, 2));
    g_assert_true(evq_push(&q, 2.0, EV_RESUME, 0, 0, 3));
    const double inf_want[] = {1.0, 2.0, INFINITY};
    for (int i = 0; i < 3; i++) {
        g_assert_true(evq_pop(&q, &e));
        g_assert_cmpfloat(e.t, ==, inf_want[i]);
    }
    g_assert_false(evq_pop(&q, &e));
    /* -0 and 0 are one instant: its events go by key */
    evq_reset(&q);
    const double zt[] = {0.0, -0.0, 0.0, -0.0};
    const uint64_t zk[] = {5, 3, 1, 4}, zwant[] = {1, 3, 4, 5};
    for (int i = 0; i < 4; i++)
        g_assert_true(evq_push(&q, zt[i], EV_START, 0, 0, zk[i]));
    for (int i = 0; i < 4; i++) {
        g_assert_true(evq_pop(&q, &e));
        g_assert_cmpuint(e.key & 0xff, ==, zwant[i]);
    }
    evq_free(&q);
    g_array_free(ref, TRUE);
    g_rand_free(rng);
}

static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One instant of many events (queue.c, sort_cur): a radix sort on the keys past 48, skipping the bits no key
 * differs in, and nothing where they came in order already.  Bursts of keys in no order, ascending,
 * descending, with duplicates, differing in low bits, in high bits only, and across event classes, each
 * popped in order of key against a sorted copy. */
static void test_event_queue_instant(void)
{
    GRand *rng = g_rand_new_with_seed(23);
    evq q;
    memset(&q, 0, sizeof(q));
    const size_t sizes[] = {47, 48, 300, 5000, 40000};
    for (size_t si = 0; si < G_N_ELEMENTS(sizes); si++)
        for (int form = 0; form < 6; form++) {
            size_t n = sizes[si];
            uint64_t *want = g_new(uint64_t, n);
            evq_reset(&q);
            for (size_t i = 0; i < n; i++) {
                uint64_t k;
                uint8_t type = EV_START;
                switch (form) {
                case 0: /* no order */
                    k = (uint64_t)g_rand_int(rng) << 8 | (uint64_t)g_rand_int_range(rng, 0, 256);
                    break;
                case 1: /* ascending */
                    k = 3 * i + 7;
                    break;
                case 2: /* descending */
                    k = 5 * (n - i);
                    break;
                case 3: /* duplicates among a few values */
                    k = (uint64_t)g_rand_int_range(rng, 0, 5);
                    break;
                case 4: /* only bits 30 to 52 differ */
                    k = ((uint64_t)g_rand_int_range(rng, 0, 1 << 22) << 30) | 0x155;
                    break;
                default: /* several classes, a rank each */
                    type = (uint8_t)g_rand_int_range(rng, 0, EV_PRIV_END + 1);
                    k = (uint64_t)g_rand_int_range(rng, 0, 1 << 20);
                }
                g_assert_true(evq_push(&q, 1e-3, type, (uint32_t)i, 0, k));
                want[i] = ((uint64_t)ev_class[type] << 56) | k;
            }
            qsort(want, n, sizeof(uint64_t), key_cmp);
            event e;
            for (size_t i = 0; i < n; i++) {
                g_assert_true(evq_pop(&q, &e));
                if (e.key != want[i])
                    g_error("%zu events, form %d: pop %zu has key %#" G_GINT64_MODIFIER
                            "x, want %#" G_GINT64_MODIFIER "x",
                            n, form, i, e.key, want[i]);
            }
            g_assert_false(evq_pop(&q, &e));
            g_free(want);
        }
    evq_free(&q);
    g_rand_free(rng);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/models/closed-form-equals-evaluator", test_closed_equals_evaluator);
    g_test_add_func("/models/last-delayed-critical-path", test_last_delayed);
    g_test_add_func("/models/eager-sender-not-delayed", test_eager_sender_not_delayed);
    g_test_add_func("/models/shared-links", test_shared_links);
    g_test_add_func("/models/every-algorithm", test_every_algorithm);
    g_test_add_func("/models/barrier", test_barrier);
    g_test_add_func("/models/reduce-scatter-closed-form", test_reduce_scatter_closed);
    g_test_add_func("/models/fit-recovers", test_fit_recovers);
    g_test_add_func("/models/bad-files", test_bad_files);
    g_test_add_func("/models/routes", test_routes);
    g_test_add_func("/models/many-ranks", test_many_ranks);
    g_test_add_func("/models/event-queue", test_event_queue);
    g_test_add_func("/models/event-queue-instant", test_event_queue_instant);
    g_test_add_func("/models/ready-queue", test_ready_queue);
    g_test_add_func("/models/bound", test_bound);
    g_test_add_func("/models/digest", test_digest);
    g_test_add_func("/models/prepare-shortcuts", test_prepare_shortcuts);
    g_test_add_func("/models/prepare-bucketed", test_prepare_bucketed);
    g_test_add_func("/models/prepare-unpaired", test_prepare_unpaired);
    g_test_add_func("/models/prepare-turned", test_prepare_turned);
    g_test_add_func("/models/prepare-resize", test_prepare_resize);
    g_test_add_func("/models/node-division", test_node_division);
    g_test_add_func("/models/wake-set", test_wake_set);
    int rc = g_test_run();
    pact_model_cell_cache_clear();
    return rc;
}
