/* summary.c - summary.txt: per study the best algorithm per size and pattern, the robustness table and the
 * robustness score (see report.c for the definitions). */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pact_host.h"
#include "report_int.h"

const char *pact_report_plural(guint n)
{
    return n == 1 ? "" : "s";
}

int pact_report_width_of(GPtrArray *names, int least)
{
    int w = least;
    for (guint i = 0; i < names->len; i++)
        w = MAX(w, (int)strlen(names->pdata[i]));
    return w;
}

static void summary_head(GString *o, const study_t *s)
{
    g_string_append_printf(o, "== %s on %s: %d node%s x %d ppn = %d ranks, engine %s ==\n", s->coll,
                           s->platform, s->nodes, s->nodes == 1 ? "" : "s", s->ppn, s->procs, s->engine);
    g_string_append_printf(o, "%u algorithm%s, %u size%s, %u pattern%s, ", s->na, pact_report_plural(s->na), s->nz,
                           pact_report_plural(s->nz), s->np, pact_report_plural(s->np));
    if (s->min_reps == s->max_reps)
        g_string_append_printf(o, "%d rep%s per cell", s->max_reps, s->max_reps == 1 ? "" : "s");
    else
        g_string_append_printf(o, "%d to %d reps per cell", s->min_reps, s->max_reps);
    g_string_append(o, "; skew: ");
    for (guint i = 0; i < s->skews->len; i++)
        g_string_append_printf(o, "%s%s", i ? ", " : "", (char *)s->skews->pdata[i]);
    g_string_append_printf(o, "%s\n", s->skews->len ? "" : "none");
    /* A factor's skew depends on the study (1.5 x the mean no-delay d^ was 4.68 ms on cedar, 11x ring's own
     * time): the seconds it came to, per size, the largest over the size's cells. */
    if (s->skews->len) {
        g_string_append(o, "skew in us per size:");
        for (guint z = 0; z < s->nz; z++) {
            double k = 0;
            for (guint p = 0; p < s->np; p++)
                k = fmax(k, s->skew[(gsize)z * s->np + p]);
            g_string_append_printf(o, "%s %" G_GUINT64_FORMAT " B %.3f", z ? "," : "", size_at(s, z),
                                   k * 1e6);
        }
        g_string_append_c(o, '\n');
    }
    g_string_append(
        o, "d^ = time from the last arrival to the last exit (Salimi Beni et al., Eq. 2), in microseconds,\n"
           "the mean over the reps that ran (status ok or wrong)\n");
}

/* Fig. 4 (and Fig. 5's 5% margin) as a table. */
static void summary_best(GString *o, const study_t *s)
{
    int pw = pact_report_width_of(s->pats, 8), aw = pact_report_width_of(s->algs, 15);
    g_string_append(
        o, "\nBest algorithm per size and pattern (Salimi Beni et al., Fig. 4).  no-delay choice: the "
           "best under no_delay at that\nsize; best/choice: d^ of the best over d^ of the choice under "
           "the same pattern; within5%: algorithms at most 5%\nslower than the best (Fig. 5); "
           "skew_us: the largest skew of the pattern's cells.\nrunner-up: the second least d^; margin: how "
           "much slower it is than the best.\n");
    if (s->nd < 0)
        g_string_append(o, "(no no_delay pattern in this study: no no-delay choice)\n");
    g_string_append_printf(o, "%10s  %-*s %12s  %-*s %12s  %-*s %12s  %11s  %8s  %-*s %8s\n", "bytes", pw,
                           "pattern", "skew_us", aw, "best", "d^_us", aw, "no-delay choice", "its_d^_us",
                           "best/choice", "within5%", aw, "runner-up", "margin");
    for (guint z = 0; z < s->nz; z++) {
        guint choice = choice_of(s, z);
        for (guint p = 0; p < s->np; p++) {
            guint b = best_of(s, z, p);
            g_string_append_printf(o, "%10" G_GUINT64_FORMAT "  %-*s %12.3f  ", size_at(s, z), pw,
                                   (char *)s->pats->pdata[p], s->skew[(gsize)z * s->np + p] * 1e6);
            if (b == G_MAXUINT) {
                gboolean all = TRUE;
                for (guint a = 0; a < s->na; a++)
                    all &= s->restr[ix(s, a, z, p)];
                g_string_append(o, all ? "(no algorithm applies)\n" : "(no algorithm ran)\n");
                continue;
            }
            double best = mean_at(s, b, z, p);
            int near = 0;
            for (guint a = 0; a < s->na; a++)
                near += mean_at(s, a, z, p) <= best * NEAR;
            g_string_append_printf(o, "%-*s %12.3f  ", aw, (char *)s->algs->pdata[b], best * 1e6);
            double cm = choice != G_MAXUINT ? mean_at(s, choice, z, p) : NAN;
            if (!isnan(cm))
                g_string_append_printf(o, "%-*s %12.3f  %11.3f", aw, (char *)s->algs->pdata[choice], cm * 1e6,
                                       best / cm);
            else
                g_string_append_printf(o, "%-*s %12s  %11s", aw,
                                       choice != G_MAXUINT ? (char *)s->algs->pdata[choice] : "-", "-", "-");
            g_string_append_printf(o, "  %8d  ", near);
            pact_obj_table t = table_at(s, z);
            guint r = pact_obj_best(&t, p, b);
            if (r == G_MAXUINT)
                g_string_append_printf(o, "%-*s %8s\n", aw, "-", "-");
            else { /* a near-tie the best wins by order of appearance is +0.0%, not -0.0% */
                double margin = 100 * (mean_at(s, r, z, p) / best - 1);
                g_string_append_printf(o, "%-*s %+7.1f%%\n", aw, (char *)s->algs->pdata[r],
                                       fabs(margin) < 0.05 ? 0.0 : margin);
            }
        }
    }
}

