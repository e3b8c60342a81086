#!/usr/bin/env bash
# make test: unit tests (GTest binaries given as arguments), then integration tests (SMPI, Open MPI,
# MPICH, the pact command).  --unit-only skips the integration tests (make unit, make check-asan);
# with no binaries and --integration-only, only the integration tests run; --heavy runs the integration tests'
# heavy part alone (make test-heavy: lib.sh, PACT_TEST_PART).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# Every file the tests write goes under one folder (the scripts' mktemp -d calls name it): removed when all
# passed, kept and named when one failed.  Each run of make test had left ~600 MB in /tmp.
PACT_TEST_TMP=$(mktemp -d /tmp/pact-test-XXXXXX) || exit 1
export PACT_TEST_TMP
mode=all
case "${1:-}" in
--unit-only | --integration-only) mode=$1; shift ;;
--heavy) mode=--integration-only; export PACT_TEST_PART=heavy; shift ;;
esac
source tests/integration/lib.sh
for t in "$@"; do
    check "unit $(basename "$t")" "$t"
done
if [ "$mode" != --unit-only ]; then
    source tests/integration/layout.sh
    source tests/integration/integration.sh
    source tests/integration/platforms.sh
    source tests/integration/models.sh
    source tests/integration/patterns.sh
    source tests/integration/sim.sh
    source tests/integration/report.sh
    source tests/integration/replay.sh
    source tests/integration/input.sh
    source tests/integration/tune.sh
    source tests/integration/tune-obey.sh
    source tests/integration/timeline.sh
    source tests/integration/libpact.sh
fi
if finish; then
    rm -rf "$PACT_TEST_TMP"
else
    echo "the tests' files and logs are kept in $PACT_TEST_TMP"
    exit 1
fi
