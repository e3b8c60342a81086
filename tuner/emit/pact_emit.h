/*
 * pact_emit.h - a selection table (pact_table.h) as the files MPI libraries load, and the checkers of those
 * files (`pact tune check`).  Host side (GLib).
 *
 * Open MPI 4.1 coll_tuned dynamic rules (ompi.c; --mca coll_tuned_use_dynamic_rules 1 --mca
 * coll_tuned_dynamic_rules_filename FILE): integers and '#' comments; NCOLL, then per collective `ID
 * NCOMSIZES`, per communicator size `SIZE NRULES`, per rule `MSGSIZE ALG FANINOUT SEGSIZE`.  Open MPI takes
 * the last communicator size <= the communicator's (the first when it is smaller), then the last rule whose
 * MSGSIZE <= the message size: type size x count, times the communicator size for alltoall and allgather.
 *
 * MPICH 4.0 CSEL JSON (mpich.c; MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE with
 * MPIR_CVAR_DEVICE_COLLECTIVES=none, else ch4's composition tree comes first): MPICH's own built-in MPIR
 * tree with the tuned collectives' subtrees replaced: comm_type=intra, then `comm_size<NEXT` per tuned process
 * count (so a communicator between two tuned counts takes the smaller one, as Open MPI and libpact do) ending
 * in comm_size=any, then `avg_msg_size<=MAX` (allreduce, reduce, bcast, alltoall: type size x count) or
 * `total_msg_size<=MAX` (allgather: x communicator size; reduce_scatter: the sum of the counts) ending in
 * =any; leaves algorithm=MPIR_<Coll>_intra_<name>.  MPICH skips its own restriction checks on this path, so
 * the emitter guards each leaf as MPICH's built-in tree does (count<pow2, is_commutative, comm_size=pow2,
 * is_sendbuf_inplace) with MPICH's own fallback.
 *
 * Both files serve one number of processes per node: `ppn` picks, for every tuned process count, the rows of
 * the largest tuned ppn <= it (the smallest when none), the table's matching rule.  Every emitter checks what
 * it wrote with the checker below before handing it back; a size the file cannot express (a MPICH threshold
 * over INT_MAX), an algorithm the library lacks or a parameter its file cannot carry is PACT_ERROR_INPUT.
 */
#ifndef PACT_EMIT_H
#define PACT_EMIT_H

#include <glib.h>

#include "pact_table.h"

gboolean pact_emit_ompi(const pact_table *t, int ppn, GString *out, GError **err);
gboolean pact_emit_mpich(const pact_table *t, int ppn, GString *out, GError **err);

/* Grammar, ids or names valid for the library version, order and coverage; messages "NAME:LINE: ...",
 * PACT_ERROR_INPUT.  The _text forms check text in memory (`name` starts the messages). */
gboolean pact_check_ompi_text(const char *text, gsize len, const char *name, GError **err);
gboolean pact_check_mpich_text(const char *text, gsize len, const char *name, GError **err);
gboolean pact_check_ompi(const char *path, GError **err);
gboolean pact_check_mpich(const char *path, GError **err);

/* The MPICH version whose names and built-in tree the MPICH emitter and checker know ("4.0.2"). */
const char *pact_emit_mpich_version(void);
/* Whether MPICH has algorithm MPIR_<Coll>_intra_<name> for pact collective c. */
gboolean pact_emit_mpich_knows(pact_coll c, const char *name);
/* MPICH's built-in MPIR selection tree (JSON text, static), as the emitter starts from it. */
const char *pact_emit_mpich_builtin(void);

#endif
