#!/usr/bin/env bash
# scripts/equivalence.sh - the cells whose simulated times a refactoring must not move.
#
#   bash scripts/equivalence.sh -o DIR [--engines smpi,model,replay] [--compare REF] [--only eq-a,eq-b]
#
# Runs every experiment of tests/data/equivalence/ (1,178 cells on generic32x32 and 1,116 on cedar, thor,
# shaheen2 and mist) under each engine into DIR/NAME-ENGINE/, then, with --compare, checks that each
# results.csv is byte-identical to REF/NAME-ENGINE/results.csv (REF: the same script run on the commit
# before the change, e.g. in a git worktree).  Exit 1 on any difference, with the rows that moved.
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
out= ref= engines=smpi,model only=
while [ $# -gt 0 ]; do
    case $1 in
    -o) out=$2; shift 2 ;;
    --compare) ref=$2; shift 2 ;;
    --engines) engines=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "usage: $0 -o DIR [--engines smpi,model,replay] [--compare REF] [--only NAME,NAME]" >&2; exit 2 ;;
    esac
done
[ -n "$out" ] || { echo "$0: -o DIR missing" >&2; exit 2; }
mkdir -p "$out"
status=0
for exp in tests/data/equivalence/*.yaml; do
    name=$(basename "$exp" .yaml)
    [ -z "$only" ] || [[ ",$only," == *",$name,"* ]] || continue
    for engine in ${engines//,/ }; do
        dir="$out/$name-$engine"
        t0=$SECONDS
        "$PACT" sim "$exp" --engine "$engine" -q --no-figures -o "$dir" >/dev/null
        rows=$(($(wc -l <"$dir/results.csv") - 1))
        line="$name-$engine: $rows rows in $((SECONDS - t0)) s"
        if [ -n "$ref" ]; then
            if cmp -s "$ref/$name-$engine/results.csv" "$dir/results.csv"; then
                line="$line, byte-identical to $ref"
            else
                status=1
                line="$line, DIFFERENT from $ref:"
                diff "$ref/$name-$engine/results.csv" "$dir/results.csv" | head -20 || true
            fi
        fi
        echo "$line"
    done
done
exit $status
