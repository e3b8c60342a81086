#!/usr/bin/env bash
# mpich-observe.sh JSON_FILE COLL NP BYTES
#
# Runs COLL (allreduce reduce bcast alltoall allgather barrier reduce_scatter) once on NP ranks of this machine
# under MPICH 4.0.2 (mpiexec.mpich, ch4:ucx) with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=JSON_FILE and prints
# one line: the MPIR algorithm that ran, e.g. MPIR_Allreduce_intra_recursive_doubling.  JSON_FILE "--builtin"
# runs with MPICH's own tree (the variable unset).  BYTES: per process, per block for alltoall and allgather, per
# rank's result for reduce_scatter.  Exit 2, with the observed pattern on stderr, when it matches no known
# algorithm (or more than one): it never guesses.
# Reductions use MPI_SUM; MPICH_OBSERVE_OP=user uses a user-defined commutative sum instead, whose calls
# (count and length on each rank) are then checked against the algorithm as well.
# MPICH_OBSERVE_VERBOSE=1 prints each rank's sends (destination, size) and op calls on stderr.
#
# MPICH_YIELD, when set (the tests set it), names a library preloaded beside the observer's
# (tests/support/ucx_yield.c).
# Besides the JSON file, every run sets:
#   MPIR_CVAR_DEVICE_COLLECTIVES=none: MPI_<Coll> calls MPIR_<Coll>_impl, whose MPIR_<Coll>_allcomm_auto searches
#       the MPIR tree the JSON file replaces, on the communicator itself (maint/gen_coll.py writes MPIR_<Coll>;
#       src/mpi/coll/src/coll_impl.c documents the variable).  By default (percoll) MPI_<Coll> calls MPID_<Coll>
#       first: ch4's own tree of compositions (src/mpid/ch4/src/ch4_coll.h, ch4_coll_impl.h, the second JSON
#       tree in libmpich).  On one node (4 ranks, a parent communicator with a node_comm and no node_roots_comm)
#       that tree gives
#         allreduce: gamma (comm_size=node_comm_size) -> MPIDI_SHM_mpi_allreduce -> the POSIX tree, which picks
#           release_gather (commutative op, one thread) from the 5th bcast/reduce/barrier/allreduce on the
#           communicator on (MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD, src/mpid/ch4/shm/posix/posix_coll.h,
#           posix_coll_release_gather.h), else MPIR_Allreduce_impl on the communicator;
#         bcast (alpha), reduce (beta <= 2048 bytes, else alpha), barrier (alpha): node-level compositions that
#           call the SHM (or netmod) collective on node_comm, so the MPIR tree is searched for node_comm (same size,
#           but comm_hierarchy is not parent) and the traffic looks exactly like the smp algorithm's;
#         alltoall, allgather, reduce_scatter: alpha -> MPIDI_NM_mpi_<coll> (ucx_coll.h) -> MPIR_<Coll>_impl on
#           the communicator, as with none.
#       On this machine (observed): in that default route the JSON file's algorithm ran on MPI_COMM_WORLD for
#       allreduce, alltoall, allgather, reduce_scatter, and on node_comm for bcast, reduce, barrier, also after
#       6 warm-up calls, and even with MPIR_CVAR_ALLREDUCE_POSIX_INTRA_ALGORITHM=release_gather and
#       MPIR_CVAR_POSIX_NUM_COLLS_THRESHOLD=0 allreduce stayed MPIR point-to-point over UCX: this build's ch4
#       takes its netmod branches (as with MPIDI_CH4_DIRECT_NETMOD), no POSIX module in the path.  Where the
#       POSIX module is active, the default route would leave the MPIR tree for release_gather.  none removes
#       both detours, on any build.
#   LD_PRELOAD=mpich_spy.so: records ucp_tag_send_nbx / ucp_tag_send_sync_nbx calls; this MPICH sends between
#       ranks of one node through UCX as well, so no MPIR_CVAR_NOLOCAL is needed (with it, MPI_COMM_WORLD would
#       have no node_comm and the smp algorithms would do nothing or assert).
# The build goes to ${OBSERVE_BUILD:-build/observe} (relative to the repository root).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ $# -ne 4 ]]; then
    echo "usage: $0 JSON_FILE|--builtin COLL NP BYTES" >&2
    exit 2
