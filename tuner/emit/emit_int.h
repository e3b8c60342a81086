/* emit_int.h - what the emitters share (emit.c). */
#ifndef PACT_EMIT_INT_H
#define PACT_EMIT_INT_H

#include "pact_emit.h"

/* One tuned process count of a collective: its rows for the ppn asked, rows[first .. first + n). */
typedef struct {
    int procs, ppn;
    guint first, n;
} emit_group;

/* The groups of collective c for `ppn`, procs ascending (empty when the table has no row for c). */
GArray *emit_groups(const pact_table *t, pact_coll c, int ppn);
static inline const pact_table_row *emit_row(const pact_table *t, guint i)
{
    return &g_array_index(t->rows, pact_table_row, i);
}
/* "allreduce 4 procs, 0..1023 B" for messages about row r. */
const char *emit_where(const pact_table_row *r);

#endif
