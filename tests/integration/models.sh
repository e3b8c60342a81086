# tests/integration/models.sh - sourced by run-all.sh after platforms.sh (needs tests/integration/lib.sh; uses $PACT and $TMP when set).
# Also runs alone: PACT=build-models/bin/pact bash tests/integration/models.sh
# The model engine against SimGrid: calibration recovers Shaheen-II's alpha, beta and gamma from simulated
# allreduce times; the evaluator's d^ is within 5% of SMPI's for every classic algorithm on generic32x32 at
# 32 nodes x 1 process; fitted parameter files feed predict; bad input exits 2 naming file, line and field.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    MODELS_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-models-XXXXXX")}
zeros() { for ((i = 0; i < $1; i++)); do echo 0; done; }

# Ring, Rabenseifner and recursive-doubling allreduce simulated on a flat platform with Shaheen-II's values
# (tests/data/shaheen_flat.yaml), P = 4, 6, 8, 12, 16, 4 KiB..4 MiB.  With per-algorithm alpha_a and beta_a,
# gamma is determined only by P that are not powers of two (there Rabenseifner's and recursive doubling's
# reduced bytes are not proportional to their moved bytes), hence 6 and 12.
calibration() {
    local d="$TMP/calibration"
    mkdir -p "$d"
    for P in 4 6 8 12 16; do
        $PACT sim --platform tests/data/shaheen_flat.yaml --nodes $P --ppn 1 --coll allreduce \
            --algs ring,rabenseifner,recursive_doubling --sizes 4K,64K,256K,1M,4M --patterns no_delay \
            --reps 1 -o "$d/p$P" >/dev/null || return 1
    done
    { head -1 "$d/p4/results.csv"; for P in 4 6 8 12 16; do tail -n +2 "$d/p$P/results.csv"; done; } >"$d/all.csv"
    $PACT model fit "$d/all.csv" -o "$d/params.yaml" | tee "$d/fit.out" || return 1
    awk 'function ok(x, want) { return x / want > 0.9 && x / want < 1.1 }
         /^gamma/ { g = $2 }
         $1 == "allreduce" && ($2 == "ring" || $2 == "rabenseifner") {
             n++; if (!ok($3, 1.5e-6) || !ok($4, 6.25e-11)) { print "off:", $0; bad = 1 } }
         END { if (!ok(g, 2e-10)) { print "gamma off:", g; bad = 1 }; exit bad || n != 2 }' "$d/fit.out" || return 1
    # The file feeds predict: ring at 16 ranks, 1 MiB, with the fitted values, against the simulated time.
    local sim model
    sim=$(awk -F, '$4 == 16 && $6 == "ring" && $7 == 1048576 { print $14 }' "$d/all.csv")
    model=$($PACT model predict --coll allreduce --alg ring -P 16 -m 1M --params "$d/params.yaml" --format csv |
        awk -F, 'NR == 2 { print $9 }')
    echo "ring 16 x 1 MiB: simulated $sim s, predicted from the fit $model s"
    awk -v a="$sim" -v b="$model" 'BEGIN { exit !(b / a > 0.99 && b / a < 1.01) }'
}
check "model fit recovers Shaheen-II alpha, beta, gamma within 10% (ring, rabenseifner)" calibration

# model_vs_smpi COLL: every algorithm of COLL on generic32x32, 32 nodes x 1 process, 8 B, 64 KiB and 1 MiB,
# no_delay and last_delayed (skew 100 us): the evaluator's d^ (pact model predict --platform, SimGrid's
# shared links) within 5% of SMPI's.
model_vs_smpi() {
    local c=$1 d="$TMP/vs-smpi-$1"
    $PACT sim --platform generic32x32 --nodes 32 --ppn 1 --coll "$c" --algs all --sizes 8,64K,1M \
        --patterns no_delay,last_delayed --skew 1e-4 --reps 1 -o "$d" >/dev/null || return 1
    zeros 32 >"$d/no_delay.txt"
    { zeros 31; echo 1e-4; } >"$d/last_delayed.txt"
    for m in 8 65536 1048576; do
        for pat in no_delay last_delayed; do
            $PACT model predict --coll "$c" --alg all -P 32 -m $m --platform generic32x32 \
                --pattern "$d/$pat.txt" --format csv | tail -n +2 | sed "s|,$d/$pat.txt,|,$pat,|"
        done
    done >"$d/model.csv" || return 1
    awk -F, 'NR == FNR { if (FNR > 1 && $16 == "ok") sim[$6 "," $7 "," $8] = $14; next }
             { k = $2 "," $5 "," $6; if (!(k in sim)) next; n++; e = $9 / sim[k] - 1
               printf "%-24s %8s %-13s smpi %12.4g model %12.4g  %+.2f%%\n", $2, $5, $6, sim[k], $9, 100 * e
               if (e > 0.05 || e < -0.05) bad = 1 }
             END { print n, "cells"; exit bad || n == 0 }' "$d/results.csv" "$d/model.csv"
}
for c in allreduce reduce bcast alltoall allgather barrier reduce_scatter; do
    check "model d^ within 5% of smpi, generic32x32 32x1: $c" model_vs_smpi $c
done

# pact sim --engine model against --engine smpi, row by row: two nodes of four ranks (intra- and inter-node
# messages), every algorithm, delayed patterns with skews derived from the no-delay cells.  Measured agreement
# is 1e-11 (allreduce, reduce, bcast) to 2e-4 (allgather neighbor): 1% leaves room, not slack for a bug.
engine_model() {
    local c=$1 m="$TMP/engine-model-$1" s="$TMP/engine-smpi-$1"
    local args=(--platform generic32x32 --nodes 2 --ppn 4 --coll "$c" --algs all --sizes 8,64K,1M --reps 1
        --patterns no_delay,last_delayed,random,node_delayed --skew-factor 1.5)
    $PACT sim "${args[@]}" --engine model -o "$m" >/dev/null || return 1
    $PACT sim "${args[@]}" -o "$s" >/dev/null || return 1
    paste -d, "$m/results.csv" "$s/results.csv" |
        awk -F, 'NR > 1 { n++; if ($13 != "model" || $29 != "smpi" || $16 != $32 || ($11 - $27) ^ 2 > (0.01 * $27) ^ 2) bad++
                          if ($16 == "ok") { e = ($14 - $30) / $30; if (e < 0) e = -e; if (e > mx) mx = e; if (e > 0.01) bad++ } }
                 END { printf "%d rows, max |model/smpi - 1| = %.3g\n", n, mx; exit (n == 0 || bad > 0) }'
}
for c in allreduce alltoall allgather barrier reduce_scatter; do
    check "sim --engine model agrees with smpi, 2x4 under patterns: $c" engine_model $c
done

