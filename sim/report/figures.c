/* figures.c - the report's figures (heatmap, robustness matrix, score), as gnuplot data and scripts and the
 * PNG and SVG they draw (see report.c for the definitions). */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pact_host.h"
#include "report_int.h"

/* ---- figures ------------------------------------------------------------------------------------------- */

/* Qualitative colours, one per algorithm in order of appearance: Okabe and Ito's eight (told apart with
 * colour-blindness too, black left out for the text), then Tol's muted ones; reused past 19. */
static const guint32 alg_colour[] = {0x0072b2, 0xe69f00, 0x009e73, 0xcc79a7, 0x56b4e9, 0xd55e00, 0xf0e442,
                                     0x332288, 0x88ccee, 0x44aa99, 0x117733, 0x999933, 0xddcc77, 0xcc6677,
                                     0x882255, 0xaa4499, 0x661100, 0x6699cc, 0x888888};
#define NO_RESULT_COLOUR 0xe8e8e8

/* Black text on light cells, white on dark ones (relative luminance). */
static guint32 text_on(guint32 rgb)
{
    double r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 128 ? 0x000000 : 0xffffff;
}

static char *human_bytes(guint64 b)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = (double)b;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    return v == floor(v) ? g_strdup_printf("%.0f %s", v, unit[u]) : g_strdup_printf("%.3g %s", v, unit[u]);
}

/* gnuplot strings in single quotes: a quote is doubled. */
static void sq(GString *o, const char *s)
{
    g_string_append_c(o, '\'');
    for (; *s; s++)
        if (*s == '\'')
            g_string_append(o, "''");
        else
            g_string_append_c(o, *s);
    g_string_append_c(o, '\'');
}

/* gnuplot strings in double quotes ("\n" breaks lines): backslash and quote escaped. */
static void dq(GString *o, const char *s)
{
    g_string_append_c(o, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            g_string_append_c(o, '\\');
        if (*s == '\n')
            g_string_append(o, "\\n");
        else
            g_string_append_c(o, *s);
    }
    g_string_append_c(o, '"');
}

/* Pattern names for axes: file:PATH shortened to file:BASENAME. */
static char *pattern_label(const char *name)
{
    if (g_str_has_prefix(name, "file:")) {
        g_autofree char *base = g_path_get_basename(name + 5);
        return g_strconcat("file:", base, NULL);
    }
    return g_strdup(name);
}

/* `set xtics (...)` and the like: labels at 0, 1, 2, ... */
static void tics(GString *o, const char *axis, GPtrArray *labels, const char *opts)
{
    g_string_append_printf(o, "set %s (", axis);
    for (guint i = 0; i < labels->len; i++) {
        if (i)
            g_string_append(o, ", ");
        g_autoptr(GString) label = g_string_new(labels->pdata[i]);
        g_string_replace(label, "%", "%%", 0); /* tic labels are formats */
        sq(o, label->str);
        g_string_append_printf(o, " %u", i);
    }
    g_string_append_printf(o, ") %s\n", opts);
}

/* Height in pixels of tic labels rotated by 30 degrees (font 10: about 6.8 pixels a character). */
static int rotated(GPtrArray *labels)
{
    return (int)(3.4 * pact_report_width_of(labels, 1)) + 22;
}

/* The script's head: what it draws, where it writes, the title and the margins in pixels, so that PNG and
 * SVG share one layout; the terminals come last (script_tail). */
static void script_head(GString *o, const char *kind, const study_t *s, const char *what, const char *title2,
                        int w, int h, int l, int r, int b)
{
    /* The title as a label centred on the figure (gnuplot centres its title on the plot, which the key and
     * the tic labels push aside), and the figure wide enough for its longest line. */
    g_autofree char *title =
        g_strdup_printf("%s on %s, P = %d (%d node%s x %d ppn), engine %s\n%s", s->coll, s->platform,
                        s->procs, s->nodes, s->nodes == 1 ? "" : "s", s->ppn, s->engine, title2);
    g_auto(GStrv) lines = g_strsplit(title, "\n", -1);
    for (char **t = lines; *t; t++)
        w = MAX(w, (int)(7.4 * (double)strlen(*t)) + 40);
    g_string_append_printf(o,
                           "# %s-%s.gp - written by pact report: %s\n"
                           "# Redraw: cd into this folder, then: gnuplot %s-%s.gp  (writes ../%s-%s.png and "
                           ".svg)\n"
                           "if (!exists(\"out\")) out = '../%s-%s'\n"
                           "dat = '%s-%s.dat'\n"
                           "W = %d; H = %d\n"
                           "set lmargin at screen %d.0/W; set rmargin at screen 1 - %d.0/W\n"
                           "set bmargin at screen %d.0/H; set tmargin at screen 1 - 70.0/H\n"
                           "set tics scale 0\nset border lw 0.5\nset label 100 ",
                           kind, s->stem, what, kind, s->stem, kind, s->stem, kind, s->stem, kind, s->stem, w,
                           h, l, r, b);
    dq(o, title);
    g_string_append(o, " at screen 0.5, screen 1 - 16.0/H center front\n");
}

