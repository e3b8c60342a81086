# tests/integration/integration.sh - sourced by tests/run-all.sh (make test; make integration runs the
# integration files alone with --integration-only; needs tests/integration/lib.sh).
# Integration tests: the executor against the MPI libraries' own collectives (SMPI, Open MPI, MPICH),
# fidelity against SimGrid's built-ins, the bench driver's arrival times, and the pact command.
PACT=build/bin/pact
BENCH_SMPI=$PWD/build/bin/pact-bench-smpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
TMP=$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-it-XXXXXX")

# smpi_matrix P COUNTS [pact-bench options]: algorithms x counts x dtypes x ops x roots x in place against
# SMPI's own collectives, on generic32x32.  SMPI's default allgather takes ~60x longer to simulate than any
# explicit one, so the reference allgather is SimGrid's ring; each collective gets its own smpirun, since
# SimGrid 3.32 slows down later calls after many alltoall cells in one process.
smpi_matrix() {
    local P=$1 counts=$2 nodes=$(( ($1 + 31) / 32 )) d
    d=$(mktemp -d "$TMP/plat-$1-XXXXXX") || return 1
    shift 2
    $PACT platform export generic32x32 --nodes $nodes --ppn 32 -o "$d" || return 1
    smpirun -np "$P" -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") \
        --cfg=smpi/allgather:ring "$BENCH_SMPI" --matrix --counts "$counts" "$@" | tee "$d/out"
    grep -q " 0 wrong" "$d/out"
}

ompi_matrix() {
    local P=$1 counts=$2
    shift 2
    timeout 900 mpirun.openmpi -np "$P" --oversubscribe --mca btl self,vader build/bin/pact-bench-mpi --matrix \
        --counts "$counts" "$@" | tee "$TMP/ompi-$P"
    grep -q " 0 wrong" "$TMP/ompi-$P"
}

mpich_matrix() {
    local P=$1 counts=$2
    shift 2
    timeout 900 mpiexec.mpich -np "$P" -genv LD_PRELOAD "$MPICH_YIELD" build/bin/pact-bench-mpich --matrix \
        --counts "$counts" "$@" | tee "$TMP/mpich-$P"
    grep -q " 0 wrong" "$TMP/mpich-$P"
}

# Each SMPI simulation below is one process on one core: they run side by side (check_par), one per core,
# the longest first: 2^20 elements at 32 ranks (the heavy part's, 230 s).
heavy check_par "smpi correctness 2^20 P=32" smpi_matrix 32 1048576 --coll allreduce,reduce,bcast --dtypes double \
    --ops sum --roots 0,P/2
# The foundation's allreduce algorithms at its process counts, up to 2^20 elements up to 8 ranks (at 33 and
# 64 ranks 2^20 elements took 30 and 69 s; at 7 and 16 ranks, 20 and 45 s, they are the heavy part's, as are
# 32 ranks' above; 2 and 8 ranks, 3 and 5 keep both power-of-two and other counts covered at that size).
for P in 1 2 3 5 7 8 16 33 64; do
    counts=0,1,P-1,P+1,1000,1048576
    if [ $P -gt 8 ] || [ $P -eq 7 ]; then counts=0,1,P-1,P+1,1000; fi
    check_par "smpi correctness allreduce (recursive doubling, ring) P=$P" smpi_matrix $P $counts --coll allreduce \
        --algs recursive_doubling,ring --dtypes int,float,double --ops sum,max
done
for P in 7 16; do
    heavy check_par "smpi correctness allreduce (recursive doubling, ring) 2^20 P=$P" smpi_matrix $P 1048576 \
        --coll allreduce --algs recursive_doubling,ring --dtypes int,float,double --ops sum,max
done
# Every algorithm of every collective at larger P under SMPI (100 ranks: the heavy part, 180 s of simulation).
for P in 32 64 100; do
    for C in allreduce reduce bcast alltoall allgather; do
        counts=0,1,7,P-1,P+1,1000
        # P^2 flows per alltoall call make 100 ranks x 1000 elements minutes of simulation
        [ $C = alltoall ] && [ $P -eq 100 ] && counts=0,1,7,P+1
        if [ $P -eq 100 ]; then
            heavy check_par "smpi correctness $C P=$P" smpi_matrix $P $counts --coll $C --dtypes int,double,pair
        else
            check_par "smpi correctness $C P=$P" smpi_matrix $P $counts --coll $C --dtypes int,double,pair
        fi
    done
