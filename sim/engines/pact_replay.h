/*
 * pact_replay.h - the `replay` engine's building block: one cell (collective, algorithm, P ranks, size,
 * gamma, arrival delays) exported as SimGrid 3.32 SMPI time-independent (TI) traces, one file per rank, and
 * replayed with `smpirun -replay`.  No payload is allocated anywhere, so 1024 ranks x 64 MiB fit in a few
 * hundred MiB.  Host side (GLib); errors are PACT_ERROR GErrors.
 *
 * A trace reproduces what the MPI executor (sim/rank/exec.c) does under SMPI: the rank sleeps for its arrival
 * delay, then posts each operation once its dependencies have completed, in schedule order among those
 * ready at once, charges each reduction as a sleep of gamma x bytes seconds, and waits for its requests,
 * one at a time, in the order sim/rank/exec.c chooses (the request its lowest blocked operation needs);
 * sim/engines/replay.c writes that same order into the trace (see there).  Every algorithm of the registry replays
 * to the smpi engine's d^ within 1e-12 (generic32x32 4x4 root 5, 8x16; tests/integration/replay.sh): under SMPI the
 * bench driver's own protocol sends nothing (sim/rank/bench.c), so the network carries the collective alone.
 */
#ifndef PACT_REPLAY_H
#define PACT_REPLAY_H

#include <glib.h>

#include "pact_coll.h"

typedef struct {
    pact_coll coll;
    const char *alg;      /* NAME or NAME:param=value[:param=value] (values take K, M, G suffixes) */
    int P, root;          /* root: rooted collectives only */
    size_t count;         /* elements per process (one block for alltoall and allgather) */
    size_t elem_size;     /* bytes of one element (8: double, what `pact sim` uses by default) */
    int commutative;      /* the operation (1: sum, what `pact sim` uses) */
    double gamma;         /* seconds of compute per byte reduced */
    const double *delays; /* P arrival delays in seconds, NULL: none */
    const pact_place *place; /* the ranks' nodes (pact_place_init); NULL: every rank on a node of its own */
} pact_replay_cell;

/* Writes `dir` (created if missing): rank-R.ti for every rank, index.txt (the file smpirun -replay reads: one
 * trace per line) and cell.txt (what was written, with the earliest and latest delay).  Builds one rank's
 * schedule at a time.  index.txt is removed first and written last, atomically, so a folder with an index
 * holds a complete trace set.  Restricted algorithms and bad specs are PACT_ERROR_INPUT. */
gboolean pact_replay_write(const pact_replay_cell *c, const char *dir, GError **err);

/* Replays the traces in `dir` with smpirun -replay on `platform_xml` and `hostfile` (one host per rank) under
 * pact_smpi_cfg(), the options the smpi engine runs with.  The log goes to dir/smpirun.log.
 * Returns the simulated end of the last rank minus the latest arrival (*last, d^) and minus the earliest
 * (*total, d*).  `P` must be the P the traces were written for. */
gboolean pact_replay_run(const char *dir, const char *platform_xml, const char *hostfile, int P, double *last,
                         double *total, GError **err);

#endif
