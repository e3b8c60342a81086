# tests/integration/lib.sh - a tiny harness: `check NAME CMD...` runs CMD, records pass or fail, shows the output of
# failures (`check_par`: the same, beside other such checks); `finish` prints "N passed, N failed" and sets the
# exit status.
PASSED=0
# Preloaded into every MPICH rank the tests start (-genv LD_PRELOAD): MPICH's ranks poll while they wait,
# and on 2 cores a rank that waits would spin out the time slice of the one it waits for (see the file).
export MPICH_YIELD=$PWD/build/tests/ucx-yield.so
FAILED=0
FAILED_NAMES=()
TEST_LOG_DIR=${TEST_LOG_DIR:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-tests-XXXXXX")}

check_log() { echo "$TEST_LOG_DIR/$(echo "$1" | tr -c 'A-Za-z0-9_.-' '_').log"; }

# check_result NAME STATUS SECONDS: counts and prints one check's outcome.
check_result() {
    if [ "$2" -eq 0 ]; then
        PASSED=$((PASSED + 1))
        printf 'PASS %-60s %4ss\n' "$1" "$3"
    else
        FAILED=$((FAILED + 1))
        FAILED_NAMES+=("$1")
        printf 'FAIL %-60s %4ss\n' "$1" "$3"
        tail -n 30 "$(check_log "$1")" | sed 's/^/    | /'
    fi
}

# make test runs the tests' main part; make test-heavy (PACT_TEST_PART=heavy) their heavy part: checks of the
# kinds the main part runs, at more process counts or elements (the Makefile's test-heavy says which), which had
# kept make test near 25 minutes on 2 cores; PACT_TEST_PART=all runs both.  CI (.ci/run) runs both parts.
PACT_TEST_PART=${PACT_TEST_PART:-main}
if ! [[ $PACT_TEST_PART =~ ^(main|heavy|all)$ ]]; then
    echo "tests: environment variable PACT_TEST_PART=$PACT_TEST_PART: expected main, heavy or all" >&2
    exit 2
fi
# The process counts of the correctness matrices through the MPI libraries that make test runs (1..17 in all):
# one and two ranks, odd and even counts that are not powers of two, powers of two, and 17.
MATRIX_PS="1 2 3 4 6 7 8 17"
CHECK_HEAVY=0
# Whether a check of this part (main or heavy: CHECK_HEAVY) runs.
check_runs() {
    case $PACT_TEST_PART in
    all) return 0 ;;
    heavy) [ "$CHECK_HEAVY" = 1 ] ;;
    *) [ "$CHECK_HEAVY" = 0 ] ;;
    esac
}
# PACT_TEST_LIST=1: each check of the part is listed (its part and name), not run.
check_listed() {
    [ "${PACT_TEST_LIST:-0}" = 1 ] || return 1
    echo "$([ "$CHECK_HEAVY" = 1 ] && echo heavy || echo main) $1"
}
# heavy check|check_par NAME CMD...: a check of the heavy part.
heavy() {
    local CHECK_HEAVY=1
    "$@"
}
# matrix_p P check|check_par NAME CMD...: a check of the main part where P is one of MATRIX_PS, else of the
# heavy part.
matrix_p() {
    local p=$1
    shift
    if [[ " $MATRIX_PS " == *" $p "* ]]; then "$@"; else heavy "$@"; fi
}

check() {
    check_runs || return 0
    check_listed "$1" && return 0
    check_wait
    local name=$1; shift
    local t0=$SECONDS st=0
    "$@" >"$(check_log "$name")" 2>&1 || st=$?
    check_result "$name" "$st" "$((SECONDS - t0))"
}

# check_par NAME CMD...: check, run beside others up to PACT_TEST_JOBS at once (default: the cores), for
# checks that each keep one core busy (an SMPI simulation is one process) and share nothing but read-only
# files; a slot goes to the next as soon as any ends, and their outcomes print in the order they were started,
# as they can (all by the next check, check_wait or finish).
PAR_JOBS=${PACT_TEST_JOBS:-$(nproc)}
if ! [[ $PAR_JOBS =~ ^[1-9][0-9]{0,2}$ ]]; then
    echo "tests: environment variable PACT_TEST_JOBS=$PAR_JOBS: not a number of checks at once (1-999)" >&2
    exit 2
