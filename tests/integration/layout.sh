# tests/integration/layout.sh - the layout rules (DESIGN.md "Layout"): includes point only down, rank code uses
# no GLib and host code no MPI, no include cycle (scripts/layering.sh).  Sourced by tests/run-all.sh.
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-it-XXXXXX")}
layering_tree() {
    bash scripts/layering.sh
}
check "layout: every include points down (scripts/layering.sh)" layering_tree

# The check must catch each kind of violation: a copy of the tree with one of each planted.
layering_catches() {
    local d="$TMP/layering"
    rm -rf "$d" && mkdir -p "$d" && cp -r sim models platforms patterns tuner cli scripts "$d/" || return 1
    echo '#include "pact_host.h"' >>"$d/sim/coll/registry.c"          # rank side reaching into GLib code
    echo '#include "pact_mpi.h"' >>"$d/models/closed.c"               # host code reaching into MPI code
    echo '#include "pact_run.h"' >>"$d/models/eval.c"                 # an include that points up
    echo '#include <glib.h>' >>"$d/sim/ir/sched.c"                    # GLib inside MPI ranks
    echo '#include "pact_models.h"' >>"$d/models/heap_cycle.h"        # a cycle: pact_models.h -> heap_cycle.h
    echo '#include "heap_cycle.h"' >>"$d/models/pact_models.h"
    bash "$d/scripts/layering.sh" "$d" >"$d/out" && return 1
    cat "$d/out"
    grep -q 'registry.c.*sim/coll (layer 2) may not include sim/host' "$d/out" &&
        grep -q 'closed.c.*host-side models may not include rank-side sim/rank' "$d/out" &&
        grep -q 'eval.c.*models (layer 5) may not include sim/study' "$d/out" &&
        grep -q 'sched.c.*<glib.h>' "$d/out" && grep -q 'include cycle: .*heap_cycle.h' "$d/out"
}
check "layout: scripts/layering.sh catches each kind of violation" layering_catches
