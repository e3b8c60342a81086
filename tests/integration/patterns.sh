# tests/integration/patterns.sh - sourced by run-all.sh after platforms.sh (needs tests/integration/lib.sh, $PACT, $TMP).
# The pattern commands (gen on nodes, stats, plot, from-trace), pattern files and traces in pact sim, the
# skew modes (mean_nodelay, own_nodelay, mif) as results.csv records them, exact arrivals in simulation for
# every shape, malformed files, and the real-MPI driver keeping its arrival times (Open MPI, 4 ranks).

# node_delayed follows the rank-to-node mapping: one whole node late, block or cyclic.
pattern_nodes() {
    local block cyclic
    block=$($PACT pattern gen --shape node_delayed -p 8 --ppn 2 --skew 1 --seed 5 | tr '\n' ' ') || return 1
    cyclic=$($PACT pattern gen --shape node_delayed -p 8 --nodes 4 --mapping cyclic --skew 1 --seed 5 |
        tr '\n' ' ') || return 1
    echo "block:  $block"
    echo "cyclic: $cyclic"
    # the same seed picks the same node k: ranks 2k, 2k+1 (block) or k, k+4 (cyclic)
    case "$block" in
    "1 1 0 0 0 0 0 0 ") k=0 ;; "0 0 1 1 0 0 0 0 ") k=1 ;; "0 0 0 0 1 1 0 0 ") k=2 ;; "0 0 0 0 0 0 1 1 ") k=3 ;;
    *) return 1 ;;
    esac
    local want=""
    for i in 0 1 2 3 4 5 6 7; do want+="$([ $((i % 4)) -eq $k ] && echo 1 || echo 0) "; done
    [ "$cyclic" = "$want" ] || return 1
    # a request that does not place the ranks is bad input
    $PACT pattern gen --shape node_delayed -p 8 --ppn 3 --skew 1 2>&1
    [ $? -eq 2 ]
}
check "pattern gen node_delayed on block and cyclic nodes" pattern_nodes

pattern_stats() {
    printf '# four ranks\n0\n0\n0\n1e-3\n' >"$TMP/p4.txt"
    $PACT pattern stats "$TMP/p4.txt" --msg-time 500us --format csv | tee "$TMP/p4.csv" || return 1
    # worst 1 ms, average (3 x 0.25 + 0.75) / 4 ms = 0.375 ms; factors over 0.5 ms: 2 and 0.75
    awk -F, 'NR == 2 { ok = $1 == "cluster" && $3 == 0.001 && ($4 - 0.000375) ^ 2 < 1e-30 &&
                          ($5 - 2) ^ 2 < 1e-24 && ($6 - 0.75) ^ 2 < 1e-24 }
             END { exit !ok }' "$TMP/p4.csv" || return 1
    # node-wide: nodes {0,1} and {2,3}: worst (0 + 1 ms) / 2, and the platform's one-message time
    $PACT pattern stats "$TMP/p4.txt" --ppn 2 --platform generic32x32 -m 1K | tee "$TMP/p4.txt.out" || return 1
    grep -E '^node +pattern +500\.000' "$TMP/p4.txt.out" >/dev/null &&
        grep 'one message: 2.819 us' "$TMP/p4.txt.out" >/dev/null
}
check "pattern stats: imbalance times and factors" pattern_stats

pattern_plot() {
    $PACT pattern gen --shape middle_delayed -p 64 --skew 1ms -o "$TMP/m.txt" || return 1
    $PACT pattern plot "$TMP/m.txt" -o "$TMP/m.png" || return 1
    [ "$(head -c 8 "$TMP/m.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] && [ -s "$TMP/m.png" ] &&
        ! ls "$TMP" | grep -q 'm.png.partial'
}
check "pattern plot writes a PNG" pattern_plot

# The seeds' FT-scenario: per call the delay after the first arrival, averaged over the calls.
pattern_from_trace() {
    {
        echo "rank,call,arrival_s"
        echo "0,0,10.0"; echo "1,0,10.002"; echo "2,0,10.001"
        echo "0,5,20.004"; echo "1,5,20.0"; echo "2,5,20.003"
    } >"$TMP/trace.csv"
    $PACT pattern from-trace "$TMP/trace.csv" -o "$TMP/ft.txt" || return 1
    cat "$TMP/ft.txt"
    # rank 0: (0 + 4 ms) / 2, rank 1: (2 + 0) / 2, rank 2: (1 + 3) / 2
    awk '!/^#/ { w[n++] = $1 } END { exit !(n == 3 && (w[0] - 0.002) ^ 2 < 1e-20 && (w[1] - 0.001) ^ 2 < 1e-20 &&
                                          (w[2] - 0.002) ^ 2 < 1e-20) }' "$TMP/ft.txt" || return 1
    # stats reads the trace itself: per-call worst 2 ms and 4 ms, mean 3 ms
    $PACT pattern stats "$TMP/trace.csv" --format csv | tee "$TMP/trace.stats" || return 1
    grep -E '^cluster,calls_mean,0\.00299999' "$TMP/trace.stats" >/dev/null ||
        grep -E '^cluster,calls_mean,0\.003' "$TMP/trace.stats" >/dev/null
}
check "pattern from-trace (FT-scenario) and trace stats" pattern_from_trace

