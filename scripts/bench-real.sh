#!/usr/bin/env bash
# Speed benchmarks of the classic library (make bench-real):
#  1. real MPI: each pact algorithm against Open MPI's own implementation of the same algorithm, forced with
#     --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_<collective>_algorithm <id>, on NP ranks of this
#     machine, no arrival delay; per size the median d^ of REPS calls in each of ROUNDS rounds (pact and Open MPI
#     alternate, so that both see the same load), per algorithm the median over sizes of pact/Open MPI and the
#     worst size;
#  2. simulation: wall-clock of simulating pact's algorithm against SMPI's built-in of the same algorithm at
#     SIM_P ranks on generic32x32 (one smpirun each, REPS calls, timing-only payloads), and, for scale, the
#     same for scripts/smpi-ring-calls.c: Open MPI's ring allreduce reduced to its MPI calls.
#
#     Both sides run pact-bench-smpi with build/bin/pact-smpi-clock.so preloaded, as `pact sim` runs it (it
#     spares SMPI two system calls per MPI call; sim/smpi_clock.c); --no-clock runs both without it.
#
#   scripts/bench-real.sh [--np 4] [--sizes 8,64,512,4K,32K,256K,2M,4M] [--reps 15] [--rounds 1] [--sim-procs 256]
#                         [--sim-sizes 8,64K] [--only real|sim] [--colls allreduce,...] [--no-clock]
set -euo pipefail
cd "$(dirname "$0")/.."
NP=4; SIZES=8,64,512,4K,32K,256K,2M,4M; REPS=15; ROUNDS=1; SIM_P=256; SIM_SIZES=8,64K; ONLY=""; CLOCK=1
COLLS=allreduce,reduce,bcast,alltoall,allgather
while [ $# -gt 0 ]; do
    case "$1" in
    --np) NP=$2; shift 2 ;; --sizes) SIZES=$2; shift 2 ;; --reps) REPS=$2; shift 2 ;; --rounds) ROUNDS=$2; shift 2 ;;
    --sim-procs) SIM_P=$2; shift 2 ;; --sim-sizes) SIM_SIZES=$2; shift 2 ;; --only) ONLY=$2; shift 2 ;;
    --colls) COLLS=$2; shift 2 ;; --no-clock) CLOCK=0; shift ;;
    *) echo "bench-real.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$(mktemp -d /tmp/pact-bench-real-XXXXXX)
PACT=build/bin/pact

bytes() { # size with suffix -> bytes
    local v=${1%[KMG]}; case $1 in *K) echo $((v * 1024)) ;; *M) echo $((v * 1048576)) ;; *) echo "$v" ;; esac
}

