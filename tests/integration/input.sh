# tests/integration/input.sh - input that used to give a silent wrong answer or lose a run's integrity (issue 16, d and
# e): each is refused with exit 2, one line naming the file, line and field, and no output.  Sourced by
# tests/run-all.sh (check and bad_file come from tests/integration/lib.sh; $PACT and $TMP from
# tests/integration/integration.sh).
# Alone: bash -c 'source tests/integration/lib.sh; PACT=build/bin/pact TMP=$(mktemp -d); source tests/integration/input.sh; finish'

# refused WANT pact-args...: exit 2, one line on stderr containing WANT, and no folder $TMP/refused.
refused() {
    local want=$1; shift
    rm -rf "$TMP/refused"
    "$PACT" "$@" >"$TMP/refused.out" 2>"$TMP/refused.err"
    local st=$?
    cat "$TMP/refused.err"
    [ $st -eq 2 ] && [ "$(wc -l <"$TMP/refused.err")" -eq 1 ] && grep -qF -- "$want" "$TMP/refused.err" &&
        [ ! -e "$TMP/refused" ] && ! ls "$TMP" | grep -q "refused.*partial"
}

# 1. A skew the simulated clock cannot hold next to d^ (1e30 s gave d^ = 0, status ok), in every engine.
printf '0\n0\n0\n1e30\n' >"$TMP/huge.txt"
for engine in smpi replay model; do
    check "skew 1e30 s refused ($engine)" refused "--skew 1e+30 s: at most 1000 s" sim --engine $engine \
        --nodes 1 --ppn 4 --algs ring --sizes 8 --patterns last_delayed --skew 1e30 -o "$TMP/refused"
    check "skew factor 1e30 refused ($engine)" refused "--skew-factor 1e+30: at most 1e+06" sim \
        --engine $engine --nodes 1 --ppn 4 --algs ring --sizes 8 --skew-factor 1e30 -o "$TMP/refused"
    check "pattern file delay 1e30 s refused ($engine)" refused "$TMP/huge.txt:4: delay 1e+30 s" sim \
        --engine $engine --nodes 1 --ppn 4 --algs ring --sizes 8 --patterns "file:$TMP/huge.txt" -o "$TMP/refused"
done
check "skew 1e30 s refused (model predict --pattern)" refused "$TMP/huge.txt:4: delay 1e+30 s" model predict \
    --coll allreduce --alg ring -P 4 -m 8 --platform generic32x32 --pattern "$TMP/huge.txt"
check "skew 1e30 s refused (pattern gen)" refused "--skew 1e+30 s" pattern gen --shape last_delayed -p 4 \
    --skew 1e30 -o "$TMP/refused"

# 2. model fit: the unconstrained least squares gave negative beta for 4 of 6 allreduce algorithms on
# generic32x32 3,4,6 x 8 (model engine, R^2 >= 0.99); the fit is non-negative, and predict refuses a
# parameter file with a negative value.
fit_non_negative() {
    local d="$TMP/fitneg"
    $PACT sim --engine model --nodes 3,4,6 --ppn 8 --sizes 8,1K,64K,1M --patterns no_delay --reps 1 --no-figures \
        -q -o "$d" >/dev/null || return 1
    $PACT model fit "$d/results.csv" -o "$d/params.yaml" || return 1
    # gamma, then alpha and beta of every allreduce algorithm with a closed form (not MPICH's smp)
    local want=$((1 + 2 * $($PACT model predict --coll allreduce --alg all -P 8 -m 1K --alpha 1e-6 --beta 1e-9 \
        --format csv 2>/dev/null | awk -F, 'NR > 1 && $7 != "nan"' | wc -l)))
    awk -v want="$want" '$1 ~ /^(gamma|alpha|beta):$/ { n++; if ($2 < 0) { print "negative:", $0; bad++ } }
         END { if (n != want) print n " parameters, " want " expected"; exit (n != want || bad > 0) }' \
        "$d/params.yaml" || return 1
    sed '0,/beta: .*/s//beta: -1e-10/' "$d/params.yaml" >"$d/negative.yaml"
    refused "negative.yaml:8: beta: negative" model predict --coll allreduce --alg ring -P 8 -m 1K \
        --params "$d/negative.yaml"
}
check "model fit: non-negative parameters; predict --params refuses a negative one" fit_non_negative
# cedar 2,4,8 x 8 gave gamma -2e-10 (here, model engine: -3.2e-8): held at 0, and said so.
fit_gamma() {
    local d="$TMP/fitgamma"
    $PACT sim --engine model --platform cedar --nodes 2,4,8 --ppn 8 --sizes 8,1K,64K,1M --patterns no_delay \
        --reps 1 --no-figures -q -o "$d" >/dev/null || return 1
    $PACT model fit "$d/results.csv" | tee "$d/fit.out" || return 1
    grep -q '^gamma 0 s/B$' "$d/fit.out" && grep -q '^note: gamma held at 0' "$d/fit.out"
}
check "model fit: cedar's negative gamma held at 0 and noted" fit_gamma

