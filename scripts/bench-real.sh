#!/usr/bin/env bash
# Speed benchmarks of the classic library (make bench-real):
#  1. real MPI: each pact algorithm against Open MPI's own implementation of the same algorithm, forced with
#     --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_<collective>_algorithm <id> (and, where Open MPI's
#     algorithm calls the communicator's own collectives, those forced to the ones pact runs: see inner), on NP
#     ranks of this machine, no arrival delay; per size the median d^ of REPS calls in each of ROUNDS rounds (pact and Open MPI
#     alternate, so that both see the same load), per algorithm the median over sizes of pact/Open MPI and the
#     worst size;
#  2. simulation: wall-clock of simulating pact's algorithm against SMPI's built-in of the same algorithm at
#     SIM_P ranks on generic32x32 (one smpirun each, REPS calls, timing-only payloads; pact and SMPI alternate
#     SIM_ROUNDS times and the medians are compared, since one run of either varies by 0.1-0.3 s on this
#     machine), and, for scale, the same for scripts/smpi-ring-calls.c: Open MPI's ring allreduce reduced to
#     its MPI calls.
#
#     Both sides run pact-bench-smpi with build/bin/pact-smpi-clock.so preloaded, as `pact sim` runs it (it
#     spares SMPI two system calls per MPI call; sim/rank/smpi_clock.c); --no-clock runs both without it.
#
#  With --libpact (make bench-libpact), section 1 runs pact's algorithm through libpact instead: the bench driver
#  calls MPI_<Collective> (alg "mpi") with build/lib/libpact-ompi.so preloaded and a table.csv of one row naming
#  the algorithm, against Open MPI forced to the same algorithm; then libpact's own costs at 8 B, per collective:
#  a call that falls back (a table without a row for it) against no libpact, and a traced call (PACT_TRACE, no
#  table) against no libpact, as the difference of the median d^.
#
#  (--only overhead: that last part alone.)
#
#   scripts/bench-real.sh [--libpact] [--np 4] [--sizes 8,64,512,4K,32K,256K,2M,4M] [--reps 15] [--rounds 1] [--sim-procs 256]
#                         [--sim-sizes 8,64K] [--sim-rounds 3] [--only real|sim] [--colls allreduce,...] [--no-clock]
set -euo pipefail
cd "$(dirname "$0")/.."
NP=4; SIZES=8,64,512,4K,32K,256K,2M,4M; REPS=15; ROUNDS=1; SIM_P=256; SIM_SIZES=8,64K; SIM_ROUNDS=3; ONLY=""; CLOCK=1
COLLS=allreduce,reduce,bcast,alltoall,allgather; LIBPACT=0
while [ $# -gt 0 ]; do
    case "$1" in
    --np) NP=$2; shift 2 ;; --sizes) SIZES=$2; shift 2 ;; --reps) REPS=$2; shift 2 ;; --rounds) ROUNDS=$2; shift 2 ;;
    --sim-procs) SIM_P=$2; shift 2 ;; --sim-sizes) SIM_SIZES=$2; shift 2 ;; --sim-rounds) SIM_ROUNDS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --colls) COLLS=$2; shift 2 ;; --no-clock) CLOCK=0; shift ;; --libpact) LIBPACT=1; [ "$ONLY" = overhead ] || ONLY=real; shift ;;
    *) echo "bench-real.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$(mktemp -d /tmp/pact-bench-real-XXXXXX)
PACT=build/bin/pact

bytes() { # size with suffix -> bytes
    local v=${1%[KMG]}; case $1 in *K) echo $((v * 1024)) ;; *M) echo $((v * 1048576)) ;; *) echo "$v" ;; esac
}

