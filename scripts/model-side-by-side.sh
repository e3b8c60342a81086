#!/usr/bin/env bash
# Two builds of pact's model engine side by side on the 1024-rank cells that issue 17's per-cell target (0.5 s)
# missed or nearly missed (generic32x32, 32 nodes x 32, shared links), and pact tune's costliest cells (the
# skews `make bench-tune` derives): each cell `pact model predict --timing` in a process of its own pinned to
# one core, the two binaries alternating (each round the other first), best of ROUNDS of total_s
# (pact_model_prepare + pact_model_evaluate, wall seconds).  The VM's timings drift by tens of percent from hour
# to hour, so compare builds only within one run of this script; the answers must be the same bytes
# (scripts/model-exact.sh).
# With -i, each cell's instructions instead (valgrind's cachegrind, without its cache simulation: the same
# count at every run, whatever the VM's speed; one run per cell and binary, the two binaries at once where
# there are two cores).  Valgrind runs no AVX-512: it counts the baseline x86-64 code.
# With -f, the cells are a file's instead of the list below: a line a cell, `COLLECTIVE ALGORITHM BYTES SHAPE
# [SKEW]` (skew 1e-4 s if none: make bench-model's), `#` to the end of a line a comment; each name is checked
# against what NEW_PACT lists before anything runs.  The cells that `make bench-model` found over 0.5 s at
# session 36 are `results/reference/model-speed/over-2026-11-28-s36.cells`.  In seconds, the last line counts
# the cells over issue 17's 0.5 s for each binary.
#
#   scripts/model-side-by-side.sh OLD_PACT NEW_PACT [-r ROUNDS] [-c CPU] [-i] [-f CELLS] [-o FILE]
#     -r ROUNDS  runs per cell and binary (default 3)
#     -c CPU     the core to pin to (default 0)
#     -i         instructions per cell (cachegrind) instead of seconds
#     -f CELLS   the cells from file CELLS
#     -o FILE    also write the table to FILE
set -euo pipefail
usage() {
    echo "usage: $0 OLD_PACT NEW_PACT [-r ROUNDS] [-c CPU] [-i] [-f CELLS] [-o FILE]" >&2
    exit 2
}
[ $# -ge 2 ] || usage
old=$1 new=$2
shift 2
rounds=3 cpu=0 out='' instr=0 cells_file=''
while [ $# -gt 0 ]; do
    case $1 in
    -r) rounds=${2:?}; shift 2 ;;
    -c) cpu=${2:?}; shift 2 ;;
    -i) instr=1; shift ;;
    -f) cells_file=${2:?}; shift 2 ;;
    -o) out=${2:?}; shift 2 ;;
    *) usage ;;
    esac
done
if [ $instr = 1 ] && ! command -v valgrind >/dev/null; then
    echo "$0: -i needs valgrind (Debian: apt-get install valgrind)" >&2
    exit 2
