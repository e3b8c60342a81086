# tests/integration/replay.sh - sourced by run-all.sh (needs tests/integration/lib.sh; uses $PACT and $TMP when set).
# Also runs alone: PACT=build/bin/pact bash tests/integration/replay.sh
# SMPI trace replay (pact replay, sim/replay.c) against the smpi engine (pact-bench-smpi under smpirun) on the
# same platform, options and arrival delays; 1024 ranks x 64 MiB in little memory; bad input.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    REPLAY_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-replay-XXXXXX")}

# replay_vs_smpi NODES PPN ROOT: every algorithm of every collective on generic32x32, root ROOT, 8 B and
# 64 KiB, no delay, the last rank late by 100 us and random delays up to 100 us, gamma of the platform, two
# measured calls per cell under smpi: d^ of `pact sim --engine replay` within 1e-12 of `--engine smpi`'s
# (measured 3e-13, rounding of absolute times).  Under SMPI the bench driver's own protocol (records, start
# of the next call) goes through shared memory and SimGrid barriers (sim/bench.c): with MPI messages it
# shared links with ranks still inside the call, and 4 x 4 at root 5 was off by up to 3.3% (203 of 620 rows
# of tests/data/equivalence/eq-a.yaml beyond 1e-12).  Also measured equal to 5e-13: eq-b.yaml (3 x 5, root 7,
# 558 rows).  At 8 x 16, root 5 (this check's cells, 600 rows, 2026-11-27): 583 equal to 1e-12; the others are
# pairwise exchanges (pairwise alltoall at 8 B up to 0.1%, MPICH's pairwise reduce-scatter up to 1.8%), whose d^
# amplifies differences of one rounding (results/reference/fidelity.md, "Calls that differ"), and neighbor
# allgather at 5e-12.  Reduce binary there had been 6.5% off (2026-11-23); equal since a rank's last sends are
# synchronous (373085f) and ranks of one instant start in rank order (bench_time.c, pb_proto_start).
build_colls() { # every collective pact knows
    $PACT list collectives | awk 'NR > 1 { print $1 }' | paste -sd,
}
replay_vs_smpi() {
    local nodes=$1 ppn=$2 root=$3 d="$TMP/replay-vs-smpi-$1x$2" P=$(($1 * $2)) e
    rm -rf "$d"
    mkdir -p "$d"
    $PACT pattern gen --shape last_delayed -p $P --skew 1e-4 -o "$d/last.txt" || return 1
    $PACT pattern gen --shape random -p $P --skew 1e-4 --seed 3 -o "$d/random.txt" || return 1
    for e in smpi replay; do
        $PACT sim --platform generic32x32 --nodes "$nodes" --ppn "$ppn" --root "$root" \
            --coll "$(build_colls)" --algs all --sizes 8,64K \
            --patterns "no_delay,file:$d/last.txt,file:$d/random.txt" --reps 2 --engine $e -q --no-figures \
            -o "$d/$e" >/dev/null || return 1
    done
    # results.csv: collective $5, algorithm $6, bytes $7, pattern $8, rep $12, last_delay_s $14, status $16
    awk -F, 'FNR == 1 { f++; next }
        { k = $5 " " $6 " " $7 " " $8 " " $12; if (f == 1) s[k] = $14 " " $16; else r[k] = $14 " " $16 }
        END {
            n = 0; bad = 0; worst = 0
            for (k in s) {
                split(s[k], a, " "); split(r[k], b, " ")
                if (a[2] != b[2]) { print k ": status smpi " a[2] ", replay " b[2]; bad++; continue }
                if (a[2] != "ok") continue
                e = (b[1] - a[1]) / a[1]; if (e < 0) e = -e
                n++
                if (e > 1e-12) { bad++; printf "%s: smpi %.17g replay %.17g |rel| %.3g\n", k, a[1], b[1], e }
                if (e > worst) worst = e
            }
            printf "%d rows, %d beyond 1e-12, worst |replay/smpi - 1| = %.3g\n", n, bad, worst
            exit !(n >= 200 && bad == 0)
        }' "$d/smpi/results.csv" "$d/replay/results.csv"
}
check "replay d^ = smpi d^ to 1e-12, generic32x32 4x4 root 5: every algorithm" replay_vs_smpi 4 4 5

