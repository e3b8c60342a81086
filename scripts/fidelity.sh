#!/usr/bin/env bash
# Fidelity: pact's algorithms against SimGrid 3.32's own implementations of the same algorithms (the `smpi`
# column of `pact list algorithms`), simulated no-delay d^ side by side on generic32x32 (32 ranks per node,
# block mapping), gamma 0 (SMPI's built-ins charge no compute under smpi/simulate-computation:no).
#
#   scripts/fidelity.sh [--procs "64 256"] [--colls allreduce,bcast] [--sizes 8,1K,64K,1M] [-o DIR]
#
# Time: 261 s for --procs "64 256" on 2 cores (2026-11-27; linear alltoall at 256 ranks had taken SimGrid 8-10
# min per call before its runs preloaded jemalloc).  SimGrid's bruck at more than 64
# ranks runs up to 64 KiB only (its memory, see below).
#
# Prints one line per (collective, ranks, algorithm, size):
#   coll procs pact smpi bytes pact_us smpi_us diff_% analytic_%
# diff_% = (pact / SMPI - 1) x 100.  analytic_% (allreduce ring only) compares pact with the analytic time of
# Open MPI's ring on this platform: a reduce-scatter whose eager sends let each step run at the mean hop time,
# then an allgather of sendrecvs paced by the slowest (inter-node) hop; hop = latency + (m/P + 16)/bandwidth,
# 16 bytes being SMPI's envelope.  See results/reference/fidelity.md for the differences and their causes.
set -euo pipefail
cd "$(dirname "$0")/.."
PROCS="64"
COLLS="allreduce,reduce,bcast,alltoall,allgather,barrier"
SIZES="8,1K,64K,1M"
OUT=""
while [ $# -gt 0 ]; do
    case "$1" in
    --procs) PROCS=$2; shift 2 ;;
    --colls) COLLS=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    -o) OUT=$2; shift 2 ;;
    *) echo "fidelity.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
OUT=${OUT:-$(mktemp -d /tmp/pact-fidelity-XXXXXX)}
mkdir -p "$OUT"
PACT=build/bin/pact
bytes() { # 8, 64K, 1M -> bytes
    local v=${1%[KMG]}; case $1 in *K) echo $((v * 1024)) ;; *M) echo $((v * 1048576)) ;; *G) echo $((v << 30)) ;; *) echo "$v" ;; esac
}

printf '%-10s %5s %-24s %-22s %9s %14s %14s %9s %10s\n' coll procs pact smpi bytes pact_us smpi_us diff_% analytic_%
for coll in ${COLLS//,/ }; do
    # one line per pair: algorithm|pact spec (with the parameters SimGrid hard-codes)|smpi spec|restrictions
    allpairs=$($PACT list algorithms --coll "$coll" --format csv |
        awk -F, 'NR > 1 && $5 != "" { print $2 "|" $2 ($6 != "" ? ":" $6 : "") "|smpi:" $5 "|" $7 }')
    [ -n "$allpairs" ] || continue
    for P in $PROCS; do
        # an algorithm for at most two ranks (barrier two_proc) has no pair above that: SimGrid's would deadlock
        pairs=$(echo "$allpairs" | awk -F'|' -v P="$P" '!($4 ~ /P<=2/ && P > 2) { print $1 "|" $2 "|" $3 }')
        algs=$(echo "$pairs" | awk -F'|' '{ print $2; print $3 }' | awk '!seen[$0]++' | paste -sd,)
        nodes=$(( (P + 31) / 32 )); ppn=$(( P < 32 ? P : 32 ))
        dir="$OUT/$coll-$P"
        # SimGrid's bruck (alltoall, allgather) allocates P x the message on every rank: above 64 KiB at more
        # than 64 ranks that is more memory than a workstation has (64 GiB at 256 x 1 MiB), so those sizes
        # run pact's bruck alone (no SimGrid column).
        small=$SIZES big=""
        if { [ "$coll" = alltoall ] || [ "$coll" = allgather ]; } && [ "$P" -gt 64 ]; then
            small=$(for z in ${SIZES//,/ }; do if [ "$(bytes "$z")" -le 65536 ]; then echo "$z"; fi; done | paste -sd,)
            big=$(for z in ${SIZES//,/ }; do if [ "$(bytes "$z")" -gt 65536 ]; then echo "$z"; fi; done | paste -sd,)
        fi
        t0=$SECONDS
        rm -rf "$dir" "$dir-big"
        for part in small big; do
            [ -n "${!part}" ] || continue
            a=$algs d=$dir
            if [ "$part" = big ]; then
                a=$(echo "$algs" | tr , '\n' | grep -vx 'smpi:bruck' | paste -sd,) d=$dir-big
            fi
            if ! $PACT sim --platform generic32x32 --nodes $nodes --ppn $ppn --coll "$coll" --algs "$a" \
                --sizes "${!part}" --patterns no_delay --reps 1 --gamma 0 -o "$d" >/dev/null 2>"$d.log"; then
                cat "$d.log" >&2
                exit 1
            fi
        done
        if [ -d "$dir-big" ]; then
            if [ -d "$dir" ]; then tail -n +2 "$dir-big/results.csv" >>"$dir/results.csv"; else mv "$dir-big" "$dir"; fi
        fi
        echo "$coll P=$P simulated in $((SECONDS - t0)) s" >&2
        echo "$pairs" | awk -F, -v coll="$coll" -v P="$P" -v ppn="$ppn" '
            FILENAME == "-" { split($0, f, "|"); pact[f[1]] = f[2]; smpi[f[1]] = f[3]; next }
            FNR > 1 { t[$6 "," $7] = $14; sizes[$7] = 1 }
            END {
                for (a in pact) for (m in sizes) {
                    p = t[pact[a] "," m]; s = t[smpi[a] "," m]
                    an = "-"
                    if (coll == "allreduce" && a == "ring" && m / 8 >= P && P > ppn) {
                        bw = 1.25e9; blk = m / P + 16; nodes = P / ppn
                        intra = 1e-6 + blk / bw; inter = 2e-6 + blk / bw
                        mean = ((P - nodes) * intra + nodes * inter) / P
                        ring = (P - 1) * mean + (P - 1) * inter
                        an = sprintf("%.3f", (p / ring - 1) * 100)
                    }
                    d = (p == "" || s == "" || s == 0) ? "-" : sprintf("%.3f", (p / s - 1) * 100)
                    sm = substr(smpi[a], 6); if (length(sm) > 22) sm = substr(sm, 1, 20) ".."
                    # "-": no time (an algorithm restricted at that size, such as the MPICH byte blocks on doubles)
                    printf "%-10s %5d %-24s %-22s %9d %14s %14s %9s %10s\n", coll, P, a, sm, m, p == "" ? "-" : sprintf("%.3f", p * 1e6), s == "" ? "-" : sprintf("%.3f", s * 1e6), d, an
                }
            }' - "$dir/results.csv" | sort -k1,1 -k3,3 -k5,5n
    done
done
