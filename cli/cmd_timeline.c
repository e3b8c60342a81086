/* cmd_timeline.c - pact timeline: one collective call, rank by rank, under an arrival pattern (issue 20).
 * Every rank's arrival, each send, receive, reduction and copy with its start and end, the time each rank
 * waits, its exit, messages from sender to receiver, the last arrival, d^ and d*: as CSV, as a Gantt chart
 * for the terminal, as SVG or PNG, or as an html page of two algorithms.  The times are the model engine's,
 * computed as pact sim --engine model computes the same cell (sim/study/timeline.c), or with --engine smpi
 * the executor's own under SimGrid, recorded by the bench driver in pact sim's launch. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gio/gio.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_run.h"

static const struct {
    const char *flag, *field; /* the flag, and the experiment field it sets (pact sim's) */
    const char *help, *arg;
} flags[] = {
    {"platform", "platform", "built-in machine or platform YAML (default generic32x32)", "NAME"},
    {"nodes", "nodes", "nodes used (default 2)", "N"},
    {"ppn", "ppn", "processes per node (default: every core)", "K"},
    {"mapping", "mapping", "rank placement: block (default) or cyclic", "M"},
    {"rails", "rails", "several adapters per node: sharing", "MODE"},
    {"coll", "coll", "the collective (default allreduce)", "C"},
    {"alg", "algs", "the algorithm, NAME[:param=value...] (pact list algorithms); html: A,B side by side",
     "A"},
    {"size", "sizes", "bytes per process (per block for alltoall, allgather), e.g. 8, 64K", "BYTES"},
    {"pattern", "patterns", "arrival shape (pact list patterns) or file:PATH (default no_delay)", "SHAPE"},
    {"skew", "skew", "the pattern's skew in seconds (1e-3, 1ms, 10us)", "S"},
    {"seed", "seed", "seed of the random shapes (default 1)", "N"},
    {"gamma", "gamma", "seconds per byte reduced (default: the platform's)", "G"},
    {"dtype", "dtype", "char, int, float or double (default)", "T"},
    {"root", "root", "root of rooted collectives (default 0)", "R"},
};

enum { F_CSV, F_TXT, F_SVG, F_PNG, F_HTML };
static const char *const kind_name[] = {"send", "recv", "reduce", "copy", "nop"};

/* ---- what each rank does when ----------------------------------------------------------------------------
 */

/* Rank r's busy intervals (reductions and copies that take time), in start order: they are its own work; the
 * rest of [arrival, exit] it waits for messages. */
static GArray *busy_of(const pact_timeline *t, size_t first, size_t last)
{
    GArray *b = g_array_new(FALSE, FALSE, sizeof(double) * 2);
    for (size_t i = first; i < last; i++) {
        const pact_timeline_op *o = &t->ops[i];
        if ((o->kind == PACT_OP_REDUCE || o->kind == PACT_OP_COPY) && o->end > o->start) {
            double iv[2] = {o->start, o->end};
            g_array_append_val(b, iv);
        }
    }
    return b;
}

/* The operations of rank r are ops[first[r] .. first[r + 1]). */
static size_t *rank_firsts(const pact_timeline *t)
{
    size_t *f = g_new0(size_t, (gsize)t->P + 1);
    for (size_t i = 0, r = 0; r <= (size_t)t->P; r++) {
        while (i < t->nops && t->ops[i].rank < (int)r)
            i++;
        f[r] = i;
    }
    return f;
}

/* ---- CSV ----------------------------------------------------------------------------------------------- */

typedef struct {
    double start;
    size_t seq;
    char *line;
} csv_row;

