# tests/integration/tune.sh - sourced by run-all.sh (needs tests/integration/lib.sh; uses $PACT and $TMP when
# set).  Also runs alone: bash tests/integration/tune.sh
# pact tune: the table's choices against an independent computation from the runs' own results.csv (awk:
# robust, regret, no_delay and weighted expected), ranges that cover every size, the same table twice, a killed
# SimGrid tuning that resumes to the table of an uninterrupted one, bad input refused with exit 2 and no
# folder, and pact tune check on good and bad files.  What the libraries do with the emitted files is
# tests/integration/tune-obey.sh.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    TUNE_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-tune-XXXXXX")}
TUNE_GRID=(--platform generic32x32 --nodes 1,2 --ppn 4 --sizes 8,64,512,4K,32K,256K
    --patterns no_delay,ascending,last_delayed,random,half_delayed --no-figures -q)

# tune_reference CSV OBJECTIVE [WEIGHTS]: per "procs ppn bytes" the choice computed here from results.csv
# (mean d^ over the reps; ties within a relative 1e-9 go to the first algorithm in file order).
tune_reference() {
    awk -F, -v obj="$2" -v wts="$3" '
        NR == 1 { next }
        $16 != "ok" { next }
        {
            cell = $4 " " $3 " " $7; a = $6; p = $8
            if (!(cell in seen)) { seen[cell] = 1; cells[++nc] = cell }
            if (!((cell, a) in hasalg)) { hasalg[cell, a] = 1; algs[cell, ++na[cell]] = a }
            if (!(p in haspat)) { haspat[p] = 1; pats[++np] = p }
            sum[cell, a, p] += $14; cnt[cell, a, p]++
        }
        END {
            n = split(wts, wl, ",")
            for (i = 1; i <= n; i++) { split(wl[i], kv, "="); w[kv[1]] = kv[2] }
            for (c = 1; c <= nc; c++) {
                cell = cells[c]
                for (p = 1; p <= np; p++) {
                    best[p] = -1
                    for (i = 1; i <= na[cell]; i++) {
                        a = algs[cell, i]
                        if (!((cell, a, pats[p]) in cnt)) continue
                        d = sum[cell, a, pats[p]] / cnt[cell, a, pats[p]]
                        if (best[p] < 0 || d < best[p] * (1 - 1e-9)) best[p] = d
                    }
                }
                choice = ""; bv = -1; runner = ""; rv = -1
                for (i = 1; i <= na[cell]; i++) {
                    a = algs[cell, i]; v = 0; ok = 1; ws = 0
                    for (p = 1; p <= np; p++) {
                        if (!((cell, a, pats[p]) in cnt)) { ok = 0; break }
                        d = sum[cell, a, pats[p]] / cnt[cell, a, pats[p]]
                        if (obj == "robust") v += d / best[p] / np
                        else if (obj == "regret") { if (d / best[p] > v) v = d / best[p] }
                        else if (obj == "no_delay") { if (pats[p] == "no_delay") v = d }
                        else if (obj == "expected") { v += w[pats[p]] * d; ws += w[pats[p]] }
                    }
                    if (!ok) continue
                    if (obj == "expected") v /= ws
                    if (bv < 0 || v < bv * (1 - 1e-9)) { runner = choice; rv = bv; bv = v; choice = a }
                    else if (rv < 0 || v < rv * (1 - 1e-9)) { rv = v; runner = a }
                }
                if (values) printf "%s %s %.17g %s %.17g\n", cell, choice, bv, (runner == "" ? "-" : runner), rv
                else print cell, choice
            }
        }' values="${4:-}" "$1" | sort
}

# tune_rows TABLE REFERENCE: each row of a collective's table against the reference values of its cells
# (tune_reference ... values): a row stands for the worst of its sizes, its value that cell's value and its
# runner-up that cell's runner-up and value (ties: the smallest size); so no runner-up scores below its row's
# choice.
tune_rows() {
    awk -F, 'NR == FNR { if (FNR > 1) { n++; pr[n] = $2; pp[n] = $3; lo[n] = $4; hi[n] = $5; v[n] = $9
                                        ru[n] = $10; rv[n] = $11 } next }
             { split($0, k, " ")
               for (i = 1; i <= n; i++)
                   if (pr[i] == k[1] && pp[i] == k[2] && k[3] + 0 >= lo[i] + 0 && (hi[i] == "inf" || k[3] + 0 <= hi[i] + 0)) {
                       if (!(i in wv) || k[5] > wv[i] * (1 + 1e-7)) { wv[i] = k[5]; wr[i] = k[6]; wrv[i] = k[7]; wb[i] = k[3] }
                       break }
             }
             function off(a, b) { return a - b > 1e-7 * b || b - a > 1e-7 * b }
             END {
               bad = 0
               for (i = 1; i <= n; i++) {
                   if (!(i in wv)) { print "row " i + 1 ": no cell"; bad = 1; continue }
                   if (off(v[i], wv[i])) { print "row " i + 1 ": value " v[i] ", its worst cell (" wb[i] " B) " wv[i]; bad = 1 }
                   if (wr[i] == "-") { if (ru[i] != "") { print "row " i + 1 ": runner-up " ru[i] ", none at " wb[i] " B"; bad = 1 } }
                   else if (ru[i] != wr[i] || off(rv[i], wrv[i])) {
                       print "row " i + 1 ": runner-up " ru[i] " " rv[i] ", at its worst cell (" wb[i] " B) " wr[i] " " wrv[i]; bad = 1 }
                   if (ru[i] != "" && rv[i] < v[i] * (1 - 1e-9)) { print "row " i + 1 ": runner-up " rv[i] " below the choice " v[i]; bad = 1 }
               }
               exit bad }' "$1" <(sort -k1,1n -k2,2n -k3,3n "$2")
}

