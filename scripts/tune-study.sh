#!/usr/bin/env bash
# What arrival-pattern-aware tuning buys (issue 18, item 5; results/reference/tune.md): pact tune's robust,
# regret and expected (the 11 shapes weighed equally) tables against the no-delay table, from the same
# simulations.  One `pact tune` per study simulates (robust); the other objectives copy its runs/ and only
# decide again (pact sim finds every cell done).  Prints a markdown table per study from each summary.txt.
#   scripts/tune-study.sh -o DIR NAME -- PACT-TUNE-ARGS...   (one study; repeat for more)
#   scripts/tune-study.sh --report DIR                       (the tables of every study in DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
objectives=(robust regret expected no_delay)

report_one() { # DIR/NAME
    local base=$1
    echo
    echo "### $(basename "$base")"
    echo
    echo "| collective | objective | mean d^ over the patterns | robustness score (Fig. 8) | regret | worst pattern (mean over cells of d^ / no-delay table's) | cells changed |"
    echo "|---|---|---|---|---|---|---|"
    for o in "${objectives[@]}"; do
        local s=$base-$o/summary.txt
        [ -f "$s" ] || continue
        awk -v o="$o" '
            function val(line) { sub(/.*no-delay choice: /, "", line); sub(/ .*/, "", line); return line }
            /^== / { coll = $2; sub(":", "", coll) }
            /^  all patterns/ { w = $0; sub(/.*worst pattern: /, "", w); sub(/\)/, "", w); worst[coll] = w }
            /^mean d\^ over the patterns/ { md[coll] = val($0) }
            /robustness score/ { rs[coll] = val($0) }
            /\(regret\)/ { rg[coll] = val($0) }
            /^ +[0-9]+ +[0-9]+ +[0-9.]+[KM]?: / { n[coll]++; split($0, f, "|"); ch = f[1]; sub(/.*: /, "", ch); nd = f[2];
                sub(/ \(.*/, "", nd); gsub(/ /, "", ch); gsub(/ /, "", nd); if (ch != nd) changed[coll]++ }
            END { for (c in md) printf "| %s | %s | %s | %s | %s | %s | %d of %d |\n", c, o, md[c], rs[c], rg[c],
                  worst[c], changed[c], n[c] }' "$s" | sort
    done
}

if [ "${1:-}" = --report ]; then
    for d in "$2"/*-robust; do report_one "${d%-robust}"; done
    exit 0
fi
[ "${1:-}" = -o ] || { echo "usage: tune-study.sh -o DIR NAME -- PACT-TUNE-ARGS... | --report DIR" >&2; exit 2; }
dir=$2 name=$3
shift 3
[ "${1:-}" = -- ] && shift
mkdir -p "$dir"
base=$dir/$name
for o in "${objectives[@]}"; do
    if [ "$o" != robust ] && [ ! -d "$base-$o/runs" ]; then
        mkdir -p "$base-$o"
        cp -r "$base-robust/runs" "$base-$o/"
    fi
    obj=$o
    [ "$o" = expected ] && obj=expected # the patterns weighed equally
    "$PACT" tune "$@" --objective "$obj" --no-figures -q -o "$base-$o" >"$base-$o.log" 2>&1 ||
        { echo "tune-study.sh: $name $o failed: $(tail -1 "$base-$o.log")" >&2; exit 1; }
done
report_one "$base"
