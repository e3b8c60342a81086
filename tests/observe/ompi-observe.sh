#!/usr/bin/env bash
# ompi-observe.sh RULES_FILE COLL NP BYTES [COLL BYTES ...]
#
# Runs COLL once (coll_once.c) on NP ranks under Open MPI 4.1.4's coll_tuned with RULES_FILE as its dynamic rules
# file ('-': no file, Open MPI's fixed decisions) and the ompi_spy.c LD_PRELOAD observer, and prints one line: the
# coll_tuned algorithm id and the ompi_coll_base_* function that rank 0 ran outermost, e.g.
#   4 ompi_coll_base_allreduce_intra_ring
# Further COLL BYTES pairs run in the same mpirun, one after another, a line each in their order (an mpirun's
# start is most of an observation's 0.8 s).
# Exits non-zero when nothing (or more than one call) was recorded for a call, or when it did not come from
# coll_tuned (mca_coll_tuned.so: coll basic, for one, calls the same ompi_coll_base_* functions): it never
# guesses.
# Build directory: $OBSERVE_BUILD (default build/observe under the repository root); $OBSERVE_MCA: extra mpirun
# arguments.
#
# The id <- function map follows ompi_coll_tuned_<coll>_intra_do_this() in Open MPI 4.1.4's
# ompi/mca/coll/tuned/coll_tuned_<coll>_decision.c.  Id 0 is "use the fixed decision" for every collective, which
# then calls one of the functions below, so 0 is never printed.  In 4.1.4 every non-zero id has its own function;
# ids do differ in the parameters they pass (bcast 2 chain: faninout chains; bcast 7 knomial: radix; reduce 2 chain:
# faninout; allreduce 5 and bcast/reduce 2-9: segsize; alltoall 4 linear_sync: max requests), which the function
# name does not show.  A future Open MPI whose ids share a function would need alg_id to print an id list.
set -euo pipefail