# The model engine keeps each prepared schedule set between its waves (no delay, then the patterns) and takes it
# again (sim/study/engines.c): with a batch per (algorithm, size), 2 jobs, the rows of a run that keeps none
# (PACT_MODEL_KEEP_MIB=0) and of one with a batch per cell (several batches of one set at once, which keep a
# set only where a batch holds all of its phase's cells), byte for byte; sets reused only where kept.
engine_model_kept() {
    local d="$TMP/model-kept" k
    local args=(--platform generic32x32 --nodes 2,3 --ppn 4 --coll allreduce,alltoall --algs all --sizes 8,4K,64K
        --reps 1 --patterns no_delay,last_delayed,random,ascending --skew-factor 1.5 --engine model --jobs 2 -q
        --no-figures)
    rm -rf "$d"
    $PACT sim "${args[@]}" -o "$d/size" >/dev/null || return 1
    PACT_MODEL_KEEP_MIB=0 $PACT sim "${args[@]}" -o "$d/none" >/dev/null || return 1
    $PACT sim "${args[@]}" --batch cell -o "$d/cell" >/dev/null || return 1
    for k in none cell; do
        cmp "$d/size/results.csv" "$d/$k/results.csv" || return 1
    done
    local rs rn
    rs=$(awk -F, 'NR > 1 { r += $10 } END { print r + 0 }' "$d/size/run/batches.csv")
    rn=$(awk -F, 'NR > 1 { r += $10 } END { print r + 0 }' "$d/none/run/batches.csv")
    echo "$(($(wc -l <"$d/size/results.csv") - 1)) rows; sets reused: $rs kept, $rn with PACT_MODEL_KEEP_MIB=0"
    [ "$rs" -gt 0 ] && [ "$rn" -eq 0 ]
}
check "sim --engine model keeps schedule sets between waves: the same rows" engine_model_kept
# vs_smpi PLATFORM NODES PPN COLL ALGS SIZES [FLAGS...]: pact sim --engine model against --engine smpi, row by
# row, gamma 0 (network only), no_delay and last_delayed: d^ within 1%.  The cells exercise the routes of
# each machine's SimGrid export: fat-tree islands and their 2:1 trunks (cedar), both rail modes (thor),
# the dragonfly's routes within a router, a chassis, a group and across groups (shaheen2, dragonfly_small).
vs_smpi() {
    local plat=$1 nodes=$2 ppn=$3 c=$4 algs=$5 sizes=$6; shift 6
    local d="$TMP/vs-$(basename "$plat" .yaml)-$nodes-$ppn-$c-$(echo "$*" | tr -c 'a-z0-9' '_')"
    local args=(--platform "$plat" --nodes "$nodes" --ppn "$ppn" --coll "$c" --algs "$algs" --sizes "$sizes"
        --reps 1 --gamma 0 --patterns no_delay,last_delayed --skew 2e-5 "$@")
    nice $PACT sim "${args[@]}" --engine model -o "$d-model" >/dev/null || return 1
    nice $PACT sim "${args[@]}" -o "$d-smpi" >/dev/null || return 1
    paste -d, "$d-model/results.csv" "$d-smpi/results.csv" |
        awk -F, 'NR > 1 { n++; if ($13 != "model" || $29 != "smpi" || $16 != $32) bad++
                          if ($16 == "ok") { e = ($14 - $30) / $30; printf "%-20s %8s %-13s smpi %12.5g model %12.5g %+.3f%%\n", $6, $7, $8, $30, $14, 100 * e
                                             if (e < 0) e = -e; if (e > mx) mx = e; if (e > 0.01) bad++ } }
                 END { printf "%d rows, max |model/smpi - 1| = %.3g\n", n, mx; exit (n == 0 || bad > 0) }'
}
check "model vs smpi 1%: cedar islands of 2, 4x1 (2:1 trunks)" vs_smpi tests/data/cedar_small.yaml 4 1 \
    alltoall pairwise,linear 64K,1M
check "model vs smpi 1%: cedar islands of 2, 4x2 ring allreduce" vs_smpi tests/data/cedar_small.yaml 4 2 \
    allreduce ring,recursive_doubling 64K,1M
check "model vs smpi 1%: cedar 64x1 across two islands, alltoall" vs_smpi cedar 64 1 alltoall pairwise 64K
check "model vs smpi 1%: thor 4x8 rails sharing, alltoall" vs_smpi thor 4 8 alltoall pairwise 1M --rails sharing
check "model vs smpi 1%: thor 4x8 rails binding, alltoall" vs_smpi thor 4 8 alltoall pairwise 1M --rails binding
check "model vs smpi 1%: thor 4x8 rails sharing, ring" vs_smpi thor 4 8 allreduce ring 1M --rails sharing
check "model vs smpi 1%: thor 4x8 rails binding, ring" vs_smpi thor 4 8 allreduce ring 1M --rails binding
check "model vs smpi 1%: thor 4x8 binding, cyclic mapping" vs_smpi thor 4 8 allreduce ring 1M --rails binding \
    --mapping cyclic
check "model vs smpi 1%: mist 4x8 cyclic mapping" vs_smpi mist 4 8 allreduce ring,rabenseifner 1M --mapping cyclic
check "model vs smpi 1%: shaheen2 within a router, 4x2" vs_smpi shaheen2 4 2 allreduce ring,rabenseifner 8,64K
check "model vs smpi 1%: dragonfly_small 16x1, every route kind" vs_smpi tests/data/dragonfly_small.yaml 16 1 \
    alltoall pairwise,linear 64K
check "model vs smpi 1%: dragonfly_small 16x2, ring" vs_smpi tests/data/dragonfly_small.yaml 16 2 \
    allreduce ring 1M
check "model vs smpi 1%: shaheen2 across groups, 400x1" vs_smpi shaheen2 400 1 bcast binomial 8,64K
check "model vs smpi 1%: MPICH's alltoall scattered and pairwise, 2x8" vs_smpi generic32x32 2 8 alltoall \
    scattered,scattered:throttle=3,mpich_pairwise 8,64K
check "model vs smpi 1%: MPICH's binomial bcast, cedar 2x3, root 4" vs_smpi cedar 2 3 bcast mpich_binomial 8,64K,1M \
    --root 4
check "model vs smpi 1%: MPICH's binomial reduce, 2x4, root 5, gamma" vs_smpi generic32x32 2 4 reduce mpich_binomial \
    8,64K,1M --root 5 --gamma 1e-9
check "model vs smpi 1%: MPICH's Rabenseifner allreduce and reduce, 2x5, root 3, gamma" vs_smpi generic32x32 2 5 \
    allreduce,reduce mpich_reduce_scatter_allgather,mpich_reduce_scatter_gather 8,64K,1M --root 3 --gamma 1e-9