/* Before the plot command: the PNG; after it (script_tail), the same plot as SVG. */
static void script_png(GString *o)
{
    g_string_append(o, "set terminal pngcairo size W,H font 'sans,10' noenhanced\nset output out.'.png'\n");
}

static void script_tail(GString *o)
{
    g_string_append(o, "set terminal svg size W,H font 'sans,10' noenhanced background rgb 'white'\n"
                       "set output out.'.svg'\nreplot\nunset output\n");
}

/* Fig. 4: x = pattern, y = size, colour = the best algorithm, number = d^_best / d^_no-delay-choice. */
static gboolean fig_heatmap(const study_t *s, GString *dat, GString *gp)
{
    g_autoptr(GPtrArray) px = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) sy = g_ptr_array_new_with_free_func(g_free);
    for (guint p = 0; p < s->np; p++)
        g_ptr_array_add(px, pattern_label(s->pats->pdata[p]));
    for (guint z = 0; z < s->nz; z++)
        g_ptr_array_add(sy, human_bytes(size_at(s, z)));
    g_autofree guint *best = g_new(guint, (gsize)s->nz * s->np);
    g_autofree gboolean *used = g_new0(gboolean, s->na + 1); /* + 1: cells where no algorithm ran */
    int nused = 0;
    for (guint z = 0; z < s->nz; z++)
        for (guint p = 0; p < s->np; p++) {
            guint b = best_of(s, z, p);
            best[z * s->np + p] = b;
            guint k = b == G_MAXUINT ? s->na : b;
            nused += !used[k];
            used[k] = TRUE;
        }
    int key = 70 + (int)(7.5 * pact_report_width_of(s->algs, 14)), tl = rotated(px);
    int l = 30 + 7 * pact_report_width_of(sy, 1) + 30, b = tl + 30;
    int w = MAX(l + 78 * (int)s->np + key, 640);
    int h = 70 + MAX(30 * (int)s->nz, 20 * (nused + 2)) + b; /* the key stays beside the plot */
    script_head(gp, "heatmap", s,
                "the best algorithm per arrival pattern and message size (Salimi Beni et al., Fig. 4)\n"
                "# data: one block per algorithm that is best somewhere: x = pattern, y = size (as the tics "
                "say), label, its colour",
                "best algorithm by mean d^ (colour), Salimi Beni et al., Fig. 4\n"
                "number: its d^ / d^ of the no-delay choice (best under no_delay) under the same pattern",
                w, h, l, key, b);
    g_string_append_printf(gp, "set xrange [-0.5:%u.5]\nset yrange [-0.5:%u.5]\n", s->np - 1, s->nz - 1);
    tics(gp, "xtics", px, "rotate by 30 right nomirror");
    tics(gp, "ytics", sy, "nomirror");
    g_string_append_printf(gp,
                           "set xlabel 'arrival pattern'\nset ylabel 'message size per process'\n"
                           "set key at screen 1 - %d.0/W, screen 1 - 66.0/H left top vertical Left reverse "
                           "samplen 1.5 maxrows %d title 'best algorithm'\n"
                           "set style fill solid 1.0 border lc rgb 'white'\n",
                           key - 16, nused);
    script_png(gp);
    g_string_append(gp, "plot ");
    int block = 0;
    for (guint a = 0; a <= s->na; a++) {
        if (!used[a])
            continue;
        guint32 c = a < s->na ? alg_colour[a % G_N_ELEMENTS(alg_colour)] : NO_RESULT_COLOUR;
        const char *name = a < s->na ? s->algs->pdata[a] : "no result";
        g_string_append_printf(dat, "%s# %s\n", block ? "\n\n" : "", name);
        for (guint z = 0; z < s->nz; z++)
            for (guint p = 0; p < s->np; p++) {
                guint b = best[z * s->np + p];
                if ((b == G_MAXUINT ? s->na : b) != a)
                    continue;
                guint ch = choice_of(s, z);
                double cm = b != G_MAXUINT && ch != G_MAXUINT ? mean_at(s, ch, z, p) : NAN;
                g_autofree char *label = b == G_MAXUINT ? g_strdup("-")
                                         : isnan(cm)    ? g_strdup("")
                                                        : g_strdup_printf("%.2f", mean_at(s, b, z, p) / cm);
                g_string_append_printf(dat, "%u %u \"%s\" %u\n", p, z, label, text_on(c));
            }
        g_string_append_printf(gp,
                               "%sdat index %d using 1:2:(0.5):(0.5) with boxxyerror fc rgb '#%06x' title ",
                               block ? ", \\\n     " : "", block, c);
        sq(gp, name);
        block++;
    }
    g_string_append(gp, ", \\\n     dat using 1:2:3:4 with labels tc rgb variable font ',9' notitle\n");
    script_tail(gp);
    return TRUE;
}

