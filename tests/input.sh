# tests/input.sh - input that used to give a silent wrong answer or lose a run's integrity (issue 16, d and
# e): each is refused with exit 2, one line naming the file, line and field, and no output.  Sourced by
# tests/run-all.sh (check and bad_file come from tests/lib.sh; $PACT and $TMP from tests/integration.sh).
# Alone: bash -c 'source tests/lib.sh; PACT=build/bin/pact TMP=$(mktemp -d); source tests/input.sh; finish'

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
    awk '$1 ~ /^(gamma|alpha|beta):$/ { n++; if ($2 < 0) { print "negative:", $0; bad++ } }
         END { exit (n != 13 || bad > 0) }' "$d/params.yaml" || return 1
    sed '0,/beta: .*/s//beta: -1e-10/' "$d/params.yaml" >"$d/negative.yaml"
    refused "negative.yaml:8: beta: negative" model predict --coll allreduce --alg ring -P 8 -m 1K \
        --params "$d/negative.yaml"
}
check "model fit: non-negative parameters; predict --params refuses a negative one" fit_non_negative