# MPICH's smp compositions: the node and node-leader parts with MPICH's own choices for them, every case of the
# bcast (8 B short, 16 KiB the root's node first, 1 MiB scatter + ring allgather at 8 ranks), roots off the
# node leaders, nodes of three and round-robin ranks (measured: 6e-14)
check "model vs smpi 1%: MPICH's smp allreduce, 2x4 cyclic, gamma" vs_smpi generic32x32 2 4 allreduce smp \
    8,1K,64K,1M --gamma 1e-9 --mapping cyclic
check "model vs smpi 1%: MPICH's smp reduce, 3x3, root 4, gamma" vs_smpi generic32x32 3 3 reduce smp 8,64K,1M \
    --root 4 --gamma 1e-9
check "model vs smpi 1%: MPICH's smp bcast, 2x4, root 5" vs_smpi generic32x32 2 4 bcast smp 8,16K,1M --root 5
check "model vs smpi 1%: MPICH's smp barrier, 3x3 cyclic" vs_smpi generic32x32 3 3 barrier smp 8 --mapping cyclic

# MPICH's algorithms against SimGrid's own copies of them (the `smpi` column of pact list algorithms), no delay,
# gamma 0: d^ equal to 1e-9 relative (measured: 1e-15 at 64 ranks, 8 B to 1 MiB).
# mpich_vs_simgrid COLL ALG SIMGRID [NODES PPN SIZES ROOT DTYPE] (default 2 x 8 ranks, 8 B, 1 KiB, 64 KiB,
# root 0, pact sim's datatype).
mpich_vs_simgrid() {
    local c=$1 alg=$2 sg=$3 nodes=${4:-2} ppn=${5:-8} sizes=${6:-8,1K,64K} root=${7:-0} dt=()
    [ -n "${8:-}" ] && dt=(--dtype "$8")
    local d="$TMP/mpich-sg-$1-${2%%:*}-$nodes-$ppn-$root"
    $PACT sim --platform generic32x32 --nodes "$nodes" --ppn "$ppn" --coll "$c" --algs "$alg,smpi:$sg" \
        --sizes "$sizes" --root "$root" --patterns no_delay --reps 1 --gamma 0 "${dt[@]}" -o "$d" >/dev/null || return 1
    awk -F, -v a="$alg" -v b="smpi:$sg" -v want="$(echo "$sizes" | tr , '\n' | wc -l)" '
        NR > 1 && $16 == "ok" { t[$6, $7] = $14; z[$7] = 1 }
        END { for (m in z) { n++; x = t[a, m]; y = t[b, m]; e = (x - y) / y; if (e < 0) e = -e
                             printf "%8s %s %.10g %s %.10g\n", m, a, x, b, y
                             if (x == "" || y == "" || e > 1e-9) bad++ }
              exit (n != want || bad > 0) }' "$d/results.csv"
}
check "MPICH's binomial bcast = SimGrid's binomial_tree" mpich_vs_simgrid bcast mpich_binomial binomial_tree
# MPICH's scatter bcasts split bytes and go on below P bytes (3 and 10 B on 16 and 12 ranks: Open MPI's switch
# to basic_linear there took a quarter of the time), off powers of two too (12, 7 ranks), root 1
check "MPICH's scatter + recursive doubling bcast = SimGrid's scatter_rdb_allgather, 2 x 8" mpich_vs_simgrid bcast \
    mpich_scatter_allgather scatter_rdb_allgather 2 8 3,10,1001,64K 1 char
check "MPICH's scatter + recursive doubling bcast = SimGrid's scatter_rdb_allgather, 2 x 6" mpich_vs_simgrid bcast \
    mpich_scatter_allgather scatter_rdb_allgather 2 6 3,10,1001,64K 1 char
check "MPICH's scatter + ring bcast = SimGrid's scatter_LR_allgather, 2 x 8" mpich_vs_simgrid bcast \
    mpich_scatter_allgather_ring scatter_LR_allgather 2 8 3,10,1001,64K 1 char
check "MPICH's scatter + ring bcast = SimGrid's scatter_LR_allgather, 7 ranks" mpich_vs_simgrid bcast \
    mpich_scatter_allgather_ring scatter_LR_allgather 1 7 3,10,1001,64K 1 char
check "MPICH's scattered alltoall = SimGrid's mvapich2_scatter_dest (throttle 4)" mpich_vs_simgrid alltoall \
    scattered:throttle=4 mvapich2_scatter_dest
check "MPICH's pairwise alltoall = SimGrid's pair (P = 16)" mpich_vs_simgrid alltoall mpich_pairwise pair
check "MPICH's binomial reduce = SimGrid's binomial" mpich_vs_simgrid reduce mpich_binomial binomial
# count >= pof2 only (below, MPICH and pact run recursive doubling; SimGrid's rab_rdb runs on), P = 12, 16
check "MPICH's reduce_scatter_allgather = SimGrid's rab_rdb, 2 x 6" mpich_vs_simgrid allreduce \
    mpich_reduce_scatter_allgather rab_rdb 2 6 1K,64K,1M
check "MPICH's reduce_scatter_allgather = SimGrid's rab_rdb, 2 x 8" mpich_vs_simgrid allreduce \
    mpich_reduce_scatter_allgather rab_rdb 2 8 1K,64K,1M
# SimGrid's scatter_gather truncates a receive (MPI_ERR_TRUNCATE) from 64 KiB up at 7 ranks and at 12: 7 ranks,
# a folded root (1) and one that goes on (2), up to 1 KiB
check "MPICH's reduce_scatter_gather = SimGrid's scatter_gather, 7 ranks, root 1" mpich_vs_simgrid reduce \
    mpich_reduce_scatter_gather scatter_gather 1 7 64,1K 1
check "MPICH's reduce_scatter_gather = SimGrid's scatter_gather, 7 ranks, root 2" mpich_vs_simgrid reduce \
    mpich_reduce_scatter_gather scatter_gather 1 7 64,1K 2
check "MPICH's pairwise reduce_scatter = SimGrid's mpich_pair, 2 x 6" mpich_vs_simgrid reduce_scatter mpich_pairwise \
    mpich_pair 2 6 64,1K,64K,1M
check "MPICH's recursive doubling reduce_scatter = SimGrid's mpich_rdb, 2 x 6" mpich_vs_simgrid reduce_scatter \
    mpich_recursive_doubling mpich_rdb 2 6 64,1K,64K,1M
check "MPICH's recursive doubling reduce_scatter = SimGrid's mpich_rdb, 5 ranks" mpich_vs_simgrid reduce_scatter \
    mpich_recursive_doubling mpich_rdb 1 5 64,1K,64K