static gint by_start(gconstpointer pa, gconstpointer pb)
{
    const csv_row *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* rank,op,kind,peer,bytes,start_s,end_s: per rank its arrival, then its operations (op: the index in its
 * schedule) and waits by start time, then its exit. */
static void put_csv(GString *o, const pact_timeline *t)
{
    size_t *f = rank_firsts(t);
    g_string_append(o, "rank,op,kind,peer,bytes,start_s,end_s\n");
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(csv_row));
    for (int r = 0; r < t->P; r++) {
        g_array_set_size(rows, 0);
        g_autoptr(GArray) b = busy_of(t, f[r], f[r + 1]);
        double from = t->arrival[r];
        for (guint k = 0; k <= b->len; k++) {
            double to = k < b->len ? ((double *)b->data)[2 * k] : t->exit[r];
            if (to > from) {
                csv_row w = {from, rows->len, g_strdup_printf("%d,,wait,,,%.17g,%.17g\n", r, from, to)};
                g_array_append_val(rows, w);
            }
            if (k < b->len && ((double *)b->data)[2 * k + 1] > from)
                from = ((double *)b->data)[2 * k + 1];
        }
        for (size_t i = f[r]; i < f[r + 1]; i++) {
            const pact_timeline_op *p = &t->ops[i];
            char peer[16] = "";
            if (p->peer >= 0)
                snprintf(peer, sizeof peer, "%d", p->peer);
            csv_row w = {p->start, rows->len,
                         g_strdup_printf("%d,%zu,%s,%s,%.17g,%.17g,%.17g\n", r, i - f[r], kind_name[p->kind],
                                         peer, p->bytes, p->start, p->end)};
            g_array_append_val(rows, w);
        }
        g_array_sort(rows, by_start);
        g_string_append_printf(o, "%d,,arrive,,,%.17g,%.17g\n", r, t->arrival[r], t->arrival[r]);
        for (guint k = 0; k < rows->len; k++) {
            g_string_append(o, g_array_index(rows, csv_row, k).line);
            g_free(g_array_index(rows, csv_row, k).line);
        }
        g_string_append_printf(o, "%d,,exit,,,%.17g,%.17g\n", r, t->exit[r], t->exit[r]);
    }
    g_array_unref(rows);
    g_free(f);
}

/* ---- text: a Gantt chart
 * ----------------------------------------------------------------------------------- */

/* What a row shows in a column, by precedence (a column holds several events at large spans). */
enum { C_OUT, C_WAIT, C_SEND, C_RECV, C_COPY, C_REDUCE, C_ARRIVE, C_EXIT, C_N };
static const char sym[C_N] = {' ', '.', 's', 'r', '=', '#', '|', ']'};
static const int prec[C_N] = {0, 1, 3, 4, 6, 7, 8, 5}; /* an exit shows over a receive at its end */
static const char *const colour[C_N] = {"",         "\033[2m",  "\033[32m",   "\033[34m",
                                        "\033[35m", "\033[31m", "\033[33;1m", "\033[36m"};

static void mark(uint8_t *row, int cols, double t0, double span, double a, double b, int what)
{
    int i = (int)floor((a - t0) / span * cols), j = (int)floor((b - t0) / span * cols);
    if (i < 0)
        i = 0;
    if (j >= cols)
        j = cols - 1;
    if (i >= cols)
        i = cols - 1;
    for (int k = i; k <= j; k++)
        if (prec[what] > prec[row[k]])
            row[k] = (uint8_t)what;
}

static void fmt_time(char *buf, size_t n, double s)
{
    double a = fabs(s);
    if (a == 0)
        snprintf(buf, n, "0");
    else if (a < 1e-6)
        snprintf(buf, n, "%.4gns", s * 1e9);
    else if (a < 1e-3)
        snprintf(buf, n, "%.4gus", s * 1e6);
    else if (a < 1)
        snprintf(buf, n, "%.4gms", s * 1e3);
    else
        snprintf(buf, n, "%.4gs", s);
}

/* The span a chart shows: from the first arrival to the last exit of the timelines given. */
static void span_of(const pact_timeline *t, int n, double *t0, double *t1)
{
    *t0 = INFINITY;
    *t1 = -INFINITY;
    for (int k = 0; k < n; k++)
        for (int r = 0; r < t[k].P; r++) {
            *t0 = fmin(*t0, t[k].arrival[r]);
            *t1 = fmax(*t1, t[k].exit[r]);
        }
}

/* One row per rank, or per node beyond 64 ranks (a node's row shows, per column, the busiest of its ranks).
 */