/* Fig. 6: rows = algorithms in one block per size (sizes stacked, a rule between them), columns = the
 * delayed patterns.  Colours: Fig. 6's three classes, shaded; beyond +-25% saturated (the clamp). */
static gboolean fig_robustness(const study_t *s, GString *dat, GString *gp)
{
    if (s->nd < 0 || s->np < 2)
        return FALSE;
    g_autoptr(GPtrArray) px = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) ry = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) block_end = g_array_new(FALSE, FALSE, sizeof(int));
    for (guint p = 1; p < s->np; p++)
        g_ptr_array_add(px, pattern_label(s->pats->pdata[p]));
    GString *missing = g_string_new(NULL), *sizes = g_string_new(NULL);
    int values = 0;
    g_string_append(dat, "# x = pattern (no_delay left out), y = row; robustness in %, colour value (beyond "
                         "+-25%: +-31.25), label, text colour\n");
    for (guint z = 0; z < s->nz; z++) {
        int first = (int)ry->len;
        for (guint a = 0; a < s->na; a++) {
            gboolean any = FALSE;
            for (guint p = 0; p < s->np; p++)
                any |= !isnan(mean_at(s, a, z, p));
            if (!any)
                continue;
            int y = (int)ry->len;
            g_ptr_array_add(ry, g_strdup(s->algs->pdata[a]));
            for (guint p = 1; p < s->np; p++) {
                double v = robustness(s, a, z, p);
                if (isnan(v)) {
                    g_string_append_printf(missing, "%u %d\n", p - 1, y);
                    continue;
                }
                gboolean sig = v < -SIGNIFICANT || v > SIGNIFICANT;
                double cv =
                    sig ? copysign(1.25 * SIGNIFICANT, v) : CLAMP(v, -SIGNIFICANT + 0.1, SIGNIFICANT - 0.1);
                g_autofree char *label = pact_report_pct(v);
                g_string_append_printf(dat, "%u %d %.6g %.4f \"%s\" %u\n", p - 1, y, v, cv, label,
                                       sig ? 0xffffffu : 0u);
                values++;
            }
        }
        if ((int)ry->len > first) {
            g_autofree char *hb = human_bytes(size_at(s, z));
            g_string_append_printf(sizes, "%s'%s' %.1f", sizes->len ? ", " : "", hb,
                                   (first + (int)ry->len - 1) / 2.0);
            int e = (int)ry->len;
            g_array_append_val(block_end, e);
        }
    }
    if (!values) {
        g_string_free(missing, TRUE);
        g_string_free(sizes, TRUE);
        return FALSE;
    }
    int rows = (int)ry->len, cols = (int)px->len;
    gboolean both = rows > 24; /* tall figures get the pattern names at the bottom too */
    int tl = rotated(px);
    int l = 30 + 7 * pact_report_width_of(ry, 1), r = 40 + 7 * 8 + 30;
    int b = both ? 66 + tl : 74, w = MAX(l + 72 * cols + r, 640), h = 70 + tl + 20 * rows + b;
    script_head(
        gp, "robustness", s,
        "d^_pattern / d^_no_delay - 1 per algorithm (Salimi Beni et al., Fig. 6), sizes stacked\n"
        "# data: index 0 x = pattern, y = row (an algorithm within its size), value in %, colour value, "
        "label, text colour; index 1 cells without a value",
        "d^ under the pattern / d^ under no_delay - 1 of each algorithm, in % (Salimi Beni et al., Fig. 6)\n"
        "green: more than 25% faster than without delay, red: more than 25% slower",
        w, h, l, r, b);
    /* the plot's top edge sits below the pattern names */
    g_string_append_printf(gp, "set tmargin at screen 1 - %d.0/H\n", 70 + tl);
    g_string_append_printf(gp,
                           "set xrange [-0.5:%d.5]\nset x2range [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
                           "set y2range [%d.5:-0.5]\n",
                           cols - 1, cols - 1, rows - 1, rows - 1);
    tics(gp, "x2tics", px, "rotate by 30 left");
    if (both)
        tics(gp, "xtics", px, "rotate by 30 right nomirror");
    else
        g_string_append(gp, "unset xtics\n");
    tics(gp, "ytics", ry, "nomirror");
    g_string_append_printf(gp, "set y2tics (%s) nomirror\nset y2label 'message size per process'\n",
                           sizes->str);
    for (guint i = 0; i + 1 < block_end->len; i++)
        g_string_append_printf(
            gp, "set arrow from graph 0, first %d.5 to graph 1, first %d.5 nohead lw 2 front\n",
            g_array_index(block_end, int, i) - 1, g_array_index(block_end, int, i) - 1);
    g_string_append(
        gp, "set palette defined (-37.5 '#1b7837', -25 '#1b7837', -24.9 '#a6dba0', 0 '#f2f2f2', 24.9 "
            "'#f4a582', 25 '#b2182b', 37.5 '#b2182b')\nset cbrange [-37.5:37.5]\n"
            "set cbtics ('-25%%' -25, '0' 0, '+25%%' 25)\n"
            "set colorbox horizontal user origin screen 0.3, screen 22.0/H size screen 0.4, screen 12.0/H\n"
            "set label 1 'd^ change vs no_delay; colours clamped beyond +-25%' at screen 0.5, screen "
            "46.0/H center\n"
            "set label 2 'faster: absorbs the skew' at screen 0.3 - 8.0/W, screen 28.0/H right\n"
            "set label 3 'slower: suffers' at screen 0.7 + 8.0/W, screen 28.0/H left\n"
            "set style fill solid 1.0 border lc rgb 'white'\n");
    script_png(gp);
    g_string_append(gp, "plot dat index 0 using 1:2:(0.5):(0.5):4 with boxxyerror fc palette notitle, \\\n"
                        "     dat index 0 using 1:2:5:6 with labels tc rgb variable font ',9' notitle");
    if (missing->len) {
        g_string_append_printf(dat, "\n\n# cells without a value (the algorithm did not run there)\n%s",
                               missing->str);
        g_string_append(gp, ", \\\n     dat index 1 using 1:2:(0.5):(0.5) with boxxyerror fc rgb '#ffffff' "
                            "notitle, \\\n     dat index 1 using 1:2:('-') with labels notitle");
    }
    g_string_append_c(gp, '\n');
    g_string_free(missing, TRUE);
    g_string_free(sizes, TRUE);
    script_tail(gp);
    return TRUE;
}