# plan COLL ALG SIZES REPS -> plan file lines (double, sum, root 0, no pattern)
plan() {
    local coll=$1 alg=$2 sizes=$3 reps=$4 id=0
    for s in ${sizes//,/ }; do
        echo "$id $coll $alg $(( $(bytes "$s") / 8 )) double sum 0 $reps 0 -"
        id=$((id + 1))
    done
}

if [ "$ONLY" != sim ]; then
    echo "== real MPI: pact vs Open MPI's same algorithm, $NP ranks, median d^ of $ROUNDS x $REPS calls, sizes $SIZES"
    printf '%-10s %-24s %5s %12s %12s  %s\n' coll algorithm ompi median_ratio worst_ratio worst_at
    for coll in ${COLLS//,/ }; do
        $PACT list algorithms --coll "$coll" --format csv | awk -F, 'NR > 1 && $3 != "" { print $2, $3 }' |
        while read -r alg id; do
            sizes=$SIZES
            if [ "$coll" = alltoall ]; then # NP blocks per buffer: stop at 1 MiB blocks
                sizes=$(for z in ${SIZES//,/ }; do if [ "$(bytes "$z")" -le 1048576 ]; then echo "$z"; fi; done | paste -sd,)
            fi
            plan "$coll" "$alg" "$sizes" "$REPS" >"$OUT/plan-$coll-$alg"
            plan "$coll" mpi "$sizes" "$REPS" >"$OUT/plan-$coll-mpi-$id"
            : >"$OUT/pact-$coll-$alg.csv"; : >"$OUT/ompi-$coll-$id.csv"
            for r in $(seq "$ROUNDS"); do # header once per file: the awk below counts files by it
                mpirun.openmpi -np "$NP" --oversubscribe build/bin/pact-bench-mpi --plan "$OUT/plan-$coll-$alg" \
                    --out "$OUT/round.csv" </dev/null >/dev/null
                if [ "$r" = 1 ]; then cat "$OUT/round.csv"; else tail -n +2 "$OUT/round.csv"; fi >>"$OUT/pact-$coll-$alg.csv"
                mpirun.openmpi -np "$NP" --oversubscribe --mca coll_tuned_use_dynamic_rules 1 \
                    --mca "coll_tuned_${coll}_algorithm" "$id" build/bin/pact-bench-mpi \
                    --plan "$OUT/plan-$coll-mpi-$id" --out "$OUT/round.csv" </dev/null >/dev/null
                if [ "$r" = 1 ]; then cat "$OUT/round.csv"; else tail -n +2 "$OUT/round.csv"; fi >>"$OUT/ompi-$coll-$id.csv"
            done
            awk -F, -v coll="$coll" -v alg="$alg" -v id="$id" -v sizes="$sizes" '
                function median(arr, n,   i, j, t) {
                    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
                    return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
                }
                FNR == 1 { f++; next }
                { k = f "," $1; n[k]++; v[k, n[k]] = $3 }
                END {
                    ns = split(sizes, sz, ",")
                    for (c = 0; c < ns; c++) {
                        for (s = 1; s <= 2; s++) { k = s "," c; m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]; med[s] = median(a, m) }
                        r[c + 1] = med[1] / med[2]; if (r[c + 1] > worst) { worst = r[c + 1]; at = sz[c + 1] }
                    }
                    for (c = 1; c <= ns; c++) rr[c] = r[c]
                    printf "%-10s %-24s %5d %12.3f %12.3f  %s\n", coll, alg, id, median(rr, ns), worst, at
                }' "$OUT/pact-$coll-$alg.csv" "$OUT/ompi-$coll-$id.csv"
        done
    done
fi

if [ "$ONLY" != real ]; then
    preload=""
    if [ "$CLOCK" = 1 ]; then
        preload=$PWD/build/bin/pact-smpi-clock.so
        [ -f "$preload" ] || { echo "bench-real.sh: $preload missing (make)" >&2; exit 1; }
    fi
    echo "== simulation speed: wall-clock of simulating pact's algorithm / SMPI's same built-in, $SIM_P ranks, $REPS calls"
    echo "   (LD_PRELOAD=${preload:-nothing} on both sides)"
    printf '%-10s %-24s %-22s %9s %10s %10s %8s\n' coll algorithm smpi bytes pact_s smpi_s ratio
    d="$OUT/plat"
    $PACT platform export generic32x32 --nodes $(( (SIM_P + 31) / 32 )) --ppn 32 -o "$d" >/dev/null
    for coll in ${COLLS//,/ }; do
        $PACT list algorithms --coll "$coll" --format csv |
            awk -F, 'NR > 1 && $5 != "" { print $2, $5, ($6 == "" ? "-" : $6) }' |
        while read -r alg smpi params; do
            for s in ${SIM_SIZES//,/ }; do
                n=$(( $(bytes "$s") / 8 ))
                # P^2 flows at once: SimGrid's linear alltoall takes 8-10 min per call at 256 ranks and 8 B
                if [ "$coll" = alltoall ] && [ "$alg" = linear ]; then
                    [ "$SIM_P" -le 64 ] || continue
                fi
                cfg=("--cfg=smpi/$coll:${smpi%%:*}")
                rest=${smpi#*:}; [ "$rest" = "$smpi" ] && rest=""
                for kv in ${rest//:/ }; do cfg+=("--cfg=smpi/${kv%%=*}:${kv#*=}"); done
                pparams=""; [ "$params" != - ] && pparams="--params ${params//:/,}"
                t0=$(date +%s.%N)
                LD_PRELOAD=$preload smpirun -np "$SIM_P" -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") \
                    build/bin/pact-bench-smpi --coll "$coll" --alg "$alg" $pparams --count "$n" --reps "$REPS" \
                    --timing-only </dev/null >/dev/null
                t1=$(date +%s.%N)
                LD_PRELOAD=$preload smpirun -np "$SIM_P" -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") "${cfg[@]}" \
                    build/bin/pact-bench-smpi --coll "$coll" --alg mpi --count "$n" --reps "$REPS" --timing-only \
                    </dev/null >/dev/null
                t2=$(date +%s.%N)
                awk -v c="$coll" -v a="$alg" -v s="${smpi%%:*}" -v b="$(bytes "$s")" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
                    'BEGIN { printf "%-10s %-24s %-22s %9d %10.2f %10.2f %8.2f\n", c, a, s, b, t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1) }'
            done
        done
    done
    # What any application-level implementation of Open MPI's ring costs to simulate: its MPI calls alone.
    if [[ ",$COLLS," == *,allreduce,* ]]; then
        smpicc -O2 -o "$OUT/smpi-ring-calls" scripts/smpi-ring-calls.c 2>/dev/null
        for s in ${SIM_SIZES//,/ }; do
            [ $(( $(bytes "$s") / 8 )) -ge "$SIM_P" ] || continue # below, Open MPI's ring is recursive doubling
            t0=$(date +%s.%N)
            LD_PRELOAD=$preload smpirun -np "$SIM_P" -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") \
                "$OUT/smpi-ring-calls" $(( $(bytes "$s") / 8 )) "$REPS" </dev/null >/dev/null
            t1=$(date +%s.%N)
            awk -v b="$(bytes "$s")" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%-10s %-24s %-22s %9d %10.2f %10s %8s\n", "allreduce", "ring (calls only)", "scripts/smpi-ring-calls", b, t1 - t0, "-", "-" }'
        done
    fi
fi
