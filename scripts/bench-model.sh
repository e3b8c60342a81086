#!/usr/bin/env bash
# The model engine's speed on one core (make bench-model): the schedule evaluator's simulated messages per
# CPU second (single-port Hockney and SimGrid-like shared links, several algorithms at 64..1024 ranks, random
# arrivals) and the closed forms' predictions per CPU second (every algorithm, P = 2..1024, m = 8 B..4 MiB).
# Targets (issue 7): >= 2e6 messages/s, >= 1e7 predictions/s.  Exits 1 when a target is missed.
#
#   scripts/bench-model.sh [SECONDS]        (default 8 s of measurement)
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
echo "# pact model bench on $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
out=$(taskset -c 0 "$PACT" model bench --seconds "${1:-8}")
echo "$out"
awk '/^evaluator, single port/ { p = $(NF-1) } /^evaluator, shared links/ { s = $(NF-1) }
     /^closed forms/ { c = $3 }
     END { printf "targets: evaluator >= 2e6 messages/s: single port %s, shared links %s; closed forms >= 1e7/s: %s\n",
                  ((p + 0 >= 2e6) ? "met" : "MISSED"), ((s + 0 >= 2e6) ? "met" : "MISSED"),
                  ((c + 0 >= 1e7) ? "met" : "MISSED")
           exit !((p + 0 >= 2e6) && (c + 0 >= 1e7)) }' <<<"$out"