# 3. A resumed sweep whose platform YAML or pattern file changed mixed rows of both: experiment.yaml keeps
# their SHA-256 and the resume is refused, naming the file; unchanged files resume as before.
changed_inputs() {
    local d="$TMP/digest"
    mkdir -p "$d"
    cp tests/data/shaheen_flat.yaml "$d/plat.yaml"
    printf '0\n1e-5\n0\n2e-5\n' >"$d/pat.txt"
    local args=(--engine model --platform "$d/plat.yaml" --nodes 4 --ppn 1 --algs ring --sizes 8
        --patterns "no_delay,file:$d/pat.txt" --no-figures -q -o "$d/out")
    $PACT sim "${args[@]}" >/dev/null && $PACT sim "${args[@]}" >/dev/null || return 1
    grep -q "^# sha256 [0-9a-f]\{64\} $d/plat.yaml$" "$d/out/experiment.yaml" || return 1
    printf '0\n1e-5\n0\n3e-5\n' >"$d/pat.txt"
    bad_file "$d/pat.txt: changed since the run" $PACT sim "${args[@]}" || return 1
    printf '0\n1e-5\n0\n2e-5\n' >"$d/pat.txt"
    echo "# a comment changes the bytes" >>"$d/plat.yaml"
    bad_file "$d/plat.yaml: changed since the run" $PACT sim "${args[@]}" &&
        [ "$(wc -l <"$TEST_LOG_DIR/badf.err")" -eq 1 ]
}
check "resume refuses a changed platform YAML or pattern file (sha256 in experiment.yaml)" changed_inputs
# ... and pact merge refuses shards run on other contents than the files have now.
changed_shard() {
    local d="$TMP/digest-shards"
    mkdir -p "$d"
    printf '0\n1e-5\n0\n2e-5\n' >"$d/pat.txt"
    local args=(--engine model --nodes 4 --ppn 1 --algs ring,recursive_doubling --sizes 8,1K
        --patterns "file:$d/pat.txt" --no-figures -q)
    $PACT sim "${args[@]}" --shard 1/2 -o "$d/s1" >/dev/null || return 1
    printf '0\n1e-5\n0\n3e-5\n' >"$d/pat.txt"
    $PACT sim "${args[@]}" --shard 2/2 -o "$d/s2" >/dev/null || return 1
    bad_file "$d/pat.txt: changed since the run in $d/s1 began" $PACT merge -o "$d/merged" "$d/s1" "$d/s2" &&
        [ ! -e "$d/merged" ]
}
check "merge refuses shards run on another content of a pattern file" changed_shard

# 4. Two runs without -o in the same second shared results/sim-<timestamp>: each gets its own folder.
default_folders() {
    local d="$TMP/default" pact
    pact=$(realpath "$PACT")
    mkdir -p "$d"
    (cd "$d" && for k in 1 2 3; do
        "$pact" sim --engine model --nodes 1 --ppn 4 --algs ring --sizes 8 --reps 1 --no-figures -q >/dev/null &
    done && wait) || return 1
    ls "$d/results"
    [ "$(ls "$d/results" | wc -l)" -eq 3 ] && [ "$(cat "$d"/results/*/results.csv | wc -l)" -eq 9 ]
}
check "pact sim without -o: runs started together get a folder each" default_folders

# 5. A failing smpirun showed the tail of SimGrid's backtrace: the cause is reported, with the log.  A
# smpirun that fails as SimGrid does (a fake one first on PATH) and a builder's refusal; a broken user XML,
# and a hostfile naming a host the XML lacks, are named against the user's files before smpirun runs.
smpirun_cause() {
    local d="$TMP/cause"
    mkdir -p "$d/bin"
    cat >"$d/bin/smpirun" <<'SH'
#!/bin/sh
echo "[0.000000] ./src/smpi/internals/smpi_shared.cpp:161: [smpi_shared/CRITICAL] Failed to allocate 8 GiB" >&2
echo "[0.000000] ./src/xbt/exception.cpp:75: [xbt_exception/CRITICAL] Current backtrace:" >&2
for i in 0 1 2 3 4 5 6 7 8; do echo "  ->  $i# 0x00007F6B4C6DC12F in /usr/lib/libsimgrid.so.3.32" >&2; done
echo "Aborted" >&2
exit 134
SH
    chmod +x "$d/bin/smpirun"
    PATH="$d/bin:$PATH" $PACT sim --nodes 1 --ppn 4 --algs ring --sizes 8 --patterns no_delay -q -o "$d/out" \
        2>"$d/err"
    local st=$?
    cat "$d/err"
    [ $st -eq 1 ] && [ "$(wc -l <"$d/err")" -eq 1 ] &&
        grep -qF "smpirun failed: Failed to allocate 8 GiB (log: $d/out/run/s0/smpirun-b0.log)" "$d/err" || return 1
    PATH="$d/bin:$PATH" $PACT sim --engine replay --nodes 1 --ppn 4 --algs ring --sizes 8 --patterns no_delay -q \
        -o "$d/replay" 2>"$d/err"
    st=$?
    cat "$d/err"
    [ $st -eq 1 ] && [ "$(wc -l <"$d/err")" -eq 1 ] &&
        grep -qF "smpirun -replay failed: Failed to allocate 8 GiB (log: $d/replay/run/s0/" "$d/err"
}
check "smpirun failure (smpi, replay): the cause and the log, not the backtrace" smpirun_cause
check "builder refusing knomial:radix=1: exit 2 before smpirun" refused "knomial builder refuses" sim \
    --coll bcast --algs knomial:radix=1 --nodes 1 --ppn 4 --sizes 8 -o "$TMP/refused"
