# tests/integration/timeline.sh - sourced by tests/run-all.sh (needs lib.sh, $PACT, $TMP).  Also runs alone:
# bash tests/integration/timeline.sh
# pact explain (an algorithm step by step, checked against its collective's result) and pact timeline (issue
# 20): its d^ and d* are pact sim --engine model's for the same cell, and SimGrid's agree with them operation
# by operation; its CSV is a consistent account of each rank's time (arrival, operations and waits, exit;
# every message received after it was sent); the binomial reduce's root waits for the late rank; the text
# chart fits an 80-column tmux pane; the SVG is well-formed XML, the PNG a PNG, the html page opens in
# Chromium; the teaching set is reproduced byte for byte; bad input exits 2 with one line and no file.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    TIMELINE_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-timeline-XXXXXX")}
mkdir -p "$TMP/tl"

# tl_same COLL ALGS SIZE PATTERN SKEW NODES PPN: pact sim --engine model's d^ and d* for each algorithm, and
# the timeline's (from its CSV: the last exit less the last / the first arrival), equal to 1e-12 relative.
tl_same() {
    local coll=$1 algs=$2 size=$3 pat=$4 skew=$5 nodes=$6 ppn=$7 d=$TMP/tl/sim-$1-$4
    rm -rf "$d"
    $PACT sim --engine model --platform generic32x32 --nodes "$nodes" --ppn "$ppn" --coll "$coll" --algs "$algs" \
        --sizes "$size" --patterns "$pat" --skew "$skew" --seed 3 -q --no-figures -o "$d" >/dev/null || return 1
    local alg ok=0
    for alg in ${algs//,/ }; do
        $PACT timeline --platform generic32x32 --nodes "$nodes" --ppn "$ppn" --coll "$coll" --alg "$alg" \
            -m "$size" --pattern "$pat" --skew "$skew" --seed 3 -o "$d/$alg.csv" || return 1
        local sim tl
        sim=$(awk -F, -v a="$alg" 'NR > 1 && $6 == a && $12 == 0 {print $14, $15}' "$d/results.csv")
        tl=$(awk -F, '$3 == "exit" && $6 > e {e = $6} $3 == "arrive" {if (NR == 2 || $6 > l) l = $6; if (NR == 2 || $6 < f) f = $6}
                 END {printf "%.17g %.17g", e - l, e - f}' "$d/$alg.csv")
        echo "$coll $alg $pat: sim $sim, timeline $tl"
        awk -v s="$sim" -v t="$tl" 'BEGIN {split(s, a, " "); split(t, b, " ");
            for (i = 1; i <= 2; i++) { d = a[i] - b[i]; if (d < 0) d = -d; if (a[i] == "" || d > 1e-12 * a[i]) exit 1 } }' ||
            ok=1
    done
    return $ok
}
check "timeline: d^ and d* are pact sim's (reduce, 8 ranks, last rank 10 us late)" \
    tl_same reduce binomial,in_order_binary,chain,linear 64K last_delayed 10us 1 8
check "timeline: d^ and d* are pact sim's (allreduce, 2 x 4, random)" \
    tl_same allreduce ring,recursive_doubling,rabenseifner 64K random 20us 2 4
tl_same_more() {
    tl_same alltoall pairwise,linear 1K node_delayed 5us 2 4 && tl_same bcast binomial,scatter_allgather 16K node_delayed 5us 2 4 &&
        tl_same allgather ring,bruck 1K node_delayed 5us 2 4 && tl_same barrier bruck,tree 8 node_delayed 5us 2 4
}
check "timeline: d^ and d* are pact sim's (alltoall, bcast, allgather, barrier, 2 x 4, node_delayed)" tl_same_more

# The smpi engine: the executor's own operations under SimGrid (pact sim's launch), against the model's
# timeline of the same cell: every operation's start, every reduction's and copy's end and every exit within
# 1% of d*; a message ends (the executor's call that completed it returned) no earlier than the model says MPI
# completed it; and d^ is pact sim --engine smpi's for the cell.
tl_smpi_cell() { # NAME FLAGS...
    local name=$1 d=$TMP/tl/smpi; shift
    mkdir -p "$d"
    $PACT timeline "$@" --engine smpi -o "$d/$name-smpi.csv" 2>"$d/$name.err" || { cat "$d/$name.err"; return 1; }
    $PACT timeline "$@" -o "$d/$name-model.csv" || return 1
    cat "$d/$name.err"
    awk -F, -v name="$name" 'FNR == 1 {next}
        NR == FNR {k = $1 "," $2 "," $3; ms[k] = $6; me[k] = $7; if ($3 == "exit" && $6 > e) e = $6;
                   if ($3 == "arrive" && (f == "" || $6 < f)) f = $6; next}
        $3 != "wait" {k = $1 "," $2 "," $3; n++; if (!(k in ms)) {print "no model row " k; bad = 1; next}
            d = $6 - ms[k]; if (d < 0) d = -d; if (d > worst) worst = d
            d = $7 - me[k]
            if ($3 == "send" || $3 == "recv") {if (-d > worst) worst = -d; if (d > later) later = d}
            else {if (d < 0) d = -d; if (d > worst) worst = d}}
        END {printf "%s: %d operations and exits, largest difference %.3g s = %.3f%% of d* %.4g s; messages seen up to %.3g s after MPI completed them\n",
                    name, n, worst, 100 * worst / (e - f), e - f, later
             exit bad || n == 0 || worst > 0.01 * (e - f)}' "$d/$name-model.csv" "$d/$name-smpi.csv"
}
tl_smpi() {
    local d=$TMP/tl/smpi ok=0
    tl_smpi_cell reduce-binomial --nodes 1 --ppn 8 --coll reduce --alg binomial -m 64K --pattern last_delayed \
        --skew 10us || ok=1
    # d^ is pact sim --engine smpi's
    rm -rf "$d/sim"
    $PACT sim --engine smpi --nodes 1 --ppn 8 --coll reduce --algs binomial --sizes 64K --patterns last_delayed \
        --skew 10us --reps 1 --batch cell -q --no-figures -o "$d/sim" >/dev/null || return 1
    local sim tl
    sim=$(awk -F, 'NR == 2 {print $14}' "$d/sim/results.csv")
    tl=$(awk -F, '$3 == "exit" && $6 > e {e = $6} $3 == "arrive" && $6 > l {l = $6} END {printf "%.17g", e - l}' \
        "$d/reduce-binomial-smpi.csv")
    echo "d^: pact sim --engine smpi $sim, the smpi timeline $tl"
    awk -v a="$sim" -v b="$tl" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-12 * a)}' || ok=1
    tl_smpi_cell allreduce-ring --nodes 2 --ppn 4 --coll allreduce --alg ring -m 64K --pattern random --skew 20us || ok=1
    tl_smpi_cell alltoall-pairwise --nodes 2 --ppn 4 --coll alltoall --alg pairwise -m 16K --pattern random \
        --skew 20us || ok=1
    tl_smpi_cell bcast-scatter-allgather --nodes 4 --ppn 2 --coll bcast --alg scatter_allgather -m 256K \
        --pattern node_delayed --skew 50us || ok=1
    tl_smpi_cell reduce-in-order-binary --nodes 1 --ppn 8 --coll reduce --alg in_order_binary -m 64K \
        --pattern last_delayed --skew 10us || ok=1
    return $ok
}
check "timeline: --engine smpi: the executor's operations agree with the model's within 1% of d*" tl_smpi