printf '0\n1e-3\nfast\n0\n' >"$TMP/bad-word.txt"
printf '0\n-1e-3\n0\n0\n' >"$TMP/bad-neg.txt"
printf '0\n0\n0\n0\n0\n0\n0\n' >"$TMP/bad-len.txt"
printf 'rank,call,arrival_s\n0,0,1\n1,0,1\n0,0,2\n' >"$TMP/bad-trace.csv"
check "bad pattern file: a word (stats)" bad_file "$TMP/bad-word.txt:3:" $PACT pattern stats "$TMP/bad-word.txt"
check "bad pattern file: negative delay (plot)" bad_file "$TMP/bad-neg.txt:2:" \
    $PACT pattern plot "$TMP/bad-neg.txt" -o "$TMP/never.png"
check "bad pattern file: 7 delays for 8 ranks (sim)" bad_file "$TMP/bad-len.txt:7:" \
    $PACT sim --nodes 1 --ppn 8 --sizes 8 --patterns "file:$TMP/bad-len.txt" --skew 1ms -o "$TMP/never"
check "bad pattern file: a word (sim)" bad_file "$TMP/bad-word.txt:3:" \
    $PACT sim --nodes 1 --ppn 4 --sizes 8 --patterns "file:$TMP/bad-word.txt" --skew 1ms -o "$TMP/never"
check "bad arrival trace: a rank twice in a call" bad_file "$TMP/bad-trace.csv:4:" \
    $PACT pattern from-trace "$TMP/bad-trace.csv"
check "bad skew mode" bad_file "--skew-mode" $PACT sim --nodes 1 --ppn 4 --skew-factor 1 --skew-mode median -o "$TMP/never"
never_written() { [ ! -e "$TMP/never" ] && [ ! -e "$TMP/never.png" ] && ! ls -a "$TMP" | grep -q 'never.*partial'; }
check "bad input leaves nothing behind" never_written

# Every shape in simulation: arrivals exactly the pattern, so d* - d^ = max(a) - min(a) = the skew recorded.
sim_every_shape() {
    local o="$TMP/shapes"
    $PACT pattern gen --shape descending -p 8 --skew 30us -o "$TMP/desc8.txt" || return 1
    $PACT sim --nodes 2 --ppn 4 --mapping cyclic --algs recursive_doubling,ring --sizes 8,64K --reps 1 --skew 50us \
        --patterns no_delay,ascending,descending,first_delayed,last_delayed,middle_delayed,ends_delayed,half_delayed,random,node_delayed,two_level,file:$TMP/desc8.txt \
        -o "$o" >/dev/null || return 1
    awk -F, 'NR > 1 { n++; d = $15 - $14; want = $8 == "no_delay" ? 0 : ($8 ~ /^file:/ ? 30e-6 : 50e-6)
                      if (($11 - want) ^ 2 > 1e-30 || (d - $11) ^ 2 > (1e-12 * $15) ^ 2 + 1e-36) { print "off:", $0; bad++ } }
             END { print n, "rows,", bad + 0, "off"; exit (n != 48 || bad > 0) }' "$o/results.csv" || return 1
    # node_delayed on 2 nodes, cyclic: the late ranks are every other one, all equally late
    grep -v '^#' "$o/run/s0/pattern-9-8.txt" | tr '\n' ' '
    awk '!/^#/ { late = $1 > 0; if (late && v && $1 != v) bad++; if (late) v = $1; if (n >= 2 && late != was[n - 2]) bad++
                 was[n++] = late; nl += late }
         END { exit (n != 8 || nl != 4 || bad > 0) }' "$o/run/s0/pattern-9-8.txt"
}
check "sim: every shape arrives exactly (d* - d^ = skew)" sim_every_shape

