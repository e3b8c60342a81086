# tests/integration/report.sh - sourced by run-all.sh (needs tests/integration/lib.sh; uses $PACT and $TMP when set).
# Also runs alone: PACT=build-report/bin/pact bash tests/integration/report.sh
# pact report: summary.txt from a hand-made results.csv whose answers are known by construction
# (tests/data/report-small.csv: two studies, ties, a restricted algorithm, late/wrong/failed rows), the same
# text for the same rows however the file was put together, figures as PNG and SVG with scripts that redraw,
# no figures without gnuplot but still a summary, and malformed files named by file:line and column.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    REPORT_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-report-XXXXXX")}
SMALL=tests/data/report-small.csv

# One study's part of a summary: from its "== COLL on" line to the next study.
study() { awk -v c="$1" '/^== / { on = $2 == c } on' "$2"; }
# has TEXT REGEX: the text holds a line matching REGEX (extended), else shows what it holds.
has() {
    grep -Eq -- "$2" <<<"$1" && return 0
    echo "missing: $2"
    return 1
}

report_small() {
    local d="$TMP/rep-small" r a
    mkdir -p "$d" && cp $SMALL "$d/results.csv" || return 1
    $PACT report "$d" --no-figures >"$d/stdout" || return 1
    cat "$d/summary.txt"
    cmp "$d/stdout" "$d/summary.txt" || return 1
    [ ! -e "$d/plots" ] && ! ls "$d" | grep -q '\.png$' || return 1
    r=$(study reduce "$d/summary.txt")
    a=$(study allreduce "$d/summary.txt")
    # reduce, 2 reps: sizes ascending and no_delay first although the CSV starts at 1024 B with last_delayed
    has "$r" '^== reduce on generic32x32: 2 nodes x 4 ppn = 8 ranks, engine model ==$' &&
        has "$r" '2 reps per cell; skew: mean_nodelay x 1.5$' &&
        has "$r" '^skew in us per size: 8 B 16\.500, 1024 B 60\.000$' &&
        [ "$(grep -Em1 '^ +[0-9]+ +[a-z_]+ +[0-9.]+ +[a-z_]' <<<"$r" | awk '{ print $1, $2 }')" = "8 no_delay" ] ||
        return 1
    # Fig. 4: bytes pattern skew_us best d^_us choice its_d^_us best/choice within5% runner-up margin
    has "$r" '^ +8 +no_delay +0\.000 +binomial +10\.000 +binomial +10\.000 +1\.000 +1 +in_order_binary +\+20\.0%$' &&
        has "$r" '^ +8 +last_delayed +16\.500 +in_order_binary +6\.000 +binomial +20\.000 +0\.300 +1 +binomial +\+233\.3%$' &&
        has "$r" '^ +8 +random +16\.500 +binomial +12\.000 +binomial +12\.000 +1\.000 +2 +in_order_binary +\+0\.0%$' &&
        has "$r" '^ +1024 +no_delay +0\.000 +rabenseifner +30\.000 +rabenseifner +30\.000 +1\.000 +1 +binomial +\+33\.3%$' &&
        has "$r" '^ +1024 +last_delayed +60\.000 +in_order_binary +45\.000 +rabenseifner +90\.000 +0\.500 +1 +binomial +\+77\.8%$' ||
        return 1
    # Fig. 6 (sizes 8 then 1024): d^_k / d^_no_delay - 1 in %, * beyond +-25%
    has "$r" '^binomial +\+100\.0\* +\+20\.0$' && has "$r" '^in_order_binary +-50\.0\* +0\.0$' &&
        has "$r" '^\(no result: rabenseifner\)$' && has "$r" '^binomial +\+100\.0\* +\+30\.0\*$' &&
        has "$r" '^rabenseifner +\+200\.0\* +\+10\.0$' || return 1
    # Fig. 8: mean over the 3 patterns of d^ / fastest; the no-delay choice is not the most robust at 8 B
    has "$r" '^ +8 +1 +in_order_binary +1\.067 +1\.200 +1\.200 +no_delay$' &&
        has "$r" '^ +8 +2 +binomial +1\.778 +1\.000 +3\.333 +last_delayed$' &&
        has "$r" '^ +8 +- +rabenseifner +- +\(does not apply\)$' &&
        has "$r" '^ +1024 +1 +rabenseifner +1\.333 ' && has "$r" '^ +1024 +2 +in_order_binary +1\.495 ' &&
        has "$r" '^ +1024 +3 +binomial +1\.562 ' && has "$r" '^  rabenseifner at 8 bytes \(count_<_P\)$' ||
        return 1
    # allreduce: a late row (4 us) and a failed one do not count, a wrong one does; ring wins the near-tie
    # at 1024 B no_delay (rabenseifner 1e-11 faster) as it appears first
    has "$a" '^== allreduce on generic32x32: 1 node x 4 ppn = 4 ranks, engine model ==$' &&
        has "$a" '1 rep per cell; skew: absolute$' && has "$a" '^skew in us per size: 8 B 10\.000, 1024 B 10\.000$' &&
        has "$a" '^ +8 +ascending +10\.000 +recursive_doubling +5\.000 +recursive_doubling +5\.000 +1\.000 +1 +rabenseifner +\+20\.0%$' &&
        has "$a" '^ +8 +random +10\.000 +rabenseifner +4\.000 +recursive_doubling +5\.000 +0\.800 +1 +recursive_doubling +\+25\.0%$' &&
        has "$a" '^ +1024 +no_delay +0\.000 +ring +15\.000 +ring +15\.000 +1\.000 +2 +rabenseifner +\+0\.0%$' &&
        has "$a" '^ +1024 +ascending +10\.000 +rabenseifner +18\.000 +ring +- +- +1 +recursive_doubling +\+22\.2%$' &&
        has "$a" '^ring +- +-12\.5$' && has "$a" '^rabenseifner +0\.0 +-33\.3\*$' &&
        has "$a" '^ +1024 +1 +rabenseifner +1\.010 ' && has "$a" '^ +1024 +2 +recursive_doubling +1\.289 ' &&
        has "$a" '^ +1024 +- +ring +- +\(no result under ascending\)$' &&
        has "$a" '^WARNING: calls that did not run cleanly: 1 late, 1 wrong, 1 failed$'
}
check "report: best algorithm, robustness and score known by construction" report_small