# The CSV accounts for each rank's time: operations and waits lie within [arrival, exit], waits and busy work
# add up to exit - arrival, and each receive ends no earlier than its message's send starts.
tl_consistent() {
    local f=$TMP/tl/sim-reduce-last_delayed/binomial.csv
    awk -F, 'NR == 1 {next}
        $3 == "arrive" {a[$1] = $6} $3 == "exit" {e[$1] = $6}
        $3 == "wait" || $3 == "reduce" || $3 == "copy" {used[$1] += $7 - $6}
        $3 == "send" {sent[$1 "-" $4] = sent[$1 "-" $4] " " $6}
        $3 == "recv" {recv[$4 "-" $1] = recv[$4 "-" $1] " " $7}
        {lo[NR] = $6; hi[NR] = $7; rk[NR] = $1}
        END {
            bad = 0
            for (i in lo) if (lo[i] < a[rk[i]] - 1e-15 || hi[i] > e[rk[i]] + 1e-15) { print "outside: row " i; bad = 1 }
            for (r in a) { d = used[r] - (e[r] - a[r]); if (d < 0) d = -d; if (d > 1e-12) { print "rank " r " accounts for " used[r] " of " e[r] - a[r]; bad = 1 } }
            for (k in recv) { n = split(sent[k], s, " "); m = split(recv[k], q, " ");
                if (n != m) { print "pair " k ": " n " sends, " m " receives"; bad = 1 }
                for (j = 1; j <= m; j++) if (q[j] + 0 < s[j] + 0) { print "pair " k ": received before sent"; bad = 1 } }
            n = 0; for (r in a) n++
            print n " ranks accounted for"
            exit bad || n != 8 }' "$f"
}
check "timeline: the CSV accounts for every rank's time and message" tl_consistent