user_xml() {
    local d="$TMP/userxml"
    $PACT platform export generic32x32 --nodes 2 --ppn 2 -o "$d" >/dev/null || return 1
    head -c 300 "$d/platform.xml" >"$d/broken.xml"
    printf 'node-0\nnode-7\n' >"$d/hosts"
    refused "$d/broken.xml:4: platform: not well-formed" sim --platform "$d/broken.xml" --hostfile "$d/hostfile" \
        -o "$TMP/refused" &&
        refused "$d/hosts:2: hostfile: host 'node-7' is not in $d/platform.xml" sim --platform "$d/platform.xml" \
            --hostfile "$d/hosts" -o "$TMP/refused"
}
check "user XML: malformed, or without a host of the hostfile: exit 2 naming the user's file" user_xml

# 6. smpi:NAME with a name SimGrid lacks failed only inside smpirun: refused up front with SimGrid's list.
check "smpi:NAME unknown to SimGrid: exit 2 with the valid names" refused \
    "SimGrid has no allreduce algorithm 'nosuch' (its allreduce algorithms: default, lr," sim --algs smpi:nosuch \
    --nodes 1 --ppn 4 -o "$TMP/refused"
check "smpi:NAME:bcast=NAME unknown to SimGrid: exit 2 with bcast's names" refused \
    "SimGrid has no bcast algorithm 'flat' (its bcast algorithms:" sim \
    --algs smpi:redbcast:reduce=ompi_basic_linear:bcast=flat --nodes 1 --ppn 4 -o "$TMP/refused"

# 7. --sizes 16G blamed the datatype; the limit is MPI's int element count.
check "sizes past INT_MAX elements: the message names the element count" refused \
    "an MPI count is an int, at most 2147483647 elements" sim --sizes 16G --nodes 1 --ppn 4 -o "$TMP/refused"

# 9. pattern gen node_delayed / two_level without a placement delayed one rank as if each were a node.
for shape in node_delayed two_level; do
    check "pattern gen $shape without --nodes/--ppn: exit 2" refused "--shape $shape: delays whole nodes" \
        pattern gen --shape $shape -p 8 --skew 1 -o "$TMP/refused"
done

# 10. A parameter given twice in an algorithm spec was accepted (the last one won).
check "algorithm parameter given twice: exit 2" refused "--algs chain:segsize=1K:segsize=2K: parameter segsize given twice" \
    sim --coll reduce --algs chain:segsize=1K:segsize=2K --nodes 1 --ppn 4 -o "$TMP/refused"

# 11. --skew-factor did not override an experiment file's skew (nor --skew its skew-factor): "give one".
skew_flags_override() {
    local d="$TMP/skewflag"
    mkdir -p "$d"
    printf 'nodes: 1\nppn: 4\nalgs: ring\nsizes: 8\nreps: 1\nengine: model\nskew: 1ms\n' >"$d/abs.yaml"
    printf 'nodes: 1\nppn: 4\nalgs: ring\nsizes: 8\nreps: 1\nengine: model\nskew-factor: 2\nskew-mode: own_nodelay\n' \
        >"$d/factor.yaml"
    $PACT sim "$d/abs.yaml" --skew-factor 3 --no-figures -q -o "$d/a" >/dev/null &&
        $PACT sim "$d/factor.yaml" --skew 5us --no-figures -q -o "$d/b" >/dev/null || return 1
    grep last_delayed "$d/a/results.csv" "$d/b/results.csv"
    grep -q ',last_delayed,mean_nodelay,3,' "$d/a/results.csv" &&
        grep -q ',last_delayed,absolute,,4.99999999999999[0-9]*e-06,' "$d/b/results.csv"
}
check "--skew-factor overrides a file's skew, --skew a file's skew-factor" skew_flags_override

# 12. pact list algorithms says what m is per collective (the alltoall costs counted it per process).
list_says_m() {
    $PACT list algorithms --format csv >"$TMP/algs-m.csv" || return 1
    grep -q '^alltoall,pairwise,.*,bytes per block$' "$TMP/algs-m.csv" &&
        grep -q '^allreduce,ring,.*,bytes per process$' "$TMP/algs-m.csv" &&
        $PACT list algorithms --coll alltoall | head -1 | grep -qF "m = bytes per block"
}
check "pact list algorithms: m per block for alltoall, per process for allreduce" list_says_m

