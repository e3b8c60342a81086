#!/usr/bin/env bash
# scripts/batch-time.sh: where a pact sim or pact tune run spent its time, from the batches.csv files under each
# DIR (sim/study/sweep.c, log_batch: a line per finished batch, with its wall seconds on the worker that ran
# it; the model engine's batches also say the schedule sets they prepared, and pact tune's bound waves the
# cells they bounded).  Prints the total, the time of phase 1 (each algorithm without delay), of phase 2 (the
# patterns) and of the bound waves within it, then the N heaviest (collective, algorithm, process count) and
# (collective, algorithm), each with its cells, seconds and share of the total.  The seconds add up the
# workers' time, about the CPU time pact took: with --jobs 2 near twice the wall time.  Session 44 found from
# them that seven algorithms at 768 and 1024 ranks hold most of pact tune's model table
# (results/reference/tune.md).
#   scripts/batch-time.sh [--top N] DIR...
# A folder without a batches.csv, or a file that is not one (its header, a line's fields), is refused with the
# file and line, exit 2, before anything is printed.
set -uo pipefail
top=10
dirs=()
while [ $# -gt 0 ]; do
    case $1 in
    --top)
        if ! [[ ${2:-} =~ ^[1-9][0-9]{0,3}$ ]]; then
            echo "batch-time.sh: --top ${2:-}: not a number of rows (1-9999)" >&2
            exit 2
        fi
        top=$2
        shift
        ;;
    -*) echo "batch-time.sh: unknown option $1 (--top N, then folders)" >&2; exit 2 ;;
    *) dirs+=("$1") ;;
    esac
    shift
done
if [ ${#dirs[@]} -eq 0 ]; then
    echo "usage: scripts/batch-time.sh [--top N] DIR... (folders of pact sim or pact tune runs)" >&2
    exit 2
fi
files=()
for d in "${dirs[@]}"; do
    if [ ! -d "$d" ]; then
        echo "batch-time.sh: $d: not a folder" >&2
        exit 2
    fi
    mapfile -t found < <(find "$d" -name batches.csv -type f | sort)
    if [ ${#found[@]} -eq 0 ]; then
        echo "batch-time.sh: $d: no batches.csv under it (a pact sim or pact tune output folder has one" \
            "per study)" >&2
        exit 2
    fi
    files+=("${found[@]}")
done
header=study,collective,procs,phase,algorithm,bytes,cells,wall_s
header+=,sets_prepared,sets_reused,sets_resized,bounded_quick,bounded_full
# every file checked first: a bad one is refused before anything is printed
bad=$(awk -F, -v h="$header" '
    FNR == 1 { if ($0 != h) { printf "%s:1: not a batches.csv header (%s)\n", FILENAME, h; exit } next }
    NF != 13 { printf "%s:%d: %d fields, not 13\n", FILENAME, FNR, NF; exit }
    $3 !~ /^[0-9]+$/ || $4 !~ /^[12]$/ || $7 !~ /^[0-9]+$/ || $8 !~ /^[0-9]+(\.[0-9]+)?$/ ||
    $12 !~ /^[0-9]+$/ || $13 !~ /^[0-9]+$/ {
        printf "%s:%d: procs, phase (1 or 2), cells, wall_s or bounded counts not a number\n", FILENAME, FNR
        exit
    }
' "${files[@]}")
if [ -n "$bad" ]; then
    echo "batch-time.sh: $bad" >&2
    exit 2
fi
awk -F, -v top="$top" -v nf="${#files[@]}" '
    FNR == 1 { next }
    {
        b++; c += $7; t += $8
        if ($4 == 1) p1 += $8; else p2 += $8
        if ($12 + $13 > 0) bw += $8
        k = $2 SUBSEP $5 SUBSEP $3; kt[k] += $8; kc[k] += $7
        a = $2 SUBSEP $5; at[a] += $8; ac[a] += $7
    }
    function share(x) { return t > 0 ? 100 * x / t : 0 }
    # the n largest of v (an array of seconds) into o[1..n], ties by key
    function heaviest(v, o, n,   k, i, j, m, tmp) {
        m = 0
        for (k in v) o[++m] = k
        for (i = 2; i <= m; i++)
            for (j = i; j > 1 && (v[o[j]] > v[o[j - 1]] || (v[o[j]] == v[o[j - 1]] && o[j] < o[j - 1])); j--) {
                tmp = o[j]; o[j] = o[j - 1]; o[j - 1] = tmp
            }
        return m < n ? m : n
    }
    END {
        printf "# %d batches.csv, %d batches, %d cells: %.1f s in all (each batch on the worker that ran it)\n",
            nf, b, c, t
        printf "# phase 1 (each algorithm without delay) %.1f s (%.1f%%), ", p1, share(p1)
        printf "phase 2 (the patterns) %.1f s (%.1f%%), ", p2, share(p2)
        printf "of which bound waves %.1f s (%.1f%%)\n", bw, share(bw)
        n = heaviest(kt, o, top)
        printf "%-15s %-30s %6s %8s %9s %6s\n", "collective", "algorithm", "procs", "cells", "seconds", "share"
        for (i = 1; i <= n; i++) {
            split(o[i], f, SUBSEP)
            printf "%-15s %-30s %6d %8d %9.1f %5.1f%%\n", f[1], f[2], f[3], kc[o[i]], kt[o[i]], share(kt[o[i]])
        }
        n = heaviest(at, q, top)
        printf "%-15s %-30s %6s %8s %9s %6s\n", "collective", "algorithm", "procs", "cells", "seconds", "share"
        for (i = 1; i <= n; i++) {
            split(q[i], f, SUBSEP)
            printf "%-15s %-30s %6s %8d %9.1f %5.1f%%\n", f[1], f[2], "all", ac[q[i]], at[q[i]], share(at[q[i]])
        }
    }
' "${files[@]}"