# Binomial reduce on 8 ranks, rank 7 late by 10 us: the root (rank 0) waits past the last arrival, for the
# data that passes through ranks 6 and 4 - the timeline shows it.
tl_root_waits() {
    local f=$TMP/tl/sim-reduce-last_delayed/binomial.csv
    awk -F, '$3 == "arrive" && $6 > last {last = $6}
        $1 == 0 && $3 == "wait" && $7 > last + 1e-9 {late = 1; w = $7 - $6}
        $1 == 0 && $3 == "recv" && $4 == 4 {r4 = $7}
        END {printf "root waits until %.4g s (last arrival %.4g s), its receive from rank 4 ends at %.4g s\n", w, last, r4;
             exit !(late && r4 > last)}' "$f"
}
check "timeline: binomial reduce, last rank late: the root waits for it" tl_root_waits

# The text chart in a real terminal: tmux, 80 columns.  One row per rank, nothing wrapped, the legend shown.
tl_tmux() {
    command -v tmux >/dev/null || { echo "tmux is not installed"; return 1; }
    local s=pact-tl-$$ out=$TMP/tl/pane.txt
    tmux kill-session -t "$s" 2>/dev/null
    tmux new-session -d -s "$s" -x 80 -y 30 \
        "$PWD/$PACT timeline --nodes 1 --ppn 8 --coll reduce --alg binomial -m 64K --pattern last_delayed --skew 10us; sleep 20" ||
        return 1
    local i
    for i in $(seq 1 50); do
        tmux capture-pane -t "$s" -p >"$out" 2>/dev/null
        grep -q "reduces" "$out" && break
        sleep 0.1
    done
    tmux kill-session -t "$s" 2>/dev/null
    cat "$out"
    # nothing wrapped: the pane holds as many lines as the chart written to a file at 80 columns
    $PACT timeline --nodes 1 --ppn 8 --coll reduce --alg binomial -m 64K --pattern last_delayed --skew 10us \
        --width 80 >"$out.80" || return 1
    [ "$(grep -c '^rank [0-7] ' "$out")" -eq 8 ] && grep -q "d^ = 199.6us" "$out" && grep -q "# reduces" "$out" &&
        [ "$(grep -c . "$out")" -eq "$(grep -c . "$out.80")" ] && grep -q '^rank 0 .*#' "$out"
}
check "timeline: the text chart in tmux at 80 columns" tl_tmux

