# tests/integration/libpact.sh - sourced by run-all.sh (needs lib.sh; uses $PACT and $TMP when set).  Also runs
# alone: bash tests/integration/libpact.sh
# libpact (tuner/libpact) under Open MPI and MPICH: the correctness matrix of the classic set through its wrappers
# (pact-bench --libpact: every call must be routed to the algorithm asked for, and give the library's result);
# tests/libpact/probe.c's cases, each routed or handed to the library for the reason stated in
# tests/libpact/probe-expected.txt, with the library's own result; bad tables; the arrival tracer against an
# imposed pattern; and the loop on HPC Challenge (Debian's hpcc, built against Open MPI): trace it, tune under its
# own pattern, run it again under the table.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    LIBPACT_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-libpact-XXXXXX")}
LP_OMPI=$PWD/build/lib/libpact-ompi.so
LP_MPICH=$PWD/build/lib/libpact-mpich.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$TMP/lp"

# lp_ompi NP ENV=VALUE... -- PROGRAM ARGS: an Open MPI run with libpact preloaded and the variables given
lp_ompi() {
    local np=$1 envs=(LD_PRELOAD="$LP_OMPI") xs=(-x LD_PRELOAD); shift
    while [ "$1" != -- ]; do envs+=("$1"); xs+=(-x "${1%%=*}"); shift; done
    shift
    env "${envs[@]}" timeout 600 mpirun.openmpi -np "$np" --oversubscribe --mca btl self,vader "${xs[@]}" "$@" </dev/null
}
lp_mpich() {
    local np=$1 gs=(-genv LD_PRELOAD "$LP_MPICH $MPICH_YIELD"); shift
    while [ "$1" != -- ]; do gs+=(-genv "${1%%=*}" "${1#*=}"); shift; done
    shift
    timeout 600 mpiexec.mpich -np "$np" "${gs[@]}" "$@" </dev/null 2> >(grep -v 'yaksa: .* leaked' >&2)
}

lp_build_probe() {
    mpicc.openmpi -std=c11 -Wall -Wextra -Ituner/libpact -o "$TMP/lp/probe-ompi" tests/libpact/probe.c &&
        mpicc.mpich -std=c11 -Wall -Wextra -Ituner/libpact -o "$TMP/lp/probe-mpich" tests/libpact/probe.c
}
check "libpact: the probe builds against Open MPI and MPICH" lp_build_probe

# The matrix through libpact, Open MPI and MPICH at P = 1..17 (MPICH's ranks with MPICH_YIELD, lib.sh): the
# process counts of MATRIX_PS in make test, the others in make test-heavy (lib.sh).
lp_matrix() {
    local mpi=$1 P=$2 dtypes=int,float,double,pair
    [ "$P" -gt 8 ] && dtypes=int,pair
    "lp_$mpi" "$P" -- build/bin/pact-bench-$([ "$mpi" = ompi ] && echo mpi || echo mpich) --matrix --libpact \
        --counts 0,1,7,P-1,P+1,1000 --dtypes $dtypes | tee "$TMP/lp/matrix-$mpi-$P"
    grep -q " 0 wrong" "$TMP/lp/matrix-$mpi-$P"
}
for P in $(seq 1 17); do
    matrix_p $P check "libpact: Open MPI correctness matrix through libpact P=$P" lp_matrix ompi $P
done
for P in $(seq 1 17); do
    matrix_p $P check "libpact: MPICH correctness matrix through libpact P=$P" lp_matrix mpich $P
done
# Without libpact loaded, --libpact refuses to run (so the matrix above did go through it).
lp_matrix_unloaded() {
    OMPI_ALLOW_RUN_AS_ROOT=1 timeout 60 mpirun.openmpi -np 1 build/bin/pact-bench-mpi --matrix --libpact </dev/null
    [ $? -eq 2 ]
}
check "libpact: pact-bench --libpact refuses to run without libpact" lp_matrix_unloaded

