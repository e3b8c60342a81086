/*
 * output.c - what pact tune tells a person: summary.txt (the table, what it buys under each pattern against
 * the no-delay choice, and per cell the choice, its gain and the regret of the no-delay choice) and the
 * figures (decision map of process count x size coloured by algorithm, gain heatmap), drawn by gnuplot
 * from data and scripts kept in DIR/plots/.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "pact_host.h"
#include "pact_objectives.h"
#include "pact_run.h"
#include "tune_int.h"

static const char *rule_text(pact_tune_target t)
{
    switch (t) {
    case PACT_TUNE_OMPI:
        return "Open MPI (coll_tuned dynamic rules): a communicator uses the entry of the largest tuned process\n"
               "count <= its size (the smallest tuned count's below it, as observed with 3 ranks on a file for 4);\n"
               "within it, the last rule whose message size <= the call's (bytes x processes for alltoall and\n"
               "allgather).";
    case PACT_TUNE_MPICH:
        return "MPICH (CSEL): a communicator uses the entry of the largest tuned process count <= its size\n"
               "(comm_size<NEXT entries; the smallest tuned count's below it); within it, the first\n"
               "avg_msg_size<=N (total_msg_size: allgather, bytes x processes; reduce_scatter) that holds the\n"
               "call's size.  Each choice sits inside MPICH's own restrictions (count<pow2, built-in operation,\n"
               "power-of-two size, in place), with MPICH's fallback where they fail.  Load it with\n"
               "MPIR_CVAR_DEVICE_COLLECTIVES=none MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE (without the\n"
               "first, ch4's own composition tree decides first).";
    case PACT_TUNE_PACT:
        return "libpact (table.csv): a communicator uses the largest tuned process count <= its size (the\n"
               "smallest below it), then the largest tuned ppn <= its own (the smallest below it), then the\n"
               "range that holds the size.";
    }
    return "";
}

static void human(char *buf, size_t n, guint64 b)
{
    if (b >= (1u << 20) && b % (1u << 20) == 0)
        snprintf(buf, n, "%" G_GUINT64_FORMAT "M", b >> 20);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, n, "%" G_GUINT64_FORMAT "K", b >> 10);
    else
        snprintf(buf, n, "%" G_GUINT64_FORMAT, b);
}

char *pact_tune_summary(const pact_tune *t, GPtrArray *grids, const pact_table *table)
{
    GString *s = g_string_new(NULL);
    const char *plat = pact_exp_get(t->fields, "platform");
    g_string_append_printf(s, "pact tune: objective %s, source %s", t->objective_text,
                           pact_tune_source_name(t->source));
    if (t->source == PACT_TUNE_HYBRID)
        g_string_append_printf(s, ":%d (the model ranks, SimGrid decides among its %d best per cell)",
                               t->hybrid_k, t->hybrid_k);
    g_string_append_printf(s, ", target %s, platform %s\n", pact_tune_target_name(t->target),
                           plat ? plat : "generic32x32");
    const char *sk = pact_exp_get(t->fields, "skew"), *sf = pact_exp_get(t->fields, "skew-factor"),
               *sm = pact_exp_get(t->fields, "skew-mode");
    if (sk)
        g_string_append_printf(s, "skew: %s\n", sk);
    else
        g_string_append_printf(s, "skew: %s x %s\n", sf ? sf : "1.5", sm ? sm : "mean_nodelay");
    if (grids->len) {
        const pact_tune_grid *g0 = grids->pdata[0];
        g_string_append(s, "patterns:");
        for (unsigned p = 0; p < g0->np; p++)
            g_string_append_printf(s, " %s", (char *)g0->patterns->pdata[p]);
        g_string_append_c(s, '\n');
    }
    g_string_append_printf(s, "\nmatching:\n%s\n", rule_text(t->target));
    g_string_append(s, "\nthe table (table.csv): procs ppn bytes -> choice (objective value; runner-up)\n");
    for (guint i = 0; i < table->rows->len; i++) {
        const pact_table_row *r = &g_array_index(table->rows, pact_table_row, i);
        char lo[32], hi[32];
        human(lo, sizeof lo, r->min_bytes);
        if (r->max_bytes == PACT_TABLE_INF)
            snprintf(hi, sizeof hi, "inf");
        else
            human(hi, sizeof hi, r->max_bytes);
        g_string_append_printf(s, "  %-15s %5d %3d %8s..%-8s %-36s %.4g%s%s\n", pact_coll_name(r->coll), r->procs,
                               r->ppn, lo, hi, pact_table_spec(r), r->value, r->runner_up ? "; " : "",
                               r->runner_up ? r->runner_up : "");
    }
    for (guint gi = 0; gi < grids->len; gi++) {
        const pact_tune_grid *g = grids->pdata[gi];
        g_string_append_printf(s, "\n== %s: %u candidates, %u cells ==\n", pact_coll_name(g->coll), g->na,
                               g->cells->len);
        if (g->unreliable)
            g_string_append_printf(s, "(%u runs with status late or wrong were left out)\n", g->unreliable);
        /* what the choice buys: per pattern the mean over cells of d^(choice) / d^(no-delay choice) */
        g_string_append(s, "d^ of the choice / d^ of the no-delay choice, mean over the cells (1.0: the same):\n");
        double all = 0, *mean = g_new(double, g->np);
        unsigned alln = 0;
        double worst = -INFINITY;
        for (unsigned p = 0; p < g->np; p++) {
            mean[p] = NAN;
            double sum = 0;
            unsigned n = 0;
            for (guint i = 0; i < g->cells->len; i++) {
                const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
                double a = c->d[g->choice[i] * g->np + p], b = c->d[g->nodelay[i] * g->np + p];
                if (isnan(a) || isnan(b) || b <= 0)
                    continue;
                sum += a / b;
                n++;
            }
            if (!n)
                continue;
            g_string_append_printf(s, "  %-16s %.4f\n", (char *)g->patterns->pdata[p], sum / n);
            all += sum;
            alln += n;
            mean[p] = sum / n;
            worst = fmax(worst, mean[p]);
        }
        if (alln) {
            /* the worst, and every pattern that ties with it as printed: which of two patterns 1e-12 apart
             * is named must not depend on the evaluator's rounding */
            char ws[32], ps[32];
            snprintf(ws, sizeof ws, "%.4f", worst);
            GString *names = g_string_new(NULL);
            unsigned tied = 0, with = 0;
            for (unsigned p = 0; p < g->np; p++) {
                snprintf(ps, sizeof ps, "%.4f", mean[p]);
                with += !isnan(mean[p]);
                if (!isnan(mean[p]) && !strcmp(ps, ws))
                    g_string_append_printf(names, "%s%s", tied++ ? " = " : "", (char *)g->patterns->pdata[p]);
            }
            g_string_append_printf(s, "  %-16s %.4f (worst pattern: %s, %s)\n", "all patterns", all / alln,
                                   tied == with && with > 1 ? "all alike" : names->str, ws);
            g_string_free(names, TRUE);
        }
        g_free(mean);
        /* per cell: the mean d^ over the patterns of the choice / that of the no-delay choice (what a run whose
         * calls arrive under each pattern equally often spends in the collective) */
        double msum = 0, mlo = INFINITY, mhi = -INFINITY;
        unsigned mn = 0, better10 = 0;
        for (guint i = 0; i < g->cells->len; i++) {
            const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
            double sa = 0, sb = 0;
            gboolean ok = TRUE;
            for (unsigned p = 0; p < g->np; p++) {
                double a = c->d[g->choice[i] * g->np + p], b = c->d[g->nodelay[i] * g->np + p];
                ok &= !isnan(a) && !isnan(b);
                sa += a;
                sb += b;
            }
            if (!ok || sb <= 0)
                continue;
            double r = sa / sb;
            msum += r;
            mn++;
            mlo = fmin(mlo, r);
            mhi = fmax(mhi, r);
            better10 += r <= 0.9;
        }
        if (mn)
            g_string_append_printf(s,
                                   "mean d^ over the patterns, choice / no-delay choice: %.4f over the cells (from "
                                   "%.4f to %.4f; %u of %u cells 10%% lower or better)\n",
                                   msum / mn, mlo, mhi, better10, mn);
        /* the same for the robustness score (mean over the patterns of d^ / the best d^, Fig. 8) and the worst
         * such ratio (regret) */
        for (int k = 0; k < 2; k++) {
            pact_tune_objective o = k ? PACT_TUNE_REGRET : PACT_TUNE_ROBUST;
            double rs = 0;
            unsigned rn = 0, rb = 0;
            for (guint i = 0; i < g->cells->len; i++) {
                const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
                double a = pact_tune_value(o, c->d, g->na, g->np, g->nd, NULL, g->choice[i]);
                double b = pact_tune_value(o, c->d, g->na, g->np, g->nd, NULL, g->nodelay[i]);
                if (isnan(a) || isnan(b) || b <= 0)
                    continue;
                rs += a / b;
                rn++;
                rb += a / b <= 0.9;
            }
            if (rn)
                g_string_append_printf(s, "%s, choice / no-delay choice: %.4f over the cells (%u of %u cells 10%% "
                                          "lower or better)\n",
                                       k ? "worst d^ / best d^ over the patterns (regret)"
                                         : "mean over the patterns of d^ / best d^ (robustness score, Fig. 8)",
                                       rs / rn, rb, rn);
        }
        if (g->model_choice) {
            unsigned same = 0, n = 0;
            for (guint i = 0; i < g->cells->len; i++)
                if (g->model_choice[i] != PACT_OBJ_NONE && g->choice[i] != PACT_OBJ_NONE) {
                    n++;
                    same += g->model_choice[i] == g->choice[i];
                }
            g_string_append_printf(s, "hybrid: the model's choice is SimGrid's in %u of %u cells (%.1f%%)\n", same, n,
                                   n ? 100.0 * same / n : 0.0);
            /* where it is not: what trusting the model would have cost, by SimGrid's own runs of both (the
             * model's choice is among the K best that SimGrid ran under every pattern) */
            if (same < n)
                g_string_append_printf(
                    s,
                    "where it is not, by the objective (%s) under SimGrid: procs ppn bytes: the "
                    "model's choice | SimGrid's | the model's choice's excess\n",
                    t->objective_text);
            for (guint i = 0; i < g->cells->len; i++) {
                const unsigned mc = g->model_choice[i], sc = g->choice[i];
                if (mc == PACT_OBJ_NONE || sc == PACT_OBJ_NONE || mc == sc)
                    continue;
                const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
                const double vm = pact_tune_value(t->objective, c->d, g->na, g->np, g->nd, g->w, mc);
                const double vs = g->value[i];
                char b[32], ex[32];
                human(b, sizeof b, c->bytes);
                if (isnan(vm) || isnan(vs) || vs <= 0)
                    snprintf(ex, sizeof ex, "-");
                else
                    snprintf(ex, sizeof ex, "%+.1f%%", (vm / vs - 1) * 100);
                g_string_append_printf(s, "  %5d %3d %6s: %s %.4g | %s %.4g | %s\n", c->procs, c->ppn, b,
                                       (char *)g->algs->pdata[mc], vm, (char *)g->algs->pdata[sc], vs, ex);
            }
        }
        g_string_append(s, "per cell: procs ppn bytes: choice | no-delay choice (its regret) | gain of the choice "
                           "under each pattern, %\n");
        for (guint i = 0; i < g->cells->len; i++) {
            const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
            char b[32];
            human(b, sizeof b, c->bytes);
            double reg = pact_tune_value(PACT_TUNE_REGRET, c->d, g->na, g->np, g->nd, NULL, g->nodelay[i]);
            g_string_append_printf(s, "  %5d %3d %6s: %s | %s (%.3f) |", c->procs, c->ppn, b,
                                   (char *)g->algs->pdata[g->choice[i]], (char *)g->algs->pdata[g->nodelay[i]], reg);
            for (unsigned p = 0; p < g->np; p++) {
                double a = c->d[g->choice[i] * g->np + p], n = c->d[g->nodelay[i] * g->np + p];
                if (isnan(a) || isnan(n) || a <= 0)
                    g_string_append(s, " -");
                else
                    g_string_append_printf(s, " %+.1f", (n / a - 1) * 100);
            }
            g_string_append_c(s, '\n');
        }
    }
    return g_string_free(s, FALSE);
}