/* Fig. 8's last row for every size: rows = algorithms, columns = sizes, value = the score; the lowest per
 * size framed, the no-delay choice marked. */
static gboolean fig_score(const study_t *s, GString *dat, GString *gp)
{
    g_autoptr(GPtrArray) sx = g_ptr_array_new_with_free_func(g_free);
    for (guint z = 0; z < s->nz; z++)
        g_ptr_array_add(sx, human_bytes(size_at(s, z)));
    g_autofree double *score = g_new(double, s->na);
    GString *top = g_string_new(NULL), *chosen = g_string_new(NULL), *missing = g_string_new(NULL);
    g_string_append(
        dat, "# x = size, y = algorithm; score, colour value (clamped to [1, 4]), label, text colour\n");
    for (guint z = 0; z < s->nz; z++) {
        guint miss, ch = choice_of(s, z);
        for (guint a = 0; a < s->na; a++)
            score[a] = score_of(s, a, z, &miss);
        for (guint a = 0; a < s->na; a++) {
            if (isnan(score[a])) {
                g_string_append_printf(missing, "%u %u\n", z, a);
                continue;
            }
            double cv = CLAMP(score[a], 1, 4);
            g_string_append_printf(dat, "%u %u %.6g %.4f \"%.*f\" %u\n", z, a, score[a], cv,
                                   score[a] >= 99.5 ? 0 : 2, score[a], cv > 3 ? 0xffffffu : 0u);
            if (pact_obj_rank(score, s->na, a) == 1)
                g_string_append_printf(top, "%u %u\n", z, a);
        }
        if (ch != G_MAXUINT)
            g_string_append_printf(chosen, "%u %u\n", z, ch);
    }
    if (!top->len) {
        g_string_free(top, TRUE);
        g_string_free(chosen, TRUE);
        g_string_free(missing, TRUE);
        return FALSE;
    }
    int l = 30 + 7 * pact_report_width_of(s->algs, 1), tl = rotated(sx);
    int w = MAX(l + 70 * (int)s->nz + 130, 640), b = tl + 40 + 30;
    int h = 70 + 28 * (int)s->na + b;
    g_autofree char *title2 =
        g_strdup_printf("robustness score = mean over the %u pattern%s of d^ / d^ of the fastest algorithm "
                        "under that pattern\n"
                        "(Salimi Beni et al., Fig. 8); 1 = always the fastest, lower is more robust",
                        s->np, pact_report_plural(s->np));
    script_head(
        gp, "score", s,
        "average normalized d^ per algorithm and size (Salimi Beni et al., Fig. 8, last row)\n"
        "# data: index 0 the scores (x = size, y = algorithm, score, colour value, label, text colour), "
        "index 1 the lowest score per size, index 2 the no-delay choice, index 3 no score",
        title2, w, h + 14, l, 130, b);
    g_string_append_printf(gp, "BOT = %d.0\n", b);
    g_string_append_printf(
        gp, "set tmargin at screen 1 - 84.0/H\nset xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\n", s->nz - 1,
        s->na - 1);
    tics(gp, "xtics", sx, "rotate by 30 right nomirror");
    tics(gp, "ytics", s->algs, "nomirror");
    g_string_append(
        gp, "set xlabel 'message size per process'\n"
            "set palette defined (0 '#ffffff', 0.35 '#fee391', 0.7 '#fe9929', 1 '#8c2d04')\n"
            "set logscale cb 2\nset cbrange [1:4]\n"
            "set cbtics ('1' 1, '1.5' 1.5, '2' 2, '3' 3, '>= 4' 4)\nset cblabel 'score'\n"
            "set colorbox vertical user origin screen 1 - 105.0/W, screen (BOT)/H size screen 14.0/W, "
            "screen (H - 84 - BOT)/H\n"
            "set key at screen 0.5, screen 16.0/H center center horizontal maxrows 1 Left "
            "reverse samplen 1.5 width 2\n"
            "set style fill solid 1.0 border lc rgb 'white'\n");
    script_png(gp);
    g_string_append(gp,
                    "plot dat index 0 using 1:2:(0.5):(0.5):4 with boxxyerror fc palette notitle, \\\n"
                    "     dat index 0 using 1:2:5:6 with labels tc rgb variable font ',9' notitle, \\\n"
                    "     dat index 1 using 1:2:(0.46):(0.44) with boxxyerror fs empty lc rgb 'black' lw 2.5 "
                    "title 'most robust (lowest score)'");
    g_string_append_printf(dat, "\n\n# the lowest score per size\n%s", top->str);
    g_string_append_printf(dat, "\n\n# the no-delay choice per size\n%s", chosen->len ? chosen->str : "\n");
    if (chosen->len)
        g_string_append(gp,
                        ", \\\n     dat index 2 using ($1 - 0.34):($2 - 0.24) with points pt 9 ps 1.1 lc rgb "
                        "'#1f3b73' title 'no-delay choice'");
    if (missing->len) {
        g_string_append_printf(dat, "\n\n# no score: the algorithm lacks a pattern or does not apply\n%s",
                               missing->str);
        g_string_append(gp, ", \\\n     dat index 3 using 1:2:('-') with labels notitle");
    }
    g_string_append_c(gp, '\n');
    g_string_free(top, TRUE);
    g_string_free(chosen, TRUE);
    g_string_free(missing, TRUE);
    script_tail(gp);
    return TRUE;
}