# Colours only on a terminal; --width; the SVG parses; the PNG is one.
tl_formats() {
    local d=$TMP/tl
    $PACT timeline --nodes 1 --ppn 8 --coll reduce --alg binomial -m 64K --pattern last_delayed --skew 10us \
        --width 120 >"$d/chart.txt" || return 1
    ! grep -q $'\033' "$d/chart.txt" && [ "$(awk '{ if (length > m) m = length } END {print m}' "$d/chart.txt")" -eq 120 ] ||
        { echo "colours in a file, or not 120 columns"; return 1; }
    $PACT timeline --nodes 2 --ppn 4 --coll allreduce --alg ring -m 64K --pattern random --skew 20us -o "$d/t.svg" &&
        python3 -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(len(d.getElementsByTagName('line')), 'lines')" \
            "$d/t.svg" || return 1
    [ "$(grep -c '<title>[0-9]* to [0-9]*:' "$d/t.svg")" -eq 112 ] || { echo "expected 112 messages (2 x 7 x 8)"; return 1; }
    $PACT timeline --nodes 2 --ppn 4 --coll allreduce --alg ring -m 64K --pattern random --skew 20us -o "$d/t.png" &&
        [ "$(head -c 8 "$d/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
check "timeline: txt on files without colours, --width, SVG, PNG" tl_formats

# The html page: two algorithms side by side on one scale, their d^ those of their own timelines; opened in
# a headless Chromium (Debian's), which finds both charts in the page and draws it.
tl_html() {
    command -v chromium >/dev/null || { echo "chromium is not installed (scripts/install-deps.sh installs it)"; return 1; }
    local d=$TMP/tl a b
    $PACT timeline --nodes 1 --ppn 8 --coll reduce --alg binomial,in_order_binary -m 64K --pattern last_delayed \
        --skew 10us -o "$d/two.html" || return 1
    a=$($PACT timeline --nodes 1 --ppn 8 --coll reduce --alg binomial -m 64K --pattern last_delayed --skew 10us |
        sed -n 's/^d^ = \([^ ]*\) .*/\1/p')
    b=$($PACT timeline --nodes 1 --ppn 8 --coll reduce --alg in_order_binary -m 64K --pattern last_delayed \
        --skew 10us | sed -n 's/^d^ = \([^ ]*\) .*/\1/p')
    echo "d^: binomial $a, in_order_binary $b"
    grep -q "binomial, 8 ranks.*<td>$a</td>" "$d/two.html" && grep -q "in_order_binary, 8 ranks.*<td>$b</td>" "$d/two.html" ||
        { echo "the page's table does not hold these"; return 1; }
    [ "$(grep -o 'src=\|href=\|<script' "$d/two.html" | wc -l)" -eq 0 ] || { echo "the page loads or runs something"; return 1; }
    local n
    n=$(cd "$d" && timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$d/two.html" 2>/dev/null |
        grep -o '<svg' | wc -l)
    echo "chromium: $n charts in the page"
    [ "$n" -eq 2 ] || return 1
    (cd "$d" && timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1600,560 \
        --screenshot="$d/two.png" "file://$d/two.html" >/dev/null 2>&1)
    [ "$(head -c 8 "$d/two.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$d/two.png")" -gt 20000 ]
}
check "timeline: html, two algorithms side by side, in headless Chromium" tl_html

# The teaching set, run again: every page, chart and CSV written, and the CSVs, charts and pages byte for byte
# those committed in results/reference/teaching (the same inputs give the same bytes).
tl_teaching() {
    local d=$TMP/tl/teach ref=results/reference/teaching f n=0
    rm -rf "$d"
    PACT=$PACT bash experiments/teaching/run.sh -o "$d" || return 1
    [ "$(ls "$d"/*.html | wc -l)" -eq 5 ] && [ "$(ls "$d"/*.png | wc -l)" -eq 10 ] || return 1
    for f in "$d"/*.csv "$d"/*.txt "$d"/*.html; do
        cmp "$f" "$ref/$(basename "$f")" || return 1
        n=$((n + 1))
    done
    echo "$n files identical to $ref"
    [ $n -eq 25 ]
}
check "timeline: the teaching set, byte for byte" tl_teaching

# pact explain: ring allreduce on 4 ranks is a reduce-scatter then an allgather, 2 x 3 steps of 4 messages, each
# element of every rank's receive buffer holding 0-3 at the end; and for every algorithm of the seven
# collectives at P = 1, 2, 3, 5, 8 (root P/2) the last drawing is the collective's result (explain checks it
# and exits 1 otherwise), or the algorithm does not apply (exit 2, said).
tl_explain_ring() {
    local out=$TMP/tl/explain-ring.txt
    $PACT explain --coll allreduce --alg ring -P 4 -o "$out" || return 1
    cat "$out"
    [ "$(grep -c '^step [1-6]: 4 messages$' "$out")" -eq 6 ] && ! grep -q '^step 7' "$out" &&
        [ "$(tail -6 "$out" | grep -cE 'recv \[ *0-3 +0-3 +0-3 +0-3\]')" -eq 4 ] &&
        grep -q "^6 steps; the last drawing is allreduce's result" "$out" &&
        grep -q "rank 1 reduces tmp0\[0\] into recv\[0\]" "$out"
}
check "explain: ring allreduce on 4 ranks, step by step" tl_explain_ring
tl_explain_all() {
    local c a P n=0 skip=0 st
    for c in allreduce reduce bcast alltoall allgather barrier reduce_scatter; do
        for a in $($PACT list algorithms --coll $c --format csv | tail -n +2 | cut -d, -f2); do
            for P in 1 2 3 5 8; do
                $PACT explain --coll $c --alg "$a" -P $P --root $((P / 2)) >/dev/null 2>"$TMP/tl/explain.err"
                st=$?
                if [ $st -eq 2 ] && grep -q "does not apply" "$TMP/tl/explain.err"; then
                    skip=$((skip + 1))
                elif [ $st -ne 0 ]; then
                    echo "$c $a P=$P: exit $st: $(cat "$TMP/tl/explain.err")"
                    return 1
                else
                    n=$((n + 1))
                fi
            done
        done
    done
    echo "$n explanations end in the collective's result; $skip do not apply"
    [ $n -ge 150 ]
}
check "explain: every algorithm ends in its collective's result" tl_explain_all
tl_explain_bad() {
    local out=$TMP/tl/explain-bad.txt
    rm -f "$out"
    for args in "--coll reduce --alg warp -P 8" "--coll reduce --alg binomial -P 65" \
        "--coll reduce --alg binomial -P 8 --root 8" "--coll scan --alg x -P 4" "--coll barrier --alg two_proc -P 4"; do
        # shellcheck disable=SC2086
        $PACT explain $args -o "$out" 2>"$TMP/tl/explain.err"
        local st=$?
        echo "$args: exit $st: $(cat "$TMP/tl/explain.err")"
        [ $st -eq 2 ] && [ "$(wc -l <"$TMP/tl/explain.err")" -eq 1 ] && [ ! -e "$out" ] || return 1
    done
}
check "explain: bad input exits 2 with one line and no file" tl_explain_bad

# Bad input: exit 2, one line naming what is wrong, no file.
tl_bad() {
    local want=$1 out=$TMP/tl/bad.$2; shift 2
    rm -f "$out"
    $PACT timeline "$@" -o "$out" >"$TMP/tl/bad.out" 2>"$TMP/tl/bad.err"
    local st=$?
    cat "$TMP/tl/bad.err"
    [ $st -eq 2 ] && [ "$(wc -l <"$TMP/tl/bad.err")" -eq 1 ] && grep -qF -- "$want" "$TMP/tl/bad.err" && [ ! -e "$out" ]
}
printf '0\n1e-6\n2e-6\n3e-6\n' >"$TMP/tl/four.txt"
check "timeline: an unknown algorithm" tl_bad "warp" csv --nodes 1 --ppn 8 --coll reduce --alg warp
check "timeline: a pattern file for another P" tl_bad "four.txt" csv --nodes 1 --ppn 8 --coll reduce \
    --alg binomial --pattern "file:$TMP/tl/four.txt"
check "timeline: a format it cannot write" tl_bad "pdf" pdf --nodes 1 --ppn 8 --coll reduce --alg binomial
check "timeline: two algorithms outside html" tl_bad "one algorithm" csv --nodes 1 --ppn 8 --coll reduce \
    --alg binomial,chain
check "timeline: three algorithms" tl_bad "one algorithm" html --nodes 1 --ppn 8 --coll reduce \
    --alg binomial,chain,linear
check "timeline: an unknown engine" tl_bad "--engine 'replay'" csv --nodes 1 --ppn 8 --coll reduce \
    --alg binomial --engine replay
check "timeline: a skew factor" tl_bad "skew in seconds" csv --nodes 1 --ppn 8 --coll reduce --alg binomial \
    --pattern random

[ -n "${TIMELINE_ALONE:-}" ] && finish
true