# replay_start: every rank of a replay starts from a sleep of PACT_START_MARGIN + its delay, as the bench
# driver's ranks sleep to the common start + their delays.  SimGrid's times can depend on the order of
# starts at one instant: this cell's traces with no sleep at time 0 gave 8% less than the smpi engine; and at
# 8 B and 1 KiB under no_delay the smpi engine was 0.5% and 5.7% below the replay and the model (2026-11-23),
# equal since (a rank's last sends synchronous, 373085f; ranks of one instant in rank order, pb_proto_start).
replay_start() {
    local d="$TMP/replay-start" e
    rm -rf "$d"
    for e in smpi replay; do
        $PACT sim --platform generic32x32 --nodes 8 --ppn 4 --coll reduce --algs binary --sizes 8,1K,64K \
            --patterns no_delay,last_delayed --skew 50us --reps 1 --engine $e -q --no-figures -o "$d/$e" \
            >/dev/null || return 1
    done
    paste -d, "$d/smpi/results.csv" "$d/replay/results.csv" |
        awk -F, 'NR > 1 { n++; e = ($30 - $14) / $14; if (e < 0) e = -e
                          printf "%s %s smpi %.17g replay %.17g |rel| %.3g\n", $7, $8, $14, $30, e
                          if ($16 != "ok" || $32 != "ok" || e > 1e-12) bad++ }
                 END { exit !(n == 6 && bad == 0) }'
}
check "replay starts as the bench driver does: reduce binary 8x4 8 B..64 KiB, smpi = replay" replay_start

# engines_agree_reductions: a reduction of b bytes costs gamma x b simulated seconds under every engine, on
# hosts of any speed.  Every built-in machine, among them the four whose hosts run 30-42 Gf (the engines used
# to convert seconds to flops at smpi/host-speed's 1 Gf: smpi and replay charged 1/30-1/42 of it, d^ 58-77%
# below the model's), 2 x 2 ranks, 1 MiB (reduction-heavy), no delay and the last rank 300 us late: d^ of smpi,
# replay and model within 1% of each other; and on a user's XML of 1-core 3 Gf hosts shared by two ranks, the
# d^ of thor.
engines_agree_reductions() {
    local d="$TMP/engines-agree" e
    rm -rf "$d"
    for e in smpi replay model; do
        $PACT sim --platform generic32x32,cedar,thor,shaheen2,mist --nodes 2 --ppn 2 --coll allreduce,reduce \
            --algs recursive_doubling,binomial --sizes 1M --patterns no_delay,last_delayed --skew 300us \
            --reps 1 --engine $e -q --no-figures -o "$d/$e" >/dev/null || return 1
    done
    # results.csv: platform, collective $5, algorithm $6, pattern $8, engine $13, last_delay_s $14, status $16
    awk -F, 'FNR > 1 && $16 == "ok" { k = $1 " " $5 " " $6 " " $8; v[k, $13] = $14; keys[k] = 1 }
        END {
            n = 0; bad = 0
            for (k in keys) {
                s = v[k, "smpi"]; r = v[k, "replay"]; m = v[k, "model"]
                if (s == "" || r == "" || m == "") { print k ": missing an engine"; bad++; continue }
                er = (r - s) / s; em = (m - s) / s
                if (er < 0) er = -er
                if (em < 0) em = -em
                printf "%-40s smpi %.6e replay %.6e model %.6e  |replay/smpi-1| %.2g |model/smpi-1| %.2g\n", \
                    k, s, r, m, er, em
                n++
                if (er > 0.01 || em > 0.01) bad++
            }
            print n " cells, " bad " beyond 1%"
            exit !(n == 20 && bad == 0)
        }' "$d/smpi/results.csv" "$d/replay/results.csv" "$d/model/results.csv" || return 1
    # A user's SimGrid XML: thor's network, hosts of one 3 Gf core, two ranks each (their reductions overlap
    # in time): the same d^ as on thor, to rounding.
    $PACT platform export thor --nodes 2 --ppn 2 -o "$d/xml" >/dev/null || return 1
    sed -i 's/speed="[^"]*"/speed="3Gf"/; s/core="[^"]*"/core="1"/' "$d/xml/platform.xml"
    grep -q 'speed="3Gf" core="1"' "$d/xml/platform.xml" || return 1
    for e in smpi replay; do
        $PACT sim --platform "$d/xml/platform.xml" --hostfile "$d/xml/hostfile" --nodes 2 --ppn 2 \
            --coll allreduce,reduce --algs recursive_doubling,binomial --sizes 1M --patterns no_delay \
            --gamma 0.2ns --reps 1 --engine $e -q --no-figures -o "$d/xml-$e" >/dev/null || return 1
    done
    awk -F, 'FNR > 1 && $16 == "ok" && $8 == "no_delay" {
            k = $5 " " $6
            if ($1 == "thor") t[k] = $14; else x[k, $13] = $14
        }
        END {
            n = 0; bad = 0
            for (k in t) {
                for (e = 0; e < 2; e++) {
                    eng = e ? "replay" : "smpi"; v = x[k, eng]
                    r = v == "" ? 1 : (v - t[k]) / t[k]
                    if (r < 0) r = -r
                    printf "%-30s thor %.10e  1-core 3 Gf XML, %-6s %.10e  |rel| %.2g\n", k, t[k], eng, v, r
                    n++
                    if (r > 1e-9) bad++
                }
            }
            exit !(n == 4 && bad == 0)
        }' "$d/smpi/results.csv" "$d/xml-smpi/results.csv" "$d/xml-replay/results.csv"
}
check "smpi, replay and model d^ within 1% on every built-in machine: reductions" engines_agree_reductions

