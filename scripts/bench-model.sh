#!/usr/bin/env bash
# The model engine's speed on one core (make bench-model), issues 7 and 17:
#  1. `pact model bench`: the schedule evaluator's simulated messages per CPU second (single-port Hockney and
#     SimGrid-like shared links, several algorithms at 64..1024 ranks, random arrivals) and the closed forms'
#     predictions per CPU second.  Targets: >= 2e6 messages/s, >= 1e7 predictions/s (issue 7).
#  2. Seconds and peak memory per cell, each cell `pact model predict --timing` in a process of its own
#     (taskset -c 0, timeout; times are wall seconds of pact_model_prepare + pact_model_evaluate, memory the
#     process's peak RSS):
#       1024 ranks (generic32x32, 32 nodes x 32): every algorithm of allreduce, reduce, bcast, alltoall,
#         allgather, barrier, reduce_scatter, the acceptance's whole range: 8 B..64 MiB (10 sizes: 8, 64,
#         512, 1K, 4K, 32K, 256K, 1M, 16M, 64M) under each of the 11 shapes (skew 1e-4 s), about 5,200 cells
#         (6-7 minutes); target <= 0.5 s and <= 256 MiB per cell, 20 s timeout (a timeout is MISSED);
#       shared links >= 1e7 messages/s on allreduce ring and alltoall pairwise at 256-1024 ranks;
#       1024 ranks on cedar, thor, mist and shaheen2 (32 x 32; routes, models/route.c): every algorithm of
#         alltoall, allgather and allreduce, 64K, random, 20 s timeout: reported, no target;
#       256 ranks (generic32x32, 32 x 8) and 16384 ranks (flat: one switch, a rank per node, alpha 2e-6 s,
#         beta 8e-10 s/B), 64K, no_delay, 60 s timeout: reported, no target;
#       2^20 ranks, flat: binomial, binary, in_order_binary reduce; binomial, binary_tree bcast;
#         recursive_doubling, rabenseifner allreduce; bruck allgather; 8 B and 64K (Rabenseifner 8 MiB: below 2^20
#         elements it falls back to basic_linear), no_delay, 120 s timeout;
#         target < 60 s and < 16 GiB;
#       --largest: per algorithm, the largest P (1024, 2048, .. 2^20, flat, 64K, no_delay) whose cell
#         finishes within 60 s (hours on today's evaluator: off by default).
#  Exits 1 when a target is MISSED.
#
#   scripts/bench-model.sh [--quick] [--shapes all|LIST] [--sizes LIST] [--largest | --largest-only] [--colls LIST]
#                          [--sets LIST] [--seconds S] [--mem-limit GIB] [--reps N] [-o DIR] [SECONDS]
#     --quick       smoke run: pact model bench for 2 s, then 1024 ranks only, 8 B and 1M, no_delay
#     --shapes X    arrival shapes at 1024 ranks: all (the 11 of pact list patterns) or a comma list
#                   (default all; until session 36 no_delay,random, which hid most cells over 0.5 s)
#     --sizes LIST  sizes at 1024 ranks in bytes, a comma list (default the 10 above; until session 36
#                   8,65536,1048576,67108864)
#     --largest     also the largest P per algorithm within 60 s
#     --largest-only  that alone (two at once on two cores: CPU=0 ... --colls A,B and CPU=1 ... --colls C,D)
#     --colls LIST  these collectives only (default: the seven; the 2^20 cells too)
#     --algs LIST   these algorithms only, a comma list of COLL/ALG (alltoall/pairwise,allreduce/ring); their
#                   collectives are --colls unless that is given
#     --sets LIST   these parts only, a comma list of bench (pact model bench), 1024, routed, 256 (256 and 16384
#                   ranks), 2p20 (default: all five; --quick: bench,1024).  On a machine of many cores, one
#                   instance per core (CPU=k, --sets, --colls) runs the bench in parallel, each cell on one core
#     --seconds S   pact model bench's measurement (default 8; the positional SECONDS is the same)
#     --mem-limit G address-space limit of each cell in GiB (ulimit -v; default 17, at most 90% of the
#                   machine): a cell past it fails instead of swapping the machine
#     --reps N      run each cell N times and keep its fastest run (its seconds; the peak memory is the
#                   largest of the N): on a VM whose speed moves by tens of percent, a cell's time with less
#                   of the noise (default 1; a run that fails or times out ends the cell, which reports it)
#     -o DIR        also write DIR/bench-model.txt (this output) and DIR/bench-model.csv (the cells); a DIR that
#                   holds an earlier run's files is refused (exit 2)
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
CPU=${CPU:-0}
quick=0 largest=0 only=0 seconds=8 shapes=all outdir='' mem_gib=17 colls_arg='' algs_arg='' sets='' reps=1 sizes_arg=''
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 seconds=2 shapes=no_delay ;;
    --largest) largest=1 ;;
    --largest-only) largest=1 only=1 ;;
    --colls) colls_arg=$2; shift ;;
    --algs) algs_arg=$2; shift ;;
    --sets) sets=$2; shift ;;
    --shapes) shapes=$2; shift ;;
    --sizes) sizes_arg=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --mem-limit) mem_gib=$2; shift ;;
    --reps) reps=$2; shift ;;
    -o) outdir=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) seconds=$1 ;;
    *) echo "bench-model.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done