/* Spread over reps: a cell's calls differ where the engine's answer depends on more than the pattern (under
 * SimGrid, the rounding of each call's events at its own absolute times, which contended cells amplify:
 * pairwise alltoall on 256 ranks, 64 B, descending arrivals gave 835.7, 880.4, 880.4 and 851.1 us; on a real
 * machine, noise).  A mean alone hides that; so the summary names the cells whose calls lie more than
 * SPREAD_NOTE apart, and the choices of the Best table whose margin over the runner-up is within the spread
 * of either. */
#define SPREAD_NOTE 0.01
/* Below this, calls differ by rounding only: not a spread that unsettles a choice. */
#define SPREAD_FLOOR 1e-9

static void summary_spread(GString *o, const study_t *s)
{
    if (s->max_reps < 2)
        return;
    guint over = 0, cells = 0, wa = 0, wz = 0, wp = 0;
    double worst = -1;
    for (guint a = 0; a < s->na; a++)
        for (guint z = 0; z < s->nz; z++)
            for (guint p = 0; p < s->np; p++) {
                double v = spread_at(s, a, z, p);
                if (isnan(v))
                    continue;
                cells++;
                over += v > SPREAD_NOTE;
                if (v > worst) {
                    worst = v;
                    wa = a, wz = z, wp = p;
                }
            }
    if (!cells)
        return;
    g_string_append(
        o, "\nSpread over reps: (largest - least d^) / mean of one cell's calls.  Under SimGrid each "
           "call's events round\nat its own absolute times, and contended cells amplify that "
           "(results/reference/fidelity.md); on a real\nmachine it is noise.\n");
    gsize k = ix(s, wa, wz, wp);
    g_string_append_printf(o,
                           "cells over %.0f%%: %u of %u; the largest: %s, %" G_GUINT64_FORMAT
                           " B, %s: %.1f%% "
                           "(%.3f .. %.3f us)\n",
                           100 * SPREAD_NOTE, over, cells, (char *)s->algs->pdata[wa], size_at(s, wz),
                           (char *)s->pats->pdata[wp], 100 * worst, s->lo[k] * 1e6, s->hi[k] * 1e6);
    int pw = pact_report_width_of(s->pats, 8), aw = pact_report_width_of(s->algs, 9);
    gboolean head = FALSE;
    for (guint z = 0; z < s->nz; z++)
        for (guint p = 0; p < s->np; p++) {
            guint b = best_of(s, z, p);
            if (b == G_MAXUINT)
                continue;
            pact_obj_table t = table_at(s, z);
            guint r = pact_obj_best(&t, p, b);
            if (r == G_MAXUINT)
                continue;
            double margin = mean_at(s, r, z, p) / mean_at(s, b, z, p) - 1;
            double sp = fmax(spread_at(s, b, z, p), spread_at(s, r, z, p));
            if (!(sp > SPREAD_FLOOR && margin < sp))
                continue;
            if (!head)
                g_string_append_printf(o,
                                       "best and runner-up closer than their calls' spread (these calls do "
                                       "not settle the choice):\n%10s  %-*s %-*s %-*s %8s %8s\n",
                                       "bytes", pw, "pattern", aw, "best", aw, "runner-up", "margin",
                                       "spread");
            head = TRUE;
            g_string_append_printf(o, "%10" G_GUINT64_FORMAT "  %-*s %-*s %-*s %+7.1f%% %7.1f%%\n",
                                   size_at(s, z), pw, (char *)s->pats->pdata[p], aw,
                                   (char *)s->algs->pdata[b], aw, (char *)s->algs->pdata[r], 100 * margin,
                                   100 * sp);
        }
}