static void put_txt(GString *o, const pact_timeline *t, const char *title, int width, gboolean colours)
{
    size_t *f = rank_firsts(t);
    int nodes = 0;
    for (int r = 0; r < t->P; r++)
        if (t->node_of[r] + 1 > nodes)
            nodes = t->node_of[r] + 1;
    gboolean by_node = t->P > 64;
    int label = 10, cols = width - label;
    double t0, t1, last = -INFINITY;
    span_of(t, 1, &t0, &t1);
    for (int r = 0; r < t->P; r++)
        last = fmax(last, t->arrival[r]);
    double span = t1 > t0 ? t1 - t0 : 1e-9;
    char a[32], b[32], c[32];
    fmt_time(a, sizeof a, t->dhat);
    fmt_time(b, sizeof b, t->dstar);
    g_string_append_printf(o, "%s\nd^ = %s after the last arrival, d* = %s after the first\n", title, a, b);
    fmt_time(a, sizeof a, span / cols);
    g_string_append_printf(o, "one column = %s; %s\n", a,
                           by_node ? "one row per node (the busiest of its ranks in each column)"
                                   : "one row per rank, grouped by node");
    int rows = by_node ? nodes : t->P;
    uint8_t *row = g_malloc((gsize)cols);
    int prev_node = -1;
    for (int k = 0; k < rows; k++) {
        memset(row, C_OUT, (gsize)cols);
        for (int r = 0; r < t->P; r++) {
            if (by_node ? t->node_of[r] != k : r != k)
                continue;
            mark(row, cols, t0, span, t->arrival[r], t->exit[r], C_WAIT);
            for (size_t i = f[r]; i < f[r + 1]; i++) {
                const pact_timeline_op *p = &t->ops[i];
                if (p->kind == PACT_OP_SEND)
                    mark(row, cols, t0, span, p->start, p->start, C_SEND);
                else if (p->kind == PACT_OP_RECV)
                    mark(row, cols, t0, span, p->end, p->end, C_RECV);
                else if (p->kind == PACT_OP_REDUCE && p->end > p->start)
                    mark(row, cols, t0, span, p->start, p->end, C_REDUCE);
                else if (p->kind == PACT_OP_COPY && p->end > p->start)
                    mark(row, cols, t0, span, p->start, p->end, C_COPY);
            }
            mark(row, cols, t0, span, t->arrival[r], t->arrival[r], C_ARRIVE);
            mark(row, cols, t0, span, t->exit[r], t->exit[r], C_EXIT);
        }
        if (!by_node && t->node_of[k] != prev_node && nodes > 1) {
            g_string_append_printf(o, "%*s node %d\n", label - 1, "", t->node_of[k]);
            prev_node = t->node_of[k];
        }
        g_string_append_printf(o, by_node ? "node %-4d " : "rank %-4d ", k);
        int cur = -1;
        for (int j = 0; j < cols; j++) {
            if (colours && row[j] != cur) {
                g_string_append(o, "\033[0m");
                g_string_append(o, colour[row[j]]);
                cur = row[j];
            }
            g_string_append_c(o, sym[row[j]]);
        }
        if (colours)
            g_string_append(o, "\033[0m");
        g_string_append_c(o, '\n');
    }
    /* the scale, the last arrival (^) and the end (d^) */
    memset(row, ' ', (gsize)cols);
    int ja = (int)floor((last - t0) / span * cols), je = cols - 1;
    row[ja < cols ? ja : cols - 1] = '^';
    row[je] = '^';
    g_string_append_printf(o, "%*s%.*s\n", label, "", cols, (char *)row);
    fmt_time(a, sizeof a, t0);
    fmt_time(b, sizeof b, last);
    fmt_time(c, sizeof c, t1);
    g_string_append_printf(o, "%*s^ last arrival at %s, ^ all done at %s (first arrival %s)\n", label, "", b,
                           c, a);
    g_string_append_printf(o, "%*s| arrives  ] leaves  . waits  s sends  r receives  # reduces  = copies\n",
                           label, "");
    g_free(row);
    g_free(f);
}

/* ---- SVG -------------------------------------------------------------------------------------------------
 */