# tune_table_choices TABLE CELLS: the table's choice for each "procs ppn bytes" line of CELLS, as a spec.
tune_table_choices() {
    awk -F, 'NR == FNR { if (FNR > 1) { n++; pr[n] = $2; pp[n] = $3; lo[n] = $4; hi[n] = $5
                                        s[n] = $6 ($7 == "" ? "" : ":" $7); gsub(";", ",", s[n]) } next }
             { split($0, k, " ")
               for (i = 1; i <= n; i++)
                   if (pr[i] == k[1] && pp[i] == k[2] && k[3] + 0 >= lo[i] + 0 && (hi[i] == "inf" || k[3] + 0 <= hi[i] + 0)) {
                       print k[1], k[2], k[3], s[i]; next }
               print k[1], k[2], k[3], "(none)" }' "$1" "$2" | sort
}

# tune_matches OBJECTIVE [WEIGHTS]: the model's table equals the reference computed from its own runs.
tune_matches() {
    local d="$TMP/tune-$1" obj=$1
    [ -n "${2:-}" ] && obj="expected:$2"
    rm -rf "$d"
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall --objective "$obj" -o "$d" >"$d.out" || return 1
    $PACT tune check "$d/table.csv" || return 1
    local c ref got n=0
    for c in allreduce reduce alltoall; do
        ref=$(tune_reference "$d/runs/model-$c/results.csv" "$1" "${2:-}")
        awk '{ print $1, $2, $3 }' <<<"$ref" >"$d/cells"
        got=$(grep -E "^$c," "$d/table.csv" | cat <(head -1 "$d/table.csv") - | tune_table_choices /dev/stdin "$d/cells")
        diff <(echo "$ref") <(echo "$got") || { echo "$c: table differs from the reference"; return 1; }
        n=$((n + $(wc -l <<<"$ref")))
        tune_reference "$d/runs/model-$c/results.csv" "$1" "${2:-}" values >"$d/values-$c"
        grep -E "^$c," "$d/table.csv" | cat <(head -1 "$d/table.csv") - >"$d/table-$c.csv"
        tune_rows "$d/table-$c.csv" "$d/values-$c" || { echo "$c: rows differ from their worst cells"; return 1; }
    done
    echo "$n cells agree"
    [ "$n" -eq $((3 * 2 * 6)) ]
}
check "tune robust = reference from results.csv" tune_matches robust
check "tune regret = reference from results.csv" tune_matches regret
check "tune no_delay = reference from results.csv" tune_matches no_delay
check "tune expected:weights = reference from results.csv" tune_matches expected "random=3,no_delay=1,ascending=0"

# The summary names as worst pattern every pattern whose printed mean is the largest printed, in pattern order
# ("all alike" when every pattern's is): which of two patterns that print alike is named must not hang on the
# evaluator's rounding.  From the robust table's summary above (three collectives).
tune_worst() {
    awk '/^== / { coll = $2; np = 0; inp = 0; next }
         /^d\^ of the choice/ { inp = 1; next }
         inp && /^  all patterns/ {
             top = ""; for (i = 1; i <= np; i++) if (top == "" || val[i] + 0 > top + 0) top = val[i]
             want = ""; k = 0
             for (i = 1; i <= np; i++) if (val[i] == top) want = want (k++ ? " = " : "") pat[i]
             if (k == np && np > 1) want = "all alike"
             got = $0; sub(/.*worst pattern: /, "", got); sub(/\)$/, "", got)
             print coll " " got
             if (got != want ", " top) { print "  expected: " want ", " top; bad = 1 }
             n++; inp = 0; next }
         inp && NF == 2 { pat[++np] = $1; val[np] = $2 }
         END { exit bad || n != 3 }' "$TMP/tune-robust/summary.txt"
}
check "tune summary: the worst pattern, every one that prints as the largest" tune_worst

