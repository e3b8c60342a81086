#!/usr/bin/env bash
# scripts/libpact-matrix.sh - the correctness matrix of the classic set through libpact (issue 19), at every P:
# each algorithm x counts x datatypes x operations x roots x {out of place, in place}, called through
# MPI_<Collective> with libpact preloaded and asked for that algorithm (pact-bench --matrix --libpact), compared
# with the library's own collective.  One line per run; exit 1 if any cell is wrong or a call was not routed.
#
#   scripts/libpact-matrix.sh [--mpis openmpi,mpich] [--procs 1..17] [--mpich-procs 1..17]
# Both libraries: counts 0,1,7,P-1,P+1,1000, datatypes int,float,double,pair up to 8 ranks and int,pair above
# (as tests/integration/integration.sh runs the executor's own matrix).  MPICH's ranks poll while they wait:
# build/tests/ucx-yield.so (make real; tests/support/ucx_yield.c) is preloaded beside libpact so that 17 of
# them on 2 cores take seconds.
set -uo pipefail
cd "$(dirname "$0")/.."
MPIS=openmpi,mpich; PROCS=1..17; MPICH_PROCS=1..17
while [ $# -gt 0 ]; do
    case "$1" in
    --mpis) MPIS=$2; shift 2 ;; --procs) PROCS=$2; shift 2 ;; --mpich-procs) MPICH_PROCS=$2; shift 2 ;;
    *) echo "libpact-matrix.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
range() { local a=${1%..*} b=${1#*..}; seq "$a" "$b"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bad=0
if [[ ",$MPIS," == *,openmpi,* ]]; then
    for P in $(range "$PROCS"); do
        dtypes=int,float,double,pair
        [ "$P" -gt 8 ] && dtypes=int,pair
        t0=$SECONDS
        out=$(LD_PRELOAD=$PWD/build/lib/libpact-ompi.so timeout 1800 mpirun.openmpi -np "$P" --oversubscribe \
            --mca btl self,vader -x LD_PRELOAD build/bin/pact-bench-mpi --matrix --libpact \
            --counts 0,1,7,P-1,P+1,1000 --dtypes $dtypes </dev/null 2>&1)
        line=$(echo "$out" | grep "pact-bench matrix" || echo "$out" | tail -3)
        echo "openmpi P=$P ($dtypes): $line  [$((SECONDS - t0)) s]"
        echo "$line" | grep -q " 0 wrong" || bad=1
    done
fi
if [[ ",$MPIS," == *,mpich,* ]]; then
    for P in $(range "$MPICH_PROCS"); do
        t0=$SECONDS
        dtypes=int,float,double,pair
        [ "$P" -gt 8 ] && dtypes=int,pair
        out=$(timeout 3600 mpiexec.mpich -np "$P" \
            -genv LD_PRELOAD "$PWD/build/lib/libpact-mpich.so $PWD/build/tests/ucx-yield.so" \
            build/bin/pact-bench-mpich --matrix --libpact --counts 0,1,7,P-1,P+1,1000 --dtypes $dtypes </dev/null 2>&1 |
            grep -v 'yaksa: .* leaked')
        line=$(echo "$out" | grep "pact-bench matrix" || echo "$out" | tail -3)
        echo "mpich P=$P ($dtypes): $line  [$((SECONDS - t0)) s]"
        echo "$line" | grep -q " 0 wrong" || bad=1
    done
fi
exit $bad