/* W pixels wide, over [t0, t1] (html puts two on one scale). */
static void put_svg(GString *o, const pact_timeline *t, const char *title, double W, double t0, double t1)
{
    size_t *f = rank_firsts(t);
    gboolean small = t->P > 64;
    double rh = small ? 4 : 16, left = 90, right = 40, top = 64;
    double H = top + rh * t->P + 50, cw = W - left - right;
    double last = -INFINITY, end = -INFINITY;
    for (int r = 0; r < t->P; r++) {
        last = fmax(last, t->arrival[r]);
        end = fmax(end, t->exit[r]);
    }
    double span = t1 > t0 ? t1 - t0 : 1e-9;
#define X(s) (left + ((s)-t0) / span * cw)
#define Y(r) (top + (r)*rh)
    char a[32], b[32], c[32], e[32];
    fmt_time(a, sizeof a, t->dhat);
    fmt_time(b, sizeof b, t->dstar);
    fmt_time(c, sizeof c, last);
    fmt_time(e, sizeof e, end);
    g_string_append_printf(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        "font-family=\"sans-serif\" font-size=\"11\">\n"
        "<defs><marker id=\"ah\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" "
        "markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#555\"/></marker>"
        "</defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
        "<text x=\"%.0f\" y=\"18\" font-size=\"14\">",
        W, H, left);
    for (const char *p = title; *p; p++) /* titles hold names and numbers; escape the XML specials anyway */
        if (*p == '<')
            g_string_append(o, "&lt;");
        else if (*p == '&')
            g_string_append(o, "&amp;");
        else
            g_string_append_c(o, *p);
    g_string_append_printf(
        o,
        "</text>\n<text x=\"%.0f\" y=\"33\">d^ = %s after the last arrival (<tspan fill=\"#c00\">red line, "
        "%s</tspan>), d* = %s after the first; all done at <tspan fill=\"#1a7f37\">%s (green "
        "line)</tspan></text>\n"
        "<text x=\"%.0f\" y=\"47\" font-size=\"10\" fill=\"#555\">grey: waiting, orange: reducing, purple: "
        "copying, arrows: messages, black tick: arrival, green tick: exit</text>\n",
        left, a, c, b, e, left);
    /* node bands */
    for (int r = 0; r < t->P; r++)
        if (r == 0 || t->node_of[r] != t->node_of[r - 1]) {
            int e = r;
            while (e + 1 < t->P && t->node_of[e + 1] == t->node_of[r])
                e++;
            if (t->node_of[r] % 2)
                g_string_append_printf(
                    o, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"#f3f6fa\"/>\n", Y(r),
                    W, (e - r + 1) * rh);
            g_string_append_printf(o, "<text x=\"4\" y=\"%.1f\" fill=\"#888\">node %d</text>\n",
                                   Y(r) + rh * 0.8, t->node_of[r]);
        }
    for (int r = 0; r < t->P; r++) {
        double y = Y(r) + rh / 2;
        if (!small)
            g_string_append_printf(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", left - 6,
                                   y + 4, r);
        fmt_time(a, sizeof a, t->arrival[r]);
        fmt_time(b, sizeof b, t->exit[r]);
        g_string_append_printf(
            o,
            "<g><title>rank %d: arrives at %s, leaves at %s</title><line x1=\"%.2f\" y1=\"%.1f\" "
            "x2=\"%.2f\" y2=\"%.1f\" stroke=\"#bbb\" stroke-width=\"%.1f\"/></g>\n",
            r, a, b, X(t->arrival[r]), y, X(t->exit[r]), y, rh * 0.5);
        for (size_t i = f[r]; i < f[r + 1]; i++) {
            const pact_timeline_op *p = &t->ops[i];
            if ((p->kind == PACT_OP_REDUCE || p->kind == PACT_OP_COPY) && p->end > p->start) {
                fmt_time(a, sizeof a, p->start);
                fmt_time(b, sizeof b, p->end - p->start);
                g_string_append_printf(
                    o,
                    "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\">"
                    "<title>rank %d %s of %.0f B at %s for %s</title></rect>\n",
                    X(p->start), Y(r) + rh * 0.15, fmax(X(p->end) - X(p->start), 0.5), rh * 0.7,
                    p->kind == PACT_OP_REDUCE ? "#e8891c" : "#8a5cc2", r, kind_name[p->kind], p->bytes, a, b);
            }
        }
        g_string_append_printf(o,
                               "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#000\" "
                               "stroke-width=\"2\"/>\n<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
                               "stroke=\"#1a7f37\" stroke-width=\"2\"/>\n",
                               X(t->arrival[r]), Y(r) + 1, X(t->arrival[r]), Y(r) + rh - 1, X(t->exit[r]),
                               Y(r) + 1, X(t->exit[r]), Y(r) + rh - 1);
    }
    /* messages: from the send's posting on its rank to the receive's completion on the other */
    if (t->nops <= 20000)
        for (size_t i = 0; i < t->nops; i++) {
            const pact_timeline_op *p = &t->ops[i];
            if (p->kind != PACT_OP_SEND || p->match < 0)
                continue;
            const pact_timeline_op *q = &t->ops[p->match];
            fmt_time(a, sizeof a, p->start);
            fmt_time(b, sizeof b, q->end);
            g_string_append_printf(
                o,
                "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#555\" "
                "stroke-width=\"0.8\" marker-end=\"url(#ah)\"><title>%d to %d: %.0f B, sent at %s, "
                "received at %s</title></line>\n",
                X(p->start), Y(p->rank) + rh / 2, X(q->end), Y(q->rank) + rh / 2, p->rank, q->rank, p->bytes,
                a, b);
        }
    /* the time axis: ticks at round steps from the first arrival; the last arrival and the end marked */
    double yb = Y(t->P) + 4, step = pow(10, floor(log10(span / 5)));
    if (span / step > 10)
        step *= span / step > 25 ? 5 : 2;
    g_string_append_printf(o, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
                           left, yb, left + cw, yb);
    for (double s = 0; s <= span * 1.0001; s += step) {
        fmt_time(a, sizeof a, t0 + s);
        g_string_append_printf(o,
                               "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#444\"/><text "
                               "x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#444\">%s</text>\n",
                               X(t0 + s), yb, X(t0 + s), yb + 4, X(t0 + s), yb + 16, a);
    }
    g_string_append_printf(
        o,
        "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#c00\" "
        "stroke-dasharray=\"4 3\"/>\n<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" "
        "stroke=\"#1a7f37\" stroke-dasharray=\"4 3\"/>\n"
        "<text x=\"%.0f\" y=\"%.1f\" fill=\"#444\">time (the pattern's clock)</text>\n",
        X(last), top - 4, X(last), yb, X(end), top - 4, X(end), yb, left, yb + 34);
    g_string_append(o, "</svg>\n");
#undef X
#undef Y
    g_free(f);
}