# The model's runs skip the evaluations that lower bounds prove useless (status "pruned"): every objective, and
# hybrid's K best, gives the bytes of --exhaustive (table, summary, Open MPI rules), which prunes nothing.
tune_pruned() {
    local obj=$1 a="$TMP/tune-pruned-a" b="$TMP/tune-pruned-b"
    rm -rf "$a" "$b"
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall,bcast --objective "$obj" --target ompi \
        -o "$a" >/dev/null || return 1
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall,bcast --objective "$obj" --target ompi \
        --exhaustive -o "$b" >/dev/null || return 1
    local n m part
    n=$(cat "$a"/runs/*/results.csv | grep -c ',pruned$')
    m=$(cat "$b"/runs/*/results.csv | grep -c ',pruned$')
    # candidates run under some patterns and pruned under others (where their bounds exceed the best d^)
    part=$(cat "$a"/runs/*/results.csv | awk -F, '$8 != "no_delay" && $8 != "pattern" {
        k = $4 FS $5 FS $6 FS $7; s[k] = s[k] ($NF == "pruned" ? "p" : "r") }
        END { for (k in s) n += s[k] ~ /p/ && s[k] ~ /r/; print n + 0 }')
    echo "$obj: $n cells pruned ($part candidates under some patterns only), exhaustive $m"
    [ "$n" -gt 0 ] && [ "$m" -eq 0 ] && grep -q '^exhaustive: true$' "$b/tune.yaml" || return 1
    [ "$obj" != robust ] || [ "$part" -gt 0 ] || return 1
    cmp "$a/table.csv" "$b/table.csv" && cmp "$a/summary.txt" "$b/summary.txt" &&
        cmp "$a/ompi-rules.conf" "$b/ompi-rules.conf"
}
check "tune prunes by bounds: robust, the bytes of --exhaustive" tune_pruned robust
check "tune prunes by bounds: regret, the bytes of --exhaustive" tune_pruned regret
check "tune prunes by bounds: no_delay, the bytes of --exhaustive" tune_pruned no_delay
check "tune prunes by bounds: expected:weights, the bytes of --exhaustive" tune_pruned \
    expected:random=3,no_delay=1,ascending=0

# env_refused VAR=VALUE TEXT DIR: pact tune with that environment variable exits 2 before it runs, its message
# names the variable, its value and TEXT, and DIR is not made.
env_refused() {
    local out rc
    out=$(env "$1" $PACT tune "${TUNE_GRID[@]}" --coll allreduce -o "$3" 2>&1)
    rc=$?
    echo "$out"
    [ "$rc" -eq 2 ] && [[ $out == *"$1: $2"* ]] && [ ! -e "$3" ]
}

# The model engine keeps each prepared schedule set between waves (phase 1, the bounds, each round) while a cell
# of its (algorithm, size) is still to run, and takes it instead of preparing it again: the same rows, table,
# summary and rules as preparing every time (PACT_MODEL_KEEP_MIB=0), with sets reused (batches.csv) where 0
# reuses none; a budget that is not a number of MiB is refused before anything runs.
tune_kept() {
    local a="$TMP/tune-kept-a" b="$TMP/tune-kept-b" f
    rm -rf "$a" "$b"
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,alltoall --objective robust --target ompi -o "$a" >/dev/null ||
        return 1
    PACT_MODEL_KEEP_MIB=0 $PACT tune "${TUNE_GRID[@]}" --coll allreduce,alltoall --objective robust \
        --target ompi -o "$b" >/dev/null || return 1
    for f in table.csv summary.txt ompi-rules.conf runs/model-allreduce/results.csv runs/model-alltoall/results.csv; do
        cmp "$a/$f" "$b/$f" || return 1
    done
    # sets prepared and reused (the last two columns), summed over both collectives' batches
    local ra rb
    ra=$(cat "$a"/runs/model-*/run/batches.csv | awk -F, '$1 != "study" { p += $9; r += $10 } END { print p, r }')
    rb=$(cat "$b"/runs/model-*/run/batches.csv | awk -F, '$1 != "study" { p += $9; r += $10 } END { print p, r }')
    echo "sets prepared and reused, kept: $ra; PACT_MODEL_KEEP_MIB=0: $rb"
    [ "${ra#* }" -gt 0 ] && [ "${rb#* }" -eq 0 ] && [ "${ra% *}" -lt "${rb% *}" ] || return 1
    env_refused PACT_MODEL_KEEP_MIB=1e3 "not a number of MiB" "$TMP/tune-kept-c"
}
check "tune keeps schedule sets between waves: the bytes of preparing each time" tune_kept