done
# The collectives added since (barrier: no rank leaves before a late one arrives, bench.c's barrier_check;
# reduce_scatter: recvcounts of pact_block's split) at the small and power-of-two process counts.
for P in 1 2 3 5 8 16 32; do
    check_par "smpi correctness barrier P=$P" smpi_matrix $P 0 --coll barrier
    check_par "smpi correctness reduce_scatter P=$P" smpi_matrix $P 0,1,7,P-1,P+1,1000 --coll reduce_scatter \
        --dtypes int,double,pair
done
# A plan's second run: under SMPI the executor keeps persistent requests from one run to the next (exec.c),
# so each plan first runs on another rank's input, then is checked.
check_par "smpi correctness second run P=32" smpi_matrix 32 1,P+1,1000 --coll alltoall,allgather,allreduce \
    --dtypes int,pair --check-twice
# Open MPI on this machine, oversubscribed: every algorithm for P = 1..17 (lib.sh's MATRIX_PS in make test, the
# others in make test-heavy), and 2^20 elements at small P.
# Every process on 2 cores takes its turn at each call: above 8 ranks, int and pair only (4- and 8-byte
# elements, commutative and not) keep the run short; float and double are covered up to 8 and under SMPI.
for P in $(seq 1 17); do
    dtypes=int,float,double,pair
    [ $P -gt 8 ] && dtypes=int,pair
    matrix_p $P check "openmpi correctness all collectives P=$P" ompi_matrix $P 0,1,7,P-1,P+1,1000 --dtypes $dtypes
done
# 2^20 elements: doubles on 3 ranks in the main part (25 s), ints there and both on 1, 2 and 4 ranks in the
# heavy part (105 s).
check "openmpi correctness 2^20 P=3" ompi_matrix 3 1048576 --coll allreduce,reduce,bcast --dtypes double
heavy check "openmpi correctness 2^20 ints P=3" ompi_matrix 3 1048576 --coll allreduce,reduce,bcast --dtypes int
for P in 1 2 4; do
    heavy check "openmpi correctness 2^20 P=$P" ompi_matrix $P 1048576 --coll allreduce,reduce,bcast --dtypes double,int
done
# MPICH: the matrix Open MPI runs.  Its ranks poll while they wait; with MPICH_YIELD (lib.sh) 17 of them on
# 2 cores take seconds, not the minutes that had kept this matrix at 2-5 ranks and two datatypes.
for P in $(seq 1 17); do
    dtypes=int,float,double,pair
    [ $P -gt 8 ] && dtypes=int,pair
    matrix_p $P check "mpich correctness all collectives P=$P" mpich_matrix $P 0,1,7,P-1,P+1,1000 --dtypes $dtypes
done
# MPICH's scatter broadcasts split bytes: on chars (the element their blocks always divide into), where the
# matrices above, on 4- and 8-byte elements, find them restricted in about half the cells; counts below P too.
for P in 3 8 16; do
    for lib in smpi ompi mpich; do
        check "$lib correctness MPICH's byte-split bcasts on chars P=$P" ${lib}_matrix $P 0,1,7,P-1,P+1,1000 \
            --coll bcast --algs mpich_scatter_allgather,mpich_scatter_allgather_ring --dtypes char,int --roots 0,P-1
    done
done
# MPICH's smp compositions across nodes: MPICH's debugging cliques split this machine into 2 nodes of 3 (by block)
# and 3 nodes round-robin (7 ranks), so node and node-leader parts both run; pact's smp schedules on them.
# mpich_smp_matrix P NODES BY_BLOCK: right cells and none wrong.
mpich_smp_matrix() {
    MPIR_CVAR_NUM_CLIQUES=$2 MPIR_CVAR_CLIQUES_BY_BLOCK=$3 timeout 600 mpiexec.mpich -np "$1" \
        -genv LD_PRELOAD "$MPICH_YIELD" build/bin/pact-bench-mpich --matrix --counts 0,1,P+1,4000 \
        --coll allreduce,reduce,bcast,barrier --algs smp --dtypes int --roots 0,P-1,1 | tee "$TMP/mpich-smp-$1"
    grep -qE ": [1-9][0-9]* right, 0 wrong" "$TMP/mpich-smp-$1"
}
check "mpich correctness smp on 2 nodes of 3" mpich_smp_matrix 6 2 1
check "mpich correctness smp on 3 nodes, 7 ranks round-robin" mpich_smp_matrix 7 3 0