/* One self-contained page (no network, no script): the timelines on one time scale, side by side where the
 * window is wide enough, each operation, message and rank with a tooltip, and their d^ and d* in a table. */
static void put_html(GString *o, const pact_timeline *t, char *const *titles, int n, const char *heading)
{
    double t0, t1;
    span_of(t, n, &t0, &t1);
    g_string_append(
        o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pact timeline</title>\n"
           "<style>body{font-family:sans-serif;margin:16px;color:#222}"
           ".row{display:flex;flex-wrap:wrap;gap:16px}.row>div{flex:1 1 720px;min-width:720px}"
           "svg{width:100%;height:auto;border:1px solid #ddd}"
           "svg rect:hover,svg line:hover{stroke:#d00;stroke-width:2}"
           "table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;"
           "padding:3px 10px;text-align:right}th:first-child,td:first-child{text-align:left}"
           "</style></head><body>\n<h2>");
    g_string_append(o, heading);
    g_string_append(
        o, "</h2>\n<p>Hover over a rank, an operation or a message for its times. Both charts share one "
           "time scale.</p>\n<table><tr><th>algorithm</th><th>d^ (after the last arrival)</th><th>d* "
           "(after the first)</th><th>messages</th></tr>\n");
    for (int k = 0; k < n; k++) {
        char a[32], b[32];
        fmt_time(a, sizeof a, t[k].dhat);
        fmt_time(b, sizeof b, t[k].dstar);
        size_t msgs = 0;
        for (size_t i = 0; i < t[k].nops; i++)
            msgs += t[k].ops[i].kind == PACT_OP_SEND;
        g_string_append_printf(o, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%zu</td></tr>\n", titles[k], a, b,
                               msgs);
    }
    g_string_append(o, "</table>\n<div class=\"row\">\n");
    for (int k = 0; k < n; k++) {
        g_string_append(o, "<div>\n");
        put_svg(o, &t[k], titles[k], 760, t0, t1);
        g_string_append(o, "</div>\n");
    }
    g_string_append(o, "</div>\n</body></html>\n");
}

/* PNG: the SVG drawn by librsvg's rsvg-convert (Debian's librsvg2-bin), not a rasteriser of our own. */
static gboolean to_png(GString *svg, GError **err)
{
    g_autofree char *tool = g_find_program_in_path("rsvg-convert");
    if (!tool) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "PNG needs rsvg-convert (Debian's librsvg2-bin; scripts/install-deps.sh installs it)");
        return FALSE;
    }
    char *argv[] = {tool, "-f", "png", NULL};
    g_autoptr(GSubprocess) p = g_subprocess_newv(
        (const char *const *)argv,
        G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, err);
    if (!p)
        return FALSE;
    g_autoptr(GBytes) in = g_bytes_new(svg->str, svg->len);
    g_autoptr(GBytes) png = NULL, perr = NULL;
    if (!g_subprocess_communicate(p, in, NULL, &png, &perr, err))
        return FALSE;
    if (!g_subprocess_get_successful(p)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "rsvg-convert failed: %.*s",
                    perr ? (int)g_bytes_get_size(perr) : 0,
                    perr ? (const char *)g_bytes_get_data(perr, NULL) : "");
        return FALSE;
    }
    gsize n = 0;
    const char *d = g_bytes_get_data(png, &n);
    g_string_truncate(svg, 0);
    g_string_append_len(svg, d, (gssize)n);
    return TRUE;
}