/* A robustness in % for people: one decimal (none from 1000 on), signed, "0.0" rather than "-0.0". */
char *pact_report_pct(double v)
{
    if (fabs(v) < 0.05)
        return g_strdup("0.0");
    return g_strdup_printf("%+.*f", fabs(v) >= 999.95 ? 0 : 1, v);
}

/* Fig. 6 as one table per size. */
static void summary_robustness(GString *o, const study_t *s)
{
    g_string_append(
        o, "\nRobustness (Salimi Beni et al., Fig. 6): d^ under the pattern / d^ under no_delay - 1 of "
           "the same algorithm, in %;\nbelow 0 the algorithm absorbs the skew, above 0 it suffers; * "
           "marks beyond -25% or +25% (Fig. 6's green and red).\n");
    if (s->nd < 0 || s->np < 2) {
        g_string_append(o, s->nd < 0 ? "(no no_delay pattern in this study: no robustness table)\n"
                                     : "(no pattern but no_delay in this study: no robustness table)\n");
        return;
    }
    if (s->skews->len == 1 && strncmp(s->skews->pdata[0], "own_nodelay", 11))
        g_string_append(
            o, "(Fig. 6 gives each algorithm a skew of its own no-delay d^: --skew-mode own_nodelay; "
               "this study did not)\n");
    int aw = pact_report_width_of(s->algs, 9);
    for (guint z = 0; z < s->nz; z++) {
        g_string_append_printf(o, "\n%" G_GUINT64_FORMAT " bytes\n%-*s", size_at(s, z), aw, "algorithm");
        for (guint p = 1; p < s->np; p++)
            g_string_append_printf(o, "  %*s", MAX(9, (int)strlen(s->pats->pdata[p])),
                                   (char *)s->pats->pdata[p]);
        g_string_append_c(o, '\n');
        GString *none = g_string_new(NULL);
        for (guint a = 0; a < s->na; a++) {
            gboolean any = FALSE;
            for (guint p = 0; p < s->np; p++)
                any |= !isnan(mean_at(s, a, z, p));
            if (!any) {
                g_string_append_printf(none, " %s", (char *)s->algs->pdata[a]);
                continue;
            }
            g_string_append_printf(o, "%-*s", aw, (char *)s->algs->pdata[a]);
            for (guint p = 1; p < s->np; p++) {
                int w = MAX(9, (int)strlen(s->pats->pdata[p]));
                double v = robustness(s, a, z, p);
                if (isnan(v))
                    g_string_append_printf(o, "  %*s ", w - 1, "-");
                else {
                    g_autofree char *t = pact_report_pct(v);
                    g_string_append_printf(o, "  %*s%c", w - 1, t,
                                           v < -SIGNIFICANT || v > SIGNIFICANT ? '*' : ' ');
                }
            }
            g_string_append_c(o, '\n');
        }
        if (none->len)
            g_string_append_printf(o, "(no result:%s)\n", none->str);
        g_string_free(none, TRUE);
    }
}