# 13. tests/integration.sh named a script that does not exist (run-integration, for run-all.sh
# --integration-only): every script the tests, scripts, Makefile and READMEs name exists (as given, or in
# tests/ or scripts/).
scripts_exist() {
    local n missing=0
    for n in $(grep -ohE '[A-Za-z0-9_./-]+\.sh\b' tests/*.sh tests/*/*.sh tests/*/*.c scripts/*.sh Makefile \
        README.md results/README.md models/README.md sim/README.md 2>/dev/null | sort -u); do
        [ -e "$n" ] || [ -e "tests/${n##*/}" ] || [ -e "tests/integration/${n##*/}" ] || [ -e "scripts/${n##*/}" ] ||
            [ -e "tests/observe/${n##*/}" ] ||
            { echo "missing: $n"; missing=1; }
    done
    [ $missing -eq 0 ]
}
check "every script the tests and docs name exists" scripts_exist

# 14. (e) The summary named the winner but not by how much (runner-up and margin: tests/report.sh), nor the
# seconds a skew factor came to: the summary and pact sim's stderr give them per size.
skew_seconds() {
    local d="$TMP/skewsec"
    $PACT sim --engine model --nodes 2 --ppn 4 --algs ring,recursive_doubling --sizes 8,64K --reps 1 --no-figures \
        -o "$d" 2>"$d.err" >/dev/null || return 1
    cat "$d.err"
    local want
    want=$(awk -F, '$8 == "last_delayed" && $7 == 65536 { printf "%.4g", $11 * 1e6; exit }' "$d/results.csv")
    grep -Eq "^pact sim: generic32x32 allreduce 2 x 4: skew mean_nodelay x 1.5: 8 B [0-9.]+ us, 65536 B $want us$" \
        "$d.err" && grep -q "^skew in us per size: 8 B [0-9.]*, 65536 B [0-9.]*$" "$d/summary.txt" &&
        grep -q "runner-up *margin$" "$d/summary.txt"
}
check "pact sim: the skew in seconds per size on stderr and in the summary, runner-up and margin" skew_seconds

# 15. A benchmark run into the folder of an earlier one: bench-tune.sh timed pact tune resuming the runs there
# (a table in seconds that were not its own, seen in session 24), bench-model.sh appended its cells (and a
# second header) to the earlier csv. Both refuse such a folder before running anything, and leave it as it was.
bench_out_refused() {
    local d="$TMP/bench-old" rc out
    rm -rf "$d"
    mkdir -p "$d/model-barrier-0" "$d/m"
    echo old >"$d/model.txt"
    echo "set,old" >"$d/m/bench-model.csv"
    out=$(PACT=$PACT bash scripts/bench-tune.sh --model-only --colls barrier -o "$d" 2>&1) && rc=0 || rc=$?
    if [ "$rc" -ne 2 ] || ! grep -q "is not empty" <<<"$out"; then
        echo "bench-tune.sh: exit $rc: $out"
        return 1
    fi
    [ "$(cat "$d/model.txt")" = old ] && [ -z "$(ls -A "$d/model-barrier-0")" ] || return 1
    out=$(PACT=$PACT bash scripts/bench-model.sh --sets bench --seconds 1 -o "$d/m" 2>&1) && rc=0 || rc=$?
    if [ "$rc" -ne 2 ] || ! grep -q "an earlier run's" <<<"$out"; then
        echo "bench-model.sh: exit $rc: $out"
        return 1
    fi
    [ "$(cat "$d/m/bench-model.csv")" = "set,old" ] && [ ! -e "$d/m/bench-model.txt" ]
}
check "benchmarks refuse a folder that holds an earlier run" bench_out_refused

# stub_pact DIR: DIR made afresh, and DIR/pact an executable with the script on stdin (a pact for the scripts).
stub_pact() {
    rm -rf "$1"
    mkdir -p "$1"
    cat >"$1/pact"
    chmod +x "$1/pact"
}

# bench_model_refused PACT DIR OPTION VALUE TEXT: bench-model.sh --sets 1024 OPTION VALUE -o DIR (PACT a stub)
# exits 2 with one line that holds TEXT, before anything runs (DIR not made).
bench_model_refused() {
    local out rc
    out=$(PACT=$1 bash scripts/bench-model.sh --sets 1024 "$3" "$4" -o "$2" 2>&1) && rc=0 || rc=$?
    if [ "$rc" -ne 2 ] || [ "$(wc -l <<<"$out")" -ne 1 ] || ! grep -q -- "$5" <<<"$out" || [ -e "$2" ]; then
        echo "bench-model.sh $3 $4: exit $rc: $out"
        return 1
    fi
}

# 16. bench-model.sh --reps N runs each cell N times and keeps its fastest run, with the largest peak memory of
# the N: a stub pact whose runs take 0.9, 0.3 and 0.6 s and 1000, 2000 and 3000 KiB gives each cell's row
# 0.3 s and 2.9 MiB (the fastest run's own memory would be 2.0); its shapes given, as the default is every shape
# pact lists.  A count that is not a positive number, and --sizes with what is not a number of bytes, are
# refused (exit 2, one line) before anything runs.
bench_reps() {
    local d="$TMP/bench-reps" stub="$TMP/bench-reps/pact" out v
    stub_pact "$d" <<'STUB'
#!/usr/bin/env bash
# a pact that lists one barrier algorithm and answers each prediction with the next of three timings
case "$1 $2" in
"list algorithms") printf 'collective,algorithm\nbarrier,fake\n' ;;
"list patterns") echo no_delay ;;
"model predict")
    n=$(cat "$(dirname "$0")/count" 2>/dev/null || echo 0)
    echo $((n + 1)) >"$(dirname "$0")/count"
    t=(0.9 0.3 0.6) m=(1000 2000 3000)
    s=${t[n % 3]}
    echo "timing: coll=barrier alg=fake P=1024 bytes=0 pattern=x closed_s=0 prepare_s=0.1 evaluate_s=$s" \
        "total_s=$s cpu_s=$s maxrss_kib=${m[n % 3]} messages=1 events=1 status=ok" ;;