usage() {
    echo "usage: ompi-observe.sh RULES_FILE|- COLL NP BYTES [COLL BYTES ...]" >&2
    exit 2
}
[[ $# -ge 4 && $(($# % 2)) -eq 0 ]] || usage
rules=$1 np=$3
pairs=("$2" "$4" "${@:5}")
[[ $np =~ ^[1-9][0-9]*$ ]] || usage
for ((i = 1; i < ${#pairs[@]}; i += 2)); do
    [[ ${pairs[i]} =~ ^[1-9][0-9]*$ ]] || usage
done

alg_id() {
    case $1 in
    ompi_coll_base_allgather_intra_basic_linear) echo 1 ;;
    ompi_coll_base_allgather_intra_bruck) echo 2 ;;
    ompi_coll_base_allgather_intra_recursivedoubling) echo 3 ;;
    ompi_coll_base_allgather_intra_ring) echo 4 ;;
    ompi_coll_base_allgather_intra_neighborexchange) echo 5 ;;
    ompi_coll_base_allgather_intra_two_procs) echo 6 ;;
    ompi_coll_base_allreduce_intra_basic_linear) echo 1 ;;
    ompi_coll_base_allreduce_intra_nonoverlapping) echo 2 ;;
    ompi_coll_base_allreduce_intra_recursivedoubling) echo 3 ;;
    ompi_coll_base_allreduce_intra_ring) echo 4 ;;
    ompi_coll_base_allreduce_intra_ring_segmented) echo 5 ;;
    ompi_coll_base_allreduce_intra_redscat_allgather) echo 6 ;;
    ompi_coll_base_alltoall_intra_basic_linear) echo 1 ;;
    ompi_coll_base_alltoall_intra_pairwise) echo 2 ;;
    ompi_coll_base_alltoall_intra_bruck) echo 3 ;;
    ompi_coll_base_alltoall_intra_linear_sync) echo 4 ;;
    ompi_coll_base_alltoall_intra_two_procs) echo 5 ;;
    ompi_coll_base_barrier_intra_basic_linear) echo 1 ;;
    ompi_coll_base_barrier_intra_doublering) echo 2 ;;
    ompi_coll_base_barrier_intra_recursivedoubling) echo 3 ;;
    ompi_coll_base_barrier_intra_bruck) echo 4 ;;
    ompi_coll_base_barrier_intra_two_procs) echo 5 ;;
    ompi_coll_base_barrier_intra_tree) echo 6 ;;
    ompi_coll_base_bcast_intra_basic_linear) echo 1 ;;
    ompi_coll_base_bcast_intra_chain) echo 2 ;;
    ompi_coll_base_bcast_intra_pipeline) echo 3 ;;
    ompi_coll_base_bcast_intra_split_bintree) echo 4 ;;
    ompi_coll_base_bcast_intra_bintree) echo 5 ;;
    ompi_coll_base_bcast_intra_binomial) echo 6 ;;
    ompi_coll_base_bcast_intra_knomial) echo 7 ;;
    ompi_coll_base_bcast_intra_scatter_allgather) echo 8 ;;
    ompi_coll_base_bcast_intra_scatter_allgather_ring) echo 9 ;;
    ompi_coll_base_reduce_intra_basic_linear) echo 1 ;;
    ompi_coll_base_reduce_intra_chain) echo 2 ;;
    ompi_coll_base_reduce_intra_pipeline) echo 3 ;;
    ompi_coll_base_reduce_intra_binary) echo 4 ;;
    ompi_coll_base_reduce_intra_binomial) echo 5 ;;
    ompi_coll_base_reduce_intra_in_order_binary) echo 6 ;;
    ompi_coll_base_reduce_intra_redscat_gather) echo 7 ;;
    ompi_coll_base_reduce_scatter_intra_nonoverlapping) echo 1 ;;
    ompi_coll_base_reduce_scatter_intra_basic_recursivehalving) echo 2 ;;
    ompi_coll_base_reduce_scatter_intra_ring) echo 3 ;;
    ompi_coll_base_reduce_scatter_intra_butterfly) echo 4 ;;
    ompi_coll_base_reduce_scatter_block_basic_linear) echo 1 ;;
    ompi_coll_base_reduce_scatter_block_intra_recursivedoubling) echo 2 ;;
    ompi_coll_base_reduce_scatter_block_intra_recursivehalving) echo 3 ;;
    ompi_coll_base_reduce_scatter_block_intra_butterfly) echo 4 ;;
    *) return 1 ;;
    esac
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${OBSERVE_BUILD:-build/observe}
[[ $build == /* ]] || build=$root/$build
mkdir -p "$build"
spy=$build/ompi_spy.so prog=$build/coll_once
if [[ ! -e $spy || $here/ompi_spy.c -nt $spy ]]; then
    cc -std=c11 -Wall -Wextra -O2 -fPIC -shared -o "$spy" "$here/ompi_spy.c" -ldl
fi
if [[ ! -e $prog || $here/coll_once.c -nt $prog ]]; then
    mpicc.openmpi -std=c11 -Wall -Wextra -O2 -o "$prog" "$here/coll_once.c" -ldl
fi

mca=(--mca btl "self,vader")
# OBSERVE_MCA: extra mpirun arguments, word-split (used by selftest.sh's controls)
read -r -a extra <<<"${OBSERVE_MCA:-}"
mca+=("${extra[@]}")
if [[ $rules != - ]]; then
    [[ -r $rules ]] || { echo "ompi-observe: cannot read rules file '$rules'" >&2; exit 2; }
    rules=$(cd "$(dirname "$rules")" && pwd)/$(basename "$rules")
    mca+=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$rules")
fi

log=$(mktemp "${TMPDIR:-/tmp}/ompi-observe.XXXXXX")
out=$(mktemp "${TMPDIR:-/tmp}/ompi-observe-out.XXXXXX")
trap 'rm -f "$log" "$out"' EXIT
if ! OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun.openmpi -np "$np" --oversubscribe "${mca[@]}" -x LD_PRELOAD="$spy" -x PACT_SPY_LOG="$log" \
    "$prog" "${pairs[@]}" >"$out" 2>&1; then
    echo "ompi-observe: mpirun failed for ${pairs[*]} np=$np rules=$rules:" >&2
    sed 's/^/  /' "$out" >&2
    exit 1
fi

# rank 0's lines, call by call: coll_once marks each call's end ("0 -- end")
mapfile -t lines < <(awk '$1 == "0" { print $2 " " $3 }' "$log")
k=0
for ((i = 0; i < ${#pairs[@]}; i += 2)); do
    coll=${pairs[i]} bytes=${pairs[i + 1]} calls=()
    while [[ $k -lt ${#lines[@]} && ${lines[k]} != "-- end" ]]; do
        calls+=("${lines[k]}")
        k=$((k + 1))
    done
    if [[ $k -ge ${#lines[@]} ]]; then
        echo "ompi-observe: no end of the call $coll bytes=$bytes in rank 0's record (np=$np rules=$rules)" >&2
        exit 1
    fi
    k=$((k + 1))
    if [[ ${#calls[@]} -eq 0 ]]; then
        echo "ompi-observe: nothing recorded on rank 0 for $coll (np=$np bytes=$bytes rules=$rules):" \
            "no ompi_coll_base_* algorithm was seen" >&2
        exit 1
    fi
    if [[ ${#calls[@]} -ne 1 ]]; then
        echo "ompi-observe: rank 0 recorded ${#calls[@]} outermost calls for $coll bytes=$bytes, expected 1:" \
            "${calls[*]}" >&2
        exit 1
    fi
    read -r fn caller <<<"${calls[0]}"
    if [[ $caller != mca_coll_tuned.so ]]; then
        echo "ompi-observe: rank 0 ran $fn, called from $caller, not from coll_tuned (mca_coll_tuned.so)" >&2
        exit 1
    fi
    id=$(alg_id "$fn") || { echo "ompi-observe: rank 0 ran $fn, which has no coll_tuned id" >&2; exit 1; }
    echo "$id $fn"
done