# In simulation the achieved arrivals equal the pattern to the bit.
arrivals_exact() {
    local d="$TMP/arr"
    $PACT platform export generic32x32 --nodes 1 --ppn 8 -o "$d" || return 1
    $PACT pattern gen --shape ascending -p 8 --skew 0.001 -o "$d/pattern" || return 1
    smpirun -np 8 -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") "$BENCH_SMPI" \
        --alg ring --count 1000 --reps 2 --pattern "$d/pattern" --arrivals "$d/arrivals" --out "$d/out" || return 1
    cat "$d/arrivals"
    # rank i arrives exactly pattern[i] after the common start, in both reps
    awk -F, 'NR == FNR { if ($0 !~ /^#/) want[n++] = $1; next }
             FNR > 1 { got = $4; w = want[$3]; if (got != w && (got - w > 1e-15 || w - got > 1e-15)) bad++; rows++ }
             END { print rows, "rows,", bad + 0, "off"; exit (rows != 16 || bad > 0) }' "$d/pattern" "$d/arrivals"
}
check "smpi arrivals equal the pattern" arrivals_exact

# d^ = d* without delay; under last_delayed d* - d^ is the skew (arrivals are exact in simulation).
delays() {
    local o="$TMP/delays"
    $PACT sim --nodes 1 --ppn 16 --algs recursive_doubling,ring --sizes 1K,64K --patterns no_delay,last_delayed \
        --skew 1ms --reps 2 -o "$o" || return 1
    cat "$o/results.csv"
    awk -F, 'NR > 1 { n++; d = $15 - $14
                      if ($8 == "no_delay" && $14 != $15) bad++
                      if ($8 == "last_delayed" && (d < 1e-3 - 1e-12 || d > 1e-3 + 1e-12 || $14 >= $15)) bad++ }
             END { print n, "rows,", bad + 0, "bad"; exit (n != 16 || bad > 0) }' "$o/results.csv"
}
check "sim d^ vs d* under no_delay and last_delayed" delays

# Same command twice: byte-identical results.csv.
deterministic() {
    for k in 1 2; do
        $PACT sim --nodes 2 --ppn 8 --algs recursive_doubling,ring --sizes 8,64K --patterns no_delay,last_delayed,random \
            --skew-factor 1.5 --reps 2 -o "$TMP/det$k" >/dev/null || return 1
    done
    cmp "$TMP/det1/results.csv" "$TMP/det2/results.csv" && cmp "$TMP/det1/summary.txt" "$TMP/det2/summary.txt"
}
check "sim is deterministic" deterministic

# The skew-factor mode records 1.5 x the mean no-delay d^ of the algorithms of each size.
skew_factor() {
    local o="$TMP/factor"
    $PACT sim --nodes 1 --ppn 8 --algs recursive_doubling,ring --sizes 64K --patterns no_delay,last_delayed \
        --skew-factor 1.5 --reps 2 -o "$o" >/dev/null || return 1
    awk -F, 'NR > 1 && $8 == "no_delay" { s += $14; n++ }
             NR > 1 && $8 == "last_delayed" { k = $11; f = $10 }
             END { want = 1.5 * s / n; print "skew", k, "want", want, "factor", f
                   exit (f != 1.5 || k - want > 1e-15 * want || want - k > 1e-15 * want) }' "$o/results.csv"
}
check "sim skew-factor derives 1.5 x mean no-delay d^" skew_factor