# wall VAR=VALUE... CMD...: runs CMD with the variables set, quietly, and prints its wall-clock seconds
wall() {
    local t0 t1
    t0=$(date +%s.%N)
    env "$@" </dev/null >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

# plan COLL ALG SIZES REPS -> plan file lines (double, sum, root 0, no pattern)
plan() {
    local coll=$1 alg=$2 sizes=$3 reps=$4 id=0
    for s in ${sizes//,/ }; do
        echo "$id $coll $alg $(( $(bytes "$s") / 8 )) double sum 0 $reps 0 -"
        id=$((id + 1))
    done
}

# inner COLL ALG: the MCA options that make Open MPI's algorithm run the parts pact's runs.  Two of Open MPI's
# algorithms call the communicator's collectives, which coll_tuned's decision picks unless forced: allgather
# basic_linear (the communicator's gather, then its bcast; pact: linear gather, linear bcast) and allreduce
# nonoverlapping (its reduce, then its bcast; pact: the ids of its parameters reduce and bcast).  Unforced, on
# 16 ranks Open MPI's linear allgather ran trees and took 0.4-0.7 of pact's time from 64 B on.
inner() {
    case "$1 $2" in
    "allgather linear") echo --mca coll_tuned_gather_algorithm 1 --mca coll_tuned_bcast_algorithm 1 ;;
    "allreduce nonoverlapping")
        $PACT list algorithms --coll allreduce --format csv | awk -F, '$2 == "nonoverlapping" {
            n = split($8, kv, " ")
            for (i = 1; i <= n; i++) { split(kv[i], x, "="); printf "--mca coll_tuned_%s_algorithm %s ", x[1], x[2] } }' ;;
    esac
}

LP=$PWD/build/lib/libpact-ompi.so
[ "$LIBPACT" = 0 ] || [ -f "$LP" ] || { echo "bench-real.sh: $LP missing (make real)" >&2; exit 1; }
# table COLL ALG: a table.csv with one row, ALG for COLL at any size and process count
table() {
    echo "collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value"
    echo "$1,1,1,0,inf,$2,,no_delay,,,"
}
# pact_side COLL ALG ID: runs the pact side of one round into $OUT/round.csv: pact's executor in the bench driver,
# or (--libpact) the driver's MPI_<Collective> routed by libpact to ALG
pact_side() {
    if [ "$LIBPACT" = 1 ]; then
        table "$1" "$2" >"$OUT/table-$1-$2.csv"
        LD_PRELOAD=$LP PACT_TABLE=$OUT/table-$1-$2.csv mpirun.openmpi -np "$NP" --oversubscribe -x LD_PRELOAD -x PACT_TABLE \
            build/bin/pact-bench-mpi --plan "$OUT/plan-$1-mpi-$3" --out "$OUT/round.csv" </dev/null >/dev/null
    else
        mpirun.openmpi -np "$NP" --oversubscribe build/bin/pact-bench-mpi --plan "$OUT/plan-$1-$2" \
            --out "$OUT/round.csv" </dev/null >/dev/null
    fi
}

