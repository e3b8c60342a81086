#!/usr/bin/env bash
# selftest.sh - proves ompi-observe.sh sees the algorithm Open MPI 4.1.4's coll_tuned really ran.
#
# For each collective, at 4 ranks, a hand-written dynamic rules file forces each algorithm id coll_tuned has
# (one rule at message size 0, so it holds for every size) and the observed id must equal the forced one.
# Controls: the forced ids of a collective must give as many distinct observations as there are ids; a malformed
# file forcing an id (Open MPI silently ignores it) must NOT be observed as that id; and a run whose collective
# does not go through coll_tuned must make the observer fail rather than guess (reduce_scatter without coll_tuned:
# nothing recorded; barrier without coll_tuned: coll basic calls ompi_coll_base_barrier_intra_basic_linear itself).
# Ids that cannot run at 4 ranks (the two_procs algorithms need exactly 2) are checked at 2 ranks.
# Prints a table (coll, np, forced id, observed id, function) and exits non-zero on any mismatch.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
observe=$here/ompi-observe.sh
bytes=1024
tmp=$(mktemp -d "${TMPDIR:-/tmp}/observe-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# coll_tuned collective ids (ompi/mca/coll/base/coll_base_functions.h COLLTYPE_T) and algorithm counts in 4.1.4
declare -A coll_id=([allgather]=0 [allreduce]=2 [alltoall]=3 [barrier]=6 [bcast]=7 [reduce]=11
    [reduce_scatter]=12 [reduce_scatter_block]=13)
declare -A nalg=([allgather]=6 [allreduce]=6 [alltoall]=5 [barrier]=6 [bcast]=9 [reduce]=7 [reduce_scatter]=4
    [reduce_scatter_block]=4)
# "coll:id" that need exactly 2 ranks
declare -A two_procs=([allgather:6]=1 [alltoall:5]=1 [barrier:5]=1)
colls=(allreduce reduce bcast alltoall allgather barrier reduce_scatter reduce_scatter_block)

# write_rules FILE COLL NP ALG: one collective, one comm size, one rule from message size 0
write_rules() {
    local file=$1 coll=$2 np=$3 alg=$4
    {
        echo "# forced by selftest.sh: $coll np=$np algorithm $alg"
        echo "1"
        echo "${coll_id[$coll]} 1"
        echo "$np 1"
        echo "0 $alg 0 0"
    } >"$file"
}

fail=0
printf '%-21s %3s %7s %9s  %s\n' coll np forced observed function
for coll in "${colls[@]}"; do
    declare -A seen=()
    for ((alg = 1; alg <= nalg[$coll]; alg++)); do
        np=4
        [[ -n ${two_procs[$coll:$alg]:-} ]] && np=2
        rules=$tmp/$coll-$alg.rules
        write_rules "$rules" "$coll" "$np" "$alg"
        if got=$("$observe" "$rules" "$coll" "$np" "$bytes" 2>"$tmp/err"); then
            read -r obs fn <<<"$got"
        else
            obs=FAIL fn=$(head -n 1 "$tmp/err")
        fi
        mark=""
        [[ $obs == "$alg" ]] || { mark="  <-- MISMATCH"; fail=1; }
        seen[$obs]=1
        printf '%-21s %3s %7s %9s  %s%s\n' "$coll" "$np" "$alg" "$obs" "$fn" "$mark"
    done
    if [[ ${#seen[@]} -ne ${nalg[$coll]} ]]; then
        echo "CONTROL FAIL: $coll: ${nalg[$coll]} forced ids gave ${#seen[@]} distinct observations"
        fail=1
    fi
    unset seen
done

# Control: a malformed file (says 2 collectives, holds 1) forcing allreduce ring (4) is ignored by Open MPI,
# so the observer must report Open MPI's fixed choice, not 4.
bad=$tmp/malformed.rules
write_rules "$bad" allreduce 4 4
sed -i 's/^1$/2/' "$bad"
fixed=$("$observe" - allreduce 4 "$bytes")
got=$("$observe" "$bad" allreduce 4 "$bytes")
if [[ ${got%% *} == 4 || $got != "$fixed" ]]; then
    echo "CONTROL FAIL: malformed file forcing 4 observed '$got' (fixed decision: '$fixed')"
    fail=1
else
    echo "control: malformed file forcing allreduce 4 -> observed '$got' = fixed decision (ignored, as expected)"
fi

# Controls: without coll_tuned the observer must fail, whether nothing is recorded or another component ran.
for coll in reduce_scatter barrier; do
    if OBSERVE_MCA="--mca coll ^tuned" "$observe" - "$coll" 4 "$bytes" >"$tmp/out" 2>"$tmp/err"; then
        echo "CONTROL FAIL: observer reported '$(cat "$tmp/out")' for a $coll coll_tuned did not run"
        fail=1
    else
        echo "control: $coll without coll_tuned -> observer failed: $(head -n 1 "$tmp/err")"
    fi
done

if [[ $fail -ne 0 ]]; then
    echo "selftest: FAILED"
    exit 1
fi
echo "selftest: all forced algorithms observed"