# Fidelity seed: pact's algorithms against SimGrid's own on generic32x32, 64 ranks, no compute cost.
fidelity() {
    bash scripts/fidelity.sh --colls allreduce --procs 64 -o "$TMP/fid" | tee "$TMP/fid.txt" || return 1
    # recursive_doubling follows the same Open MPI/MPICH scheme as SMPI's rdb: within 3% at every size.
    awk '$3 == "recursive_doubling" { n++; if ($8 > 3 || $8 < -3) bad++ }
         END { exit (n != 4 || bad > 0) }' "$TMP/fid.txt" || return 1
    # ring follows Open MPI's (Irecv ahead, blocking send): at 64K and 1M its time is the pipelined ring's,
    # reduce-scatter at the mean hop time and allgather at the slowest hop (see scripts/fidelity.sh).
    awk '$3 == "ring" && $5 >= 65536 { n++; if ($9 > 0.1 || $9 < -0.1) bad++ }
         END { exit (n != 2 || bad > 0) }' "$TMP/fid.txt"
}
check "fidelity vs SimGrid built-ins (scripts/fidelity.sh)" fidelity
# Barrier: every Open MPI algorithm against SimGrid's copy of it, within 3% (measured: identical) at 16 ranks
# and at 5 (not a power of two), and two_proc at 2.
fidelity_barrier() {
    bash scripts/fidelity.sh --colls barrier --procs "2 5 16" -o "$TMP/fid-bar" | tee "$TMP/fid-bar.txt" || return 1
    awk '$1 == "barrier" { n++; if ($8 == "-" || $8 > 3 || $8 < -3) bad++ }
         END { exit (n != 5 + 5 + 6 || bad > 0) }' "$TMP/fid-bar.txt"
}
check "fidelity vs SimGrid built-ins: barrier" fidelity_barrier
# Reduce_scatter: every algorithm with a SimGrid twin (recursive_halving, ring and butterfly against
# SimGrid's ports of Open MPI's, MPICH's pairwise and recursive doubling against its mpich_pair and
# mpich_rdb), within 3% (measured: identical) at 16 ranks from 1 KiB, 3 sizes each.  Not 8 B: SimGrid's
# recursive halving skips every exchange where one side has nothing to send (one element: no message at
# all, d^ 0), Open MPI's does not.
fidelity_reduce_scatter() {
    bash scripts/fidelity.sh --colls reduce_scatter --procs 16 --sizes 1K,64K,1M -o "$TMP/fid-rs" |
        tee "$TMP/fid-rs.txt" || return 1
    local want=$((3 * $($PACT list algorithms --coll reduce_scatter --format csv | awk -F, 'NR > 1 && $5 != ""' | wc -l)))
    awk -v want="$want" '$1 == "reduce_scatter" { n++; if ($8 == "-" || $8 > 3 || $8 < -3) bad++ }
         END { if (n != want) print n " rows, " want " expected"; exit (n != want || bad > 0) }' "$TMP/fid-rs.txt"
}
check "fidelity vs SimGrid built-ins: reduce_scatter" fidelity_reduce_scatter

# The command line.
list_algorithms() {
    $PACT list algorithms --format csv | tee "$TMP/algs.csv"
    grep -q '^allreduce,recursive_doubling,3,' "$TMP/algs.csv" && grep -q '^allreduce,ring,4,' "$TMP/algs.csv" &&
        $PACT list algorithms | grep ring >/dev/null # not -q: an early exit would SIGPIPE pact under pipefail
}
check "pact list algorithms (table and csv)" list_algorithms

pattern_gen() {
    [ "$($PACT pattern gen --shape last_delayed -p 8 --skew 1 | tr '\n' ' ')" = "0 0 0 0 0 0 0 1 " ]
}
check "pact pattern gen last_delayed" pattern_gen

# bad_input NAME ARGS...: exit status 2, one line on stderr naming the problem, no output folder.
bad_input() {
    local want=$1; shift
    local o="$TMP/bad-$RANDOM"
    $PACT sim "$@" -o "$o" >"$TMP/bad.out" 2>"$TMP/bad.err"
    local st=$?
    cat "$TMP/bad.err"
    [ $st -eq 2 ] && [ "$(wc -l <"$TMP/bad.err")" -eq 1 ] && grep -q -- "$want" "$TMP/bad.err" && [ ! -e "$o" ] &&
        ! ls "$TMP" | grep -q "bad-.*partial"
}
check "bad input: unknown algorithm" bad_input "no_such_alg" --nodes 1 --ppn 4 --algs ring,no_such_alg
check "bad input: unknown collective" bad_input "allgatherv" --nodes 1 --ppn 4 --coll allgatherv
check "bad input: malformed size" bad_input "12Q" --nodes 1 --ppn 4 --sizes 8,12Q
check "bad input: --nodes 0" bad_input "nodes 0" --nodes 0 --ppn 4
check "bad input: more nodes than the platform" bad_input "nodes 33" --nodes 33 --ppn 4
check "bad input: more ranks per node than cores" bad_input "ppn 33" --nodes 1 --ppn 33
check "bad input: unknown pattern" bad_input "sideways" --nodes 1 --ppn 4 --patterns no_delay,sideways
check "bad input: size not a whole number of doubles" bad_input "whole number" --nodes 1 --ppn 4 --sizes 12

