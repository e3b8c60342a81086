/* test_costs.c - the cost formula each registry entry shows (pact list algorithms) against the closed form
 * the model computes (models/closed.c), for every algorithm of the collectives whose m is one block: the
 * strings of alltoall counted m per process while everything else counts it per block (issue 16.12). */
#include <ctype.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "pact_models.h"
#include "pact_coll.h"

/* A tiny evaluator of the formulas' leading expression: numbers, P, m, alpha, beta, gamma, + - * /,
 * parentheses, ceil(), log2(); it stops at the first thing it does not know (", all messages ...", " [ring
 * if P odd]", " with K >= P-1"). */
typedef struct {
    const char *p;
    double P, m, alpha, beta, gamma;
    gboolean bad;
} expr;

static double sum(expr *e);

static void blanks(expr *e)
{
    while (*e->p == ' ')
        e->p++;
}

static double atom(expr *e)
{
    blanks(e);
    static const char *const fns[] = {"ceil(", "log2(", "log2 "};
    for (guint i = 0; i < G_N_ELEMENTS(fns); i++)
        if (g_str_has_prefix(e->p, fns[i])) {
            gboolean paren = fns[i][4] == '(';
            e->p += strlen(fns[i]);
            double v = paren ? sum(e) : atom(e);
            if (paren && *e->p++ != ')')
                e->bad = TRUE;
            return i == 0 ? ceil(v) : log2(v);
        }
    if (*e->p == '(') {
        e->p++;
        double v = sum(e);
        if (*e->p++ != ')')
            e->bad = TRUE;
        return v;
    }
    if (isdigit((unsigned char)*e->p)) {
        char *end;
        double v = g_ascii_strtod(e->p, &end);
        e->p = end;
        return v;
    }
    static const char *const vars[] = {"alpha", "beta", "gamma", "P", "m"};
    for (guint i = 0; i < G_N_ELEMENTS(vars); i++)
        if (g_str_has_prefix(e->p, vars[i]) && !isalnum((unsigned char)e->p[strlen(vars[i])])) {
            e->p += strlen(vars[i]);
            const double v[] = {e->alpha, e->beta, e->gamma, e->P, e->m};
            return v[i];
        }
    e->bad = TRUE;
    return NAN;
}

static double product(expr *e)
{
    double v = atom(e);
    for (;;) {
        blanks(e);
        if (*e->p == '*' || *e->p == '/') {
            char op = *e->p++;
            double w = atom(e);
            v = op == '*' ? v * w : v / w;
        } else {
            return v;
        }
    }
}

static double sum(expr *e)
{
    double v = product(e);
    for (;;) {
        blanks(e);
        if (*e->p == '+' || *e->p == '-') {
            char op = *e->p++;
            double w = product(e);
            v = op == '+' ? v + w : v - w;
        } else {
            return v;
        }
    }
}

static void test_block_costs(void)
{
    int checked = 0;
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        if (!pact_coll_m_per_block(a->coll))
            continue;
        pact_model_terms t;
        if (!pact_model_terms_of(a, 8, 1024, &t, NULL))
            continue; /* no closed form */
        expr e = {.p = a->cost, .P = 8, .m = 1024, .alpha = 1e-6, .beta = 1e-9, .gamma = 0};
        double shown = sum(&e), model = t.a * e.alpha + t.b * e.beta + t.c * e.gamma;
        if (e.bad || fabs(shown / model - 1) > 1e-12)
            g_error("%s %s: cost '%s' gives %g s at P = 8, m = 1 KiB per block; the closed form %g s",
                    pact_coll_name(a->coll), a->name, a->cost, shown, model);
        checked++;
    }
    g_assert_cmpint(checked, >=, 9); /* every alltoall and allgather algorithm */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/costs/per-block", test_block_costs);
    return g_test_run();
}
