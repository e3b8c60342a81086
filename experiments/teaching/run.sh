#!/usr/bin/env bash
# experiments/teaching/run.sh - the teaching set (issue 20): for each example of examples.txt, the page of
# both algorithms side by side (NAME.html), each one's chart as PNG (NAME-ALG.png) and for the terminal
# (NAME-ALG.txt), and its CSV (NAME-ALG.csv).  The model engine: a second or two for the whole set.
#   bash experiments/teaching/run.sh [-o DIR]     (default results/reference/teaching)
set -euo pipefail
cd "$(dirname "$0")/../.."
PACT=${PACT:-build/bin/pact}
out=results/reference/teaching
[ "${1:-}" = -o ] && out=$2
mkdir -p "$out"
while read -r name flags; do
    case $name in '' | '#'*) continue ;; esac
    # shellcheck disable=SC2086
    $PACT timeline $flags -o "$out/$name.html"
    algs=$(sed -n 's/.*--alg \([^ ]*\).*/\1/p' <<<"$flags")
    for alg in ${algs//,/ }; do
        one=$(sed "s/--alg [^ ]*/--alg $alg/" <<<"$flags")
        # shellcheck disable=SC2086
        for fmt in png txt csv; do $PACT timeline $one --width 120 -o "$out/$name-$alg.$fmt"; done
    done
    echo "$out/$name: $(grep -o '<td>[^<]*</td><td>[^<]*</td>' "$out/$name.html" | sed 's/<[^>]*>/ /g' | tr -s ' ' | tr '\n' ';')"
done <experiments/teaching/examples.txt