*) exit 3 ;;
esac
STUB
    PACT=$stub bash scripts/bench-model.sh --sets 1024 --colls barrier --shapes no_delay,random --reps 3 -o "$d/out" \
        >/dev/null 2>&1 || true
    [ "$(cat "$d/count")" = 6 ] || { echo "bench-model.sh --reps 3: $(cat "$d/count") runs for 2 cells"; return 1; }
    out=$(awk -F, 'NR > 1 { print $9, $10 }' "$d/out/bench-model.csv" | sort -u)
    [ "$out" = "0.3000 2.9" ] || { echo "bench-model.sh --reps 3: rows $out, not 0.3 s and 2.9 MiB"; return 1; }
    for v in 0 -1 x 2.5; do
        bench_model_refused "$stub" "$d/bad" --reps "$v" "--reps $v: expected a positive" || return 1
    done
    for v in 8,x 0 8,-1 1.5; do bench_model_refused "$stub" "$d/bad" --sizes "$v" "--sizes $v: " || return 1; done
}
check "bench-model.sh --reps keeps each cell's fastest run and refuses a count that is not a positive number, --sizes what is not bytes" bench_reps

# bench-model.sh --algs COLL/ALG,...: only those algorithms, their collectives only (a stub pact that lists two
# barrier algorithms and one allreduce algorithm runs barrier/other's cells alone); a name that is not COLL/ALG
# of pact list algorithms is refused (exit 2, one line) before anything runs.
bench_algs() {
    local d="$TMP/bench-algs" stub="$TMP/bench-algs/pact" out v
    stub_pact "$d" <<'STUB'
#!/usr/bin/env bash
case "$1 $2" in
"list algorithms")
    echo collective,algorithm
    case $4 in barrier) printf 'barrier,fake\nbarrier,other\n' ;; allreduce) echo allreduce,ring ;; esac ;;
"list patterns") echo no_delay ;;
"model predict")
    echo "timing: coll=$4 alg=$6 P=1024 bytes=0 pattern=x closed_s=0 prepare_s=0.1 evaluate_s=0.1 total_s=0.2" \
        "cpu_s=0.2 maxrss_kib=1000 messages=1 events=1 status=ok" ;;
*) exit 3 ;;
esac
STUB
    PACT=$stub bash scripts/bench-model.sh --sets 1024 --sizes 8 --shapes no_delay --algs barrier/other -o "$d/out" \
        >/dev/null 2>&1 || true
    out=$(awk -F, 'NR > 1 { print $2 "/" $3 }' "$d/out/bench-model.csv" | sort -u)
    [ "$out" = barrier/other ] || { echo "bench-model.sh --algs barrier/other ran: $out"; return 1; }
    for v in nope/x barrier barrier/none allreduce/fake; do
        bench_model_refused "$stub" "$d/bad" --algs "$v" "--algs: $v is not" || return 1
    done
}
check "bench-model.sh --algs runs those algorithms alone and refuses what pact does not list" bench_algs

# scripts/vm-memory.sh MIB: six measurements of what memory costs here, each a positive number with its unit;
# a size that is not a number of MiB is refused (exit 2, one line), as is one the program does not take.
vm_memory() {
    local out rc v
    out=$(CPU=0 bash scripts/vm-memory.sh 4) || return 1
    echo "$out" | tail -6
    [ "$(awk '$2 > 0 && ($3 == "ms/MiB" || $3 == "ns") { n++ } END { print n + 0 }' <<<"$out")" = 6 ] || return 1
    for v in x 0 -4 2; do
        out=$(bash scripts/vm-memory.sh "$v" 2>&1) && rc=0 || rc=$?
        if [ "$rc" -ne 2 ] || [ "$(wc -l <<<"$out")" -ne 1 ]; then
            echo "vm-memory.sh $v: exit $rc: $out"
            return 1
        fi
    done
}
check "vm-memory.sh measures page faults and random loads, refuses a size that is not MiB" vm_memory