/* Fig. 8's last row, ranked per size. */
static void summary_score(GString *o, const study_t *s)
{
    int aw = pact_report_width_of(s->algs, 9), pw = pact_report_width_of(s->pats, 13);
    g_string_append_printf(
        o,
        "\nRobustness score (Salimi Beni et al., Fig. 8, last row): per pattern, d^ over d^ of "
        "the fastest algorithm under it,\naveraged over the study's %u pattern%s%s; 1 = the fastest under "
        "every "
        "pattern, lower is more\nrobust.  no_delay: the same ratio under no_delay alone; worst: the largest "
        "ratio and its pattern.\n",
        s->np, pact_report_plural(s->np), s->nd >= 0 ? " (no_delay included)" : "");
    g_string_append_printf(o, "%10s  %4s  %-*s %9s %9s %9s  %s\n", "bytes", "rank", aw, "algorithm", "score",
                           "no_delay", "worst", "worst_pattern");
    g_autofree double *score = g_new(double, s->na);
    g_autofree guint *order = g_new(guint, s->na);
    for (guint z = 0; z < s->nz; z++) {
        if (z)
            g_string_append_c(o, '\n');
        for (guint a = 0; a < s->na; a++) {
            guint miss;
            score[a] = score_of(s, a, z, &miss);
        }
        /* by rank, then by first appearance; algorithms without a score last */
        guint n = 0;
        for (int r = 1; r <= (int)s->na; r++)
            for (guint a = 0; a < s->na; a++)
                if (pact_obj_rank(score, s->na, a) == r)
                    order[n++] = a;
        for (guint a = 0; a < s->na; a++)
            if (isnan(score[a]))
                order[n++] = a;
        for (guint i = 0; i < s->na; i++) {
            guint a = order[i], miss;
            int rank = pact_obj_rank(score, s->na, a);
            g_string_append_printf(o, "%10" G_GUINT64_FORMAT "  ", size_at(s, z));
            if (!rank) {
                score_of(s, a, z, &miss);
                gboolean applies = FALSE;
                for (guint p = 0; p < s->np; p++)
                    applies |= !s->restr[ix(s, a, z, p)];
                g_string_append_printf(o, "%4s  %-*s %9s  ", "-", aw, (char *)s->algs->pdata[a], "-");
                if (!applies)
                    g_string_append(o, "(does not apply)\n");
                else if (miss != G_MAXUINT)
                    g_string_append_printf(o, "(no result under %s)\n", (char *)s->pats->pdata[miss]);
                else
                    g_string_append(o, "(no result)\n");
                continue;
            }
            double worst = -1;
            guint wp = 0;
            for (guint p = 0; p < s->np; p++) {
                double v = normalized(s, a, z, p);
                if (!isnan(v) && v > worst * (1 + 1e-9)) {
                    worst = v;
                    wp = p;
                }
            }
            double ndv = s->nd < 0 ? NAN : normalized(s, a, z, (guint)s->nd);
            g_string_append_printf(o, "%4d  %-*s %9.3f ", rank, aw, (char *)s->algs->pdata[a], score[a]);
            if (isnan(ndv))
                g_string_append_printf(o, "%9s ", "-");
            else
                g_string_append_printf(o, "%9.3f ", ndv);
            g_string_append_printf(o, "%9.3f  %-*s\n", worst, pw, (char *)s->pats->pdata[wp]);
        }
    }
}

static void summary_notes(GString *o, const study_t *s)
{
    gboolean head = FALSE;
    for (guint a = 0; a < s->na; a++) {
        GString *at = g_string_new(NULL);
        for (guint z = 0; z < s->nz; z++) {
            gboolean all = TRUE, any = FALSE;
            for (guint p = 0; p < s->np; p++) {
                all &= s->restr[ix(s, a, z, p)];
                any |= s->restr[ix(s, a, z, p)];
            }
            if (all && any)
                g_string_append_printf(at, "%s%" G_GUINT64_FORMAT, at->len ? "," : "", size_at(s, z));
        }
        if (at->len) {
            if (!head)
                g_string_append(o, "\nRestricted (the algorithm does not apply):\n");
            head = TRUE;
            const char *why = a < s->why->len ? s->why->pdata[a] : NULL;
            g_string_append_printf(o, "  %s at %s bytes%s%s%s\n", (char *)s->algs->pdata[a], at->str,
                                   why && *why ? " (" : "", why && *why ? why : "", why && *why ? ")" : "");
        }
        g_string_free(at, TRUE);
    }
    if (s->statuses->len) {
        g_string_append(o, "\nWARNING: calls that did not run cleanly:");
        for (guint i = 0; i < s->statuses->len; i++) {
            const char *st = s->statuses->pdata[i];
            g_string_append_printf(o, "%s %d %s", i ? "," : "", g_array_index(s->status_n, int, i), st);
        }
        g_string_append(o, "\n(wrong: the result differs from the library's, its time counts; the others' "
                           "times do not count)\n");
    }
}

char *pact_report_summary(const pact_report *r)
{
    GString *o = g_string_new(NULL);
    for (guint i = 0; i < r->studies->len; i++) {
        const study_t *s = r->studies->pdata[i];
        if (i)
            g_string_append(o, "\n\n");
        summary_head(o, s);
        summary_best(o, s);
        summary_spread(o, s);
        summary_robustness(o, s);
        summary_score(o, s);
        summary_notes(o, s);
    }
    if (!r->studies->len)
        g_string_append(o, "no results (results.csv holds only its header)\n");
    /* the tables pad their last column: no trailing blanks */
    g_auto(GStrv) lines = g_strsplit(o->str, "\n", -1);
    g_string_free(o, TRUE);
    for (char **l = lines; *l; l++)
        g_strchomp(*l);
    return g_strjoinv("\n", lines);
}
