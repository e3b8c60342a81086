#!/usr/bin/env bash
# How faithfully the bench driver imposes an arrival pattern on a real MPI (make bench-arrivals).
# For each MPI, rank count, shape and skew: REPS timed allreduce calls under the pattern, then per call and
# rank the error |achieved - intended| of the arrival the driver recorded (its clock aligned to rank 0's).
# Prints one line per case, errors in microseconds:
#   max_us, mean_us        by the driver's own synchronised clock (what it records: the overshoot of the wait)
#   true_max, true_mean    by CLOCK_MONOTONIC, which all ranks of one machine share: overshoot plus the error
#                          of the ping-pong clock synchronisation; the figure that counts
#   true_ok_max            the same over the calls kept as "ok" (the driver redoes a call in which a rank
#                          overslept by more than --arrival-tol, and marks it "late" after 8 tries)
#   late                   late calls / calls;  sync_us: the largest |estimated - true| clock offset
#
#   scripts/arrival-accuracy.sh [--mpis openmpi,mpich] [--np 4,8] [--skews 100us,1ms]
#                               [--shapes ascending,random,last_delayed] [--reps 30] [--tol 5e-6]
set -euo pipefail
cd "$(dirname "$0")/.."
MPIS=openmpi; NPS=4,8; SKEWS=100us,1ms; SHAPES=ascending,random,last_delayed; REPS=30; TOL=5e-6
while [ $# -gt 0 ]; do
    case "$1" in
    --mpis) MPIS=$2; shift 2 ;; --np) NPS=$2; shift 2 ;; --skews) SKEWS=$2; shift 2 ;;
    --shapes) SHAPES=$2; shift 2 ;; --reps) REPS=$2; shift 2 ;; --tol) TOL=$2; shift 2 ;;
    *) echo "arrival-accuracy.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=$(mktemp -d /tmp/pact-arrivals-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
PACT=build/bin/pact
cores=$(nproc)

launch() { # MPI NP ARGS... : one run of the driver
    local mpi=$1 np=$2; shift 2
    case $mpi in
    # Ranks that wait inside MPI yield the core when there are more ranks than cores (else the ranks that
    # are due spin behind them); MPICH's ch3 busy-polls regardless.
    openmpi) timeout 300 mpirun.openmpi --oversubscribe --mca mpi_yield_when_idle $((np > cores)) -np "$np" \
                 build/bin/pact-bench-mpi "$@" ;;
    mpich) timeout 300 mpiexec.mpich -np "$np" build/bin/pact-bench-mpich "$@" ;;
    *) echo "arrival-accuracy.sh: unknown MPI $mpi (openmpi, mpich)" >&2; exit 2 ;;
    esac
}

printf '# machine: %s, %s cores; allreduce ring 8 KiB, %s calls per case, --arrival-tol %s s\n' \
    "$(uname -n)" "$cores" "$REPS" "$TOL"
printf '%-8s %3s %-13s %8s  %10s %10s  %10s %10s %10s  %7s %9s\n' mpi np shape skew_us max_us mean_us \
    true_max true_mean true_ok_max late sync_us
for mpi in ${MPIS//,/ }; do
    for np in ${NPS//,/ }; do
        for shape in ${SHAPES//,/ }; do
            for skew in ${SKEWS//,/ }; do
                pat="$OUT/pattern-$np-$shape-$skew"
                $PACT pattern gen --shape "$shape" -p "$np" --skew "$skew" --seed 1 -o "$pat"
                launch "$mpi" "$np" --coll allreduce --alg ring --count 1024 --reps "$REPS" --pattern "$pat" \
                    --arrival-tol "$TOL" --arrivals "$OUT/arr" --out "$OUT/out" >"$OUT/log" 2>&1 ||
                    { cat "$OUT/log" >&2; exit 1; }
                awk -F, -v mpi="$mpi" -v np="$np" -v shape="$shape" '
                    function abs(x) { return x < 0 ? -x : x }
                    FILENAME == ARGV[1] { if ($0 !~ /^#/) want[n++] = $1; next }
                    FILENAME == ARGV[2] { st[$1 "," $2] = $5; next }
                    FNR > 1 { e = abs($4 - want[$3])              # by the synchronised clock
                              t = abs($4 - $6 + $7 - want[$3])    # by the machine clock all ranks share
                              s = abs($6 - $7); if (s > smx) smx = s
                              rows++; sum += e; tsum += t; if (e > mx) mx = e; if (t > tmx) tmx = t
                              if (st[$1 "," $2] == "ok") { if (t > oktmx) oktmx = t } else late[$1 "," $2] = 1 }
                    END { nl = 0; for (k in late) nl++; skew = 0; for (i = 0; i < n; i++) if (want[i] > skew) skew = want[i]
                          printf "%-8s %3d %-13s %8.1f  %10.3f %10.3f  %10.3f %10.3f %10.3f  %3d/%-3d %9.3f\n", mpi, np,
                                 shape, skew * 1e6, mx * 1e6, sum / rows * 1e6, tmx * 1e6, tsum / rows * 1e6,
                                 oktmx * 1e6, nl, rows / np, smx * 1e6 }' \
                    "$pat" "$OUT/out" "$OUT/arr"
            done
        done
    done
done