# scripts/model-side-by-side.sh -f CELLS: two builds on a file's cells, each field checked before anything runs.
# Two stub pacts (one answers 0.6 s a cell, the other 0.4 s) show the rows and the count over 0.5 s, each round
# with the other binary first; a bad line is refused with the file and line, exit 2, one line, and no -o file.
side_cells() {
    local d="$TMP/side-cells" v out rc
    rm -rf "$d"
    mkdir -p "$d"
    for v in 0.6 0.4; do
        cat >"$d/pact-$v" <<STUB
#!/usr/bin/env bash
case "\$1 \$2" in
"list algorithms") [ "\$4" = alltoall ] || exit 2; printf 'collective,algorithm\nalltoall,pairwise\nalltoall,linear\n' ;;
"list patterns") printf 'no_delay   at once\nrandom   at random\n' ;;
"model predict") echo "timing: coll=alltoall total_s=$v status=ok"; echo $v >>"$d/order.log" ;;
*) exit 3 ;;
esac
STUB
        chmod +x "$d/pact-$v"
    done
    printf '# two cells\nalltoall pairwise 512 random\nalltoall linear 8 no_delay 0 # a comment\n' >"$d/ok.cells"
    out=$(bash scripts/model-side-by-side.sh "$d/pact-0.6" "$d/pact-0.4" -r 2 -f "$d/ok.cells" 2>&1) ||
        { echo "side-by-side -f: failed: $out"; return 1; }
    grep -q "^alltoall pairwise 512 random 1e-4 .* 0.6 .* 0.4 .*0.67$" <<<"$out" &&
        grep -q "^alltoall linear 8 no_delay 0 " <<<"$out" &&
        grep -q "^# over 0.5 s (issue 17): old 2, new 0, of 2 cells$" <<<"$out" ||
        { echo "side-by-side -f: $out"; return 1; }
    # each round the other binary first (the second of a pair finds the pages the first freed)
    [ "$(paste -sd' ' "$d/order.log")" = "0.6 0.4 0.4 0.6 0.6 0.4 0.4 0.6" ] ||
        { echo "side-by-side -f: binaries ran in the order $(paste -sd' ' "$d/order.log")"; return 1; }
    for v in "alltoall pairwise 512|:1: expected COLLECTIVE" "alltoall nope 512 random|:1: algorithm nope" \
        "bcast linear 8 random|:1: collective bcast" "alltoall linear 1x random|:1: bytes 1x" \
        "alltoall linear 8 sideways|:1: shape sideways" "alltoall linear 8 random 1s|:1: skew 1s" \
        "# nothing|: no cells"; do
        printf '%s\n' "${v%%|*}" >"$d/bad.cells"
        out=$(bash scripts/model-side-by-side.sh "$d/pact-0.6" "$d/pact-0.4" -f "$d/bad.cells" -o "$d/out.txt" 2>&1) &&
            rc=0 || rc=$?
        if [ "$rc" -ne 2 ] || [ "$(wc -l <<<"$out")" -ne 1 ] || ! grep -qF -- "${v#*|}" <<<"$out" ||
            [ -e "$d/out.txt" ]; then
            echo "side-by-side -f with '${v%%|*}': exit $rc: $out"
            return 1
        fi
    done
    out=$(bash scripts/model-side-by-side.sh "$d/pact-0.6" "$d/pact-0.4" -f "$d/none.cells" 2>&1) && rc=0 || rc=$?
    [ "$rc" = 2 ] && grep -q "none.cells: no such readable file" <<<"$out" || { echo "missing -f file: $out"; return 1; }
}
check "model-side-by-side.sh -f: a file's cells side by side, counted over 0.5 s; a bad line refused with its file and line" \
    side_cells

