#!/usr/bin/env bash
# make bench-tune (issue 18, item 4): how long pact tune takes for a full table on one machine.
#  1. model: allreduce, reduce, bcast, alltoall, allgather, barrier, reduce_scatter on generic32x32, process
#     counts 2..1024 (powers of two: 1 node x 2..32, then 2..32 nodes x 32) and three others (3 nodes x 32 =
#     96, 6 x 32 = 192, 24 x 32 = 768), sizes 1 B..64 MiB (powers of two), the 11 shapes, objective robust,
#     target ompi, --jobs 2.  Target: the whole table in under 120 s.  Alltoall and allgather count bytes per
#     block: their sizes stop at 64 KiB, 64 MiB per process at 1024 ranks (at 64 MiB a block, 64 GiB per
#     process, their no-delay time passes 1000 s and the skew derived from it is refused: pact's simulated
#     clock would lose d^ next to such delays).
#  2. hybrid:3 on the same grid up to 256 ranks.  Target: under 30 minutes.
# Each collective runs as its own `pact tune` with a time limit (BENCH_TUNE_LIMIT seconds, default 600 for the
# model and 1800 for hybrid); one that hits it is reported with the cells it finished and the time those took
# (pact sim's results.csv in its runs/ folder), so the figure is a measured lower bound, never a guess.
# `pruned` counts the cells whose evaluation lower bounds proved useless (tuner/README.md) and, for hybrid, the
# SimGrid cells outside each size's K best (and outside the patterns where a candidate is the model's best);
# --exhaustive runs them all (pact tune --exhaustive: the same tables), for a side-by-side figure.  Each
# hybrid run's status says in how many cells SimGrid chose what the model chose (summary.txt), and a line
# after the total sums them.  With --colls the total is of those collectives only: no verdict.  cpu_s
# (and the total's CPU) is what pact tune took of the cores, user and system: the same table's wall time moves
# with this VM's slow spells, and its CPU says whether the work or the machine moved.  After each table,
# scripts/batch-time.sh says where its time went (the heaviest algorithms and process counts, from the runs'
# batches.csv), also in DIR/model-time.txt and DIR/hybrid-time.txt.
#   scripts/bench-tune.sh [--model-only | --hybrid-only] [--colls C,D] [--exhaustive] [-o DIR]
# DIR (default results/bench-tune-DATE) must be new or empty: pact tune resumes a folder it tuned before.
set -uo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
out=results/bench-tune-$(date +%Y%m%d-%H%M%S)
do_model=1 do_hybrid=1 colls_arg= exhaustive=
while [ $# -gt 0 ]; do
    case $1 in
    --model-only) do_hybrid=0 ;;
    --hybrid-only) do_model=0 ;;
    --colls) IFS=, read -r -a colls_arg <<<"$2"; shift ;;
    --exhaustive) exhaustive=--exhaustive ;;
    -o) out=$2; shift ;;
    *) echo "bench-tune.sh: unknown argument $1 (--model-only, --hybrid-only, --colls C,D, --exhaustive, -o DIR)" >&2
        exit 2 ;;
    esac
    shift
done
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; then # see the header: a resumed table would be timed
    echo "bench-tune.sh: -o $out is not empty: pact tune would resume the runs there and time only what is" \
        "left; give a new folder" >&2
    exit 2
fi
mkdir -p "$out"
colls=(allreduce reduce bcast alltoall allgather barrier reduce_scatter)
[ -n "${colls_arg:-}" ] && colls=("${colls_arg[@]}")
# three invocations cover the process counts: one node, 2..32 nodes of 32, and the three others
grids=("--nodes 1 --ppn 2,4,8,16,32" "--nodes 2,4,8,16,32 --ppn 32" "--nodes 3,6,24 --ppn 32")
hgrids=("--nodes 1 --ppn 2,4,8,16,32" "--nodes 2,4,8 --ppn 32" "--nodes 3,6 --ppn 32")
echo "# pact tune at scale on $(hostname), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), checkout $(git rev-parse --short HEAD), binary $PACT"

# cpu_file: the CPU seconds (user and system) of this shell's finished children, from the builtin times that
# wrote the file (it must run in the shell that started them: in $(...) it would count the subshell's own)
timesf=$(mktemp /tmp/pact-bench-tune-XXXXXX)
trap 'rm -f "$timesf"' EXIT
cpu_file() { awk 'NR == 2 { s = 0; for (i = 1; i <= NF; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } print s }' "$1"; }