# probe.c: routed cases and one case per fallback reason, each with the library's result.
lp_probe() {
    local lib=$1
    if [ "$lib" = ompi ]; then
        lp_ompi 4 PACT_TABLE=tests/libpact/table.csv PACT_VERBOSE=1 -- "$TMP/lp/probe-ompi" >"$TMP/lp/out-$lib" 2>"$TMP/lp/out-$lib.err"
    else
        lp_mpich 4 PACT_TABLE=tests/libpact/table.csv PACT_VERBOSE=1 -- "$TMP/lp/probe-mpich" >"$TMP/lp/out-$lib" 2>"$TMP/lp/out-$lib.err"
    fi
    cat "$TMP/lp/out-$lib" "$TMP/lp/out-$lib.err"
    diff tests/libpact/probe-expected.txt "$TMP/lp/out-$lib" &&
        grep -Eq "libpact: +allreduce +routed +ring +258 \(1032\)" "$TMP/lp/out-$lib.err" &&
        grep -Eq "libpact: +alltoall +fallback +in place, which the algorithm does not allow +1 \(4\)" "$TMP/lp/out-$lib.err"
}
check "libpact: Open MPI: each case routed or fallen back as stated, right, counted" lp_probe ompi
check "libpact: MPICH: each case routed or fallen back as stated, right, counted" lp_probe mpich
# At link time instead of LD_PRELOAD: the same decisions.
lp_linked() {
    mpicc.openmpi -std=c11 -Ituner/libpact -o "$TMP/lp/probe-linked" tests/libpact/probe.c -L"$(dirname "$LP_OMPI")" \
        -lpact-ompi -Wl,-rpath,"$(dirname "$LP_OMPI")" || return 1
    PACT_TABLE=tests/libpact/table.csv timeout 300 mpirun.openmpi -np 4 --oversubscribe --mca btl self,vader \
        -x PACT_TABLE "$TMP/lp/probe-linked" </dev/null | diff tests/libpact/probe-expected.txt -
}
check "libpact: linked instead of preloaded, the same decisions and results" lp_linked

# A table libpact cannot use: one line from rank 0 naming the file (and line), every call to the library, the
# program unharmed; PACT_STRICT=1 stops it.
lp_bad_table() {
    local file=$1 want=$2 n
    lp_ompi 2 PACT_TABLE="$file" -- "$TMP/lp/probe-ompi" >"$TMP/lp/bad.out" 2>"$TMP/lp/bad.err" || return 1
    cat "$TMP/lp/bad.err"
    n=$(grep -c '^libpact:' "$TMP/lp/bad.err")
    [ "$n" = 1 ] && grep -qF -- "$want" "$TMP/lp/bad.err" &&
        ! grep -v "the table could not be read: right$" "$TMP/lp/bad.out" | grep -v "forced\|inter-communicator" | grep -q . &&
        ! lp_ompi 2 PACT_TABLE="$file" PACT_STRICT=1 -- "$TMP/lp/probe-ompi" >/dev/null 2>&1
}
{
    head -1 tests/libpact/table.csv
    echo "allreduce,1,1,0,inf,warp,,robust,,,"
} >"$TMP/lp/bad-alg.csv"
{
    head -1 tests/libpact/table.csv
    echo "allreduce,1,1,0,99,ring,,robust,,,"
    echo "allreduce,1,1,200,inf,ring,,robust,,,"
} >"$TMP/lp/bad-gap.csv"
{
    head -1 tests/libpact/table.csv
    echo "bcast,1,1,0,inf,knomial,radix=1K;radix=2,robust,,,"
} >"$TMP/lp/bad-param.csv"
check "libpact: a missing table" lp_bad_table "$TMP/lp/none.csv" "$TMP/lp/none.csv: cannot read"
check "libpact: a table with an unknown algorithm" lp_bad_table "$TMP/lp/bad-alg.csv" "bad-alg.csv:2: column algorithm: 'warp'"
check "libpact: a table with a gap" lp_bad_table "$TMP/lp/bad-gap.csv" "bad-gap.csv:3: column min_bytes"
check "libpact: a table with a parameter twice" lp_bad_table "$TMP/lp/bad-param.csv" "bad-param.csv:2: column params"
check "libpact: Open MPI's rules file instead of a table" lp_bad_table \
    results/reference/tune/g1024-rr-robust/ompi-rules.conf "looks like Open MPI's coll_tuned rules"
echo '{"collective=allreduce": {}}' >"$TMP/lp/csel.json"
check "libpact: MPICH's CSEL file instead of a table" lp_bad_table "$TMP/lp/csel.json" "looks like MPICH's CSEL JSON"

