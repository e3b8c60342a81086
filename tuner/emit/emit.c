/* emit.c - what the Open MPI and MPICH emitters share: the rows of one ppn, grouped by process count. */
#include "emit_int.h"

#include <stdio.h>

GArray *emit_groups(const pact_table *t, pact_coll c, int ppn)
{
    GArray *g = g_array_new(FALSE, TRUE, sizeof(emit_group));
    guint i = 0;
    while (i < t->rows->len) {
        const pact_table_row *r = emit_row(t, i);
        if (r->coll != c) {
            i++;
            continue;
        }
        /* rows of (c, procs): runs of one ppn each, ppn ascending (the table's order) */
        int procs = r->procs;
        emit_group best = {0}, least = {0};
        gboolean have_best = FALSE;
        while (i < t->rows->len && emit_row(t, i)->coll == c && emit_row(t, i)->procs == procs) {
            emit_group run = {.procs = procs, .ppn = emit_row(t, i)->ppn, .first = i};
            while (i < t->rows->len && emit_row(t, i)->coll == c && emit_row(t, i)->procs == procs &&
                   emit_row(t, i)->ppn == run.ppn)
                i++;
            run.n = i - run.first;
            if (least.n == 0)
                least = run;
            if (run.ppn <= ppn) {
                best = run;
                have_best = TRUE;
            }
        }
        emit_group pick = have_best ? best : least;
        g_array_append_val(g, pick);
    }
    return g;
}

const char *emit_where(const pact_table_row *r)
{
    static _Thread_local char buf[160];
    if (r->max_bytes == PACT_TABLE_INF)
        snprintf(buf, sizeof buf, "%s at %d processes (ppn %d), %llu B and up", pact_coll_name(r->coll), r->procs,
                 r->ppn, (unsigned long long)r->min_bytes);
    else
        snprintf(buf, sizeof buf, "%s at %d processes (ppn %d), %llu..%llu B", pact_coll_name(r->coll), r->procs,
                 r->ppn, (unsigned long long)r->min_bytes, (unsigned long long)r->max_bytes);
    return buf;
}