fi
PAR_PIDS=()  # started, not printed yet, in order
PAR_NAMES=()
declare -A PAR_ST=() # pid -> exit status, once it ended
PAR_RUNNING=0
check_par() {
    check_runs || return 0
    check_listed "$1" && return 0
    local name=$1; shift
    while [ "$PAR_RUNNING" -ge "$PAR_JOBS" ]; do
        par_wait_any
    done
    local log
    log=$(check_log "$name")
    (
        t0=$SECONDS
        "$@" >"$log" 2>&1
        st=$?
        echo $((SECONDS - t0)) >"$log.seconds"
        exit $st
    ) &
    PAR_PIDS+=($!)
    PAR_NAMES+=("$name")
    PAR_RUNNING=$((PAR_RUNNING + 1))
}

# One check_par ends (whichever first); those at the head of the order that have ended are printed.
par_wait_any() {
    local pid="" st=0
    wait -n -p pid || st=$?
    if [ -z "$pid" ]; then # no child left to wait for: each of ours fails as it is waited for
        check_wait
        return 0
    fi
    local p
    for p in "${PAR_PIDS[@]}"; do
        if [ "$p" = "$pid" ]; then
            PAR_ST[$pid]=$st
            PAR_RUNNING=$((PAR_RUNNING - 1))
        fi
    done
    par_print
}

par_print() {
    while [ ${#PAR_PIDS[@]} -gt 0 ] && [ -n "${PAR_ST[${PAR_PIDS[0]}]+x}" ]; do
        local log
        log=$(check_log "${PAR_NAMES[0]}")
        check_result "${PAR_NAMES[0]}" "${PAR_ST[${PAR_PIDS[0]}]}" "$(cat "$log.seconds" 2>/dev/null || echo '?')"
        rm -f "$log.seconds"
        unset "PAR_ST[${PAR_PIDS[0]}]"
        PAR_PIDS=("${PAR_PIDS[@]:1}")
        PAR_NAMES=("${PAR_NAMES[@]:1}")
    done
}

check_wait() {
    local p st
    for p in "${PAR_PIDS[@]}"; do
        if [ -z "${PAR_ST[$p]+x}" ]; then
            st=0
            wait "$p" || st=$?
            PAR_ST[$p]=$st
        fi
    done
    PAR_RUNNING=0
    par_print
}

# bad_file WANT CMD...: exit 2 and a message that contains WANT (file:line for files); callers check that
# nothing was written.
bad_file() {
    local want=$1; shift
    "$@" >"$TEST_LOG_DIR/badf.out" 2>"$TEST_LOG_DIR/badf.err"
    local st=$?
    cat "$TEST_LOG_DIR/badf.err"
    [ $st -eq 2 ] && grep -qF -- "$want" "$TEST_LOG_DIR/badf.err"
}

# rows_apart A B: how many rows of results.csv A (pruned ones aside) B has no row for with the same fields and
# skew_s, last_delay_s and total_delay_s within 1e-12 relative.  A cell's times depend on the simulated clock
# its smpirun had reached in their last bits only: where one run leaves out cells another runs in the same
# smpirun (--batch auto's sizes of an algorithm, with twins or pruned cells among them), they move there.
rows_apart() {
    awk -F, 'function far(x, y, e) { e = x - y; if (e < 0) e = -e; return e > 1e-12 * (y < 0 ? -y : y) }
        function key(i, k) { k = ""; for (i = 1; i <= NF; i++) if (i != 11 && i != 14 && i != 15) k = k "," $i; return k }
        NR == FNR { b[key()] = $11 " " $14 " " $15; next }
        FNR == 1 || $NF == "pruned" { next }
        { k = key(); if (!(k in b)) { n++; next }
          split(b[k], v, " "); if (far($11, v[1]) || far($14, v[2]) || far($15, v[3])) n++ }
        END { print n + 0 }' "$2" "$1"
}

finish() {
    check_wait
    echo
    if [ "$FAILED" -gt 0 ]; then
        printf 'failed: %s\n' "${FAILED_NAMES[@]}"
    fi
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}
