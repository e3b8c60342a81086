#!/usr/bin/env bash
# scripts/model-exact.sh - the model engine's answers against a reference evaluator's, cell by cell.
#
#   bash scripts/model-exact.sh -o DIR [--ref REF] [--sets mx-a,mx-b,mx-c,eq-a,eq-b,eq-c] [--tol 1e-9]
#
# Runs the cell sets of tests/data/model-exact/ (mx-a: 17,919 cells, every algorithm of the seven
# collectives on generic32x32 under the 11 shapes; mx-b: 8,880 on the four routed machines; mx-c: 1,260 at
# 256 ranks) and of tests/data/equivalence/ (eq-*: 2,294) under `pact sim --engine model` into DIR/NAME/.
# With --ref, each results.csv is compared with REF/NAME/results.csv (the same script run by the reference
# evaluator, e.g. the commit before a change in a git worktree): the same rows, the same text fields, and
# numbers equal to --tol relative.  Exit 1 on any difference, with the first rows that differ.
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
out= ref= sets=mx-a,mx-b,mx-c,eq-a,eq-b,eq-c tol=1e-9
while [ $# -gt 0 ]; do
    case $1 in
    -o) out=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    *) echo "usage: $0 -o DIR [--ref REF] [--sets NAME,...] [--tol T]" >&2; exit 2 ;;
    esac
done
[ -n "$out" ] || { echo "$0: -o DIR missing" >&2; exit 2; }
mkdir -p "$out"
status=0 total=0
for name in ${sets//,/ }; do
    exp=tests/data/model-exact/$name.yaml
    [ -f "$exp" ] || exp=tests/data/equivalence/$name.yaml
    [ -f "$exp" ] || { echo "$0: no cell set $name" >&2; exit 2; }
    t0=$(date +%s.%N)
    rm -rf "${out:?}/$name"
    "$PACT" sim "$exp" --engine model -q --no-figures -o "$out/$name" >/dev/null
    rows=$(($(wc -l <"$out/$name/results.csv") - 1))
    total=$((total + rows))
    line=$(printf '%s: %d cells in %.1f s' "$name" "$rows" "$(echo "$(date +%s.%N) - $t0" | bc)")
    if [ -n "$ref" ]; then
        if res=$(awk -F, -v tol="$tol" -v name="$name" '
            function num(s) { return s ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ }
            NR == FNR { ref[FNR] = $0; nref = FNR; next }
            {
                n++
                if (!(FNR in ref)) { printf "%s row %d: not in the reference\n", name, FNR; bad++; next }
                split(ref[FNR], r, ",")
                for (i = 1; i <= NF; i++) {
                    if (num($i) && num(r[i])) {
                        d = $i - r[i]; if (d < 0) d = -d
                        m = r[i] < 0 ? -r[i] : r[i]
                        if (d > tol * m) { rel = m > 0 ? d / m : d
                            if (rel > worst) worst = rel
                            if (bad++ < 5) printf "%s row %d field %d: %s, reference %s (relative %.3g)\n", name, FNR, i, $i, r[i], rel
                        } else if (m > 0 && d / m > maxok) maxok = d / m
                    } else if ($i != r[i]) {
                        if (bad++ < 5) printf "%s row %d field %d: %s, reference %s\n", name, FNR, i, $i, r[i]
                    }
                }
            }
            END {
                if (n != nref) { printf "%s: %d rows, reference %d\n", name, n, nref; bad++ }
                printf "largest relative difference within tolerance %.3g\n", maxok
                exit bad > 0
            }' "$ref/$name/results.csv" "$out/$name/results.csv"); then
            line="$line, equal to $ref within $tol (${res##*$'\n'})"
        else
            status=1
            line="$line, DIFFERENT from $ref:"$'\n'"$res"
        fi
    fi
    echo "$line"
done
echo "total: $total cells"
exit $status