/* ---- the smpi engine ----------------------------------------------------------------------------------- */

/* Runs the cell under SimGrid/SMPI through pact sim's own launch (one smpirun of the bench driver, pact's
 * SMPI options), the driver writing the call's operations (PACT_BENCH_OPS), and puts SMPI's times into t,
 * which holds the model's timeline of the same cell (its operations, peers and messages: the same schedules).
 * holds the model's timeline of the same cell (its operations, peers and messages: the same schedules).  The
 * largest difference from the model's times, over every operation's start, every reduction's and copy's end,
 * every exit, and every message that ends before the model says MPI completed it, goes to *diff. */
static gboolean run_smpi(GHashTable *fields, pact_timeline *t, double *diff, GError **err)
{
    g_autofree char *dir = g_dir_make_tmp("pact-timeline-XXXXXX", err);
    if (!dir)
        return FALSE;
    g_autofree char *ops = g_build_filename(dir, "ops.csv", NULL);
    g_autofree char *run = g_build_filename(dir, "run", NULL);
    pact_experiment e;
    pact_experiment_init(&e);
    gboolean ok = FALSE;
    char *summary = NULL, *text = NULL;
    pact_exp_set(fields, "engine", "smpi", NULL);
    pact_exp_set(fields, "batch", "cell", NULL);
    pact_exp_set(fields, "jobs", "1", NULL);
    pact_exp_set(fields, "output", run, NULL);
    if (!pact_experiment_build(fields, &e, err))
        goto out;
    e.quiet = TRUE;
    e.figures = FALSE;
    g_setenv("PACT_BENCH_OPS", ops, TRUE);
    gboolean ran = pact_experiment_run(&e, &summary, err);
    g_unsetenv("PACT_BENCH_OPS");
    if (!ran)
        goto out;
    if (!(text = pact_read_file(ops, NULL, err)))
        goto out;
    size_t *first = rank_firsts(t);
    double *start = g_new(double, t->nops), *end = g_new(double, t->nops);
    for (size_t i = 0; i < t->nops; i++)
        start[i] = end[i] = NAN;
    double *arr = g_new(double, (gsize)t->P), *ex = g_new(double, (gsize)t->P);
    int line = 0, bad = 0;
    char **lines = g_strsplit(text, "\n", -1);
    for (char **l = lines + 1; *l && **l; l++) {
        line++;
        int r, op;
        char a[64] = "", b[64] = "";
        if (sscanf(*l, "%d,%d,%63[^,],%63s", &r, &op, a, b) < 2 || r < 0 || r >= t->P ||
            op >= (int)(first[r + 1] - first[r])) {
            bad = 1;
            break;
        }
        if (op < 0) {
            arr[r] = g_ascii_strtod(a, NULL);
            ex[r] = g_ascii_strtod(b, NULL);
        } else if (*a) {
            start[first[r] + (size_t)op] = g_ascii_strtod(a, NULL);
            end[first[r] + (size_t)op] = g_ascii_strtod(b, NULL);
        }
    }
    g_strfreev(lines);
    if (bad || line != (int)t->nops + t->P) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN,
                    "the bench driver's operations (%d lines) do not match the schedules (%zu operations, %d "
                    "ranks)",
                    line, t->nops, t->P);
    } else {
        double d = 0, last = -INFINITY, first_a = INFINITY, emax = -INFINITY;
        for (int r = 0; r < t->P; r++) {
            d = fmax(d, fabs(ex[r] - t->exit[r]));
            d = fmax(d, fabs(arr[r] - t->arrival[r]));
            t->arrival[r] = arr[r];
            t->exit[r] = ex[r];
            last = fmax(last, arr[r]);
            first_a = fmin(first_a, arr[r]);
            emax = fmax(emax, ex[r]);
            /* an operation the plan does not run (a copy of no data): a point where the rank was */
            double at = arr[r];
            for (size_t i = first[r]; i < first[r + 1]; i++) {
                if (isnan(start[i]))
                    start[i] = end[i] = at;
                else
                    at = end[i];
                /* a message's end is when the executor's call that completed it returned (an eager send
                 * inside MPI_Sendrecv: when the receive did; a receive that arrived while the rank reduced:
                 * when the rank next waited), the model's when MPI completed it: the first is never earlier
                 */
                d = fmax(d, fabs(start[i] - t->ops[i].start));
                if (t->ops[i].kind == PACT_OP_SEND || t->ops[i].kind == PACT_OP_RECV)
                    d = fmax(d, t->ops[i].end - end[i]);
                else
                    d = fmax(d, fabs(end[i] - t->ops[i].end));
                t->ops[i].start = start[i];
                t->ops[i].end = end[i];
            }
        }
        t->dhat = emax - last;
        t->dstar = emax - first_a;
        *diff = d;
        ok = TRUE;
    }
    g_free(first);
    g_free(start);
    g_free(end);
    g_free(arr);
    g_free(ex);
