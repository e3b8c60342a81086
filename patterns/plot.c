/* plot.c - a pattern as a figure: delay per rank, drawn by gnuplot (pngcairo). */
#include "pact_patterns.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "pact_host.h"

/* Delays in the unit that keeps the largest between 1 and 1000. */
static double unit_of(const double *d, int p, const char **name)
{
    double hi = 0;
    for (int i = 0; i < p; i++)
        hi = fmax(hi, d[i]);
    if (hi >= 1 || hi == 0) {
        *name = "s";
        return 1;
    }
    if (hi >= 1e-3) {
        *name = "ms";
        return 1e3;
    }
    if (hi >= 1e-6) {
        *name = "us";
        return 1e6;
    }
    *name = "ns";
    return 1e9;
}

/* gnuplot strings in single quotes: a quote is doubled. */
static char *quoted(const char *s)
{
    GString *o = g_string_new("'");
    for (; *s; s++)
        if (*s == '\'')
            g_string_append(o, "''");
        else
            g_string_append_c(o, *s);
    g_string_append_c(o, '\'');
    return g_string_free(o, FALSE);
}

gboolean pact_pattern_plot(const double *d, int p, const char *title, const char *png, GError **err)
{
    gboolean ok = FALSE;
    const char *uname;
    double scale = unit_of(d, p, &uname);
    g_autofree char *dir = g_dir_make_tmp("pact-plot-XXXXXX", err);
    if (!dir)
        return FALSE;
    g_autofree char *data = g_build_filename(dir, "pattern.dat", NULL);
    g_autofree char *script = g_build_filename(dir, "plot.gp", NULL);
    g_autofree char *tmp_png = g_strdup_printf("%s.partial-%d", png, (int)getpid());
    g_autofree char *q_data = quoted(data), *q_png = quoted(tmp_png), *q_title = quoted(title ? title : "");
    GString *dat = g_string_new(NULL);
    for (int i = 0; i < p; i++) {
        char b[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append_printf(dat, "%d %s\n", i, g_ascii_formatd(b, sizeof b, "%.9g", d[i] * scale));
    }
    /* Impulses for many ranks, boxes for few: both read as "delay of rank i". */
    g_autofree char *gp =
        g_strdup_printf("set terminal pngcairo size 900,420 font 'sans,10'\n"
                        "set output %s\n"
                        "set title %s noenhanced\n"
                        "set xlabel 'rank'\nset ylabel 'arrival delay (%s)'\n"
                        "set xrange [-0.5:%d.5]\nset yrange [0:*]\nset grid ytics\nset key off\n"
                        "set style fill solid 0.8 noborder\nset boxwidth 0.8\n"
                        "plot %s using 1:2 with %s lc rgb '#3b6ea8'\n",
                        q_png, q_title, uname, p - 1, q_data, p > 256 ? "impulses" : "boxes");
    if (!g_file_set_contents(data, dat->str, (gssize)dat->len, err) ||
        !g_file_set_contents(script, gp, -1, err))
        goto out;
    char *argv[] = {"gnuplot", script, NULL};
    g_autofree char *serr = NULL;
    int status = 0;
    if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                      &serr, &status, err))
        goto out;
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "gnuplot failed: %s", serr ? g_strstrip(serr) : "");
        goto out;
    }
    if (g_rename(tmp_png, png) != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s: %s", png, g_strerror(errno));
        goto out;
    }
    ok = TRUE;
out:
    g_string_free(dat, TRUE);
    g_unlink(tmp_png);
    g_unlink(data);
    g_unlink(script);
    g_rmdir(dir);
    return ok;
}
