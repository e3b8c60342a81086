# tests/integration/lib.sh - a tiny harness: `check NAME CMD...` runs CMD, records pass or fail, shows the output of
# failures; `finish` prints "N passed, N failed" and sets the exit status.
PASSED=0
# Preloaded into every MPICH rank the tests start (-genv LD_PRELOAD): MPICH's ranks poll while they wait,
# and on 2 cores a rank that waits would spin out the time slice of the one it waits for (see the file).
export MPICH_YIELD=$PWD/build/tests/ucx-yield.so
FAILED=0
FAILED_NAMES=()
TEST_LOG_DIR=${TEST_LOG_DIR:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-tests-XXXXXX")}

check() {
    local name=$1; shift
    local log="$TEST_LOG_DIR/$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
    local t0=$SECONDS
    if "$@" >"$log" 2>&1; then
        PASSED=$((PASSED + 1))
        printf 'PASS %-60s %4ss\n' "$name" "$((SECONDS - t0))"
    else
        FAILED=$((FAILED + 1))
        FAILED_NAMES+=("$name")
        printf 'FAIL %-60s %4ss\n' "$name" "$((SECONDS - t0))"
        tail -n 30 "$log" | sed 's/^/    | /'
    fi
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

finish() {
    echo
    if [ "$FAILED" -gt 0 ]; then
        printf 'failed: %s\n' "${FAILED_NAMES[@]}"
    fi
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}