# Every table pact tune wrote for results/reference/tune.md reads without a word (PACT_STRICT=1 would stop it).
lp_reference_tables() {
    local t
    for t in results/reference/tune/*/table.csv; do
        lp_ompi 1 PACT_TABLE="$t" PACT_STRICT=1 -- "$TMP/lp/probe-ompi" >/dev/null 2>"$TMP/lp/ref.err" || {
            cat "$TMP/lp/ref.err"
            return 1
        }
        ! grep -q libpact "$TMP/lp/ref.err" || { cat "$TMP/lp/ref.err"; return 1; }
        echo "$t: read"
    done
}
check "libpact: reads every table of results/reference/tune" lp_reference_tables

lp_threads() {
    lp_ompi 2 PACT_TABLE=tests/libpact/table.csv -- "$TMP/lp/probe-ompi" --threads multiple >"$TMP/lp/thr.out" || return 1
    cat "$TMP/lp/thr.out"
    [ "$(grep -c 'thread level MPI_THREAD_MULTIPLE: right$' "$TMP/lp/thr.out")" -ge 15 ] && ! grep -q WRONG "$TMP/lp/thr.out"
}
check "libpact: MPI_THREAD_MULTIPLE: every call to the library" lp_threads
lp_serialized() {
    lp_ompi 4 PACT_TABLE=tests/libpact/table.csv -- "$TMP/lp/probe-ompi" --threads serialized | diff tests/libpact/probe-expected.txt -
}
check "libpact: MPI_THREAD_SERIALIZED: routed as under MPI_Init" lp_serialized

# The tracer: the bench driver imposes a pattern (2 ranks, skew 5 ms); the pattern from-trace makes of libpact's
# trace of those calls is the imposed one within 5% of the skew.
lp_tracer_once() {
    rm -f "$TMP/lp/trace.csv"
    lp_ompi 2 PACT_TRACE="$TMP/lp/trace.csv" PACT_TRACE_COLLS=alltoall -- build/bin/pact-bench-mpi --coll alltoall \
        --alg mpi --count 16 --pattern "$TMP/lp/imposed.txt" --reps 20 >"$TMP/lp/bench.out" || return 1
    echo "the bench driver: $(grep -c late "$TMP/lp/bench.out") of 20 calls late (missed their arrival times)"
    $PACT pattern from-trace "$TMP/lp/trace.csv" -o "$TMP/lp/traced.txt" || return 1
    head -3 "$TMP/lp/trace.csv"
    paste <(grep -v '^#' "$TMP/lp/imposed.txt") <(grep -v '^#' "$TMP/lp/traced.txt") |
        awk -v s=0.005 '{ e = $2 - $1; if (e < 0) e = -e; if (e > m) m = e; print "rank " NR - 1 ": imposed " $1 " s, traced " $2 " s" }
                        END { printf "largest difference %.3g s = %.2f%% of the skew\n", m, 100 * m / s; exit !(m <= 0.05 * s) }'
}
# A loaded machine wakes the ranks late and the driver cannot impose the pattern (it marks such calls late):
# up to three tries, each shown.
lp_tracer() {
    $PACT pattern gen --shape random -p 2 --skew 5ms --seed 3 -o "$TMP/lp/imposed.txt" || return 1
    local k
    for k in 1 2 3; do
        echo "try $k"
        lp_tracer_once && return 0
    done
    return 1
}
check "libpact: the tracer's pattern is the imposed one within 5% of the skew" lp_tracer
# PACT_TRACE_EVERY samples, PACT_TRACE_COLLS filters, bad values are named.
lp_trace_options() {
    rm -f "$TMP/lp/t1.csv" "$TMP/lp/t2.csv"
    # tracing and routing together: the same decisions and results as without the trace
    lp_ompi 4 PACT_TRACE="$TMP/lp/t1.csv" PACT_TABLE=tests/libpact/table.csv -- "$TMP/lp/probe-ompi" >"$TMP/lp/t1.out" &&
        diff tests/libpact/probe-expected.txt "$TMP/lp/t1.out" &&
        lp_ompi 4 PACT_TRACE="$TMP/lp/t2.csv" PACT_TRACE_EVERY=3 PACT_TABLE=tests/libpact/table.csv -- \
            "$TMP/lp/probe-ompi" >/dev/null || return 1
    local all every
    all=$(awk -F, 'NR > 1 && $2 % 3 == 0 { print $2 }' "$TMP/lp/t1.csv" | sort -un | tr '\n' ' ')
    every=$(awk -F, 'NR > 1 { print $2 }' "$TMP/lp/t2.csv" | sort -un | tr '\n' ' ')
    echo "calls traced with PACT_TRACE_EVERY=3: $every (of those of a full trace: $all)"
    [ -n "$every" ] && [ "$every" = "$all" ] || return 1
    lp_ompi 2 PACT_TRACE="$TMP/lp/t3.csv" PACT_TRACE_COLLS=allgather -- "$TMP/lp/probe-ompi" >/dev/null || return 1
    echo "PACT_TRACE_COLLS=allgather: $(awk -F, 'NR > 1 { print $4 }' "$TMP/lp/t3.csv" | sort | uniq -c | tr '\n' ' ')"
    [ "$(awk -F, 'NR > 1 { print $4 }' "$TMP/lp/t3.csv" | sort -u)" = allgather ] || return 1
    lp_ompi 2 PACT_TRACE="$TMP/lp/t4.csv" PACT_TRACE_COLLS=allgather,warp -- "$TMP/lp/probe-ompi" >/dev/null 2>"$TMP/lp/t4.err"
    cat "$TMP/lp/t4.err"
    grep -q "PACT_TRACE_COLLS: 'warp': not one of" "$TMP/lp/t4.err" && [ ! -e "$TMP/lp/t4.csv" ]
}
check "libpact: tracing while routing changes nothing; PACT_TRACE_EVERY and PACT_TRACE_COLLS" lp_trace_options

# The loop on HPC Challenge (4 ranks, N = 500): trace it, turn the trace into a pattern, tune under it (model,
# generic32x32 1 x 4), run it under the table: its own checks pass and pact's kernels ran every wrapped call.
lp_hpcc() {
    command -v hpcc >/dev/null || { echo "hpcc is not installed (scripts/install-deps.sh installs it)"; return 1; }
    local d=$TMP/lp/hpcc root=$PWD pact
    pact=$(realpath "$PACT")
    rm -rf "$d" && mkdir -p "$d" && cd "$d" || return 1
    cp "$root/tests/libpact/hpccinf.txt" hpccinf.txt
    lp_ompi 4 PACT_TRACE="$d/trace.csv" -- hpcc >/dev/null 2>&1 && mv hpccoutf.txt traced-hpccoutf.txt &&
        "$pact" pattern from-trace trace.csv -o pattern.txt &&
        "$pact" tune --platform generic32x32 --nodes 1 --ppn 4 --coll allreduce,reduce,bcast,alltoall,barrier \
            --sizes 1..16K --patterns file:trace.csv --objective expected:file:trace.csv --source model --target pact \
            --no-figures -q -o tune >/dev/null &&
        lp_ompi 4 PACT_TABLE="$d/tune/table.csv" PACT_VERBOSE=1 -- hpcc >/dev/null 2>verbose.txt
    local st=$?
    cd "$root" || return 1
    cat "$d/pattern.txt" "$d/tune/table.csv" "$d/verbose.txt"
    [ $st -eq 0 ] || return 1
    grep -E "Found|residual checks|PASSED|FAILED|Failed to allocate|^PTRANS_n=|^Success=" "$d/hpccoutf.txt"
    # every test ran (PTRANS too: hpcc skips it, with "Failed to allocate", when it misreads its sizes) and
    # passed its own checks
    [ "$(grep -c "Found 0 errors" "$d/hpccoutf.txt")" -ge 2 ] && ! grep -q FAILED "$d/hpccoutf.txt" &&
        ! grep -q "Failed to allocate" "$d/hpccoutf.txt" && grep -qx "PTRANS_n=250" "$d/hpccoutf.txt" &&
        grep -qx "Success=1" "$d/hpccoutf.txt" &&
        grep -q "0 tests completed and failed residual checks" "$d/hpccoutf.txt" &&
        ! grep -q fallback "$d/verbose.txt" &&
        [ "$(grep -c ' routed ' "$d/verbose.txt")" -ge 4 ]
}
# 2 GB of address space per process (hpcc needs 0.3 here): a size misread fails an allocation instead of
# exhausting the machine
lp_hpcc_capped() { (ulimit -v 2000000 && lp_hpcc); }
check "libpact: the loop on HPC Challenge: trace, tune, run under the table" lp_hpcc_capped

[ -n "${LIBPACT_ALONE:-}" ] && finish
true