out:
    g_free(text);
    g_free(summary);
    pact_experiment_clear(&e);
    pact_rm_rf(dir);
    return ok;
}

/* ---- the command --------------------------------------------------------------------------------------- */

int pact_cmd_timeline(int argc, char **argv)
{
    char *values[G_N_ELEMENTS(flags)] = {0};
    char *engine = NULL, *format = NULL, *output = NULL;
    int width = 0;
    GOptionEntry entries[G_N_ELEMENTS(flags) + 5];
    memset(entries, 0, sizeof entries);
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        entries[i] = (GOptionEntry){flags[i].flag,
                                    !strcmp(flags[i].flag, "size") ? 'm' : 0,
                                    0,
                                    G_OPTION_ARG_STRING,
                                    &values[i],
                                    flags[i].help,
                                    flags[i].arg};
    guint n = G_N_ELEMENTS(flags);
    entries[n] =
        (GOptionEntry){"engine", 0,
                       0,        G_OPTION_ARG_STRING,
                       &engine,  "model (default) or smpi (SimGrid: one smpirun of the bench driver)",
                       "E"};
    entries[n + 1] =
        (GOptionEntry){"format", 0,
                       0,        G_OPTION_ARG_STRING,
                       &format,  "csv, txt, svg, png or html (default: from -o's extension; txt on stdout)",
                       "F"};
    entries[n + 2] = (GOptionEntry){
        "width", 0, 0, G_OPTION_ARG_INT, &width, "txt: columns, 80-200 (default: the terminal's)", "N"};
    entries[n + 3] = (GOptionEntry){
        "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "the file (default: stdout)", "FILE"};
    GOptionContext *ctx = g_option_context_new("");
    g_option_context_set_summary(
        ctx,
        "One collective call, rank by rank: arrivals, sends, receives, reductions and copies with their\n"
        "times, waits, exits, messages, the last arrival, d^ and d*, from the model engine (the times pact\n"
        "sim --engine model gives for the same cell) or SimGrid's (--engine smpi: the executor's own).\n\n"
        "example:\n  pact timeline --nodes 1 --ppn 8 --coll reduce --alg binomial -m 64K \\\n"
        "      --pattern last_delayed --skew 10us --format txt");
    g_option_context_add_main_entries(ctx, entries, NULL);
    pact_experiment e;
    pact_experiment_init(&e);
    GHashTable *fields = pact_exp_new();
    GError *err = NULL;
    pact_timeline t[2] = {{0}};
    GString *out = g_string_new(NULL);
    char *title[2] = {NULL, NULL};
    int nt = 0;
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc > 1) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "unexpected argument '%s'", argv[1]);
        goto fail;
    }
    gboolean smpi = engine && !strcmp(engine, "smpi");
    if (engine && !smpi && strcmp(engine, "model") != 0) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--engine '%s': expected model or smpi", engine);
        goto fail;
    }
    int fmt = -1;
    const char *fname = format;
    if (!fname && output && strcmp(output, "-") != 0) {
        fname = strrchr(output, '.');
        fname = fname ? fname + 1 : "";
    }
    if (!fname)
        fname = "txt";
    if (!strcmp(fname, "csv"))
        fmt = F_CSV;
    else if (!strcmp(fname, "txt"))
        fmt = F_TXT;
    else if (!strcmp(fname, "svg"))
        fmt = F_SVG;
    else if (!strcmp(fname, "png"))
        fmt = F_PNG;
    else if (!strcmp(fname, "html"))
        fmt = F_HTML;
    else {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "%s '%s': pact timeline writes csv, txt, svg, png or html",
                    format ? "--format" : "-o: the extension", fname);
        goto fail;
    }
    if (width && (width < 80 || width > 200)) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--width %d: expected 80 to 200 columns", width);
        goto fail;
    }
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        if (values[i]) {
            if (strchr(values[i], ',') && strcmp(flags[i].flag, "alg") != 0) {
                g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                            "--%s '%s': one value (a timeline is one call)", flags[i].flag, values[i]);
                goto fail;
            }
            pact_exp_set_flag(fields, flags[i].field, values[i]);
        }
    if (!values[6]) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--alg: which algorithm? (pact list algorithms)");
        goto fail;
    }
    if (!values[7])
        pact_exp_set(fields, "sizes", "8", NULL);
    if (!values[8])
        pact_exp_set(fields, "patterns", "no_delay", NULL);
    pact_exp_set(fields, "engine", "model", NULL);
    pact_exp_set(fields, "reps", "1", NULL);
    if (!pact_experiment_build(fields, &e, &err))
        goto fail;
    const pact_sweep *s = e.studies->pdata[0];
    nt = (int)s->algs->len;
    if (e.studies->len != 1 || nt > 2 || (nt > 1 && fmt != F_HTML)) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT,
                    "--alg '%s': one algorithm (two, side by side, with --format html)", values[6]);
        goto fail;
    }
    for (int k = 0; k < nt; k++) {
        if (!pact_timeline_model(s, (guint)k, 0, 0, &t[k], &err))
            goto fail;
        if (smpi) {
            /* this algorithm alone, under SimGrid, through pact sim's launch */
            double diff = 0, dstar = t[k].dstar;
            pact_exp_set(fields, "algs", s->algs->pdata[k], NULL);
            if (!run_smpi(fields, &t[k], &diff, &err))
                goto fail;
            fprintf(
                stderr,
                "pact timeline: %s under smpi: the largest difference from the model over every operation's "
                "start, every reduction's and copy's end and every exit (and any message seen complete "
                "before "
                "the model completes it) is %.3g s, %.2f%% of d*\n",
                (char *)s->algs->pdata[k], diff, 100 * diff / dstar);
        }
        title[k] = g_strdup_printf("%s %s, %d ranks (%d x %d) of %s, %" G_GUINT64_FORMAT " B, %s",
                                   pact_coll_name(s->coll), (char *)s->algs->pdata[k], s->procs, s->nodes,
                                   s->ppn, s->platform->name, t[k].bytes, (char *)s->patterns->pdata[0]);
    }
    gboolean to_stdout = !output || !strcmp(output, "-");
    double t0, t1;
    span_of(t, 1, &t0, &t1);
    if (fmt == F_CSV)
        put_csv(out, &t[0]);
    else if (fmt == F_SVG || fmt == F_PNG)
        put_svg(out, &t[0], title[0], 1100, t0, t1);
    else if (fmt == F_HTML) {
        g_autofree char *h = g_strdup_printf(
            "%s under %s: %s%s%s", pact_coll_name(s->coll), (char *)s->patterns->pdata[0],
            (char *)s->algs->pdata[0], nt > 1 ? " against " : "", nt > 1 ? (char *)s->algs->pdata[1] : "");
        put_html(out, t, title, nt, h);
    } else {
        struct winsize ws;
        gboolean tty = to_stdout && isatty(STDOUT_FILENO);
        if (!width)
            width = tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 100;
        width = width < 80 ? 80 : width > 200 ? 200 : width;
        put_txt(out, &t[0], title[0], width, tty && !getenv("NO_COLOR"));
    }
    if (fmt == F_PNG && !to_png(out, &err))
        goto fail;
    if (to_stdout)
        fwrite(out->str, 1, out->len, stdout);
    else if (!g_file_set_contents(output, out->str, (gssize)out->len, &err))
        goto fail;
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    for (int k = 0; k < 2; k++) {
        pact_timeline_clear(&t[k]);
        g_free(title[k]);
    }
    g_string_free(out, TRUE);
    pact_experiment_clear(&e);
    g_hash_table_destroy(fields);
    g_option_context_free(ctx);
    for (guint i = 0; i < G_N_ELEMENTS(flags); i++)
        g_free(values[i]);
    g_free(engine);
    g_free(format);
    g_free(output);
    return rc;
}