case $reps in '' | *[!0-9]* | 0*) echo "bench-model.sh: --reps $reps: expected a positive number" >&2; exit 2 ;; esac
for m in ${sizes_arg//,/ }; do
    case $m in *[!0-9]* | 0*) echo "bench-model.sh: --sizes $sizes_arg: $m is not a number of bytes (1 or more)" >&2
        exit 2 ;; esac
done
if [ -n "$algs_arg" ]; then
    for ca in ${algs_arg//,/ }; do
        c=${ca%%/*} a=${ca#*/}
        if [ "$c" = "$ca" ] || ! "$PACT" list algorithms --coll "$c" --format csv 2>/dev/null | awk -F, -v a="$a" \
            'NR > 1 && $2 == a { f = 1 } END { exit !f }'; then
            echo "bench-model.sh: --algs: $ca is not COLL/ALG of pact list algorithms" >&2
            exit 2
        fi
    done
    # the collectives it names, in the usual order, unless --colls says
    if [ -z "$colls_arg" ]; then
        for c in allreduce reduce bcast alltoall allgather barrier reduce_scatter; do
            if [[ ,$algs_arg, == *,$c/* ]]; then colls_arg+=${colls_arg:+,}$c; fi
        done
    fi
fi
if [ -n "$outdir" ]; then
    # an earlier run's csv would take this run's rows after its own (and a second header): refuse it
    for f in bench-model.txt bench-model.csv; do
        if [ -e "$outdir/$f" ]; then
            echo "bench-model.sh: -o $outdir: $outdir/$f is an earlier run's; give a new folder" >&2
            exit 2
        fi
    done
    mkdir -p "$outdir"
    exec > >(tee "$outdir/bench-model.txt")
fi
[ -n "$sets" ] || { [ $quick = 1 ] && sets=bench,1024; } || sets=bench,1024,routed,256,2p20
for x in ${sets//,/ }; do
    case $x in bench | 1024 | routed | 256 | 2p20) ;;
    *) echo "bench-model.sh: --sets: unknown part $x (bench, 1024, routed, 256, 2p20)" >&2; exit 2 ;;
    esac
done
# want PART: whether --sets names it
want() { [[ ,$sets, == *,$1,* ]]; }
[ "$shapes" = all ] && shapes=$("$PACT" list patterns | awk '$1 !~ /^file/ { print $1 }' | paste -sd,)
mem_kib=$((mem_gib * 1024 * 1024))
machine_kib=$(awk '/^MemTotal/ { print int($2 * 0.9) }' /proc/meminfo)
[ "$mem_kib" -gt "$machine_kib" ] && mem_kib=$machine_kib
t_start=$SECONDS
tmp=$(mktemp -d /tmp/pact-bench-model-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
missed=0
FLAT=(--net shared --alpha 2e-6 --beta 8e-10 --gamma 2e-10)

echo "# pact model bench on $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%dT%H:%M:%SZ), core $CPU, binary $PACT"
[ "$reps" = 1 ] || echo "# each cell run $reps times: its fastest run's seconds, the largest peak memory (--reps)"
rates=
if [ $only = 0 ] && want bench; then
    bench_out=$(taskset -c "$CPU" "$PACT" model bench --seconds "$seconds")
    echo "$bench_out"
    awk '/^evaluator, single port/ { p = $(NF-1) } /^evaluator, shared links/ { s = $(NF-1) }
         /^closed forms/ { c = $3 }
         END { printf "targets: evaluator >= 2e6 messages/s: single port %s, shared links %s; closed forms >= 1e7/s: %s\n",
                      ((p + 0 >= 2e6) ? "met" : "MISSED"), ((s + 0 >= 2e6) ? "met" : "MISSED"),
                      ((c + 0 >= 1e7) ? "met" : "MISSED")
               exit !((p + 0 >= 2e6) && (c + 0 >= 1e7)) }' <<<"$bench_out" || missed=$((missed + 1))
    # Shared-link rates of allreduce ring and alltoall pairwise at 256-1024 ranks: from the bench's rows, and below
    # from the 1024-rank cells (messages / evaluate_s).
    rates=$(awk '$5 == "shared" && $3 >= 256 && $3 <= 1024 && (($1 == "allreduce" && $2 == "ring") || ($1 == "alltoall" && $2 == "pairwise")) {
                     print $1 "/" $2 "@" $3 "(bench)", $NF }' <<<"$bench_out")
fi

csv_row() { [ -z "$outdir" ] || (IFS=,; echo "$*") >>"$outdir/bench-model.csv"; }
[ -z "$outdir" ] || csv_row set collective algorithm P bytes shape prepare_s evaluate_s total_s maxrss_MiB \
    messages events direct status target
header() {
    echo
    echo "## $*"
    printf '%-14s %-24s %8s %9s %-14s %10s %10s %10s %10s  %s\n' collective algorithm P bytes shape prepare_s \
        evaluate_s total_s maxrss_MiB target
}

# cell SET TARGET LIMIT COLL ALG P BYTES SHAPE [PREDICT ARGS...]: one cell in a process of its own; prints a
# row, counts a MISSED target (TARGET: cell = <= 0.5 s and 256 MiB, huge = < 60 s and 16 GiB, none).  Returns
# 0 when the cell finished (status ok), 1 when it was skipped by a restriction, timed out or failed.
cell() {
    local set=$1 target=$2 limit=$3 coll=$4 alg=$5 P=$6 bytes=$7 shape=$8 skew=0 rc=0
    shift 8
    [ "$shape" = no_delay ] || skew=1e-4
    local line='' best='' k
    for ((k = 0; k < reps; k++)); do # --reps: the fastest run that finished, with the largest peak memory
        rc=0
        (ulimit -v "$mem_kib"; exec timeout "$limit" taskset -c "$CPU" "$PACT" model predict --coll "$coll" \
            --alg "$alg" -P "$P" -m "$bytes" --shape "$shape" --skew "$skew" --timing "$@") >"$tmp/out" \
            2>"$tmp/err" || rc=$?
        line=$(grep -m1 '^timing:' "$tmp/out" || true)
        [[ $line == *status=ok* ]] || break # failed, timed out or skipped: this run says so
        best=$(awk -v a="$best" -v b="$line" 'function v(s, key) { sub(".* " key "=", "", s); sub(/ .*/, "", s)
            return s + 0 }
            BEGIN { if (a == "") { print b; exit }
                out = v(b, "total_s") < v(a, "total_s") ? b : a
                m = v(b, "maxrss_kib") > v(a, "maxrss_kib") ? v(b, "maxrss_kib") : v(a, "maxrss_kib")
                sub(/ maxrss_kib=[^ ]*/, " maxrss_kib=" m, out); print out }')
    done
    [[ $line != *status=ok* ]] || line=$best
    local r
    r=$(awk -v line="$line" -v rc="$rc" -v limit="$limit" -v target="$target" -v bytes="$bytes" 'BEGIN {
        n = split(line, f, " "); for (i = 2; i <= n; i++) { split(f[i], kv, "="); v[kv[1]] = kv[2] }
        st = line == "" ? (rc == 124 ? "timeout" : "failed") : v["status"]
        if (line != "") bytes = v["bytes"]
        if (st == "ok") {
            mib = v["maxrss_kib"] / 1024; t = v["total_s"]
            ok = target == "cell" ? (t <= 0.5 && mib <= 256) : target == "huge" ? (t < 60 && mib < 16384) : -1
            verdict = ok < 0 ? "-" : ok ? "met" : "MISSED"
            printf "%s %.4f %.4f %.4f %.1f %s %s %s %s\n", bytes, v["prepare_s"], v["evaluate_s"], t, mib, v["messages"], v["events"], v["direct"] == "" ? "-" : v["direct"], verdict
        } else if (st == "skipped") printf "%s skipped skipped skipped - - - - skipped\n", bytes
        else printf "%s %s %s %s - - - - %s\n", bytes, st, st, st, target == "none" ? st : "MISSED"
    }')
    local b ps es ts mib msgs evs dir verdict
    read -r b ps es ts mib msgs evs dir verdict <<<"$r"
    printf '%-14s %-24s %8s %9s %-14s %10s %10s %10s %10s  %s\n' "$coll" "$alg" "$P" "$b" "$shape" "$ps" "$es" \
        "$ts" "$mib" "$verdict"
    [ "$ps" != failed ] || sed 's/^/    | /' "$tmp/err" | tail -3 # why: out of memory, a refusal
    csv_row "$set" "$coll" "$alg" "$P" "$b" "$shape" "$ps" "$es" "$ts" "$mib" "$msgs" "$evs" "$dir" \
        "$(awk -v s="$ps" 'BEGIN { print (s ~ /^[0-9]/) ? "ok" : s }')" "$verdict"
    [ "$verdict" = MISSED ] && missed=$((missed + 1))
    if [ "$set" = 1024 ] && [ "$shape" = no_delay ] && [ "$verdict" != skipped ] &&
        { [ "$coll/$alg" = allreduce/ring ] || [ "$coll/$alg" = alltoall/pairwise ]; }; then
        rates+=$'\n'"$coll/$alg@$P,${b}B $(awk -v m="$msgs" -v e="$es" 'BEGIN { print (e ~ /^[0-9]/) ? (e > 0 ? m / e : "inf") : e }')"
    fi
    [[ $ps =~ ^[0-9] ]] # finished, not skipped
}