fi
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "$0: $b: not an executable" >&2; exit 2; }
done
case $rounds in '' | *[!0-9]* | 0) echo "$0: -r $rounds: expected a positive number" >&2; exit 2 ;; esac
case $cpu in '' | *[!0-9]*) echo "$0: -c $cpu: expected a core number" >&2; exit 2 ;; esac
[ "$cpu" -lt "$(nproc)" ] || { echo "$0: -c $cpu: this machine has cores 0..$(($(nproc) - 1))" >&2; exit 2; }
# read_cells FILE: the cells of FILE into cells[], each field checked (FILE:LINE: what is wrong, exit 2)
read_cells() {
    local f=$1 n=0 line shapes
    local -a w
    local -A algs_of # each collective's algorithms, listed once
    if [ ! -f "$f" ] || [ ! -r "$f" ]; then
        echo "$0: -f $f: no such readable file" >&2
        exit 2
    fi
    shapes=$("$new" list patterns | awk '{ print $1 }') || { echo "$0: $new list patterns failed" >&2; exit 2; }
    cells=()
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        read -r -a w <<<"${line%%#*}"
        [ ${#w[@]} -gt 0 ] || continue
        if [ ${#w[@]} -lt 4 ] || [ ${#w[@]} -gt 5 ]; then
            echo "$0: $f:$n: expected COLLECTIVE ALGORITHM BYTES SHAPE [SKEW], got ${#w[@]} fields" >&2
            exit 2
        fi
        if [ -z "${algs_of[${w[0]}]+set}" ]; then
            algs_of[${w[0]}]=$("$new" list algorithms --coll "${w[0]}" --format csv 2>/dev/null |
                awk -F, 'NR > 1 { print $2 }') ||
                { echo "$0: $f:$n: collective ${w[0]}: not one that $new lists" >&2; exit 2; }
        fi
        grep -qx -- "${w[1]}" <<<"${algs_of[${w[0]}]}" ||
            { echo "$0: $f:$n: algorithm ${w[1]}: not one of ${w[0]}'s" >&2; exit 2; }
        [[ ${w[2]} =~ ^[1-9][0-9]*$ ]] ||
            { echo "$0: $f:$n: bytes ${w[2]}: expected a positive whole number" >&2; exit 2; }
        grep -qx -- "${w[3]}" <<<"$shapes" || { echo "$0: $f:$n: shape ${w[3]}: not one of pact's" >&2; exit 2; }
        [[ ${w[4]:-1e-4} =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] ||
            { echo "$0: $f:$n: skew ${w[4]}: expected seconds, a number" >&2; exit 2; }
        cells+=("${w[0]} ${w[1]} ${w[2]} ${w[3]} ${w[4]:-1e-4}")
    done <"$f"
    [ ${#cells[@]} -gt 0 ] || { echo "$0: -f $f: no cells in it" >&2; exit 2; }
}


# coll alg bytes shape skew: the skews 0.0086 s and 0.61 s are pact tune's for those cells (1.5 x the mean
# no-delay d^ of the candidates), 1e-4 s is make bench-model's
cells=(
    "allreduce ring 1048576 no_delay 0"
    "allreduce ring 1048576 random 1e-4"
    "allreduce ring 67108864 random 1e-4"
    "allreduce segmented_ring 67108864 random 1e-4"
    "allreduce ring 1048576 random 0.60778972713826029"
    "alltoall linear 8 no_delay 0"
    "alltoall linear 65536 random 1e-4"
    "alltoall linear 128 random 0.0086276611786474978"
    "alltoall pairwise 8 random 1e-4"
    "alltoall pairwise 1024 random 1e-4"
    "alltoall pairwise 128 random 0.0086276611786474978"
    "alltoall scattered 1048576 no_delay 0"
    "reduce_scatter ring 67108864 random 1e-4"
    "reduce_scatter mpich_pairwise 1048576 random 1e-4"
    "reduce_scatter mpich_pairwise 65536 random 1e-4"
    "alltoall mpich_pairwise 8 random 1e-4"
    "allgather ring 1048576 random 1e-4"
    "bcast scatter_allgather_ring 65536 no_delay 0"
)
[ -z "$cells_file" ] || read_cells "$cells_file"
if [ -n "$out" ] && ! { : >"$out"; } 2>/dev/null; then
    echo "$0: -o $out: cannot write there" >&2
    exit 2
fi

# one cell's total_s with one binary
run_cell() {
    local b=$1 coll=$2 alg=$3 m=$4 shape=$5 skew=$6 line
    line=$(taskset -c "$cpu" "$b" model predict --coll "$coll" --alg "$alg" -P 1024 --ppn 32 -m "$m" \
        --platform generic32x32 --shape "$shape" --skew "$skew" --timing 2>&1 | grep '^timing:') ||
        { echo "$0: $b failed on $coll $alg $m $shape" >&2; exit 1; }
    sed -n 's/.*total_s=\([0-9.e+-]*\).*/\1/p' <<<"$line"
}

# least T BEST: the smaller of a time and the best so far (none yet: T)
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }

# one cell's instructions with one binary (cachegrind), into file $7
count_cell() {
    local b=$1 coll=$2 alg=$3 m=$4 shape=$5 skew=$6
    # PACT_HUGE_PAGES=0: pact would start again (cli/pact.c), outside valgrind, which follows no exec here
    PACT_HUGE_PAGES=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$b" model predict \
        --coll "$coll" --alg "$alg" -P 1024 --ppn 32 -m "$m" --platform generic32x32 --shape "$shape" \
        --skew "$skew" >/dev/null 2>"$7.err" || { echo "$0: $b failed on $coll $alg $m $shape" >&2; return 1; }
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$7.err" | tr -d , >"$7"
}

if [ $instr = 1 ]; then
    tmp=$(mktemp -d /tmp/pact-side-XXXXXX)
    trap 'rm -rf "$tmp"' EXIT
    {
        echo "# pact model predict under cachegrind (--cache-sim=no), 1024 ranks (generic32x32, 32 x 32)," \
            "instructions a cell, $(hostname), $(date -u +%Y-%m-%dT%H:%MZ)"
        echo "# old: $old; new: $new"
        printf '%-62s %14s %14s %7s\n' cell old_instr new_instr change
        for c in "${cells[@]}"; do
            # shellcheck disable=SC2086
            set -- $c
            if [ "$(nproc)" -lt 2 ]; then
                count_cell "$old" "$@" "$tmp/old" || exit 1
                count_cell "$new" "$@" "$tmp/new" || exit 1
            else
                count_cell "$old" "$@" "$tmp/old" &
                po=$!
                count_cell "$new" "$@" "$tmp/new" || { kill $po 2>/dev/null; exit 1; }
                wait $po || exit 1
            fi
            io=$(cat "$tmp/old") in=$(cat "$tmp/new")
            printf '%-62s %14s %14s %+6.1f%%\n' "$c" "$io" "$in" \
                "$(awk -v a="$io" -v b="$in" 'BEGIN { print 100 * (b - a) / a }')"
        done
    } | if [ -n "$out" ]; then tee "$out"; else cat; fi
    exit 0
fi

{
    echo "# pact model predict --timing, 1024 ranks (generic32x32, 32 x 32), best of $rounds, core $cpu," \
        "$(hostname), $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "# old: $old; new: $new"
    printf '%-62s %10s %10s %6s\n' cell old_s new_s ratio
    over_o=0 over_n=0
    for c in "${cells[@]}"; do
        # shellcheck disable=SC2086
        set -- $c
        bo='' bn=''
        # each round the other binary first: the second of a pair ran up to a third faster (ring allreduce at
        # 1 MiB, session 44), as a process seems to take pages the one before it freed, which on this VM cost
        # far less than fresh ones (scripts/vm-memory.sh: 0.1 against 2.5 ms a MiB within one process)
        for ((r = 0; r < rounds; r++)); do
            for k in $((r % 2)) $((1 - r % 2)); do
                if [ "$k" = 0 ]; then
                    t=$(run_cell "$old" "$@")
                    bo=$(least "$t" "$bo")
                else
                    t=$(run_cell "$new" "$@")
                    bn=$(least "$t" "$bn")
                fi
            done
        done
        printf '%-62s %10s %10s %6.2f\n' "$c" "$bo" "$bn" "$(awk -v a="$bo" -v b="$bn" 'BEGIN { print b / a }')"
        over_o=$((over_o + $(awk -v a="$bo" 'BEGIN { print (a > 0.5) }')))
        over_n=$((over_n + $(awk -v a="$bn" 'BEGIN { print (a > 0.5) }')))
    done
    echo "# over 0.5 s (issue 17): old $over_o, new $over_n, of ${#cells[@]} cells"
} | if [ -n "$out" ]; then tee "$out"; else cat; fi