# The seeds' procedure: skew = 1.5 x the mean over the algorithms of their mean no-delay d^, per size.
skew_mean_nodelay() {
    local o="$TMP/mean-nd"
    $PACT sim --nodes 2 --ppn 4 --algs recursive_doubling,ring,rabenseifner --sizes 1K,64K --reps 2 \
        --patterns no_delay,last_delayed,random --skew-factor 1.5 --skew-mode mean_nodelay -o "$o" >/dev/null || return 1
    awk -F, 'NR > 1 && $8 == "no_delay" { s[$7 "," $6] += $14; c[$7 "," $6]++ }
             NR > 1 && $8 != "no_delay" { rows[NR] = $7 "," $11 "," $9 "," $10 }
             END { for (k in s) { split(k, a, ","); m[a[1]] += s[k] / c[k]; na[a[1]]++ }
                   for (r in rows) { split(rows[r], f, ","); want = 1.5 * m[f[1]] / na[f[1]]; n++
                       if (f[3] != "mean_nodelay" || f[4] != 1.5 || (f[2] - want) ^ 2 > (1e-12 * want) ^ 2) bad++
                       else print f[1], "skew", f[2], "= 1.5 x", want / 1.5 }
                   exit (n != 24 || bad > 0) }' "$o/results.csv"
}
check "skew mode mean_nodelay records 1.5 x mean no-delay d^ per cell" skew_mean_nodelay

skew_own_nodelay() {
    local o="$TMP/own-nd"
    $PACT sim --nodes 2 --ppn 4 --algs recursive_doubling,ring --sizes 1K,64K --reps 2 \
        --patterns no_delay,last_delayed --skew-factor 1.5 --skew-mode own_nodelay -o "$o" >/dev/null || return 1
    awk -F, 'NR > 1 && $8 == "no_delay" { s[$6 "," $7] += $14; c[$6 "," $7]++ }
             NR > 1 && $8 == "last_delayed" { sk[$6 "," $7] = $11; mode = $9 }
             END { for (k in sk) { want = 1.5 * s[k] / c[k]; n++; print k, sk[k], want
                       if ((sk[k] - want) ^ 2 > (1e-12 * want) ^ 2) bad++ }
                   exit (n != 4 || bad > 0 || mode != "own_nodelay") }' "$o/results.csv"
}
check "skew mode own_nodelay: each algorithm its own 1.5 x no-delay d^" skew_own_nodelay

# Alizadeh's MIF: the factor times one message of the size on the platform (generic32x32: 2 us + m x 0.8 ns).
skew_mif() {
    local o="$TMP/mif"
    $PACT sim --nodes 2 --ppn 4 --algs ring --sizes 8,64K --reps 1 --patterns last_delayed --skew-factor 20 \
        --skew-mode mif -o "$o" >/dev/null || return 1
    awk -F, 'NR > 1 { want = 20 * (2e-6 + 8e-10 * $7); n++; print $7, $11, want
                      if ($9 != "mif" || ($11 - want) ^ 2 > (1e-12 * want) ^ 2) bad++ }
             END { exit (n != 2 || bad > 0) }' "$o/results.csv"
}
check "skew mode mif: MIF x one-message time" skew_mif

# Real MPI: the driver keeps the pattern (1 ms ascending, 4 ranks of Open MPI on this machine): every call it
# records as ok has every arrival within its tolerance by the shared machine clock.  Loose on purpose (the
# measured figures are in scripts/arrival-accuracy.sh's output): 4 ranks share 2 cores here.
real_arrivals() {
    $PACT pattern gen --shape ascending -p 4 --skew 1ms -o "$TMP/asc4.txt" || return 1
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpirun.openmpi --oversubscribe \
        --mca mpi_yield_when_idle 1 -np 4 build/bin/pact-bench-mpi --coll allreduce --alg ring --count 1024 \
        --reps 20 --pattern "$TMP/asc4.txt" --arrival-tol 20e-6 --arrivals "$TMP/arr4.csv" --out "$TMP/out4.csv" ||
        return 1
    awk -F, 'FILENAME == ARGV[1] { if ($0 !~ /^#/) w[n++] = $1; next }
             FILENAME == ARGV[2] { st[$1 "," $2] = $5; next }
             FNR > 1 { e = $4 - $6 + $7 - w[$3]; if (e < 0) e = -e; rows++
                       if (st[$1 "," $2] == "ok") { ok++; if (e > mx) mx = e } }
             END { printf "%d arrivals, %d in ok calls, max error %.2f us\n", rows, ok, mx * 1e6
                   exit (rows != 80 || ok < 40 || mx > 50e-6) }' "$TMP/asc4.txt" "$TMP/out4.csv" "$TMP/arr4.csv"
}
check "openmpi: achieved arrivals within 5% of a 1 ms skew" real_arrivals
