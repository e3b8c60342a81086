#!/usr/bin/env bash
# How sensitive the model's d^ is to the last bits of the arrival times (results/reference/fidelity.md, "Calls that
# differ").  For each collective, size and shape, every algorithm (pact model predict --alg all) is evaluated under
# the shape at skew x (1 + k 1e-12), k = 0 .. N-1: arrivals that differ in their last bits only, as SimGrid's
# calls of one cell do (each rounds at its own absolute times).  The skew is --skew-factor x the mean no-delay d^
# of the algorithms at that size, as pact sim and pact tune take it.  Per cell: (largest - least d^) / mean.
#
#   scripts/sensitivity.sh [--colls alltoall,allreduce] [--procs 256] [--ppn 32] [--platform generic32x32]
#                          [--sizes 64,1K,64K] [--shapes random,descending] [--perturb 8] [--skew-factor 1.5]
#
# Prints one row per (collective, algorithm, size, shape) whose spread is above 1e-9, then a count per collective.
set -euo pipefail
cd "$(dirname "$0")/.."
COLLS=alltoall,allreduce,reduce_scatter,allgather,bcast,reduce
PROCS=256 PPN=32 PLATFORM=generic32x32 SIZES=64,1K,64K SHAPES=random,descending N=8 FACTOR=1.5
while [ $# -gt 0 ]; do
    case "$1" in
    --colls) COLLS=$2; shift 2 ;; --procs) PROCS=$2; shift 2 ;; --ppn) PPN=$2; shift 2 ;;
    --platform) PLATFORM=$2; shift 2 ;; --sizes) SIZES=$2; shift 2 ;; --shapes) SHAPES=$2; shift 2 ;;
    --perturb) N=$2; shift 2 ;; --skew-factor) FACTOR=$2; shift 2 ;;
    *) echo "sensitivity.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[[ $N =~ ^[0-9]+$ ]] && [ "$N" -ge 2 ] || { echo "sensitivity.sh: --perturb wants an integer >= 2" >&2; exit 2; }
PACT=build/bin/pact
[ -x $PACT ] || { echo "sensitivity.sh: $PACT missing (make)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/pact-sensitivity-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# predict COLL SIZE [--shape S --skew K]: csv rows algorithm,last_delay_s of the algorithms that ran
predict() {
    local coll=$1 size=$2
    shift 2
    $PACT model predict --coll "$coll" --alg all -P "$PROCS" --ppn "$PPN" -m "$size" --platform "$PLATFORM" \
        --format csv "$@" 2>/dev/null | awk -F, 'NR > 1 && $10 == "ok" { print $2 "," $9 }'
}

echo "# scripts/sensitivity.sh: $PROCS ranks ($PPN a node) of $PLATFORM, sizes $SIZES, shapes $SHAPES, $N arrival" \
    "vectors per cell (skew x (1 + k 1e-12)), skew $FACTOR x the mean no-delay d^; $(date -u +%FT%TZ)"
printf '%-15s %-36s %9s %-11s %9s %14s %14s\n' coll algorithm bytes shape spread_% least_us largest_us
for coll in ${COLLS//,/ }; do
    for size in ${SIZES//,/ }; do
        mean=$(predict "$coll" "$size" | awk -F, '{ s += $2; n++ } END { if (n) printf "%.17g", s / n }')
        [ -n "$mean" ] || continue
        skew=$(awk -v m="$mean" -v f="$FACTOR" 'BEGIN { printf "%.17g", m * f }')
        for shape in ${SHAPES//,/ }; do
            : >"$TMP/rows"
            for k in $(seq 0 $((N - 1))); do
                s=$(awk -v s="$skew" -v k="$k" 'BEGIN { printf "%.17g", s * (1 + k * 1e-12) }')
                predict "$coll" "$size" --shape "$shape" --skew "$s" >>"$TMP/rows"
            done
            awk -F, -v coll="$coll" -v size="$size" -v shape="$shape" '
                { if (!($1 in lo)) { lo[$1] = $2; hi[$1] = $2; order[++n] = $1 }
                  if ($2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2; sum[$1] += $2; cnt[$1]++ }
                END { for (i = 1; i <= n; i++) { a = order[i]; sp = (hi[a] - lo[a]) / (sum[a] / cnt[a])
                        if (sp > 1e-9) printf "%-15s %-36s %9s %-11s %9.4f %14.3f %14.3f\n", coll, a, size, shape,
                                           100 * sp, 1e6 * lo[a], 1e6 * hi[a]
                        printf "%s %s %.17g\n", coll, a, sp > "/dev/stderr" } }' "$TMP/rows" 2>>"$TMP/all"
        done
    done
done
echo
echo "per collective: cells (algorithm, size, shape), how many spread beyond 0, 1e-9, 0.1% and 1%"
awk '{ n[$1]++; if ($3 > 0) a[$1]++; if ($3 > 1e-9) b[$1]++; if ($3 > 1e-3) c[$1]++; if ($3 > 1e-2) d[$1]++ }
     END { for (k in n) printf "%-15s %5d cells %5d > 0 %5d > 1e-9 %5d > 0.1%% %5d > 1%%\n", k, n[k], a[k], b[k], c[k], d[k] }' \
    "$TMP/all" | sort