/* ---- figures ------------------------------------------------------------------------------------------ */

static const char *const colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
                                      "#8c6d31", "#843c39", "#7b4173", "#3182bd"};

static char *gp_quote(const char *s)
{
    GString *o = g_string_new("'");
    for (; *s; s++) {
        if (*s == '\'')
            g_string_append_c(o, '\'');
        g_string_append_c(o, *s);
    }
    g_string_append_c(o, '\'');
    return g_string_free(o, FALSE);
}

/* One figure: data and script into plots/, then gnuplot draws NAME.png and NAME.svg into dir. */
static gboolean draw(const char *gnuplot, const char *dir, const char *name, const char *data, const char *script,
                     GError **err)
{
    g_autofree char *plots = g_build_filename(dir, "plots", NULL);
    g_mkdir_with_parents(plots, 0755);
    g_autofree char *dname = g_strdup_printf("%s.dat", name), *sname = g_strdup_printf("%s.gp", name);
    g_autofree char *dpath = g_build_filename(plots, dname, NULL), *spath = g_build_filename(plots, sname, NULL);
    if (!g_file_set_contents(dpath, data, -1, NULL) || !g_file_set_contents(spath, script, -1, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: cannot write", plots);
        return FALSE;
    }
    if (!gnuplot)
        return TRUE;
    const char *term[2][2] = {{"pngcairo size 900,600 font ',10'", "png"}, {"svg size 900,600", "svg"}};
    for (int k = 0; k < 2; k++) {
        g_autofree char *tmp = g_strdup_printf("../%s.%s.tmp", name, term[k][1]);
        g_autofree char *set = g_strdup_printf("set terminal %s; set output '%s'", term[k][0], tmp);
        char *argv[] = {(char *)gnuplot, "-e", set, sname, NULL};
        g_autofree char *errs = NULL;
        int status = 0;
        GError *e = NULL;
        if (!g_spawn_sync(plots, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &errs, &status, &e) ||
            !g_spawn_check_wait_status(status, NULL)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "gnuplot %s/%s failed: %s", plots, sname,
                        e ? e->message : errs ? g_strstrip(errs) : "");
            g_clear_error(&e);
            g_autofree char *half = g_strdup_printf("%s/%s.%s.tmp", dir, name, term[k][1]);
            remove(half);
            return FALSE;
        }
        g_autofree char *from = g_strdup_printf("%s/%s.%s.tmp", dir, name, term[k][1]);
        g_autofree char *to = g_strdup_printf("%s/%s.%s", dir, name, term[k][1]);
        if (rename(from, to) != 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", to, g_strerror(errno));
            return FALSE;
        }
    }
    return TRUE;
}