# A run that fails inside smpirun exits 1, writes no summary and keeps no rows; the same command with a
# working driver then resumes the folder and completes it.
failed_run() {
    local o="$TMP/failed"
    PACT_BENCH_SMPI=/bin/false $PACT sim --nodes 1 --ppn 4 --sizes 8 --patterns no_delay -q -o "$o"
    local st=$?
    [ $st -eq 1 ] && [ ! -e "$o/summary.txt" ] && [ "$(wc -l <"$o/results.csv")" -eq 1 ] || return 1
    $PACT sim --nodes 1 --ppn 4 --sizes 8 --patterns no_delay -q -o "$o" >/dev/null &&
        [ "$(wc -l <"$o/results.csv")" -gt 1 ] && [ -s "$o/summary.txt" ]
}
check "failed run: exit 1, no rows; the rerun resumes" failed_run

# Where the ranks run, as the bench driver gives it to algorithms that need it (PACT_R_PLACE): under SMPI the
# hosts of the hostfile (3 nodes x 2, cyclic), under Open MPI and MPICH this one machine.
bench_place() {
    local d="$TMP/place"
    $PACT platform export generic32x32 --nodes 3 --ppn 2 --mapping cyclic -o "$d" >/dev/null || return 1
    [ "$(smpirun -np 6 -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") "$BENCH_SMPI" \
        --place 2>/dev/null)" = "0 1 2 0 1 2" ] || return 1
    [ "$(mpirun.openmpi -np 3 --oversubscribe build/bin/pact-bench-mpi --place 2>/dev/null)" = "0 0 0" ] &&
        [ "$(mpiexec.mpich -np 3 -genv LD_PRELOAD "$MPICH_YIELD" build/bin/pact-bench-mpich --place 2>/dev/null)" = \
            "0 0 0" ]
}
check "bench driver: the node of every rank (SMPI hosts, one machine under Open MPI and MPICH)" bench_place

# A set-up failure on one rank only (injected: PACT_BENCH_FAIL_SETUP=R) stops every rank with a message and a
# non-zero exit.  Before the ranks agreed on it, the others entered the collective and waited for ever (the
# timeout's 124); under Open MPI, MPICH and SMPI, single cell and matrix.  A value that is not a rank is refused.
bench_setup_fails() {
    local out rc
    out=$(PACT_BENCH_FAIL_SETUP=1 timeout 60 mpirun.openmpi -x PACT_BENCH_FAIL_SETUP -np 3 --oversubscribe \
        --mca btl self,vader build/bin/pact-bench-mpi --coll allreduce --alg ring --count 100 --reps 2 2>&1)
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "set-up failure injected" <<<"$out" &&
        [ "$(grep -c 'set-up failed on another rank' <<<"$out")" = 2 ] || return 1
    out=$(PACT_BENCH_FAIL_SETUP=2 timeout 60 mpiexec.mpich -np 3 -genv LD_PRELOAD "$MPICH_YIELD" \
        build/bin/pact-bench-mpich --matrix --coll bcast --algs binomial --counts 1 2>&1)
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "set-up failure injected" <<<"$out" || return 1
    local d="$TMP/setup-fails"
    $PACT platform export generic32x32 --nodes 2 --ppn 2 -o "$d" >/dev/null || return 1
    out=$(PACT_BENCH_FAIL_SETUP=3 timeout 60 smpirun -np 4 -platform "$d/platform.xml" -hostfile "$d/hostfile" \
        $(cat "$d/smpi-cfg") "$BENCH_SMPI" --coll reduce --alg binomial --count 10 2>&1)
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "set-up failure injected" <<<"$out" || return 1
    out=$(PACT_BENCH_FAIL_SETUP=abc timeout 60 mpirun.openmpi -x PACT_BENCH_FAIL_SETUP -np 2 --oversubscribe \
        --mca btl self,vader build/bin/pact-bench-mpi --coll allreduce --alg ring --count 10 2>&1)
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "PACT_BENCH_FAIL_SETUP is not a rank" <<<"$out"
}
check "bench driver: a set-up failure on one rank stops all ranks (no hang)" bench_setup_fails