if [ "$ONLY" != sim ] && [ "$ONLY" != overhead ]; then
    if [ "$LIBPACT" = 1 ]; then
        echo "== real MPI: pact's algorithm through libpact vs Open MPI's same algorithm, $NP ranks, median d^ of $ROUNDS x $REPS calls, sizes $SIZES"
    else
        echo "== real MPI: pact vs Open MPI's same algorithm, $NP ranks, median d^ of $ROUNDS x $REPS calls, sizes $SIZES"
    fi
    printf '%-10s %-24s %5s %12s %12s  %s\n' coll algorithm ompi median_ratio worst_ratio worst_at
    for coll in ${COLLS//,/ }; do
        $PACT list algorithms --coll "$coll" --format csv | awk -F, 'NR > 1 && $3 != "" { print $2, $3 }' |
        while read -r alg id; do
            sizes=$SIZES
            if [ "$coll" = alltoall ]; then # NP blocks per buffer: stop at 1 MiB blocks
                sizes=$(for z in ${SIZES//,/ }; do if [ "$(bytes "$z")" -le 1048576 ]; then echo "$z"; fi; done | paste -sd,)
            fi
            read -ra extra <<<"$(inner "$coll" "$alg")"
            plan "$coll" "$alg" "$sizes" "$REPS" >"$OUT/plan-$coll-$alg"
            plan "$coll" mpi "$sizes" "$REPS" >"$OUT/plan-$coll-mpi-$id"
            : >"$OUT/pact-$coll-$alg.csv"; : >"$OUT/ompi-$coll-$id.csv"
            for r in $(seq "$ROUNDS"); do # header once per file: the awk below counts files by it
                pact_side "$coll" "$alg" "$id"
                if [ "$r" = 1 ]; then cat "$OUT/round.csv"; else tail -n +2 "$OUT/round.csv"; fi >>"$OUT/pact-$coll-$alg.csv"
                mpirun.openmpi -np "$NP" --oversubscribe --mca coll_tuned_use_dynamic_rules 1 \
                    --mca "coll_tuned_${coll}_algorithm" "$id" "${extra[@]}" build/bin/pact-bench-mpi \
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

if [ "$ONLY" != real ] && [ "$ONLY" != overhead ]; then
    preload=""
    if [ "$CLOCK" = 1 ]; then
        preload=$PWD/build/bin/pact-smpi-clock.so
        [ -f "$preload" ] || { echo "bench-real.sh: $preload missing (make)" >&2; exit 1; }
    fi
    echo "== simulation speed: wall-clock of simulating pact's algorithm / SMPI's same built-in, $SIM_P ranks, $REPS calls,"
    echo "   median of $SIM_ROUNDS alternating runs each"
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
                # Open MPI's ring (and so its segmented ring) runs recursive doubling when count < P, and
                # pact with it; SimGrid's lr runs reduce + bcast instead: compare what both run, SimGrid's rdb
                ref=$smpi
                if [ "$coll" = allreduce ] && [[ $alg == ring || $alg == segmented_ring ]] && [ "$n" -lt "$SIM_P" ]; then
                    ref="rdb(count<P)"
                fi
                cfg=("--cfg=smpi/$coll:${ref%%[:(]*}")
                rest=${ref#*:}; [ "$rest" = "$ref" ] && rest=""
                for kv in ${rest//:/ }; do cfg+=("--cfg=smpi/${kv%%=*}:${kv#*=}"); done
                pparams=""; [ "$params" != - ] && pparams="--params ${params//:/,}"
                pact_t=(); smpi_t=()
                for r in $(seq "$SIM_ROUNDS"); do
                    pact_t+=("$(wall LD_PRELOAD=$preload smpirun -np "$SIM_P" -platform "$d/platform.xml" -hostfile "$d/hostfile" \
                        $(cat "$d/smpi-cfg") build/bin/pact-bench-smpi --coll "$coll" --alg "$alg" $pparams --count "$n" \
                        --reps "$REPS" --timing-only)")
                    smpi_t+=("$(wall LD_PRELOAD=$preload smpirun -np "$SIM_P" -platform "$d/platform.xml" -hostfile "$d/hostfile" \
                        $(cat "$d/smpi-cfg") "${cfg[@]}" build/bin/pact-bench-smpi --coll "$coll" --alg mpi --count "$n" \
                        --reps "$REPS" --timing-only)")
                done
                awk -v c="$coll" -v a="$alg" -v s="${ref%%:*}" -v b="$(bytes "$s")" -v p="${pact_t[*]}" -v q="${smpi_t[*]}" '
                    function median(str,   v, n, i, j, t) {
                        n = split(str, v, " ")
                        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
                    }
                    BEGIN { x = median(p); y = median(q)
                            printf "%-10s %-24s %-22s %9d %10.2f %10.2f %8.2f\n", c, a, s, b, x, y, x / y }'
            done
        done
    done
    # What any application-level implementation of Open MPI's ring costs to simulate: its MPI calls alone.
    if [[ ",$COLLS," == *,allreduce,* ]]; then
        smpicc -O2 -o "$OUT/smpi-ring-calls" scripts/smpi-ring-calls.c 2>/dev/null
        for s in ${SIM_SIZES//,/ }; do
            [ $(( $(bytes "$s") / 8 )) -ge "$SIM_P" ] || continue # below, Open MPI's ring is recursive doubling
            t=$(wall LD_PRELOAD=$preload smpirun -np "$SIM_P" -platform "$d/platform.xml" -hostfile "$d/hostfile" \
                $(cat "$d/smpi-cfg") "$OUT/smpi-ring-calls" $(( $(bytes "$s") / 8 )) "$REPS")
            printf '%-10s %-24s %-22s %9d %10.2f %10s %8s\n' allreduce "ring (calls only)" scripts/smpi-ring-calls \
                "$(bytes "$s")" "$t" - -
        done
    fi
fi

if [ "$LIBPACT" = 1 ]; then
    echo "== libpact's own costs at 8 B, $NP ranks: median d^ of $ROUNDS x $REPS calls (alternating)"
    echo "   none: no libpact; fallback: libpact with a table that has no row for the collective; traced: PACT_TRACE, no table"
    echo "   self_ns: one call on MPI_COMM_SELF, best of 5 x 10^6 (tests/libpact/calls.c), without libpact, falling back, traced;"
    echo "   fallback_%: what falling back adds, as a share of the 8 B call between the $NP ranks"
    printf '%-10s %12s %12s %12s %16s %14s %26s %11s\n' coll none_us fallback_us traced_us fallback/none traced-none_us \
        "self_ns none/fb/traced" fallback_%
    mpicc.openmpi -O2 -o "$OUT/calls" tests/libpact/calls.c
    # a table whose only row is a barrier's: every other collective falls back ("no table row covers it")
    table barrier linear >"$OUT/table-none.csv"
    for coll in ${COLLS//,/ }; do
        plan "$coll" mpi 8 "$REPS" >"$OUT/plan-ovh"
        : >"$OUT/ovh-none.csv"; : >"$OUT/ovh-fb.csv"; : >"$OUT/ovh-tr.csv"
        for r in $(seq "$ROUNDS"); do
            mpirun.openmpi -np "$NP" --oversubscribe build/bin/pact-bench-mpi --plan "$OUT/plan-ovh" --out "$OUT/round.csv" </dev/null >/dev/null
            tail -n +2 "$OUT/round.csv" >>"$OUT/ovh-none.csv"
            LD_PRELOAD=$LP PACT_TABLE=$OUT/table-none.csv mpirun.openmpi -np "$NP" --oversubscribe -x LD_PRELOAD -x PACT_TABLE \
                build/bin/pact-bench-mpi --plan "$OUT/plan-ovh" --out "$OUT/round.csv" </dev/null >/dev/null
            tail -n +2 "$OUT/round.csv" >>"$OUT/ovh-fb.csv"
            LD_PRELOAD=$LP PACT_TRACE=$OUT/trace.csv mpirun.openmpi -np "$NP" --oversubscribe -x LD_PRELOAD -x PACT_TRACE \
                build/bin/pact-bench-mpi --plan "$OUT/plan-ovh" --out "$OUT/round.csv" </dev/null >/dev/null
            tail -n +2 "$OUT/round.csv" >>"$OUT/ovh-tr.csv"
        done
        self_none=$(mpirun.openmpi -np 1 "$OUT/calls" "$coll" 1000000 </dev/null | awk '{ print $2 }')
        self_fb=$(LD_PRELOAD=$LP PACT_TABLE=$OUT/table-none.csv mpirun.openmpi -np 1 -x LD_PRELOAD -x PACT_TABLE \
            "$OUT/calls" "$coll" 1000000 </dev/null | awk '{ print $2 }')
        self_tr=$(LD_PRELOAD=$LP PACT_TRACE=$OUT/trace.csv mpirun.openmpi -np 1 -x LD_PRELOAD -x PACT_TRACE \
            "$OUT/calls" "$coll" 1000000 </dev/null | awk '{ print $2 }')
        awk -F, -v coll="$coll" -v sn="$self_none" -v sf="$self_fb" -v st="$self_tr" '
            function median(arr, n,   i, j, t) {
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
                return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
            }
            FNR == 1 { f++ }
            { n[f]++; v[f, n[f]] = $3 }
            END {
                for (s = 1; s <= 3; s++) { for (i = 1; i <= n[s]; i++) a[i] = v[s, i]; med[s] = median(a, n[s]) * 1e6 }
                printf "%-10s %12.2f %12.2f %12.2f %16.3f %14.2f %26s %11.2f\n", coll, med[1], med[2], med[3], med[2] / med[1],
                    med[3] - med[1], sprintf("%.1f/%.1f/%.1f", sn, sf, st), 100 * (sf - sn) * 1e-3 / med[1]
            }' "$OUT/ovh-none.csv" "$OUT/ovh-fb.csv" "$OUT/ovh-tr.csv"
    done
fi