# No payload anywhere: 64 MiB allreduce at 256 ranks (ring, 4600 actions per rank) and 1024 ranks
# (rabenseifner) in a few seconds and well under 4 GiB.  The expected d^ are the smpi engine's at 256 ranks
# (equal to 1e-13; it cannot run 1024 x 64 MiB: SMPI's shared malloc runs out of memory maps) and the replay's
# at 1024; they move only with a model change, which the commit that moves them must say.
replay_big() {
    local d="$TMP/replay-big" timer=()
    mkdir -p "$d"
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
    for spec in "8 ring 0.121350624" "32 rabenseifner 0.221480368"; do
        set -- $spec
        "${timer[@]}" $PACT replay --platform generic32x32 --nodes "$1" --ppn 32 --coll allreduce --alg "$2" \
            --bytes 64M >"$d/out" 2>"$d/time" || { cat "$d/time"; return 1; }
        local got rss
        got=$(tail -n 1 "$d/out" | cut -d, -f1)
        rss=$(awk '/Maximum resident set size/ { print $NF }' "$d/time")
        echo "$(($1 * 32)) ranks, $2: d^ $got s (expected $3), peak RSS ${rss:-?} KiB"
        awk -v g="$got" -v w="$3" 'BEGIN { e = g / w - 1; exit !(e < 1e-9 && e > -1e-9) }' || return 1
        [ -z "$rss" ] || [ "$rss" -lt 4194304 ] || return 1
    done
}
check "replay: 64 MiB allreduce at 256 and 1024 ranks, d^ as expected, < 4 GiB" replay_big

# --keep leaves the traces: one per rank and the index smpirun -replay reads, the cell and the log.
replay_keep() {
    local d="$TMP/replay-keep"
    rm -rf "$d"
    $PACT replay --nodes 1 --ppn 4 --coll reduce --alg binomial --bytes 1K --keep "$d" || return 1
    [ "$(cat "$d/index.txt")" = "$(printf 'rank-0.ti\nrank-1.ti\nrank-2.ti\nrank-3.ti')" ] &&
        head -n 1 "$d/rank-3.ti" | grep -qx '3 init' && tail -n 1 "$d/rank-3.ti" | grep -qx '3 finalize' &&
        grep -q '^procs 4$' "$d/cell.txt" && grep -q PACT_CLOCK "$d/smpirun.log"
}
check "replay --keep: traces, index, cell and log" replay_keep

check "bad replay input: unknown algorithm" bad_file "no such allreduce algorithm" \
    $PACT replay --nodes 1 --ppn 4 --alg best --bytes 8
check "bad replay input: unknown parameter" bad_file "ring:param=value" \
    $PACT replay --nodes 1 --ppn 4 --alg ring:segsize=1K --bytes 8
printf '0\n0\n0\n' >"$TMP/replay-3.txt"
check "bad replay input: pattern of the wrong length" bad_file "replay-3.txt" \
    $PACT replay --nodes 1 --ppn 4 --alg ring --bytes 8 --pattern "$TMP/replay-3.txt"
check "bad replay input: more ranks than the platform has" bad_file "generic32x32" \
    $PACT replay --nodes 33 --ppn 32 --alg ring --bytes 8

if [ -n "${REPLAY_ALONE:-}" ]; then
    finish
fi