# run SOURCE LIMIT GRID-ARRAY-NAME: one pact tune per collective and grid; prints a line each and the total, with
# the CPU seconds pact tune took (cpu_s: user and system over both jobs; on this project's VM a slow spell shows
# in the CPU of the same work, session 43)
run() {
    local source=$1 limit=$2 gname=$3[@] total=0 cpu_total=0 all_done=1 same_all=0 cells_all=0
    local -a gs=("${!gname}")
    printf '%-8s %-15s %-28s %8s %8s %8s %8s %10s  %s\n' source collective grid cells pruned seconds cpu_s cells/s \
        status
    for c in "${colls[@]}"; do
        for gi in "${!gs[@]}"; do
            local dir=$out/$source-$c-$gi start end rc status
            start=$(date +%s.%N)
            local cpu0 cpu
            times >"$timesf"
            cpu0=$(cpu_file "$timesf")
            # shellcheck disable=SC2086
            local sizes=1..64M
            case $c in alltoall | allgather) sizes=1..64K ;; esac
            timeout "$limit" "$PACT" tune --platform generic32x32 ${gs[$gi]} --coll "$c" --sizes $sizes \
                --patterns all --objective robust --source "$source" --target ompi --jobs 2 --no-figures -q $exhaustive \
                -o "$dir" >"$dir.log" 2>&1
            rc=$?
            end=$(date +%s.%N)
            times >"$timesf"
            cpu=$(awk -v a="$cpu0" -v b="$(cpu_file "$timesf")" 'BEGIN { printf "%.1f", b - a }')
            local secs cells pruned
            secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
            cells=$(cat "$dir"/runs/*/results.csv 2>/dev/null | grep -vc '^platform,' || true)
            pruned=$(cat "$dir"/runs/*/results.csv 2>/dev/null | grep -c ',pruned$' || true)
            case $rc in 0) status=done ;; 124) status="STOPPED at ${limit}s"; all_done=0 ;;
                *) status="FAILED rc=$rc: $(tail -1 "$dir.log")"; all_done=0 ;; esac
            # hybrid: in how many cells SimGrid chose what the model chose (summary.txt's line per collective)
            local agree
            agree=$(awk '/^hybrid: the model.s choice is SimGrid.s in/ { s += $8; n += $10 }
                END { if (n) print s, n }' "$dir/summary.txt" 2>/dev/null)
            if [ -n "$agree" ]; then
                status="$status (the model's choice is SimGrid's in ${agree% *} of ${agree#* } cells)"
                same_all=$((same_all + ${agree% *})) cells_all=$((cells_all + ${agree#* }))
            fi
            printf '%-8s %-15s %-28s %8s %8s %8.1f %8.1f %10.1f  %s\n' "$source" "$c" "${gs[$gi]// /}" "$cells" "$pruned" \
                "$secs" "$cpu" "$(awk -v n="$cells" -v s="$secs" 'BEGIN { print n / (s + 0.001) }')" "$status"
            total=$(awk -v a="$total" -v b="$secs" 'BEGIN { print a + b }')
            cpu_total=$(awk -v a="$cpu_total" -v b="$cpu" 'BEGIN { print a + b }')
        done
    done
    printf 'total %s: %.1f s%s; CPU %.1f s\n' "$source" "$total" \
        "$([ $all_done = 1 ] || echo ' (a lower bound: some runs stopped or failed)')" "$cpu_total"
    [ "$cells_all" -eq 0 ] ||
        awk -v s="$same_all" -v n="$cells_all" 'BEGIN { printf "hybrid: the model'"'"'s choice is SimGrid'"'"'s in %d of %d cells (%.1f%%)\n", s, n, 100 * s / n }'
}
# where_time SOURCE: the heaviest algorithms of SOURCE's runs (scripts/batch-time.sh), into DIR/SOURCE-time.txt
where_time() {
    local -a d=("$out/$1"-*/)
    [ -d "${d[0]}" ] || return 0
    echo "where the $1 table's time went:"
    bash scripts/batch-time.sh --top 10 "${d[@]}" | tee "$out/${1%%:*}-time.txt"
}
rc=0
if [ $do_model = 1 ]; then
    run model "${BENCH_TUNE_LIMIT:-600}" grids | tee "$out/model.txt"
    t=$(awk '/^total model/ { print $3 }' "$out/model.txt")
    if [ -n "${colls_arg:-}" ]; then echo "model table: --colls ${colls[*]} only, not the whole table"
    elif grep -q "lower bound" "$out/model.txt" || awk -v t="$t" 'BEGIN { exit !(t > 120) }'; then
        echo "model table: MISSED (target < 120 s)"; rc=1
    else echo "model table: met (target < 120 s)"; fi
    where_time model
fi
if [ $do_hybrid = 1 ]; then
    run hybrid:3 "${BENCH_TUNE_LIMIT:-1800}" hgrids | tee "$out/hybrid.txt"
    t=$(awk '/^total hybrid/ { print $3 }' "$out/hybrid.txt")
    if [ -n "${colls_arg:-}" ]; then echo "hybrid:3 table: --colls ${colls[*]} only, not the whole table"
    elif grep -q "lower bound" "$out/hybrid.txt" || awk -v t="$t" 'BEGIN { exit !(t > 1800) }'; then
        echo "hybrid:3 table up to 256 ranks: MISSED (target < 30 min)"; rc=1
    else echo "hybrid:3 table up to 256 ranks: met (target < 30 min)"; fi
    where_time hybrid:3
fi
exit $rc