# 6. pact starts again with glibc's malloc on transparent huge pages (cli/pact.c, GLIBC_TUNABLES): pact itself
# runs with them, what it starts (a fake smpirun first on PATH, which records its own GLIBC_TUNABLES, and its
# parent's and the user's value that pact kept, from /proc) gets the user's back, a user's malloc tunable or
# PACT_HUGE_PAGES=0 leaves pact as started, and a bad PACT_HUGE_PAGES is refused.
huge_pages_env() {
    local d="$TMP/thp" ours=glibc.malloc.hugetlb=1 # the first of pact's (ld.so may cut the rest off in place)
    mkdir -p "$d/bin"
    cat >"$d/bin/smpirun" <<'SH'
#!/bin/sh
echo "child ${GLIBC_TUNABLES-unset} ${PACT_GLIBC_TUNABLES_BEFORE-none}" >>"$THP_RECORD"
tr '\0' '\n' </proc/$PPID/environ >"$THP_RECORD.env"
b=$(sed -n 's/^PACT_GLIBC_TUNABLES_BEFORE=//p' "$THP_RECORD.env")
echo "pact $(sed -n 's/^GLIBC_TUNABLES=\([^:]*\).*/\1/p' "$THP_RECORD.env") ${b:-none}" >>"$THP_RECORD"
exit 1
SH
    chmod +x "$d/bin/smpirun"
    # thp_run ENV...: what the fake smpirun recorded when pact ran under env ENV...
    thp_run() {
        rm -rf "$d/rec" "$d/out"
        env "$@" PATH="$d/bin:$PATH" THP_RECORD="$d/rec" "$PACT" sim --nodes 1 --ppn 4 --algs ring --sizes 8 \
            --patterns no_delay -q -o "$d/out" >/dev/null 2>&1
        head -2 "$d/rec"
    }
    local got want user=glibc.cpu.x86_rep_movsb_threshold=4096
    for v in "-u GLIBC_TUNABLES|child unset none|pact $ours -" \
        "GLIBC_TUNABLES=$user|child $user none|pact $ours =$user" \
        "GLIBC_TUNABLES=glibc.malloc.hugetlb=0|child glibc.malloc.hugetlb=0 none|pact glibc.malloc.hugetlb=0 none" \
        "-u GLIBC_TUNABLES PACT_HUGE_PAGES=0|child unset none|pact  none"; do
        IFS='|' read -r env1 c p <<<"$v"
        want=$(printf '%s\n%s' "$c" "$p")
        # shellcheck disable=SC2086 # env1: words for env
        got=$(thp_run $env1)
        [ "$got" = "$want" ] || { printf 'under env %s:\n%s\nwanted:\n%s\n' "$env1" "$got" "$want"; return 1; }
    done
    PACT_HUGE_PAGES=2 "$PACT" list algorithms >"$d/bad.out" 2>"$d/bad.err"
    local st=$?
    cat "$d/bad.err"
    [ $st -eq 2 ] && [ "$(cat "$d/bad.err")" = "pact: PACT_HUGE_PAGES=2: expected 0 or 1" ] && [ ! -s "$d/bad.out" ]
}
check "pact on glibc's huge pages, its children with the user's GLIBC_TUNABLES; PACT_HUGE_PAGES=2 refused" \
    huge_pages_env
# The answers do not depend on where memory is: 270 model rows (alltoall and allreduce, every algorithm, 128 and
# 256 ranks, three sizes and shapes; 252 of them run) the same bytes with and without huge pages.
huge_pages_same() {
    local d="$TMP/thpsame" k
    for k in 0 1; do
        PACT_HUGE_PAGES=$k "$PACT" sim --engine model --platform generic32x32 --nodes 4,8 --ppn 32 \
            --coll alltoall,allreduce --algs all --sizes 8,1K,64K --patterns no_delay,random,last_delayed --reps 1 \
            --no-figures -q -o "$d/$k" >/dev/null || return 1
    done
    wc -l "$d/0/results.csv"
    cmp "$d/0/results.csv" "$d/1/results.csv" && [ "$(grep -c ',ok' "$d/1/results.csv")" -ge 200 ]
}
check "model answers the same bytes with PACT_HUGE_PAGES=0 and 1" huge_pages_same