# Pruning bounds every held cell with pact_model_bounds_quick, then with pact_model_bounds only the candidates
# the quick bounds cannot rule out (PACT_MODEL_BOUNDS=both, the default): the bytes of the full bounds alone
# (=full) and of the quick ones alone (=quick), fewer full bounds than =full, and no cell run that =full
# leaves pruned (batches.csv counts the cells each bound wave bounded); another value is refused before
# anything runs.
tune_bounds() {
    local d="$TMP/tune-bounds" m f
    rm -rf "$d"
    for m in both full quick; do
        PACT_MODEL_BOUNDS=$m $PACT tune "${TUNE_GRID[@]}" --coll allreduce,alltoall,bcast --objective robust \
            --target ompi -o "$d/$m" >/dev/null || return 1
    done
    for m in full quick; do
        for f in table.csv summary.txt ompi-rules.conf; do cmp "$d/both/$f" "$d/$m/$f" || return 1; done
    done
    local bq bf fq ff rb rf
    read -r bq bf < <(cat "$d"/both/runs/model-*/run/batches.csv | awk -F, '$1 != "study" { q += $12; f += $13 }
        END { print q + 0, f + 0 }')
    read -r fq ff < <(cat "$d"/full/runs/model-*/run/batches.csv | awk -F, '$1 != "study" { q += $12; f += $13 }
        END { print q + 0, f + 0 }')
    rb=$(cat "$d"/both/runs/*/results.csv | grep -c ',ok$')
    rf=$(cat "$d"/full/runs/*/results.csv | grep -c ',ok$')
    echo "both: $bq cells bounded quick, $bf in full, $rb rows run; full: $fq quick, $ff in full, $rf rows run"
    [ "$bq" -gt 0 ] && [ "$bf" -gt 0 ] && [ "$fq" -eq 0 ] && [ "$bf" -lt "$ff" ] && [ "$rb" -le "$rf" ] || return 1
    env_refused PACT_MODEL_BOUNDS=fast "not both, full or quick" "$d/bad"
}
check "tune bounds quick, then in full where needed: the bytes of full bounds alone, no more runs" tune_bounds

# A schedule set made from another size's (pact_model_resize: the builds checked against the base's, its arrays
# shared) where preparing would make the same arrays: the bytes of preparing every set (PACT_MODEL_RESIZE=off),
# sets resized (batches.csv) and fewer prepared; another value is refused before anything runs.
tune_resize() {
    local d="$TMP/tune-bounds" f
    PACT_MODEL_RESIZE=off $PACT tune "${TUNE_GRID[@]}" --coll allreduce,alltoall,bcast --objective robust \
        --target ompi -o "$d/off" >/dev/null || return 1
    for f in table.csv summary.txt ompi-rules.conf; do cmp "$d/both/$f" "$d/off/$f" || return 1; done
    for f in "$d"/both/runs/*/results.csv; do cmp "$f" "$d/off/runs/$(basename "$(dirname "$f")")/results.csv" || return 1; done
    local pn zn po zo
    read -r pn zn < <(cat "$d"/both/runs/model-*/run/batches.csv | awk -F, '$1 != "study" { p += $9; z += $11 }
        END { print p + 0, z + 0 }')
    read -r po zo < <(cat "$d"/off/runs/model-*/run/batches.csv | awk -F, '$1 != "study" { p += $9; z += $11 }
        END { print p + 0, z + 0 }')
    echo "sets prepared and resized: $pn and $zn; PACT_MODEL_RESIZE=off: $po and $zo"
    [ "$zn" -gt 0 ] && [ "$zo" -eq 0 ] && [ "$pn" -lt "$po" ] || return 1
    env_refused PACT_MODEL_RESIZE=yes "not on or off" "$d/bad-resize"
}
check "tune makes schedule sets from another size's: the bytes of preparing each" tune_resize

# A pruned tuning stopped before its end (its pruned rows and the last runs' rows gone, as a kill leaves it:
# the last check's) resumes: every cell once, and the bytes of the uninterrupted table and summary.
tune_pruned_resume() {
    local a="$TMP/tune-pruned-a" c="$TMP/tune-pruned-c" f obj=expected:random=3,no_delay=1,ascending=0
    rm -rf "$c"
    cp -r "$a" "$c" || return 1
    rm -f "$c/table.csv" "$c/summary.txt" "$c/ompi-rules.conf"
    for f in "$c"/runs/*/results.csv; do
        grep -v ',pruned$' "$f" | head -n -40 >"$f.cut" && mv "$f.cut" "$f"
    done
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall,bcast --objective "$obj" --target ompi \
        -o "$c" >/dev/null || return 1
    for f in "$a"/runs/*/results.csv; do
        local g="$c/runs/$(basename "$(dirname "$f")")/results.csv"
        [ "$(wc -l <"$f")" = "$(wc -l <"$g")" ] || { echo "$g: $(wc -l <"$g") rows, not $(wc -l <"$f")"; return 1; }
        [ -z "$(cut -d, -f1-12 "$g" | sort | uniq -d)" ] || { echo "$g: a cell twice"; return 1; }
    done
    cmp "$a/table.csv" "$c/table.csv" && cmp "$a/summary.txt" "$c/summary.txt"
}
check "tune pruned, stopped, resumed: every cell once, the same table" tune_pruned_resume

# The objectives differ where they should: robust and no_delay disagree on some cell of this grid (else the
# tests above could not tell them apart), and the same command twice gives the same bytes.
tune_distinct() {
    cmp -s "$TMP/tune-robust/table.csv" "$TMP/tune-no_delay/table.csv" && { echo "robust = no_delay"; return 1; }
    local d="$TMP/tune-again"
    rm -rf "$d"
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall --objective robust -o "$d" >/dev/null &&
        cmp "$d/table.csv" "$TMP/tune-robust/table.csv" && cmp "$d/summary.txt" "$TMP/tune-robust/summary.txt"
}
check "tune objectives differ; same command, same bytes" tune_distinct

# SimGrid is deterministic: pact tune calls each cell once unless --reps says otherwise (it was 5 calls, four of
# them repeating the first).
tune_sim_reps() {
    local d="$TMP/tune-sim-reps"
    $PACT tune --platform generic32x32 --nodes 1 --ppn 4 --coll reduce --algs binomial,binary --sizes 8,1K \
        --patterns no_delay,last_delayed --source sim --no-figures -q -o "$d" >/dev/null || return 1
    awk -F, 'NR > 1 { n[$6 "," $7 "," $8]++ }
             END { for (k in n) { c++; if (n[k] != 1) bad++ }
                   print c " cells, " bad + 0 " with more than one call"; exit !(c == 8 && !bad) }' \
        "$d/runs/smpi-reduce/results.csv"
}
check "tune --source sim: one SimGrid call per cell by default" tune_sim_reps

# SimGrid simulates once what two candidates build alike (ring and segmented ring allreduce; ring and
# recursive doubling below P elements, where ring falls back), and hybrid's SimGrid runs only each cell's K
# best under the patterns (the others "pruned"): fewer SimGrid calls than --exhaustive, the same table, rules
# and summary, and each row either run's SimGrid gave, the exhaustive run's to 1e-12 (rows_apart; sim: every
# row).
tune_sim_shared() {
    # shellcheck disable=SC2054 # commas inside flag values
    local src=$1 a="$TMP/tune-shared-${1%%:*}" b="$TMP/tune-shared-${1%%:*}-x" g=(--platform generic32x32
        --nodes 1 --ppn 8 --coll allreduce --sizes 4,1K,64K,1M --patterns no_delay,ascending,last_delayed,random
        --objective robust --target ompi --source "$1" --no-figures -q)
    rm -rf "$a" "$b"
    $PACT tune "${g[@]}" -o "$a" >/dev/null || return 1
    $PACT tune "${g[@]}" --exhaustive -o "$b" >/dev/null || return 1
    local ra rb calls_a calls_b
    ra=$(ls "$a"/runs/smpi-*/results.csv) rb=$(ls "$b"/runs/smpi-*/results.csv)
    calls_a=$(cat "$a"/runs/smpi-*/run/s0/plan-*.txt | grep -vc '^#')
    calls_b=$(cat "$b"/runs/smpi-*/run/s0/plan-*.txt | grep -vc '^#')
    echo "$src: $calls_a SimGrid calls, exhaustive $calls_b; $(grep -c ',pruned$' "$ra") rows pruned"
    [ "$calls_a" -lt "$calls_b" ] || return 1
    cmp "$a/table.csv" "$b/table.csv" && cmp "$a/summary.txt" "$b/summary.txt" &&
        cmp "$a/ompi-rules.conf" "$b/ompi-rules.conf" || return 1
    local extra
    extra=$(rows_apart "$ra" "$rb")
    [ "$extra" -eq 0 ] || { echo "$extra rows not the exhaustive run's to 1e-12"; return 1; }
    if [ "$src" = sim ]; then
        [ "$(wc -l <"$ra")" -eq "$(wc -l <"$rb")" ] || return 1
    else
        grep -q ',pruned$' "$ra" || { echo "hybrid pruned nothing"; return 1; }
    fi
}
check "tune --source sim: SimGrid once per schedule set, the rows of --exhaustive" tune_sim_shared sim
check "tune --source hybrid:2: SimGrid on the K best, the table of --exhaustive" tune_sim_shared hybrid:2

# hybrid's SimGrid runs arrive as --source sim's do: the skew of each size is the factor times the mean no-delay
# time of every candidate (those outside the K best run without delay for it), so each row SimGrid ran is the
# bytes of --source sim's row, whatever K is.  Basic linear and nonoverlapping are among no cell's 2 best here.
tune_hybrid_skews() {
    # shellcheck disable=SC2054 # commas inside flag values
    local d="$TMP/tune-hyskew" g=(--platform generic32x32 --nodes 1 --ppn 8 --coll allreduce --sizes 1K,64K
        --patterns no_delay,random --objective robust --target ompi --no-figures -q)
    rm -rf "$d"
    $PACT tune "${g[@]}" --source sim -o "$d/sim" >/dev/null || return 1
    $PACT tune "${g[@]}" --source hybrid:2 -o "$d/hy" >/dev/null || return 1
    local rs rh ran extra
    rs=$(ls "$d"/sim/runs/smpi-*/results.csv) rh=$(ls "$d"/hy/runs/smpi-*/results.csv)
    ran=$(grep -v ',pruned$' "$rh" | grep -vc '^platform,')
    extra=$(grep -v ',pruned$' "$rh" | sort | comm -23 - <(sort "$rs") | wc -l)
    echo "hybrid:2: $ran rows SimGrid ran, $extra not --source sim's"
    if [ "$ran" -eq 0 ] || [ "$extra" -ne 0 ]; then
        grep -v ',pruned$' "$rh" | sort | comm -23 - <(sort "$rs") | head -4
        return 1
    fi
}
check "tune --source hybrid:2: SimGrid's rows are --source sim's (the same skews)" tune_hybrid_skews

# Where the engines agree, hybrid's table is --source sim's: robust and regret divide each pattern's d^ by the
# best there over every candidate, so SimGrid runs, besides the K best, each pattern's best under the model
# there.  Reduce on 4 nodes x 2 of generic32x32: the model's and SimGrid's tables are the same; hybrid:2 had
# divided by the best of its 2 and chose otherwise in 9 of 14 cells (robust).  Rows compared without their
# values' last digits (the engines agree to about 1e-12).
tune_hybrid_as_sim() {
    # shellcheck disable=SC2054 # commas inside flag values
    local d="$TMP/tune-hysim-$1" g=(--platform generic32x32 --nodes 4 --ppn 2 --coll reduce --sizes 8..64K
        --target ompi --objective "$1" --no-figures -q) src
    rm -rf "$d"
    for src in model sim hybrid:2; do
        $PACT tune "${g[@]}" --source "$src" -o "$d/${src%%:*}" >/dev/null || return 1
        awk -F, 'NR > 1 { printf "%s,%s,%s,%s,%s,%s,%.9g,%s,%.9g\n", $2, $3, $4, $5, $6, $8, $9, $10, $11 }' \
            "$d/${src%%:*}/table.csv" >"$d/${src%%:*}.rows"
    done
    echo "$1: $(wc -l <"$d/sim.rows") rows; $(grep '^hybrid:' "$d/hybrid/summary.txt")"
    diff "$d/model.rows" "$d/sim.rows" >/dev/null || { echo "the engines' tables differ here"; return 1; }
    diff "$d/sim.rows" "$d/hybrid.rows"
}
check "tune --source hybrid:2 where the engines agree: --source sim's table (robust)" tune_hybrid_as_sim robust
check "tune --source hybrid:2 where the engines agree: --source sim's table (regret)" tune_hybrid_as_sim regret

# Where SimGrid overrides the model, the summary lists each such cell: the model's choice and SimGrid's, with
# both values under SimGrid.  The engines agree on this grid, so the model's rows are made to disagree: binary
# and binomial swap names in its results.csv, and the tuning resumes.  Then the model's choice moves, so does
# what SimGrid must run (its K best), and the rows it had pruned there run now: before, the resumed folder kept
# them "pruned", and the model's choice had no d^ (nan) in 5 cells.  Checked per listed cell: the model's
# choice is the model table's with the names swapped, SimGrid's is hybrid's table's, and the model's value
# is not below SimGrid's.
tune_hybrid_overrides() {
    # shellcheck disable=SC2054 # commas inside flag values
    local d="$TMP/tune-hyover" g=(--platform generic32x32 --nodes 4 --ppn 2 --coll reduce --sizes 8..64K
        --target ompi --objective robust --no-figures -q)
    rm -rf "$d"
    $PACT tune "${g[@]}" --source model -o "$d/model" >/dev/null || return 1
    $PACT tune "${g[@]}" --source hybrid:2 -o "$d/hy" >/dev/null || return 1
    local m="$d/hy/runs/model-reduce/results.csv"
    awk -F, -v OFS=, 'NR > 1 && $6 == "binary" { $6 = "binomial"; print; next }
        NR > 1 && $6 == "binomial" { $6 = "binary" } { print }' "$m" >"$m.new" && mv "$m.new" "$m"
    $PACT tune "${g[@]}" --source hybrid:2 -o "$d/hy" >/dev/null || return 1
    grep -A20 '^hybrid:' "$d/hy/summary.txt" | sed '/^per cell/,$d' >"$d/listed.txt"
    head -1 "$d/listed.txt"
    awk 'FNR == 1 { f++ }
        function bytes(s) { return s ~ /K$/ ? s * 1024 : s ~ /M$/ ? s * 1048576 : s + 0 }
        function at(t, n, b,   i) { for (i = 1; i <= t; i++) if (b >= lo[n, i] && b <= hi[n, i]) return al[n, i]; return "?" }
        f <= 2 && FNR > 1 { split($0, r, ","); n = f; t[n]++; lo[n, t[n]] = r[4]
            hi[n, t[n]] = r[5] == "inf" ? 1e30 : r[5]; al[n, t[n]] = r[6]; next }
        f == 3 && FNR == 1 { split($0, w, " "); same = w[8]; cells = w[10]; next }
        f == 3 && FNR > 2 { listed++; b = bytes(substr($3, 1, length($3) - 1))
            want = at(t[1], 1, b); want = want == "binary" ? "binomial" : want == "binomial" ? "binary" : want
            if ($4 != want || $7 != at(t[2], 2, b) || $5 == "nan" || $8 == "nan" || $5 + 0 < $8 + 0 || $10 == "-") {
                print "wrong: " $0 " (model: " want ", SimGrid: " at(t[2], 2, b) ")"; bad++ } }
        END { print listed + 0 " cells listed, " cells - same " overridden"
            exit !(bad == 0 && listed > 0 && listed == cells - same) }' \
        FS=, "$d/model/table.csv" "$d/hy/table.csv" FS=' ' "$d/listed.txt"
}
check "tune --source hybrid: the cells where SimGrid overrode the model, listed; a resumed run runs what it keeps" \
    tune_hybrid_overrides

# A SimGrid tuning killed mid-run resumes: no row lost or twice, and the table of an uninterrupted run.
tune_resume() {
    local a="$TMP/tune-sim-a" b="$TMP/tune-sim-b" g=(--nodes 1 --ppn 4 --coll allreduce,bcast --sizes 8,4K,64K
        --patterns no_delay,last_delayed --reps 1 --source sim --jobs 1 --no-figures -q)
    rm -rf "$a" "$b"
    $PACT tune "${g[@]}" -o "$a" >/dev/null || return 1
    $PACT tune "${g[@]}" -o "$b" >/dev/null &
    local pid=$! i
    for i in $(seq 1 200); do
        [ -s "$b/runs/smpi-allreduce/results.csv" ] && [ "$(wc -l <"$b/runs/smpi-allreduce/results.csv")" -gt 3 ] && break
        sleep 0.1
    done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    pkill -9 -f "$b/" 2>/dev/null
    [ ! -e "$b/table.csv" ] || { echo "the killed run had finished: nothing tested"; return 1; }
    $PACT tune "${g[@]}" -o "$b" >/dev/null || return 1
    cmp "$a/table.csv" "$b/table.csv" &&
        for c in allreduce bcast; do
            [ "$(sort "$a/runs/smpi-$c/results.csv" | uniq -d | wc -l)" -eq 0 ] &&
                diff <(sort "$a/runs/smpi-$c/results.csv") <(sort "$b/runs/smpi-$c/results.csv") || return 1
        done
}
check "tune --source sim killed, resumed: same table, rows once" tune_resume

# Sharded: --source sim and hybrid:2 in two shards, joined by pact tune merge, then the same command on the joined
# folder gives the table of one unsharded run, byte for byte, without simulating again; a merge missing a
# shard's runs fails and writes nothing; the model is not sharded.
tune_shard() {
    local src=$1 d="$TMP/shard-${1%%:*}" g=(--nodes 1,2 --ppn 2 --coll allreduce,bcast --sizes 8,1K,64K
        --patterns no_delay,last_delayed,random --reps 1 --source "$1" --no-figures -q)
    rm -rf "$d"
    $PACT tune "${g[@]}" -o "$d/whole" >/dev/null || return 1
    $PACT tune "${g[@]}" --shard 1/2 -o "$d/s1" >/dev/null || return 1
    $PACT tune "${g[@]}" --shard 2/2 -o "$d/s2" >/dev/null || return 1
    [ ! -e "$d/s1/table.csv" ] || { echo "a shard wrote a table"; return 1; }
    $PACT tune merge -o "$d/m" "$d/s1" "$d/s2" || return 1
    local before after
    before=$(cat "$d"/m/runs/*/results.csv | md5sum)
    $PACT tune "${g[@]}" -o "$d/m" >/dev/null || return 1
    after=$(cat "$d"/m/runs/*/results.csv | md5sum)
    [ "$before" = "$after" ] || { echo "the joined folder's runs changed: simulated again"; return 1; }
    cmp "$d/whole/table.csv" "$d/m/table.csv" || return 1
    echo "$(($(wc -l <"$d/m/table.csv") - 1)) rows, the same as one run's"
    # a shard's runs missing: refused, nothing written
    cp -r "$d/s2" "$d/s2-part" && rm -rf "$(ls -d "$d"/s2-part/runs/smpi-* | tail -1)"
    ! $PACT tune merge -o "$d/m2" "$d/s1" "$d/s2-part" 2>"$d/merge.err" && grep -q "cells have no results" "$d/merge.err" &&
        ! ls -d "$d"/m2* >/dev/null 2>&1
}
check "tune --source sim in 2 shards, merged: the table of one run" tune_shard sim
check "tune --source hybrid:2 in 2 shards, merged: the table of one run" tune_shard hybrid:2

# Bad input: exit 2, one line naming the field, no folder left behind.
tune_bad() {
    local d="$TMP/tune-bad" want=$1
    shift
    rm -rf "$d"
    bad_file "$want" $PACT tune --nodes 1 --ppn 4 --coll allreduce --sizes 8 -q --no-figures -o "$d" "$@" || return 1
    [ ! -e "$d" ] || { echo "$d was created"; return 1; }
}
check "tune bad: unknown objective" tune_bad "--objective fastest: unknown objective" --objective fastest
check "tune bad: unknown target" tune_bad "--target intel: unknown target" --target intel
check "tune bad: sizes the target cannot express" tune_bad "allgather of 67108864 B x the process count cannot be" \
    --nodes 32 --ppn 32 --coll allgather --sizes 1..64M --target mpich
check "tune bad: unknown source" tune_bad "--source hybrid:0: unknown source" --source hybrid:0
check "tune bad: algorithm the target cannot run" tune_bad "MPICH 4.0 cannot run allreduce segmented_ring" \
    --target mpich --algs recursive_doubling,segmented_ring
check "tune bad: parameter the target cannot carry" tune_bad "cannot carry parameter max_requests" \
    --target ompi --coll reduce --algs binomial:max_requests=4
check "tune bad: empty candidate set" tune_bad "'binomial' is an algorithm of none of the collectives" --algs binomial
check "tune bad: weight of a pattern not tuned" tune_bad "pattern 'random' is not among the patterns" \
    --patterns no_delay --objective expected:random=1
check "tune bad: unknown pattern" tune_bad "unknown pattern 'bogus'" --patterns no_delay,bogus
check "tune bad: --shard with the model" tune_bad "shards deal SimGrid's runs" --shard 1/2
check "tune bad: --shard 3/2" tune_bad "--shard 3/2: expected K/N" --shard 3/2 --source sim
check "tune bad: --shard 0/2 with hybrid, before the model runs" tune_bad "--shard 0/2: expected K/N" --shard 0/2 \
    --source hybrid
# A cell where no candidate can run, known before anything runs (MPICH's smp with a rank per node): exit 2 naming
# the cell and each candidate's restriction (before: exit 1 after the runs, "restricted or failed runs").
check "tune bad: no candidate can run at a cell (smp, a rank per node)" tune_bad \
    "bcast, 4 processes (1 per node), 8 bytes: no candidate can run there; smp: needs a node of two ranks or more" \
    --platform generic32x32 --nodes 4 --ppn 1 --coll bcast --algs smp --target mpich
printf 'coll: allreduce\nobjective: fastest\n' >"$TMP/tune-obj.yaml"
check "tune bad: objective in the file" tune_bad "tune-obj.yaml:2: objective fastest: unknown objective" \
    "$TMP/tune-obj.yaml"
# pact sim refuses the tuner's own fields.
tune_sim_refuses() {
    printf 'coll: allreduce\nobjective: robust\n' >"$TMP/tune-sim.yaml"
    bad_file "tune-sim.yaml:2: objective: a pact tune field" $PACT sim "$TMP/tune-sim.yaml" -o "$TMP/tune-sim-out" &&
        [ ! -e "$TMP/tune-sim-out" ]
}
check "sim refuses pact tune's fields" tune_sim_refuses

# pact tune check: a good table passes; a malformed one names its line.
tune_check_table() {
    $PACT tune check "$TMP/tune-robust/table.csv" || return 1
    sed '3s/,[0-9]*,inf,/,7,inf,/; 3s/,0,\([0-9]\)/,9,\1/' "$TMP/tune-robust/table.csv" >"$TMP/bad-table.csv"
    bad_file "bad-table.csv:3:" $PACT tune check "$TMP/bad-table.csv"
}
check "tune check: table.csv good and bad" tune_check_table

# The emitters' files: checked on writing (pact tune check agrees), a broken one refused with its line; the
# MPICH names and built-in tree pact carries are those of the MPICH installed.
tune_emitted() {
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall,allgather,barrier --target ompi \
        -o "$TMP/tune-ompi" >/dev/null || return 1
    $PACT tune "${TUNE_GRID[@]}" --coll allreduce,reduce,alltoall,allgather,barrier --target mpich \
        -o "$TMP/tune-mpich" >/dev/null || return 1
    $PACT tune check "$TMP/tune-ompi/ompi-rules.conf" && $PACT tune check "$TMP/tune-mpich/mpich-csel.json" ||
        return 1
    awk '!/^#/ && n++ == 3 { $1 = "0" $1 } { print }' "$TMP/tune-ompi/ompi-rules.conf" >"$TMP/bad-rules.conf"
    bad_file "bad-rules.conf:" $PACT tune check "$TMP/bad-rules.conf" || return 1
    sed '0,/"algorithm=MPIR_Allreduce_intra_recursive_doubling"/s//"algorithm=MPIR_Allreduce_intra_ring"/' \
        "$TMP/tune-mpich/mpich-csel.json" >"$TMP/bad-csel.json"
    bad_file "not an algorithm of MPICH" $PACT tune check "$TMP/bad-csel.json" || return 1
    bash scripts/mpich-csel-data.sh /usr/lib/x86_64-linux-gnu/libmpich.so.12 "$TMP/mpich_csel_data.inc" &&
        cmp tuner/emit/mpich_csel_data.inc "$TMP/mpich_csel_data.inc"
}
check "tune emits checked Open MPI and MPICH files; MPICH's names are the installed ones" tune_emitted

# MPICH broadcasts bytes whatever the datatype: pact tune runs MPICH's bcast on chars, so its byte-split scatter
# algorithms are candidates at 8 B on 16 ranks too (on the doubles these sizes would default to, a block of one
# byte splits an element and they were refused), and lose there to binomial.
tune_mpich_bcast_chars() {
    local d="$TMP/tune-mpich-bcast"
    $PACT tune --platform generic32x32 --nodes 1 --ppn 16 --coll bcast --sizes 8,64K --target mpich --exhaustive \
        --no-figures -q -o "$d" >/dev/null || return 1
    awk -F, 'NR > 1 && $7 == 8 && $6 ~ /^mpich_scatter/ { print $6, $8, $16 }' "$d/runs/model-bcast/results.csv" |
        sort | uniq -c | tee "$TMP/tmb.txt"
    grep "^bcast,16,16,0," "$d/table.csv"
    [ "$(awk '$4 == "ok" { n += $1 } END { print n + 0 }' "$TMP/tmb.txt")" -eq 22 ] &&
        ! grep -vq " ok$" "$TMP/tmb.txt" && grep -q "^bcast,16,16,0,[0-9]*,mpich_binomial," "$d/table.csv"
}
check "tune: MPICH's bcast on chars, its scatter algorithms candidates below P bytes" tune_mpich_bcast_chars

[ -n "${TUNE_ALONE:-}" ] && finish
true