fi
json=$1 coll=$2 np=$3 bytes=$4
case $coll in allreduce | reduce | bcast | alltoall | allgather | barrier | reduce_scatter) ;; *)
    echo "mpich-observe: unknown collective '$coll' (allreduce reduce bcast alltoall allgather barrier" \
        "reduce_scatter)" >&2
    exit 2
    ;;
esac
if ! [[ $np =~ ^[0-9]+$ && $np -ge 2 && $np -le 4 ]]; then
    echo "mpich-observe: NP must be 2..4 on this machine (got '$np')" >&2
    exit 2
fi
if ! [[ $bytes =~ ^[0-9]+$ ]] || [[ $coll != barrier && $bytes -lt 4 ]]; then
    # a collective on 0 elements sends nothing, which is also what some algorithms would show
    echo "mpich-observe: BYTES must be a whole number, at least 4 but for barrier (got '$bytes')" >&2
    exit 2
fi
env_json=()
if [[ $json != --builtin ]]; then
    # MPICH aborts in MPI_Init on a missing file; say so first
    if [[ ! -r $json ]]; then
        echo "mpich-observe: cannot read JSON file '$json'" >&2
        exit 2
    fi
    json=$(cd "$(dirname "$json")" && pwd)/$(basename "$json")
    env_json=(-genv MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE "$json")
fi

build=${OBSERVE_BUILD:-build/observe}
[[ $build == /* ]] || build=$root/$build
mkdir -p "$build"
stale() { # stale TARGET SOURCE...: TARGET missing or older than a source
    local t=$1 f
    shift
    [[ -x $t ]] || return 0
    for f; do [[ $f -nt $t ]] && return 0; done
    return 1
}
if stale "$build/mpich_spy.so" "$here/mpich_spy.c" "$here/mpich_spy.h"; then
    gcc -std=c11 -Wall -Wextra -O2 -fPIC -shared -o "$build/mpich_spy.so" "$here/mpich_spy.c" -ldl
fi
if stale "$build/mpich_once" "$here/mpich_once.c" "$here/mpich_spy.h"; then
    mpicc.mpich -std=c11 -Wall -Wextra -O2 -o "$build/mpich_once" "$here/mpich_once.c" -ldl
fi

out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
rc=0
timeout 120 mpiexec.mpich -n "$np" "${env_json[@]}" \
    -genv MPIR_CVAR_DEVICE_COLLECTIVES none -genv LD_PRELOAD "$build/mpich_spy.so${MPICH_YIELD:+ $MPICH_YIELD}" \
    "$build/mpich_once" "$coll" "$bytes" "${MPICH_OBSERVE_OP:-builtin}" >"$out" 2>"$err" || rc=$?
if [[ $rc -ne 0 ]]; then
    cat "$err" >&2
    if grep -q '^Assertion failed' "$err"; then
        # e.g. a forced algorithm whose restriction does not hold: the JSON path does not check restrictions
        echo "mpich-observe: MPICH aborted on an assertion: $(grep -m1 '^Assertion failed' "$err")" >&2
    fi
    echo "mpich-observe: $coll $bytes bytes at $np ranks: no algorithm identified (exit $rc)" >&2
    exit 2
fi
[[ ${MPICH_OBSERVE_VERBOSE:-0} == 1 ]] && cat "$err" >&2
if [[ $(wc -l <"$out") -ne 1 ]] || ! grep -qE '^MPIR_[A-Za-z_]+_intra_[a-z_]+$' "$out"; then
    cat "$out" "$err" >&2
    echo "mpich-observe: unexpected output from mpich_once" >&2
    exit 2
fi
cat "$out"