static gint u64_cmp(gconstpointer a, gconstpointer b)
{
    guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
    return x < y ? -1 : x > y;
}

gboolean pact_tune_figures(const pact_tune *t, GPtrArray *grids, const char *dir, GError **err)
{
    (void)t;
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    for (guint gi = 0; gi < grids->len; gi++) {
        const pact_tune_grid *g = grids->pdata[gi];
        /* the rows (procs, ppn) and columns (sizes) of the map */
        g_autoptr(GArray) sizes = g_array_new(FALSE, FALSE, sizeof(guint64));
        g_autoptr(GArray) rows = g_array_new(FALSE, FALSE, sizeof(int) * 2);
        for (guint i = 0; i < g->cells->len; i++) {
            const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
            gboolean s = FALSE, r = FALSE;
            for (guint k = 0; k < sizes->len; k++)
                s |= g_array_index(sizes, guint64, k) == c->bytes;
            if (!s)
                g_array_append_val(sizes, c->bytes);
            int key[2] = {c->procs, c->ppn};
            for (guint k = 0; k < rows->len; k++)
                r |= !memcmp(&((int *)rows->data)[2 * k], key, sizeof key);
            if (!r)
                g_array_append_vals(rows, key, 1);
        }
        g_array_sort(sizes, u64_cmp);
        GString *map = g_string_new("# x (size index) y (row index) choice gain%\n");
        for (guint i = 0; i < g->cells->len; i++) {
            const pact_tune_cell *c = &g_array_index(g->cells, pact_tune_cell, i);
            guint x = 0, y = 0;
            while (g_array_index(sizes, guint64, x) != c->bytes)
                x++;
            while (((int *)rows->data)[2 * y] != c->procs || ((int *)rows->data)[2 * y + 1] != c->ppn)
                y++;
            double sum = 0;
            unsigned n = 0;
            for (unsigned p = 0; p < g->np; p++) {
                double a = c->d[g->choice[i] * g->np + p], b = c->d[g->nodelay[i] * g->np + p];
                if (!isnan(a) && !isnan(b) && a > 0) {
                    sum += b / a - 1;
                    n++;
                }
            }
            g_string_append_printf(map, "%u %u %u %.6g\n", x, y, g->choice[i], n ? 100 * sum / n : 0.0);
        }
        GString *xt = g_string_new("set xtics rotate by -45 (");
        for (guint k = 0; k < sizes->len; k++) {
            char b[32];
            human(b, sizeof b, g_array_index(sizes, guint64, k));
            g_string_append_printf(xt, "%s\"%s\" %u", k ? ", " : "", b, k);
        }
        g_string_append(xt, ")\nset ytics (");
        for (guint k = 0; k < rows->len; k++)
            g_string_append_printf(xt, "%s\"%d/%d\" %u", k ? ", " : "", ((int *)rows->data)[2 * k],
                                   ((int *)rows->data)[2 * k + 1], k);
        g_string_append(xt, ")\n");
        const char *coll = pact_coll_name(g->coll);
        g_autofree char *qt = gp_quote(coll);
        /* decision map: one colour per candidate */
        GString *sc = g_string_new(NULL);
        g_string_append_printf(sc,
                               "# Redraw: cd into this folder, then: gnuplot decision-%s.gp\n"
                               "set termoption noenhanced\nset rmargin 22\nset title %s.' - choice per process count / ppn and size ("
                               "%s)' noenhanced\nset xlabel 'bytes'\nset ylabel 'processes / per node'\n%s"
                               "set cbrange [-0.5:%u.5]\nset palette maxcolors %u\nset palette defined (",
                               coll, qt, t->objective_text, xt->str, g->na - 1, g->na > 1 ? g->na : 2);
        for (unsigned a = 0; a < g->na; a++)
            g_string_append_printf(sc, "%s%u '%s'", a ? ", " : "", a, colours[a % G_N_ELEMENTS(colours)]);
        if (g->na == 1) /* gnuplot wants two colours at least */
            g_string_append_printf(sc, ", 1 '%s'", colours[0]);
        g_string_append(sc, ")\nset cbtics (");
        for (unsigned a = 0; a < g->na; a++) {
            g_autofree char *q = gp_quote(g->algs->pdata[a]);
            g_string_append_printf(sc, "%s%s %u", a ? ", " : "", q, a);
        }
        g_autofree char *dname = g_strdup_printf("decision-%s", coll), *hname = g_strdup_printf("gain-%s", coll);
        g_string_append_printf(sc, ")\nset cbtics noenhanced\nunset key\nplot '%s.dat' using 1:2:3 with image\n", dname);
        gboolean ok = draw(gnuplot, dir, dname, map->str, sc->str, err);
        /* gain heatmap: mean over the patterns of d^(no-delay choice) / d^(choice) - 1, % */
        GString *hc = g_string_new(NULL);
        g_string_append_printf(hc,
                               "# Redraw: cd into this folder, then: gnuplot gain-%s.gp\n"
                               "set termoption noenhanced\nset title %s.' - gain over the no-delay choice, mean over the patterns (%%)' "
                               "noenhanced\nset xlabel 'bytes'\nset ylabel 'processes / per node'\n%s"
                               "set palette defined (0 'white', 1 '#2ca02c')\nset cbrange [0:*]\nunset key\n"
                               "plot '%s.dat' using 1:2:4 with image, '' using 1:2:(sprintf('%%.0f', abs($4) < 0.5 ? 0 : $4)) with "
                               "labels font ',8'\n",
                               coll, qt, xt->str, hname);
        ok = ok && draw(gnuplot, dir, hname, map->str, hc->str, err);
        g_string_free(hc, TRUE);
        g_string_free(sc, TRUE);
        g_string_free(xt, TRUE);
        g_string_free(map, TRUE);
        if (!ok)
            return FALSE;
    }
    if (!gnuplot) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "gnuplot not found: no figures drawn (their scripts are in %s/plots; install gnuplot-nox, or "
                    "pass --no-figures)",
                    dir);
        return FALSE;
    }
    return TRUE;
}
