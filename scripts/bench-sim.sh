#!/usr/bin/env bash
# bench-sim.sh - make bench-sim: the seeds' reduce study at full scale under SMPI and the replay engine's
# memory at scale, with wall times and peak memory measured here.
#
#   scripts/bench-sim.sh [-o DIR] [--jobs J] [--reference]
#
# 1. pact sim experiments/seeds-reduce-1024.yaml (generic32x32, 1024 ranks, every reduce algorithm, 2 B..2 KiB,
#    every shape, skew 1.5 x mean no-delay d^): wall time, peak RSS, and where the time goes (seconds per
#    algorithm and phase, from DIR/run/batches.csv).  A killed run resumes when started again with the same -o.
# 2. One 64 MiB allreduce (ring and rabenseifner) at 1024 ranks with the replay engine: wall time, peak RSS.
# --reference copies summary, figures and this report into results/reference/bench-sim/.
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
out=results/bench-sim-$(date +%Y%m%d-%H%M%S) jobs=$(nproc) ref=0
while [ $# -gt 0 ]; do
    case "$1" in
    -o) out=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --reference) ref=1; shift ;;
    *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
mkdir -p "$out"
report="$out/bench-sim.txt"
exp=${BENCH_SIM_EXP:-experiments/seeds-reduce-1024.yaml}
cmd="$PACT sim $exp --jobs $jobs -o $out/study"
{
    echo "# make bench-sim on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), pact $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo
    echo "## 1. $exp"
    echo "\$ $cmd"
} | tee "$report"
/usr/bin/time -f '%e %M' -o "$out/time.txt" $cmd >"$out/study.out"
read -r wall rss <"$out/time.txt"
cells=$(($(wc -l <"$out/study/results.csv") - 1))
{
    printf 'wall %.0f s (%.1f min), peak RSS of pact %.0f MiB, %d cells, %.2f s per cell\n' "$wall" \
        "$(echo "$wall / 60" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$cells" "$(echo "$wall / $cells" | bc -l)"
    echo "(a resumed run counts only its own part; simulations of one run overlap $jobs at a time)"
    echo
    echo "where the time goes: simulation wall seconds per algorithm and phase (phase 1: no_delay, 2: the shapes)"
    awk -F, 'NR > 1 { t[$5 "," $4] += $8; n[$5 "," $4] += $7; tot += $8 }
             END { printf "%-18s %5s %6s %9s %9s\n", "algorithm", "phase", "cells", "wall_s", "s/cell"
                   for (k in t) { split(k, a, ","); printf "%-18s %5s %6d %9.1f %9.3f\n", a[1], a[2], n[k], t[k], t[k] / n[k] | "sort" }
                   close("sort"); printf "total simulation seconds %.1f\n", tot }' "$out/study/run/batches.csv"
    echo
    echo "figures: $(cd "$out/study" && ls *.png | tr '\n' ' ')"
    echo
    echo "## 2. 64 MiB allreduce at 1024 ranks (generic32x32, 32 x 32), replay engine"
} | tee -a "$report"
for alg in rabenseifner ring; do
    rcmd="$PACT sim --platform generic32x32 --nodes 32 --ppn 32 --coll allreduce --algs $alg --sizes 64M --patterns no_delay --reps 1 --engine replay -q --no-figures -o $out/replay-$alg"
    echo "\$ $rcmd" | tee -a "$report"
    /usr/bin/time -f '%e %M' -o "$out/time-$alg.txt" $rcmd >/dev/null
    read -r w m <"$out/time-$alg.txt"
    d=$(awk -F, 'NR == 2 { print $14 }' "$out/replay-$alg/results.csv")
    printf '%s: wall %.1f s, peak RSS %.0f MiB (largest process: pact, smpirun or the simulation), d^ %s s\n' \
        "$alg" "$w" "$(echo "$m / 1024" | bc -l)" "$d" | tee -a "$report"
done
if [ $ref -eq 1 ]; then
    dst=results/reference/bench-sim
    mkdir -p "$dst"
    cp "$out/study/summary.txt" "$out/study/results.csv" "$out/study/experiment.yaml" "$out/study/run/batches.csv" \
        "$out/study/"*.png "$out/study/"*.svg "$report" "$dst/"
    echo "copied to $dst/"
fi