/* Runs one script in DIR/plots; its outputs appear under their final names only when both are complete. */
static gboolean draw(const char *gnuplot, const char *dir, const char *plots, const char *name,
                     GPtrArray *written, GError **err)
{
    gboolean ok = FALSE;
    g_autofree char *tmp = g_strdup_printf(".%s.partial-%d", name, (int)getpid());
    g_autofree char *set_out = g_strdup_printf("out='../%s'", tmp);
    g_autofree char *script = g_strdup_printf("%s.gp", name);
    char *argv[] = {(char *)gnuplot, "-e", set_out, script, NULL};
    g_autofree char *serr = NULL;
    int status = 0;
    static const char *const ext[] = {".png", ".svg"};
    char *from[2], *to[2];
    for (int i = 0; i < 2; i++) {
        g_autofree char *f = g_strconcat(tmp, ext[i], NULL), *t = g_strconcat(name, ext[i], NULL);
        from[i] = g_build_filename(dir, f, NULL);
        to[i] = g_build_filename(dir, t, NULL);
    }
    if (!g_spawn_sync(plots, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &serr, &status, err))
        goto out;
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "gnuplot %s/%s failed: %s", plots, script,
                    serr ? g_strstrip(serr) : "");
        goto out;
    }
    for (int i = 0; i < 2; i++)
        if (g_rename(from[i], to[i]) != 0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", to[i], g_strerror(errno));
            goto out;
        }
    for (int i = 0; i < 2; i++)
        if (written)
            g_ptr_array_add(written, g_strdup(to[i]));
    ok = TRUE;