# scripts/batch-time.sh (where a run's time went, from its batches.csv files): on two hand-made files, the total,
# the phases, the bound waves and the heaviest rows with their shares, exactly; on the model run above, the total
# of its file's seconds; a folder without one, a line that is not a batch, and --top 0 refused with exit 2 and
# nothing on stdout.
batch_time() {
    local d="$TMP/batch-time" h out rc want
    rm -rf "$d"
    mkdir -p "$d/a/s0/run" "$d/b/s1/run" "$d/none" "$d/bad/run"
    h=study,collective,procs,phase,algorithm,bytes,cells,wall_s,sets_prepared,sets_reused,sets_resized,bounded_quick,bounded_full
    printf '%s\n' "$h" 0,allreduce,64,1,ring,8,1,1.000,1,0,0,0,0 0,allreduce,64,2,ring,8,10,3.000,0,1,0,0,0 \
        0,allreduce,64,2,ring,8,10,0.500,0,1,0,10,0 >"$d/a/s0/run/batches.csv"
    printf '%s\n' "$h" 1,alltoall,1024,2,pairwise,4096,11,5.500,1,0,0,0,0 >"$d/b/s1/run/batches.csv"
    out=$(bash scripts/batch-time.sh --top 5 "$d/a" "$d/b") || return 1
    echo "$out"
    want="# 2 batches.csv, 4 batches, 32 cells: 10.0 s in all (each batch on the worker that ran it)
# phase 1 (each algorithm without delay) 1.0 s (10.0%), phase 2 (the patterns) 9.0 s (90.0%), of which bound waves 0.5 s (5.0%)
collective      algorithm                       procs    cells   seconds  share
alltoall        pairwise                         1024       11       5.5  55.0%
allreduce       ring                               64       21       4.5  45.0%
collective      algorithm                       procs    cells   seconds  share
alltoall        pairwise                          all       11       5.5  55.0%
allreduce       ring                              all       21       4.5  45.0%"
    [ "$out" = "$want" ] || { printf 'wanted:\n%s\n' "$want"; return 1; }
    # the model run of huge_pages_same: the total is its file's seconds
    local f="$TMP/thpsame/1/run/batches.csv" sum
    sum=$(awk -F, 'NR > 1 { t += $8 } END { printf "%.1f", t }' "$f")
    bash scripts/batch-time.sh "$TMP/thpsame/1" | grep -q "^# 1 batches.csv, .* cells: $sum s in all" || return 1
    printf '%s\n' "$h" 0,allreduce,64,2,ring,8,10,3.000,0,1,0,0,0 0,allreduce,64,2,ring,8,10,x,0,1,0,0,0 \
        >"$d/bad/run/batches.csv"
    for v in "$d/none|$d/none: no batches.csv under it" "$d/bad|$d/bad/run/batches.csv:3: procs, phase" \
        "--top 0 $d/a|--top 0: not a number of rows"; do
        IFS='|' read -r args want <<<"$v"
        # shellcheck disable=SC2086 # args: words
        out=$(bash scripts/batch-time.sh $args 2>"$d/err") && rc=0 || rc=$?
        cat "$d/err"
        [ "$rc" -eq 2 ] && [ -z "$out" ] && grep -qF "batch-time.sh: $want" "$d/err" || return 1
    done
    # bench-tune.sh ends its table with it (a stub pact tune writes one batch of 2.5 s a run: three grids)
    stub_pact "$d/stub" <<STUB
#!/usr/bin/env bash
while [ \$# -gt 1 ] && [ "\$1" != -o ]; do shift; done
mkdir -p "\$2/runs/model-barrier/run"
printf '%s\\n' "$h" 0,barrier,64,2,linear,0,11,2.500,1,0,0,0,0 >"\$2/runs/model-barrier/run/batches.csv"
STUB
    out=$(PACT="$d/stub/pact" bash scripts/bench-tune.sh --model-only --colls barrier -o "$d/bench") || return 1
    echo "$out"
    grep -q "^# 3 batches.csv, 3 batches, 33 cells: 7.5 s in all" <<<"$out" &&
        grep -Eq "^barrier +linear +64 +33 +7.5 100.0%$" "$d/bench/model-time.txt"
}
check "batch-time.sh: where a run's time went from its batches.csv, also after bench-tune.sh's table; bad folders, lines and --top refused" \
    batch_time

# make test and make test-heavy (lib.sh's parts): a check of the main part runs in main and all, one of the heavy
# part in heavy and all, matrix_p's by MATRIX_PS, a bad PACT_TEST_PART is refused; and listed (PACT_TEST_LIST),
# the real suites' checks fall in both parts, and no two share a name (their logs are named by it: two checks
# "smpi correctness allreduce P=64" had shared one, side by side).
test_parts() {
    local d="$TMP/parts" part out want
    mkdir -p "$d"
    for part in "main|main1 mainpar p3" "heavy|heavy1 heavypar p5" "all|main1 heavy1 mainpar heavypar p3 p5"; do
        IFS='|' read -r part want <<<"$part"
        out=$(PACT_TEST_PART=$part PACT_TEST_LIST=0 TEST_LOG_DIR="$d" bash -c 'source tests/integration/lib.sh
            check main1 true; heavy check heavy1 true; check_par mainpar true; heavy check_par heavypar true
            matrix_p 3 check p3 true; matrix_p 5 check p5 true; finish' | awk '/^PASS/ { printf "%s%s", s, $2; s = " " }')
        echo "$part: $out"
        [ "$out" = "$want" ] || return 1
    done
    out=$(PACT_TEST_PART=quick bash -c 'source tests/integration/lib.sh; check a true' 2>&1) && return 1
    grep -q "PACT_TEST_PART=quick: expected main, heavy or all" <<<"$out" || return 1
    PACT_TEST_LIST=1 PACT_TEST_PART=all bash tests/run-all.sh --integration-only | grep -E '^(main|heavy) ' \
        >"$d/list" || return 1
    awk '{ n[$1]++ } END { print n["main"] + 0, "checks in the main part,", n["heavy"] + 0, "in the heavy part" }' "$d/list"
    grep -q '^main ' "$d/list" && grep -q '^heavy ' "$d/list" &&
        [ "$(cut -d' ' -f2- "$d/list" | sort | uniq -d | tee "$d/twice")" = "" ]
}
check "make test and make test-heavy: each check in its part; no two checks of one name" test_parts