# No silent wrong answer: what the model cannot route it refuses.
check "model engine refuses ranks on GPUs" bad_file "no GPU node model" \
    $PACT sim --platform cedar --nodes 2 --ppn 4 --ranks-on gpus --engine model -o "$TMP/never-gpu"
# pact model predict on a dragonfly: a nonzero latency, the routes' (Shaheen-II's hop latency, 2 to 7 links).
predict_dragonfly() {
    $PACT model predict --coll allreduce --alg ring -P 16 -m 8 --platform shaheen2 | tee "$TMP/pd.out"
    awk '/^# alpha/ { a = $3 + 0 } $1 == "ring" { cl = $2 + 0; ev = $4 + 0 }
         END { exit !(a >= 7.5e-7 && cl > 1 && ev > 1) }' "$TMP/pd.out"
}
check "model predict --platform shaheen2: nonzero alpha" predict_dragonfly
check "bad input: --engine model with a SimGrid built-in" bad_file "smpi:NAME" \
    $PACT sim --nodes 1 --ppn 4 --algs ring,smpi:lr --engine model -o "$TMP/never"

# bad_model WANT ARGS...: exit 2 and a message naming the problem.
bad_model() { # its files (BM) by process: the model engine's checks run side by side (check_par)
    local want=$1; shift
    BM="$TMP/bm.$BASHPID"
    $PACT model "$@" >"$BM.out" 2>"$BM.err"
    local st=$?
    cat "$BM.err"
    [ $st -eq 2 ] && grep -q -- "$want" "$BM.err"
}
# bad_model_env VAR=VALUE WANT: a test knob's bad value refuses the evaluation (exit 2, WANT on stderr) and
# prints nothing.
bad_model_env() {
    local -x "$1"
    bad_model "$2" predict --coll allreduce --alg ring -P 8 -m 8 --platform generic32x32 && [ ! -s "$BM.out" ]
}
printf 'platform,nodes,ppn,procs,collective,algorithm,bytes,pattern,skew_mode,skew_factor,skew_s,rep,engine,last_delay_s,total_delay_s,status\np,1,4,4,allreduce,ring,8,no_delay,none,,0,0,smpi,soon,1e-5,ok\n' \
    >"$TMP/bad-results.csv"
check "bad model input: a non-number in results.csv" bad_model "bad-results.csv:2: column last_delay_s" fit "$TMP/bad-results.csv"
check "bad model input: unknown algorithm" bad_model "no such allreduce algorithm" predict --coll allreduce \
    --alg best -P 4 -m 8 --alpha 1e-6 --beta 1e-9
check "bad model input: pattern of the wrong length" bad_model "3 delays for 4 processes" predict \
    --coll allreduce --alg ring -P 4 -m 8 --platform generic32x32 --pattern <(printf '0\n0\n0\n')
check "bad model input: unknown --dtype" bad_model "dtype long: expected char, int, float or double" predict \
    --coll bcast --alg binomial -P 4 -m 8 --dtype long --platform generic32x32
check "bad model input: -m not whole --dtype elements" bad_model "m 10 is not a whole number of int elements" \
    predict --coll bcast --alg binomial -P 4 -m 10 --dtype int --platform generic32x32
# More ranks than the platform places (pact sim refuses the same): 64 ranks one per node on 32 nodes had been
# evaluated on a 64-node switch that generic32x32 does not have, and 1024 of them took hours (linear alltoall)
check "bad model input: more nodes than the platform" bad_model \
    "P 64 at --ppn 1 needs 64 nodes: generic32x32 has 32" predict --coll alltoall --alg linear -P 64 -m 8 \
    --platform generic32x32
check "bad model input: a negative --ppn" bad_model "ppn -4: expected a number of ranks per node >= 1" predict \
    --coll alltoall --alg linear -P 64 --ppn -4 -m 8 --platform generic32x32
check "bad model input: more ranks per node than cores" bad_model "ppn 64: generic32x32 has 32 cores per node" \
    predict --coll alltoall --alg linear -P 128 --ppn 64 -m 8 --platform generic32x32
# MPICH's scatter + recursive doubling bcast at 8 B on 256 ranks: on doubles its byte blocks split an element
# (skipped, saying why); on chars it is evaluated as MPICH runs it, blocks of one byte and 248 ranks with none,
# slower than binomial (Open MPI's scatter_allgather switches to basic_linear there, faster than both)
mpich_bytes() {
    local at="--coll bcast -P 256 --ppn 32 -m 8 --platform generic32x32 --format csv"
    # shellcheck disable=SC2086
    $PACT model predict --alg mpich_scatter_allgather $at 2>"$TMP/mb.err" | tee "$TMP/mb-double.csv"
    cat "$TMP/mb.err"
    # shellcheck disable=SC2086
    $PACT model predict --alg mpich_scatter_allgather,mpich_binomial,scatter_allgather --dtype char $at |
        tee "$TMP/mb-char.csv"
    grep -q ",skipped$" "$TMP/mb-double.csv" && grep -q "not whole elements" "$TMP/mb.err" &&
        awk -F, '$10 == "ok" { d[$2] = $9 }
                 END { exit !(d["mpich_scatter_allgather"] > d["mpich_binomial"] &&
                              d["mpich_binomial"] > d["scatter_allgather"]) }' "$TMP/mb-char.csv"
}
check "model predict --dtype char: MPICH's byte-split bcast as MPICH runs it below P bytes" mpich_bytes

# The model engine's checks from here run side by side (check_par), the longest first.
# ties_rejoin: pairwise alltoall on 1024 ranks (32 x 32) without delay, the nodes symmetric: the sharing's sums
# of other classes' rates, taken in an order that follows each link's history, gave symmetric classes rates an
# ulp apart, so their ends split into instants an ulp apart (at 512 B and 1 KiB, not at 511 B or 1023 B), each
# shared alone: d^ 7.8% below SimGrid's at 512 B and twice the events (COALESCE_REL, models/eval_int.h).  The
# model's d^ is SimGrid's to 1e-6 at 512 B; with PACT_MODEL_COALESCE=0 (the evaluator before, which failed
# this check) the cell still splits (more than 1% off), so this cell exercises the rule.  A bad value is
# refused.
ties_rejoin() {
    local args=(--platform generic32x32 --nodes 32 --ppn 32 --coll alltoall --algs pairwise --sizes 512
        --reps 1 --patterns no_delay)
    nice $PACT sim "${args[@]}" --engine model -o "$TMP/tie-model" >/dev/null || return 1
    PACT_MODEL_COALESCE=0 nice $PACT sim "${args[@]}" --engine model -o "$TMP/tie-split" >/dev/null || return 1
    nice $PACT sim "${args[@]}" -o "$TMP/tie-smpi" >/dev/null || return 1
    paste -d, "$TMP/tie-model/results.csv" "$TMP/tie-split/results.csv" "$TMP/tie-smpi/results.csv" |
        awk -F, 'NR == 2 { n++; printf "smpi %.17g model %.17g split %.17g\n", $46, $14, $30
                           e = ($14 - $46) / $46; s = ($30 - $46) / $46
                           if ($13 != "model" || $29 != "model" || $45 != "smpi" || $16 != "ok" || $48 != "ok") bad++
                           if (e < 0) e = -e; if (s < 0) s = -s; if (e > 1e-6 || s < 0.01) bad++ }
                 END { exit (n != 1 || bad > 0) }' || return 1
    bad_model_env PACT_MODEL_COALESCE=2 "PACT_MODEL_COALESCE=2: not 0"
}
check_par "model engine: class ends an ulp after an instant join it (1024 ranks, pairwise, 512 B: SimGrid's d^)" \
    ties_rejoin