# Spread over reps: calls of one cell that lie apart (SimGrid rounds each call's events at its own absolute
# times; contended cells amplify that) are named, and so is a choice whose margin over the runner-up is within
# that spread; a study of one call per cell has no such paragraph.
report_spread() {
    local d="$TMP/rep-spread" t s a p r
    mkdir -p "$d" || return 1
    head -1 $SMALL >"$d/results.csv"
    # pattern alg: d^ of 3 calls in us
    while read -r p a t; do
        r=0
        for s in ${t//,/ }; do
            echo "generic32x32,8,32,256,alltoall,$a,64,$p,$([ "$p" = no_delay ] && echo none,,0 || echo absolute,,0.001),$r,smpi,${s}e-06,${s}e-06,ok"
            r=$((r + 1))
        done
    done >>"$d/results.csv" <<'ROWS'
no_delay pairwise 100,100,100
no_delay linear 110,110,110
descending pairwise 100,104,96
descending linear 103,103,103
random pairwise 100,101,99
random linear 150,150,150
ROWS
    $PACT report "$d" --no-figures >/dev/null || return 1
    sed -n '/^Spread over reps/,/^Robustness/p' "$d/summary.txt"
    s=$(cat "$d/summary.txt")
    has "$s" '^cells over 1%: 2 of 6; the largest: pairwise, 64 B, descending: 8\.0% \(96\.000 \.\. 104\.000 us\)$' &&
        has "$s" '^ +64 +descending +pairwise +linear +\+3\.0% +8\.0%$' &&
        [ "$(grep -c '^ *64 .*%$' <<<"$(sed -n '/^best and runner-up closer/,/^$/p' "$d/summary.txt")")" = 1 ] ||
        return 1
    # report-small.csv: reduce has 2 calls per cell, equal but binomial's at 8 B without delay (9 and 11 us);
    # allreduce one call per cell
    mkdir -p "$d/small" && cp $SMALL "$d/small/results.csv" && $PACT report "$d/small" --no-figures >/dev/null &&
        has "$(study reduce "$d/small/summary.txt")" \
            '^cells over 1%: 1 of 15; the largest: binomial, 8 B, no_delay: 20\.0% \(9\.000 \.\. 11\.000 us\)$' &&
        ! grep -q '^Spread over reps' <<<"$(study allreduce "$d/small/summary.txt")"
}
check "report: calls of one cell that lie apart, and choices within their spread" report_spread

# The same rows give the same bytes: twice, and from the studies joined with cat (a second header).
report_same() {
    local d="$TMP/rep-same" j="$TMP/rep-joined"
    mkdir -p "$d" "$j" && cp $SMALL "$d/results.csv" || return 1
    { head -1 $SMALL && grep ',reduce,' $SMALL; } >"$j/results.csv"
    { head -1 $SMALL && grep ',allreduce,' $SMALL; } >>"$j/results.csv"
    $PACT report "$d" --no-figures >/dev/null && cp "$d/summary.txt" "$TMP/first.txt" &&
        $PACT report "$d" --no-figures >/dev/null && cmp "$TMP/first.txt" "$d/summary.txt" &&
        $PACT report "$j" --no-figures >/dev/null && cmp "$d/summary.txt" "$j/summary.txt"
}
check "report: byte-identical summary, also from files joined with cat" report_same

report_figures() {
    local d="$TMP/rep-fig" f
    mkdir -p "$d" && cp $SMALL "$d/results.csv" || return 1
    $PACT report "$d" >/dev/null || return 1
    ls -l "$d" "$d/plots"
    for f in heatmap robustness score; do
        for s in reduce-generic32x32-8 allreduce-generic32x32-4; do
            [ "$(head -c 8 "$d/$f-$s.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
                grep -q '<svg' "$d/$f-$s.svg" && [ -s "$d/plots/$f-$s.gp" ] && [ -s "$d/plots/$f-$s.dat" ] ||
                { echo "missing or empty: $f-$s"; return 1; }
        done
    done
    ! ls -a "$d" | grep -q partial || return 1
    # the legend names the algorithms that are best somewhere, the no-delay column reads 1.00
    grep -q "title 'in_order_binary'" "$d/plots/heatmap-reduce-generic32x32-8.gp" &&
        grep -q '^0 0 "1.00"' "$d/plots/heatmap-reduce-generic32x32-8.dat" || return 1
    # a user redraws from plots/
    rm "$d/score-reduce-generic32x32-8.png" &&
        (cd "$d/plots" && gnuplot score-reduce-generic32x32-8.gp) &&
        [ -s "$d/score-reduce-generic32x32-8.png" ]
}
check "report: PNG and SVG figures per study, scripts that redraw them" report_figures

# Two studies of one collective, platform and P on other nodes x ppn: their figures get -NODESxPPN.
report_names() {
    local d="$TMP/rep-names"
    mkdir -p "$d" || return 1
    sed 's/^generic32x32,1,4,4,allreduce,/generic32x32,1,8,8,reduce,/' $SMALL >"$d/results.csv"
    $PACT report "$d" >/dev/null || return 1
    ls "$d"
    [ -s "$d/heatmap-reduce-generic32x32-8-2x4.png" ] && [ -s "$d/score-reduce-generic32x32-8-1x8.svg" ] &&
        [ ! -e "$d/heatmap-reduce-generic32x32-8.png" ]
}
check "report: studies that share COLL-PLATFORM-P are told apart by NODESxPPN" report_names

# Without gnuplot: summary.txt and the scripts, then exit 1 saying why.
report_no_gnuplot() {
    local d="$TMP/rep-nognuplot" pact
    pact=$(realpath "$PACT")
    mkdir -p "$d" && cp $SMALL "$d/results.csv" || return 1
    PATH=/nonexistent "$pact" report "$d" >/dev/null 2>"$d/err"
    local st=$?
    cat "$d/err"
    [ $st -eq 1 ] && grep -q gnuplot "$d/err" && [ -s "$d/summary.txt" ] &&
        [ -s "$d/plots/heatmap-reduce-generic32x32-8.gp" ] && ! ls "$d" | grep -q '\.png$'
}
check "report without gnuplot: summary written, figures fail clearly" report_no_gnuplot

# Against the sweep: on a model run, the best algorithm per (size, pattern) as awk finds it from the CSV.
report_sim() {
    local d="$TMP/rep-sim"
    $PACT sim --engine model --nodes 2 --ppn 4 --coll reduce --sizes 8,1K,64K \
        --patterns no_delay,last_delayed,random,ascending --skew-factor 1.5 --reps 2 -o "$d" >/dev/null ||
        return 1
    $PACT report "$d" --no-figures >/dev/null || return 1
    awk -F, 'NR > 1 && ($16 == "ok" || $16 == "wrong") { k = $7 " " $8 " " $6; if (!(k in n)) order[++m] = k
                                                         s[k] += $14; n[k]++ }
             END { for (i = 1; i <= m; i++) { split(order[i], f, " "); c = f[1] " " f[2]
                                             v = s[order[i]] / n[order[i]]
                       if (!(c in best) || v < bv[c] * (1 - 1e-9)) { best[c] = f[3]; bv[c] = v } }
                   for (c in best) print c, best[c] }' "$d/results.csv" | sort >"$d/want"
    awk '/^Best algorithm/ { on = 1 } /^Robustness/ { on = 0 } on && $1 ~ /^[0-9]+$/ { print $1, $2, $4 }' \
        "$d/summary.txt" | sort >"$d/got"
    cat "$d/got"
    [ "$(wc -l <"$d/got")" -eq 12 ] && diff "$d/want" "$d/got"
}
check "report on a model sweep: best algorithms as awk finds them" report_sim

mkdir -p "$TMP/bad-header" && printf 'platform,nodes\n1,2\n' >"$TMP/bad-header/results.csv"
bad_csv() { # bad_csv NAME LINE SED: the small fixture with line LINE edited by SED
    mkdir -p "$TMP/$1" && sed "$2$3" $SMALL >"$TMP/$1/results.csv"
}
bad_csv bad-bytes 5 's/,1024,/,1K,/'
bad_csv bad-cols 7 's/,model,/,model,,/'
bad_csv bad-time 9 's/,model,[^,]*,/,model,,/'
bad_csv bad-neg 12 's/,0,model,/,-1,model,/'
check "bad results.csv: header" bad_file "$TMP/bad-header/results.csv:1:" $PACT report "$TMP/bad-header"
check "bad results.csv: bytes 1K" bad_file "$TMP/bad-bytes/results.csv:5: column bytes" \
    $PACT report "$TMP/bad-bytes"
check "bad results.csv: 17 columns" bad_file "$TMP/bad-cols/results.csv:7: 17 columns" \
    $PACT report "$TMP/bad-cols"
check "bad results.csv: ok without a time" bad_file "$TMP/bad-time/results.csv:9: column last_delay_s" \
    $PACT report "$TMP/bad-time"
check "bad results.csv: negative rep" bad_file "$TMP/bad-neg/results.csv:12: column rep" \
    $PACT report "$TMP/bad-neg"
check "report: no folder" bad_file "results.csv" $PACT report "$TMP/none"
no_summary() { ! ls "$TMP"/bad-*/summary.txt 2>/dev/null; }
check "bad results.csv leaves no summary" no_summary

if [ -n "${REPORT_ALONE:-}" ]; then
    finish
fi