out:
    for (int i = 0; i < 2; i++) {
        g_unlink(from[i]);
        g_free(from[i]);
        g_free(to[i]);
    }
    return ok;
}

static gboolean save(const char *dir, const char *name, const GString *text, GError **err)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    GError *e = NULL;
    if (g_file_set_contents(path, text->str, (gssize)text->len, &e))
        return TRUE;
    g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
    g_error_free(e);
    return FALSE;
}

gboolean pact_report_figures(const pact_report *r, const char *dir, GPtrArray *written, GError **err)
{
    typedef gboolean (*fig_fn)(const study_t *, GString *, GString *);
    static const struct {
        const char *kind;
        fig_fn fn;
    } figs[] = {{"heatmap", fig_heatmap}, {"robustness", fig_robustness}, {"score", fig_score}};
    g_autofree char *plots = g_build_filename(dir, "plots", NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    if (g_mkdir_with_parents(plots, 0755) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot create %s: %s", plots, g_strerror(errno));
        return FALSE;
    }
    for (guint i = 0; i < r->studies->len; i++) {
        const study_t *s = r->studies->pdata[i];
        for (gsize f = 0; f < G_N_ELEMENTS(figs); f++) {
            g_autofree char *name = g_strdup_printf("%s-%s", figs[f].kind, s->stem);
            g_autofree char *dname = g_strconcat(name, ".dat", NULL), *gname = g_strconcat(name, ".gp", NULL);
            GString *dat = g_string_new(NULL), *gp = g_string_new(NULL);
            /* a figure without data (no no_delay: no robustness) is left out */
            gboolean drawn = figs[f].fn(s, dat, gp);
            gboolean ok = !drawn || (save(plots, dname, dat, err) && save(plots, gname, gp, err));
            g_string_free(dat, TRUE);
            g_string_free(gp, TRUE);
            if (!ok)
                return FALSE;
            if (drawn)
                g_ptr_array_add(names, g_steal_pointer(&name));
        }
    }
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot && names->len) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "gnuplot not found: no figures drawn (their scripts are in %s; install gnuplot-nox, or "
                    "pass --no-figures)",
                    plots);
        return FALSE;
    }
    for (guint i = 0; i < names->len; i++)
        if (!draw(gnuplot, dir, plots, names->pdata[i], written, err))
            return FALSE;
    return TRUE;
}