# Exactness: 30,030 cells (every algorithm of the seven collectives on generic32x32 under the 11 shapes, the
# four routed machines, 256 ranks, alltoall at 60-120 ranks, the equivalence cells of the five machines) give
# the d^, d* and skews the evaluator of 6b06bfe gave (tests/data/model-exact/reference/), to 1e-9 relative;
# the listed ties excepted (tests/data/model-exact/ties.txt).  The routed machines' 8,880 cells (mx-b) took a
# minute until routed flows shared in classes (models/links.c); now about 7 s.
model_exact() {
    PACT=$PACT bash scripts/model-exact.sh -o "$TMP/exact" --ref tests/data/model-exact/reference \
        --ties tests/data/model-exact/ties.txt --sets mx-a,mx-b,mx-c,mx-d,eq-a,eq-b,eq-c
}
check_par "model engine: 30,030 cells equal to the reference evaluator's" model_exact

# The comparison can fail: one cell's d^ moved by 1e-8 relative is reported.
model_exact_fails() {
    mkdir -p "$TMP/exact-bad/eq-b"
    gzip -dc tests/data/model-exact/reference/eq-b.csv.gz |
        awk -F, -v OFS=, -v OFMT=%.17g -v CONVFMT=%.17g 'NR == 10 { $14 = $14 * (1 + 1e-8) } { print }' >"$TMP/exact-bad/eq-b/results.csv"
    ! PACT=$PACT bash scripts/model-exact.sh -o "$TMP/exact2" --ref "$TMP/exact-bad" --sets eq-b >"$TMP/exact2.out" &&
        grep -q "eq-b row 10 field 14" "$TMP/exact2.out"
}
check_par "model engine: the exactness comparison reports a moved cell" model_exact_fails

