#!/usr/bin/env bash
# scripts/model-exact.sh - the model engine's answers against a reference evaluator's, cell by cell.
#
#   bash scripts/model-exact.sh -o DIR [--ref REF] [--sets mx-a,mx-b,mx-c,mx-d,eq-a,eq-b,eq-c] [--tol 1e-9]
#                               [--ties FILE]
#
# Runs the cell sets of tests/data/model-exact/ (mx-a: 17,919 cells, every algorithm of the seven
# collectives on generic32x32 under the 11 shapes; mx-b: 8,880 on the four routed machines; mx-c: 1,260 at
# 256 ranks; mx-d: 640 alltoall cells at 60-120 ranks) and of tests/data/equivalence/ (eq-*: 2,294) under
# `pact sim --engine model` into DIR/NAME/.  With --ref, each results.csv is compared with
# REF/NAME/results.csv or REF/NAME.csv.gz (the same script run by the reference evaluator: the commit before
# a change in a git worktree, or tests/data/model-exact/reference/, written by the evaluator of 6b06bfe):
# the same cells (matched on their identifying fields, in any order), the same text fields, and numbers equal
# to --tol relative.  --ties names cells allowed a larger difference, one per line: SET ROW TOLERANCE # why,
# ROW being the reference's row.  Exit 1 on any difference, with the first rows
# that differ.
set -euo pipefail
cd "$(dirname "$0")/.."
PACT=${PACT:-build/bin/pact}
out= ref= sets=mx-a,mx-b,mx-c,mx-d,eq-a,eq-b,eq-c tol=1e-9 ties=/dev/null
while [ $# -gt 0 ]; do
    case $1 in
    -o) out=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    --sets) sets=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    --ties) ties=$2; shift 2 ;;
    *) echo "usage: $0 -o DIR [--ref REF] [--sets NAME,...] [--tol T] [--ties FILE]" >&2; exit 2 ;;
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
        if [ -f "$ref/$name/results.csv" ]; then refcsv=$(cat "$ref/$name/results.csv")
        elif [ -f "$ref/$name.csv.gz" ]; then refcsv=$(gzip -dc "$ref/$name.csv.gz")
        else echo "$0: no reference for $name in $ref" >&2; exit 2; fi
        if res=$(awk -F, -v tol="$tol" -v name="$name" -v ties="$ties" '
            function num(s) { return s ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ }
            BEGIN { while ((getline l < ties) > 0) { split(l, t, " "); if (t[1] == name) tie[t[2]] = t[3] } }
            function key(a) { return a[1] "," a[2] "," a[3] "," a[4] "," a[5] "," a[6] "," a[7] "," a[8] "," a[9] "," a[10] "," a[12] "," a[13] }
            NR == FNR { ref[FNR] = $0; nref = FNR; split($0, f, ","); refk[key(f)] = FNR; next }
            {
                n++
                split($0, f, ","); k = key(f)
                if (!(k in refk)) { printf "%s row %d: not in the reference\n", name, FNR; bad++; next }
                R = refk[k]
                if (R in seen) { printf "%s row %d: a second row of reference row %d\n", name, FNR, R; bad++; next }
                seen[R] = 1
                lim = (R in tie) ? tie[R] : tol
                split(ref[R], r, ",")
                for (i = 1; i <= NF; i++) {
                    if (num($i) && num(r[i])) {
                        d = $i - r[i]; if (d < 0) d = -d
                        m = r[i] < 0 ? -r[i] : r[i]
                        if (d > lim * m) { rel = m > 0 ? d / m : d
                            if (rel > worst) worst = rel
                            if (bad++ < 5) printf "%s row %d field %d: %s, reference %s (relative %.3g)\n", name, FNR, i, $i, r[i], rel
                        } else if (R in tie) { if (m > 0 && d / m > maxtie) maxtie = d / m } else if (m > 0 && d / m > maxok) maxok = d / m
                    } else if ($i != r[i]) {
                        if (bad++ < 5) printf "%s row %d field %d: %s, reference %s\n", name, FNR, i, $i, r[i]
                    }
                }
            }
            END {
                if (n != nref) { printf "%s: %d rows, reference %d\n", name, n, nref; bad++ }
                if (length(tie)) printf "largest relative difference %.3g; %d listed ties, largest %.3g\n", maxok, length(tie), maxtie
                else printf "largest relative difference %.3g\n", maxok
                exit bad > 0
            }' <(printf '%s\n' "$refcsv") "$out/$name/results.csv"); then
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