# algs_of COLL: its algorithms, those --algs names if it names any
algs_of() {
    "$PACT" list algorithms --coll "$1" --format csv |
        awk -F, -v c="$1" -v want=",$algs_arg," 'NR > 1 && (want == ",," || index(want, "," c "/" $2 ",")) { print $2 }'
}
COLLS=(allreduce reduce bcast alltoall allgather barrier reduce_scatter)
if [ -n "$colls_arg" ]; then
    IFS=, read -r -a COLLS <<<"$colls_arg"
    for c in "${COLLS[@]}"; do
        "$PACT" list algorithms --coll "$c" >/dev/null 2>&1 || { echo "bench-model.sh: --colls: unknown collective $c" >&2; exit 2; }
    done
fi

if [ $only = 0 ]; then

    if want 1024; then
        if [ -n "$sizes_arg" ]; then read -r -a sizes <<<"${sizes_arg//,/ }"
        elif [ $quick = 1 ]; then sizes=(8 1048576)
        else sizes=(8 64 512 1024 4096 32768 262144 1048576 16777216 67108864); fi
        header "1024 ranks, generic32x32 (32 nodes x 32), shapes ${shapes//,/ } (skew 1e-4 s); target <= 0.5 s and <= 256 MiB, 20 s timeout"
        for c in "${COLLS[@]}"; do
            for a in $(algs_of "$c"); do
                for m in "${sizes[@]}"; do
                    for s in ${shapes//,/ }; do
                        cell 1024 cell 20 "$c" "$a" 1024 "$m" "$s" --platform generic32x32 --ppn 32 || true
                    done
                    [ "$c" != barrier ] || break # no data: one size
                done
            done
        done
    fi
    if want bench || { want 1024 && [[ " ${COLLS[*]} " =~ \ (allreduce|alltoall)\  ]]; }; then
        echo
        awk '$2 != "" { n++; if ($2 !~ /^[0-9]|^inf/ || $2 + 0 < 1e7 && $2 != "inf") bad++; printf "%s %s  ", $1, ($2 ~ /^[0-9]/) ? sprintf("%.4g", $2) : $2 }
             END { printf "\ntargets: shared links >= 1e7 messages/s, allreduce ring and alltoall pairwise at 256-1024 ranks: %s\n",
                          (n > 0 && !bad) ? "met" : "MISSED"; exit !(n > 0 && !bad) }' <<<"$rates" | sed '1s/^/rates (messages\/s): /' ||
            missed=$((missed + 1))
    fi

    if want routed; then
        # Routed machines share along routes (models/links.c): the collectives whose flows crowd the links
        header "1024 ranks on the routed machines (32 nodes x 32), alltoall, allgather, allreduce, 64K, random (skew 1e-4 s), 20 s timeout: reported, no target"
        for pl in cedar thor mist shaheen2; do
            for c in alltoall allgather allreduce; do
                [[ " ${COLLS[*]} " == *" $c "* ]] || continue
                for a in $(algs_of "$c"); do
                    cell "routed-$pl" none 20 "$c" "$a" 1024 65536 random --platform "$pl" --ppn 32 || true
                done
            done
        done
    fi
    if want 256; then
        header "256 ranks (generic32x32, 32 x 8) and 16384 ranks (flat shared, a rank per node), 64K, no_delay, 60 s timeout"
        for c in "${COLLS[@]}"; do
            for a in $(algs_of "$c"); do
                cell 256 none 60 "$c" "$a" 256 65536 no_delay --platform generic32x32 --ppn 8 || true
                cell 16384 none 60 "$c" "$a" 16384 65536 no_delay "${FLAT[@]}" || true
            done
        done
    fi
    if want 2p20; then
        header "2^20 ranks, flat shared (a rank per node), no_delay; target < 60 s and < 16 GiB, 120 s timeout"
        for ca in reduce/binomial reduce/binary reduce/in_order_binary bcast/binomial bcast/binary_tree \
            allreduce/recursive_doubling allreduce/rabenseifner allgather/bruck; do
            [[ " ${COLLS[*]} " == *" ${ca%/*} "* ]] || continue
            sizes20=(8 65536)
            # Rabenseifner below 2^20 elements is Open MPI's fallback, basic_linear: 8 MiB of doubles is the
            # smallest size at which it is itself
            [ "$ca" = allreduce/rabenseifner ] && sizes20=(8388608)
            for m in "${sizes20[@]}"; do
                cell 1048576 huge 120 "${ca%/*}" "${ca#*/}" 1048576 "$m" no_delay "${FLAT[@]}" || true
            done
        done
    fi

fi # only = 0

if [ $largest = 1 ]; then
    header "largest P within 60 s: flat shared, 64K, no_delay, P = 1024, 2048, .. 2^20 (the last row of each is the first that failed)"
    summary=
    for c in "${COLLS[@]}"; do
        for a in $(algs_of "$c"); do
            best=-
            for ((P = 1024; P <= 1048576; P *= 2)); do
                cell largest none 60 "$c" "$a" "$P" 65536 no_delay "${FLAT[@]}" || break
                best=$P
            done
            summary+=$(printf '%-14s %-24s %8s' "$c" "$a" "$best")$'\n'
        done
    done
    echo
    echo "## largest P within 60 s"
    printf '%s' "$summary"
fi

echo
echo "# bench-model: $((SECONDS - t_start)) s in all; $missed target(s) MISSED"
[ "$missed" -eq 0 ]