# The shared links' two ways of finding the most constrained link (a scan up to FILL_SCAN links, a heap above)
# give the same answers to the last bit: the routed machines, 256 ranks and alltoall at 60-120 ranks with the
# heap always (PACT_MODEL_FILL_SCAN=0) and the scan always, byte for byte the results of the default; and cells
# whose components pass 128 links (alltoall on 160 nodes of one switch, under delays: by default the heap there,
# as fast as PACT_MODEL_FILL_SCAN=0 and slower than the scan).  A bad value is refused before anything runs.
model_fill_ways() {
    local sets=mx-b,mx-c,mx-d way
    for way in 0 4294967295; do
        PACT_MODEL_FILL_SCAN=$way PACT=$PACT bash scripts/model-exact.sh -o "$TMP/fill-$way" --sets $sets \
            >/dev/null || return 1
        for n in ${sets//,/ }; do
            cmp "$TMP/exact/$n/results.csv" "$TMP/fill-$way/$n/results.csv" || return 1
        done
    done
    local args=(--coll alltoall --alg pairwise,linear -m 1K --net shared --alpha 2e-6 --beta 8e-10 --gamma 2e-10
        --shape random --skew 1e-5 --format csv)
    # the whole components' sharing (PACT_MODEL_SHARE_LOCAL=0), as most sharings here are local by default
    local -x PACT_MODEL_SHARE_LOCAL=0 # this function's commands only, also where one fails
    for P in 160; do
        $PACT model predict "${args[@]}" -P $P >"$TMP/fill-d-$P.csv" &&
            PACT_MODEL_FILL_SCAN=0 $PACT model predict "${args[@]}" -P $P >"$TMP/fill-0-$P.csv" &&
            PACT_MODEL_FILL_SCAN=100000 $PACT model predict "${args[@]}" -P $P >"$TMP/fill-s-$P.csv" &&
            [ "$(wc -l <"$TMP/fill-d-$P.csv")" -eq 3 ] && cmp "$TMP/fill-d-$P.csv" "$TMP/fill-0-$P.csv" &&
            cmp "$TMP/fill-d-$P.csv" "$TMP/fill-s-$P.csv" || return 1
    done
    # lockstep on 512 nodes: a local sharing of 1,024 links in 512 components of 2 links, filled one
    # component at a time (links.c, fill_parts), the bytes of one scan over all of them
    # shellcheck disable=SC2054 # commas inside flag values
    local lock=(--coll allreduce --alg recursive_doubling,rabenseifner -m 64K -P 512 --net shared --alpha 2e-6
        --beta 8e-10 --gamma 2e-10 --format csv)
    PACT_MODEL_SHARE_LOCAL=1 $PACT model predict "${lock[@]}" >"$TMP/fill-l-d.csv" &&
        PACT_MODEL_SHARE_LOCAL=1 PACT_MODEL_FILL_SCAN=100000 $PACT model predict "${lock[@]}" >"$TMP/fill-l-s.csv" &&
        [ "$(grep -c ',ok$' "$TMP/fill-l-d.csv")" -eq 2 ] && cmp "$TMP/fill-l-d.csv" "$TMP/fill-l-s.csv" || return 1
    bad_model_env PACT_MODEL_FILL_SCAN=lots "PACT_MODEL_FILL_SCAN=lots: not a number"
}
check_par "model engine: sharing by scan and by heap, the same answers (routed, 256 ranks, 160 nodes, 512 in lockstep)" model_fill_ways

# The local sharing (models/links.c, share_local: the classes through the links an instant touched are shared
# again over their own links, the others keeping their rates, where the result passes the max-min check).
# PACT_MODEL_SHARE_LOCAL=2 shares each such instant both ways, and an evaluation fails where a rate differs by
# more than 1e-9: the routed machines, 256 ranks and alltoall at 60-120 ranks (1.0 million local sharings),
# and 256 ranks of generic32x32 (8 nodes x 32) under random arrivals for pairwise and linear alltoall, ring
# allreduce and MPICH's pairwise reduce-scatter, whose sharings at 1024 ranks are local but for a few (linear
# alltoall's: each node's link carries classes to every other node, past LOCAL_LINKS).  Bad values refused.
model_share_local() {
    PACT_MODEL_SHARE_LOCAL=2 PACT=$PACT bash scripts/model-exact.sh -o "$TMP/local" --sets mx-b,mx-c,mx-d \
        >/dev/null || return 1
    local c
    for c in "alltoall pairwise,linear 1K" "allreduce ring 1M" "reduce_scatter mpich_pairwise 1M"; do
        set -- $c
        PACT_MODEL_SHARE_LOCAL=2 $PACT model predict --coll $1 --alg $2 -m $3 -P 256 --ppn 32 \
            --platform generic32x32 --shape random --skew 1e-4 --format csv >"$TMP/local-$1.csv" || return 1
        [ "$(tail -n +2 "$TMP/local-$1.csv" | grep -c ",ok$")" = "$(echo "${2//,/ }" | wc -w)" ] || return 1
    done
    bad_model_env PACT_MODEL_SHARE_LOCAL=yes "PACT_MODEL_SHARE_LOCAL=yes: not 0"
}
check_par "model engine: every local sharing equals its component's whole sharing (PACT_MODEL_SHARE_LOCAL=2)" \
    model_share_local

# A whole sharing keeps the component it walked, and the next one reuses it while no class was made or freed
# (models/links.c, comp_kept): byte for byte the answers of walking it every time (PACT_MODEL_COMP_KEEP=0),
# on linear, linear_sync and pairwise alltoall at 80 ranks (20 nodes x 4: a node link carries 19 classes,
# shared whole; linear's 1,174 sharings reuse the component 837 times) and 120 ranks (20 x 6), and on mx-d
# with every instant shared whole (PACT_MODEL_SHARE_LOCAL=0).  These are one switch of at most 64 nodes, which
# share_dense shares whole by default: PACT_MODEL_SHARE_DENSE=0 here.  A bad value is refused.
model_comp_keep() {
    local c k
    local -x PACT_MODEL_SHARE_DENSE=0 # this function's commands only
    for k in 0 1; do
        for c in "80 4 1K random" "80 4 64K no_delay" "120 6 8 ascending"; do
            set -- $c
            PACT_MODEL_COMP_KEEP=$k $PACT model predict --coll alltoall --alg linear,linear_sync,pairwise -P $1 \
                --ppn $2 -m $3 --platform generic32x32 --shape $4 --skew 1e-4 --format csv || return 1
        done >"$TMP/keep-$k.csv"
        PACT_MODEL_COMP_KEEP=$k PACT_MODEL_SHARE_LOCAL=0 PACT=$PACT bash scripts/model-exact.sh \
            -o "$TMP/keep-$k" --sets mx-d >/dev/null || return 1
    done
    [ "$(grep -c ",ok$" "$TMP/keep-1.csv")" = 9 ] && cmp "$TMP/keep-0.csv" "$TMP/keep-1.csv" &&
        cmp "$TMP/keep-0/mx-d/results.csv" "$TMP/keep-1/mx-d/results.csv" || return 1
    bad_model_env PACT_MODEL_COMP_KEEP=yes "PACT_MODEL_COMP_KEEP=yes: not 0"
}
check_par "model engine: a whole sharing that reuses its component gives the walk's answers (PACT_MODEL_COMP_KEEP=0)" \
    model_comp_keep

# One switch of at most 64 nodes is shared whole by bit masks over the nodes (models/links.c, share_dense)
# where the local sharing cannot tell: byte for byte the answers of share_whole's lists (PACT_MODEL_SHARE_DENSE
# =0), on mx-a, mx-c and mx-d with every instant shared whole (PACT_MODEL_SHARE_LOCAL=0: 2 to 32 nodes, the
# eleven shapes, thousands of sharings whose links tie in capacity left per flow, which the masks must fix in
# order of link as the lists' scan does), and by default on linear, linear_sync and pairwise alltoall at 512
# ranks (16 nodes x 32: linear's sharings are all whole, pairwise's nearly all local).  A bad value is refused.
# knob_run OUT 'VAR=V ..' 'VAR=V ..': mx-a, mx-c and mx-d under the first assignments into OUT/, and
# linear, linear_sync and pairwise alltoall at 512 ranks (16 nodes x 32; 1 KiB random, 64 KiB without delay,
# 8 B ascending) under the second into OUT.csv.  knob_same OUT0 OUT1: the same bytes, none of them empty.
knob_run() {
    local c
    # shellcheck disable=SC2086 # the assignments' words
    env $2 PACT="$PACT" bash scripts/model-exact.sh -o "$1" --sets mx-a,mx-c,mx-d >/dev/null || return 1
    for c in "1K random" "64K no_delay" "8 ascending"; do
        # shellcheck disable=SC2086 # the cell's two words
        set -- "$1" "$2" "$3" $c
        # shellcheck disable=SC2086 # the assignments' words
        env $3 "$PACT" model predict --coll alltoall --alg linear,linear_sync,pairwise -P 512 --ppn 32 -m "$4" \
            --platform generic32x32 --shape "$5" --skew 1e-4 --format csv || return 1
    done >"$1.csv"
}
knob_same() {
    local n
    [ "$(grep -c ",ok$" "$2.csv")" = 9 ] && cmp "$1.csv" "$2.csv" || return 1
    for n in mx-a mx-c mx-d; do
        [ "$(wc -l <"$2/$n/results.csv")" -gt 200 ] && cmp "$1/$n/results.csv" "$2/$n/results.csv" || return 1
    done
}
# knob_01 NAME VAR 'VAR=V ..' 'VAR=V ..': knob_run with VAR=0 and with VAR=1 (beside the first assignments
# for the sets, the second for the cells) into $TMP/NAME-0 and -1, the same bytes; VAR=2 refused.
knob_01() {
    local v
    for v in 0 1; do
        knob_run "$TMP/$1-$v" "$2=$v $3" "$2=$v $4" || return 1
    done
    knob_same "$TMP/$1-0" "$TMP/$1-1" && bad_model_env "$2=2" "$2=2: not 0"
}
model_share_dense() { knob_01 dense PACT_MODEL_SHARE_DENSE PACT_MODEL_SHARE_LOCAL=0 ""; }
check_par "model engine: one switch shared whole by bit masks gives the lists' answers (PACT_MODEL_SHARE_DENSE=0)" \
    model_share_dense

# Where the processor has AVX2, two paths use it (models/links.c): share_dense's filling, four nodes at a time,
# and the least of the flat class ends, four at a time.  Byte for byte the scalar paths' answers
# (PACT_MODEL_AVX2=0), on mx-a, mx-c and mx-d with every instant shared whole and every class end flat (2 to 32
# nodes, the eleven shapes, links that tie in capacity left per flow, ends that tie in time), and on linear,
# linear_sync and pairwise alltoall at 512 ranks with every class end flat.  On a processor without AVX2 both
# runs take the scalar paths.  A bad value is refused.
model_avx2() { knob_01 avx2 PACT_MODEL_AVX2 "PACT_MODEL_SHARE_LOCAL=0 PACT_MODEL_CE_FLAT=2" PACT_MODEL_CE_FLAT=2; }
check_par "model engine: the AVX2 paths give the scalar paths' answers (PACT_MODEL_AVX2=0)" model_avx2

# The classes' ends wait in a heap, or, while they are many (from CE_FLAT_ON, models/eval_int.h), in no order
# with the least found by a scan (models/links.c, ce_schedule): byte for byte the heap's answers
# (PACT_MODEL_CE_FLAT=0) with the default and with every class end flat (2), on mx-a, mx-c and mx-d (the
# eleven shapes) and on linear, linear_sync and pairwise alltoall at 512 ranks (16 nodes x 32: linear's ends
# are flat by default, pairwise's mostly a heap).  It fails where the scan's least goes stale (an end that
# moves later than the least it was); ends that tie in time occur here, and the scan takes them by key as
# the heap does, though the reverse order changed no answer of these cells.  By default flat ends become a
# heap again for good where their scans cost more than sifting (CE_SCAN_PER_LEVEL): linear and linear_sync
# alltoall on a switch of 256 nodes under random and ascending arrivals (8 B) go there, and give the same
# bytes too.  A bad value is refused.
model_ce_flat() {
    local f sh
    for f in 0 1 2; do
        knob_run "$TMP/ceflat-$f" "PACT_MODEL_CE_FLAT=$f" "PACT_MODEL_CE_FLAT=$f" || return 1
        for sh in random ascending; do
            PACT_MODEL_CE_FLAT=$f $PACT model predict --coll alltoall --alg linear,linear_sync -P 256 -m 8 \
                --net shared --alpha 2e-6 --beta 8e-10 --shape $sh --skew 1e-4 --format csv || return 1
        done >"$TMP/ceflat-$f-256.csv"
    done
    knob_same "$TMP/ceflat-0" "$TMP/ceflat-1" && knob_same "$TMP/ceflat-0" "$TMP/ceflat-2" || return 1
    [ "$(grep -c ",ok$" "$TMP/ceflat-1-256.csv")" = 4 ] && cmp "$TMP/ceflat-0-256.csv" "$TMP/ceflat-1-256.csv" &&
        cmp "$TMP/ceflat-0-256.csv" "$TMP/ceflat-2-256.csv" || return 1
    bad_model_env PACT_MODEL_CE_FLAT=3 "PACT_MODEL_CE_FLAT=3: not 0"
}
check_par "model engine: class ends kept flat give the heap's answers (PACT_MODEL_CE_FLAT=0)" model_ce_flat

# A local sharing's checks take each link's sums once a round, from one walk of each link that also finds the
# classes outside A to check (models/links.c, share_sums), where each check walked the link's list; and on one
# switch (2, the default) each round walks R's lists once into an array that the filling, the sums and the
# checks read (share_unit); with 3, share_unit hands every sharing whose A passes two classes to share_local
# after its first steps (what it does past 64).  Byte for byte the walks' answers (PACT_MODEL_SHARE_MEMO=0), on
# mx-a, mx-c, mx-d and the alltoall cells of knob_run (pairwise at 512 ranks: nearly all its sharings local,
# some of them in rounds past the first), and on linear alltoall on a switch of 384 nodes under random arrivals
# (8 B), where R has hundreds of links (2 s for the walks, 0.2 s with the sums kept).  A bad value is refused.
model_share_memo() {
    local m
    for m in 0 1 2 3; do
        knob_run "$TMP/memo-$m" "PACT_MODEL_SHARE_MEMO=$m" "PACT_MODEL_SHARE_MEMO=$m" || return 1
        PACT_MODEL_SHARE_MEMO=$m $PACT model predict --coll alltoall --alg linear -P 384 -m 8 --net shared \
            --alpha 2e-6 --beta 8e-10 --shape random --skew 1e-4 --format csv >"$TMP/memo-$m-384.csv" || return 1
    done
    knob_same "$TMP/memo-0" "$TMP/memo-1" && knob_same "$TMP/memo-0" "$TMP/memo-2" &&
        knob_same "$TMP/memo-0" "$TMP/memo-3" || return 1
    grep -q ",ok$" "$TMP/memo-1-384.csv" && cmp "$TMP/memo-0-384.csv" "$TMP/memo-1-384.csv" &&
        cmp "$TMP/memo-0-384.csv" "$TMP/memo-2-384.csv" && cmp "$TMP/memo-0-384.csv" "$TMP/memo-3-384.csv" || return 1
    bad_model_env PACT_MODEL_SHARE_MEMO=4 "PACT_MODEL_SHARE_MEMO=4: not 0"
}
check_par "model engine: link sums kept through a local sharing's checks, and R's lists walked once on one switch, give the walks' answers (PACT_MODEL_SHARE_MEMO=0)" \
    model_share_memo

# Where every class through the links touched at an instant is alone on each of its links (one rank per node
# in lockstep), the sharing gives each its least link's capacity over its flows without the local sharing's
# passes (models/links.c, share_isolated): byte for byte the local sharing's answers
# (PACT_MODEL_SHARE_ISOLATED=0) on mx-a, mx-c and mx-d, and on 12 algorithms of five collectives on a flat
# switch (a rank per node; 4096 ranks, 512 for the P^2-message ones) without delay, under random and under
# ascending arrivals.  A bad value is refused.
model_share_isolated() {
    local i c sh
    for i in 0 1; do
        PACT_MODEL_SHARE_ISOLATED=$i PACT=$PACT bash scripts/model-exact.sh -o "$TMP/iso-$i" --sets mx-a,mx-c,mx-d \
            >/dev/null || return 1
        for c in "4096 allreduce recursive_doubling,rabenseifner 64K" "4096 allgather bruck,recursive_doubling 1K" \
            "4096 bcast binomial,scatter_allgather 64K" "4096 reduce_scatter recursive_halving 64K" \
            "512 allreduce ring 64K" "512 alltoall pairwise,modified_bruck 1K" "512 reduce_scatter ring 64K" \
            "512 allgather ring 1K"; do
            # shellcheck disable=SC2086 # the cell's four words
            set -- $c
            for sh in no_delay random ascending; do
                PACT_MODEL_SHARE_ISOLATED=$i $PACT model predict --coll "$2" --alg "$3" -P "$1" -m "$4" --net shared \
                    --alpha 2e-6 --beta 8e-10 --gamma 2e-10 --shape $sh --skew 1e-4 --format csv || return 1
            done
        done >"$TMP/iso-$i.csv"
    done
    [ "$(grep -c ",ok$" "$TMP/iso-1.csv")" = 36 ] && cmp "$TMP/iso-0.csv" "$TMP/iso-1.csv" || return 1
    for n in mx-a mx-c mx-d; do
        cmp "$TMP/iso-0/$n/results.csv" "$TMP/iso-1/$n/results.csv" || return 1
    done
    bad_model_env PACT_MODEL_SHARE_ISOLATED=2 "PACT_MODEL_SHARE_ISOLATED=2: not 0"
}
check_par "model engine: classes alone on their links give the local sharing's answers (PACT_MODEL_SHARE_ISOLATED=0)" \
    model_share_isolated

# Where no two classes of flows share a link at once, the direct path (models/direct.c) runs the ranks one
# after another without events; PACT_MODEL_DIRECT=2 runs both paths and fails an evaluation whose exit times
# differ by a bit.  On the 30,030 cells of scripts/model-exact.sh (9,000 or so go direct; 17 have a class's
# start and end at one instant, in both orders) and on 256 ranks of generic32x32 (32 x 8): the ring family
# under random and ascending arrivals (a late rank's neighbour's messages pile up in one class: the class
# followed as links.c runs it), at rendezvous sizes and in lockstep; and cells where classes share links,
# which must take the events (direct=0); and a 1024-rank ring with thousands of such instants.  Fails when a
# class's start does not bring V to its instant (tried).  The posted path (eval.c: no operation waits for a
# send or a receive; each rank runs once, the queue runs the network alone) is compared the same way, on
# model-exact's linear alltoall and linear bcast cells and here (direct=2), eager and rendezvous, in lockstep;
# with no latency it must leave the cell to the events (direct=0).  Fails when its flows start a millionth of
# their latency late (tried).  A bad value is refused.
model_direct() {
    local c out
    PACT_MODEL_DIRECT=2 PACT=$PACT bash scripts/model-exact.sh -o "$TMP/direct" >/dev/null || return 1
    for c in "allreduce ring 1M random 1" "allreduce ring 64M random 1" "allreduce ring 1M no_delay 1" \
        "allreduce segmented_ring 1M ascending 1" "reduce_scatter ring 1M random 1" "allgather ring 1M random 1" \
        "bcast scatter_allgather_ring 1M random 1" "alltoall pairwise 1K random 0" "allgather neighbor 1M random 0" \
        "alltoall linear 1K random 2" "alltoall linear 1M random 2" "alltoall linear 1K no_delay 2" \
        "alltoall linear_sync 64K ascending 2" "bcast basic_linear 1M random 2"; do
        # shellcheck disable=SC2086 # the cell's five words
        set -- $c
        out=$(PACT_MODEL_DIRECT=2 $PACT model predict --coll "$1" --alg "$2" -P 256 --ppn 8 -m "$3" \
            --platform generic32x32 --shape "$4" --skew 1e-4 --timing) || return 1
        grep -q " direct=$5 .*status=ok" <<<"$out" || { echo "$c: not direct=$5: $out"; return 1; }
    done
    # 1024 ranks (32 x 32), ascending over 7.5 ms: 4,704 starts of a class at the instant its flow ends
    out=$(PACT_MODEL_DIRECT=2 $PACT model predict --coll allreduce --alg ring -P 1024 --ppn 32 -m 16M \
        --platform generic32x32 --shape ascending --skew 7.5e-3 --timing) || return 1
    grep -q " direct=1 .*status=ok" <<<"$out" || { echo "ring 16M at 1024 ranks: not direct: $out"; return 1; }
    out=$(PACT_MODEL_DIRECT=2 $PACT model predict --coll alltoall --alg linear -P 16 -m 1K --net shared --alpha 0 \
        --beta 1e-9 --gamma 0 --shape random --skew 1e-5 --timing) || return 1
    grep -q " direct=0 .*status=ok" <<<"$out" || { echo "linear alltoall without latency: not the events: $out"; return 1; }
    bad_model_env PACT_MODEL_DIRECT=3 "PACT_MODEL_DIRECT=3: not 0"
}
check_par "model engine: the direct and posted paths give the events' exit times to the bit (PACT_MODEL_DIRECT=2)" model_direct

# predict --shape generates what --pattern reads: last_delayed with skew 1e-5 s is 15 zeros and 1e-5, so d* and d^
# are the same to the last digit; --timing adds a line per algorithm (scripts/bench-model.sh parses it).
predict_shape() {
    local args=(--coll allreduce --alg ring,recursive_doubling -P 16 -m 64K --platform generic32x32 --ppn 4
        --format csv)
    { zeros 15; echo 1e-5; } >"$TMP/last16.txt"
    $PACT model predict "${args[@]}" --pattern "$TMP/last16.txt" | cut -d, -f1-5,7- >"$TMP/ps-file.csv" || return 1
    $PACT model predict "${args[@]}" --shape last_delayed --skew 1e-5 | cut -d, -f1-5,7- >"$TMP/ps-shape.csv" ||
        return 1
    cat "$TMP/ps-shape.csv"
    [ "$(wc -l <"$TMP/ps-shape.csv")" -eq 3 ] && diff "$TMP/ps-file.csv" "$TMP/ps-shape.csv"
}
check "model predict --shape last_delayed = --pattern with the same delays" predict_shape
predict_timing() {
    $PACT model predict --coll bcast --alg binomial -P 64 -m 64K --net shared --alpha 2e-6 --beta 8e-10 \
        --shape random --skew 1e-4 --timing | tee "$TMP/pt.out" || return 1
    grep -E '^timing: coll=bcast alg=binomial P=64 bytes=65536 pattern=random .*prepare_s=[0-9.]+ .*maxrss_kib=[1-9][0-9]* status=ok$' \
        "$TMP/pt.out"
}
check "model predict --timing: a line with prepare_s and maxrss_kib" predict_timing
check "bad model input: unknown --shape" bad_model "--shape nosuch: unknown pattern" predict --coll allreduce \
    --alg ring -P 4 -m 8 --alpha 1e-6 --beta 1e-9 --shape nosuch --skew 1e-5
check "bad model input: a negative --seed" bad_model "seed -5: expected a number >= 0" predict --coll allreduce \
    --alg ring -P 4 -m 8 --alpha 1e-6 --beta 1e-9 --shape random --skew 1e-5 --seed -5
check "bad model input: --shape with --pattern" bad_model "exclude each other" predict --coll allreduce \
    --alg ring -P 4 -m 8 --alpha 1e-6 --beta 1e-9 --shape random --skew 1e-5 --pattern "$TMP/last16.txt"

if [ -n "${MODELS_ALONE:-}" ]; then
    finish
fi
