#!/usr/bin/env bash
# Every built-in machine at its full size: `pact platform export` (all nodes, every core, or every GPU),
# then under smpirun a 2-rank ping between the first and the last rank and an allreduce (recursive doubling, 4096 doubles,
# checked) on min(all ranks, 1024) ranks spread cyclically over the nodes; plus the probe of every level.
# Prints one line per run with its wall time, and the probe tables.
#
#   scripts/bench-platforms.sh [-o DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(mktemp -d /tmp/pact-bench-platforms-XXXXXX)
[ "${1:-}" = -o ] && OUT=$2 && mkdir -p "$OUT"
PACT=build/bin/pact
BENCH=$PWD/build/bin/pact-bench-smpi
PROBE=$PWD/build/bin/pact-probe-smpi

run() { # NAME LABEL export options...
    local name=$1 label=$2; shift 2
    local d="$OUT/$label"
    local t0=$(date +%s.%N)
    $PACT platform export "$name" "$@" -o "$d/full" >/dev/null
    local all=$(wc -l <"$d/full/hostfile")
    { head -1 "$d/full/hostfile"; tail -1 "$d/full/hostfile"; } >"$d/hosts2"
    smpirun -np 2 -platform "$d/full/platform.xml" -hostfile "$d/hosts2" $(cat "$d/full/smpi-cfg") \
        "$PROBE" 0 1048576 >"$d/ping.out" 2>"$d/ping.err"
    local t1=$(date +%s.%N)
    local P=$((all < 1024 ? all : 1024))
    $PACT platform export "$name" "$@" --mapping cyclic -o "$d/cyclic" >/dev/null
    smpirun -np "$P" -platform "$d/cyclic/platform.xml" -hostfile "$d/cyclic/hostfile" $(cat "$d/cyclic/smpi-cfg") \
        "$BENCH" --coll allreduce --alg recursive_doubling --count 4096 --reps 1 --check >"$d/allreduce.out" 2>"$d/allreduce.err"
    local t2=$(date +%s.%N)
    local ping=$(awk '$4 == 1048576 { printf "%.3f", $5 * 1e6 }' "$d/ping.out")
    local ar=$(awk -F, '$5 ~ /^(ok|wrong|late)$/ { printf "%.3f us (%s)", $4 * 1e6, $5 }' "$d/allreduce.out")
    printf '%-28s ranks %5d  xml %6d KiB  ping(first,last) 1 MiB %9s us  %5.1f s   allreduce P=%4d d^ %s  %5.1f s\n' \
        "$label" "$all" $(( $(stat -c %s "$d/full/platform.xml") / 1024 )) "$ping" "$(echo "$t1 - $t0" | bc)" \
        "$P" "$ar" "$(echo "$t2 - $t1" | bc)"
    grep -q ',ok$' "$d/allreduce.out"
}

echo "# full-size exports (SimGrid $(pkg-config --modversion simgrid 2>/dev/null || echo 3.32)), $(nproc) cores, $(date -u +%F)"
run generic32x32 generic32x32
run cedar cedar-cores
run cedar cedar-gpus --ranks-on gpus
run mist mist-cores
run mist mist-gpus --ranks-on gpus
run thor thor-rails-shared
run thor thor-rails-bound --rails binding
run shaheen2 shaheen2
echo
for a in "generic32x32" "cedar" "cedar --ranks-on gpus" "mist --ranks-on gpus" "thor" "thor --rails binding" \
    "shaheen2"; do
    $PACT platform probe $a
done
$PACT platform probe cedar --pairs 32 | tail -1
