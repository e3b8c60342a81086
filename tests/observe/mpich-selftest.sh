#!/usr/bin/env bash
# mpich-selftest.sh: checks mpich-observe.sh against MPICH 4.0.2 itself at 4 ranks.
#
# For each collective and each MPIR algorithm valid at 4 ranks, writes a full MPIR tuning tree (MPICH's built-in
# MPIR tree, taken from libmpich.so.12, with that collective's subtree replaced by
# {"comm_type=intra":{"algorithm=MPIR_<Coll>_intra_<alg>":{}}}, or for smp by
# {"comm_type=intra":{"comm_hierarchy=parent":{"algorithm=MPIR_<Coll>_intra_smp":{}},
#                    "comm_hierarchy=any":<the built-in subtree>}}), runs mpich-observe.sh with it and checks
# that the observed algorithm is the forced one, at each size of MPICH_SELFTEST_BYTES (default 4096).  Prints a
# table (coll, bytes, forced, observed, verdict).
# Negative control: under MPICH's own tree (no JSON variable) the observed algorithm must be another one than a
# forced one at the same size.  Exit 1 on any mismatch.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
observe=$here/mpich-observe.sh
lib=${MPICH_LIB:-/usr/lib/x86_64-linux-gnu/libmpich.so.12}
np=4
sizes=${MPICH_SELFTEST_BYTES:-4096}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the MPIR tree is the one embedded JSON string with MPIR_Bcast_intra_* algorithms (the other two are ch4's
# compositions and the POSIX module's release_gather)
strings -n 8 "$lib" | grep '"collective=bcast"' | grep 'algorithm=MPIR_Bcast_intra_' >"$tmp/builtin.json"
if [[ $(wc -l <"$tmp/builtin.json") -ne 1 ]] || ! jq -e . "$tmp/builtin.json" >/dev/null; then
    echo "mpich-selftest: cannot find MPICH's MPIR tuning tree in $lib" >&2
    exit 1
fi

# ALG or ALG:user (the reduction with a user-defined op, whose calls are checked too)
declare -A algs=(
    [allreduce]="smp recursive_doubling reduce_scatter_allgather smp:user recursive_doubling:user"
    [reduce]="binomial smp reduce_scatter_gather binomial:user smp:user"
    [bcast]="binomial scatter_recursive_doubling_allgather scatter_ring_allgather smp"
    [alltoall]="brucks pairwise pairwise_sendrecv_replace scattered"
    [allgather]="brucks recursive_doubling ring"
    [barrier]="dissemination smp"
    [reduce_scatter]="noncommutative pairwise recursive_doubling recursive_halving recursive_halving:user"
)
declare -A Name=([allreduce]=Allreduce [reduce]=Reduce [bcast]=Bcast [alltoall]=Alltoall [allgather]=Allgather
    [barrier]=Barrier [reduce_scatter]=Reduce_scatter)

start=$SECONDS
fail=0
printf '%-14s %8s  %-65s %-55s %s\n' coll bytes forced observed verdict
# bytes: per process (per block for alltoall/allgather, per result for reduce_scatter); /u: user-defined op
for bytes in $sizes; do
for coll in allreduce reduce bcast alltoall allgather barrier reduce_scatter; do
    for spec in ${algs[$coll]}; do
        alg=${spec%:user} op=builtin label=$bytes
        [[ $spec == *:user ]] && op=user label="$bytes/u"
        forced=MPIR_${Name[$coll]}_intra_$alg
        json=$tmp/$coll-$alg.json
        if [[ $alg == smp ]]; then
            # smp runs the same collective (bcast, reduce, barrier) again on node_comm, which must not pick smp
            # in turn: bcast and barrier smp assert a parent communicator, reduce smp does nothing there.  Force
            # it on parent communicators only, as MPICH's own tree does, and keep the rest of the subtree
            jq -c --arg c "collective=$coll" --arg a "algorithm=$forced" \
                '.[$c]["comm_type=intra"] = {"comm_hierarchy=parent": {($a): {}},
                                             "comm_hierarchy=any": .[$c]["comm_type=intra"]}' \
                "$tmp/builtin.json" >"$json"
        else
            jq -c --arg c "collective=$coll" --arg a "algorithm=$forced" '.[$c] = {"comm_type=intra": {($a): {}}}' \
                "$tmp/builtin.json" >"$json"
        fi
        observed=$(MPICH_OBSERVE_OP=$op "$observe" "$json" "$coll" "$np" "$bytes" 2>"$tmp/err") || observed="(none)"
        verdict=ok
        if [[ $observed != "$forced" ]]; then
            verdict=MISMATCH
            fail=1
            sed 's/^/    /' "$tmp/err" >&2
        fi
        printf '%-14s %8s  %-65s %-55s %s\n' "$coll" "$label" "$forced" "$observed" "$verdict"
    done
done
done

# thresholds as pact writes them: the first key that holds wins, "<=" includes its bound; allreduce keys on
# avg_msg_size (type size x count per process), allgather on total_msg_size (x comm_size)
jq -c '.["collective=allreduce"] = {"comm_type=intra": {"comm_size<=4": {
           "avg_msg_size<=2048": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}},
           "avg_msg_size=any": {"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather": {}}},
       "comm_size=any": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}}}}
     | .["collective=allgather"] = {"comm_type=intra": {"comm_size<=4": {
           "total_msg_size<=8192": {"algorithm=MPIR_Allgather_intra_ring": {}},
           "total_msg_size=any": {"algorithm=MPIR_Allgather_intra_brucks": {}}},
       "comm_size=any": {"algorithm=MPIR_Allgather_intra_ring": {}}}}' "$tmp/builtin.json" >"$tmp/thresholds.json"
for case in allreduce:2048:recursive_doubling allreduce:2052:reduce_scatter_allgather allgather:2048:ring \
    allgather:2052:brucks; do
    IFS=: read -r coll bytes alg <<<"$case"
    forced=MPIR_${Name[$coll]}_intra_$alg
    observed=$("$observe" "$tmp/thresholds.json" "$coll" "$np" "$bytes" 2>"$tmp/err") || observed="(none)"
    verdict=ok
    if [[ $observed != "$forced" ]]; then
        verdict=MISMATCH
        fail=1
        sed 's/^/    /' "$tmp/err" >&2
    fi
    printf '%-14s %8s  %-65s %-55s %s\n' "$coll" "$bytes" "$forced (threshold)" "$observed" "$verdict"
done

bytes=4096
# negative control: MPICH's own tree (no JSON variable) at this size picks reduce_scatter_allgather for a 4 KiB
# MPI_SUM allreduce and scattered for a 4 KiB alltoall; forced recursive_doubling and brucks were observed
# above, so the observer must report something else here
for pair in allreduce:recursive_doubling alltoall:brucks; do
    coll=${pair%%:*} alg=${pair#*:}
    forced=MPIR_${Name[$coll]}_intra_$alg
    observed=$("$observe" --builtin "$coll" "$np" "$bytes" 2>"$tmp/err") || observed="(none)"
    verdict="ok (differs from forced $forced)"
    if [[ $observed == "$forced" || $observed == "(none)" ]]; then
        verdict=MISMATCH
        fail=1
        sed 's/^/    /' "$tmp/err" >&2
    fi
    printf '%-14s %8s  %-65s %-55s %s\n' "$coll" "$bytes" "(builtin tree)" "$observed" "$verdict"
done
echo "mpich-selftest: $((SECONDS - start)) s"
exit $fail
