#!/usr/bin/env bash
# make test: unit tests (GTest binaries given as arguments), then integration tests (SMPI, Open MPI,
# MPICH, the pact command).  --unit-only skips the integration tests (make unit, make check-asan);
# with no binaries and --integration-only, only the integration tests run.
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib.sh
mode=all
case "${1:-}" in --unit-only | --integration-only) mode=$1; shift ;; esac
for t in "$@"; do
    check "unit $(basename "$t")" "$t"
done
if [ "$mode" != --unit-only ]; then
    source tests/integration.sh
    source tests/platforms.sh
    source tests/models.sh
    source tests/patterns.sh
    source tests/sim.sh
    source tests/report.sh
    source tests/replay.sh
    source tests/input.sh
fi
finish
