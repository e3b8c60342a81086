# tests/integration/tune-obey.sh - sourced by run-all.sh (needs lib.sh; uses $PACT and $TMP when set).  Also runs
# alone: bash tests/integration/tune-obey.sh
# Open MPI and MPICH obey the files pact writes: at every row boundary of an emitted table (4 ranks, both ends
# of every range), the algorithm the library really ran (tests/observe: Open MPI's ompi_coll_base_* functions
# interposed, MPICH's UCX sends matched against each algorithm's pattern) is the table's choice.  Two tables per
# library: one pact tune built (model, 4 ranks), and one that gives every algorithm of the library a range of
# its own (written by this script, emitted by pact tune emit).  Negative control: without the file the library
# runs something else at one boundary at least.
if ! declare -F check >/dev/null; then
    cd "$(dirname "$0")/../.." && source tests/integration/lib.sh
    OBEY_ALONE=1
fi
PACT=${PACT:-build/bin/pact}
TMP=${TMP:-$(mktemp -d "${PACT_TEST_TMP:-/tmp}/pact-obey-XXXXXX")}
export OBSERVE_BUILD=${OBSERVE_BUILD:-build/observe}
OBEY_COLLS=allreduce,reduce,bcast,alltoall,allgather,barrier,reduce_scatter

# obey_points TABLE: "coll bytes algorithm" per boundary at 4 ranks: both ends of every range, in whole ints
# (MPICH's observer sends MPI_INT), at least 4 bytes; barrier once.
obey_points() {
    awk -F, 'NR > 1 && $2 == 4 {
        if ($1 == "barrier") { print $1, 4, $6; next } # the observers take a size; a barrier ignores it
        g = $1 == "reduce_scatter" ? 16 : 4 # whole ints (per rank for reduce_scatter: 4 ranks)
        lo = $4 < g ? g : int(($4 + g - 1) / g) * g
        print $1, lo, $6
        if ($5 != "inf") { hi = int($5 / g) * g; if (hi > lo) print $1, hi, $6 }
    }' "$1"
}

# obey_expect TARGET COLL BYTES ALG: what the library must run for pact algorithm ALG: Open MPI's coll_tuned id;
# MPICH's MPIR name, or MPICH's own fallback where the emitter guards a restriction (reduce_scatter_allgather and
# reduce_scatter_gather need count >= 4 at 4 ranks: below, recursive_doubling and binomial).
obey_expect() {
    local target=$1 coll=$2 bytes=$3 alg=$4 line
    line=$($PACT list algorithms --coll "$coll" --format csv | awk -F, -v a="$alg" '$2 == a')
    if [ "$target" = ompi ]; then
        echo "$line" | cut -d, -f3
        return
    fi
    local name
    name=$(echo "$line" | cut -d, -f4)
    if [ "$name" = reduce_scatter_allgather ] && [ "$bytes" -lt 16 ]; then name=recursive_doubling; fi
    if [ "$name" = reduce_scatter_gather ] && [ "$bytes" -lt 16 ]; then name=binomial; fi
    echo "MPIR_${coll^}_intra_$name"
}

# obey_observe TARGET FILE COLL BYTES: what the library ran ("-" as FILE: no file, the library's own choice).
# BYTES as pact counts them; MPICH's observer takes a reduce_scatter's per-rank result (a quarter at 4 ranks),
# as the table's whole vector is MPICH's total_msg_size.
obey_observe() {
    if [ "$1" = ompi ]; then
        bash tests/observe/ompi-observe.sh "$2" "$3" 4 "$4" </dev/null | cut -d' ' -f1
    else
        local b=$4
        [ "$3" = reduce_scatter ] && b=$((b / 4))
        bash tests/observe/mpich-observe.sh "$([ "$2" = - ] && echo --builtin || echo "$2")" "$3" 4 "$b" </dev/null
    fi
}

# obey_mark DIR I TARGET COLL BYTES ALG GOT: boundary I's outcome in DIR: I.done, and I.bad where what TARGET ran
# (GOT) is not the table's ALG.
obey_mark() {
    local want
    want=$(obey_expect "$3" "$4" "$5" "$6")
    [ "$7" = "$want" ] || echo "$4 $5 B: the table says $6 ($want), $3 ran $7" >"$1/$2.bad"
    echo >"$1/$2.done"
}

# obey TARGET TABLE FILE: every boundary observed with FILE equals the table's choice.  Open MPI's boundaries in
# one mpirun (ompi-observe.sh takes them all: an observation is mostly its ranks' start, 0.8 s); MPICH's two at a
# time, the first alone, as it builds the observer.
obey() {
    local target=$1 table=$2 file=$3 coll bytes alg got n bad=0 d i pts pids=() args=()
    d=$(mktemp -d "$TMP/obey-$target-XXXXXX") || return 1
    mapfile -t pts < <(obey_points "$table")
    n=${#pts[@]}
    if [ "$target" = ompi ]; then
        for ((i = 0; i < n; i++)); do
            read -r coll bytes alg <<<"${pts[i]}"
            args+=("$coll" "$bytes")
        done
        if [ "$n" -gt 0 ] && ! bash tests/observe/ompi-observe.sh "$file" "${args[0]}" 4 "${args[@]:1}" \
            </dev/null >"$d/out" 2>"$d/err"; then
            echo "(observer failed: $(tail -1 "$d/err"))" >"$d/failed"
        fi
        for ((i = 0; i < n; i++)); do
            read -r coll bytes alg <<<"${pts[i]}"
            got=$(cat "$d/failed" 2>/dev/null || sed -n "$((i + 1))s/ .*//p" "$d/out")
            obey_mark "$d" "$i" "$target" "$coll" "$bytes" "$alg" "$got"
        done
    else
        for ((i = 0; i < n; i++)); do
            (
                read -r coll bytes alg <<<"${pts[i]}"
                got=$(obey_observe "$target" "$file" "$coll" "$bytes" 2>"$d/$i.err") ||
                    got="(observer failed: $(tail -1 "$d/$i.err"))"
                obey_mark "$d" "$i" "$target" "$coll" "$bytes" "$alg" "$got"
            ) &
            pids+=($!)
            if [ "$i" = 0 ] || [ ${#pids[@]} -ge 2 ]; then
                wait "${pids[0]}"
                pids=("${pids[@]:1}")
            fi
        done
        for i in "${pids[@]}"; do wait "$i"; done
    fi
    for ((i = 0; i < n; i++)); do
        [ -e "$d/$i.done" ] || { echo "boundary $i: no observation"; bad=$((bad + 1)); }
        [ -e "$d/$i.bad" ] && { cat "$d/$i.bad"; bad=$((bad + 1)); }
    done
    echo "$target: $n boundaries observed, $bad differ from the table"
    [ "$n" -gt 0 ] && [ "$bad" = 0 ]
}

# obey_control TARGET TABLE: without the file the library differs from the table at one boundary at least.
obey_control() {
    local target=$1 table=$2 coll bytes alg want got
    while read -r coll bytes alg; do
        want=$(obey_expect "$target" "$coll" "$bytes" "$alg")
        got=$(obey_observe "$target" - "$coll" "$bytes" 2>/dev/null) || continue
        if [ "$got" != "$want" ]; then
            echo "without the file: $coll $bytes B ran $got, the table says $want"
            return 0
        fi
    done < <(obey_points "$table")
    echo "without the file $target ran the table's choice at every boundary: the control shows nothing"
    return 1
}

# obey_rotation TARGET: a table giving each algorithm the library runs at 4 ranks a range of 1 KiB of its own.
obey_rotation() {
    local target=$1
    echo "collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value"
    for coll in ${OBEY_COLLS//,/ }; do
        $PACT list algorithms --coll "$coll" --format csv | awk -F, -v t="$target" -v c="$coll" '
            # not the two-process, arrival-order or in-place-only ones (the calls are not in place); the
            # registry puts reduce_scatter_allgather/gather (count >= 4) after an unrestricted one, so they
            # start at 1 KiB
            NR > 1 && $7 !~ /P<=2|order|inplace-only/ && ((t == "ompi" && $3 > 0) || (t == "mpich" && $4 != "")) {
                a[n++] = $2 }
            END { for (i = 0; i < n; i++) {
                      hi = (i == n - 1 || c == "barrier") ? "inf" : (i + 1) * 1024 - 1
                      printf "%s,4,4,%d,%s,%s,,by_hand,,,\n", c, i * 1024, hi, a[i]
                      if (c == "barrier") break } }'
    done
}

obey_tuned() {
    local target=$1 file
    file=$([ "$target" = ompi ] && echo ompi-rules.conf || echo mpich-csel.json)
    $PACT tune --platform generic32x32 --nodes 1 --ppn 4 --coll "$OBEY_COLLS" --sizes 4..1M --target "$target" \
        --no-figures -q -o "$TMP/obey-$target" >/dev/null || return 1
    obey "$target" "$TMP/obey-$target/table.csv" "$TMP/obey-$target/$file"
}

obey_by_hand() {
    local target=$1 ext
    ext=$([ "$target" = ompi ] && echo conf || echo json)
    obey_rotation "$target" >"$TMP/obey-rot-$target.csv"
    $PACT tune emit "$TMP/obey-rot-$target.csv" --target "$target" -o "$TMP/obey-rot-$target.$ext" >/dev/null || return 1
    obey "$target" "$TMP/obey-rot-$target.csv" "$TMP/obey-rot-$target.$ext" &&
        obey_control "$target" "$TMP/obey-rot-$target.csv"
}

check "obey: Open MPI runs pact tune's table at every boundary" obey_tuned ompi
check "obey: Open MPI runs every algorithm of a table by hand; without the file it does not" obey_by_hand ompi
check "obey: MPICH runs pact tune's table at every boundary" obey_tuned mpich
# A table choosing recursive doubling allgather at 2 ranks per node runs at 3: MPICH's asserts there, so the
# emitter guards it (comm_size=pow2) with Bruck's, which is what pact's recursive_doubling builder runs at 3
# ranks and what the table's figures are of.  Before: ring.
obey_nonpof2() {
    printf '%s\n' "collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value" \
        "allgather,2,2,0,inf,recursive_doubling,,by_hand,,," >"$TMP/obey-rd.csv"
    $PACT tune emit "$TMP/obey-rd.csv" --target mpich -o "$TMP/obey-rd.json" >/dev/null || return 1
    local at4 at3
    at4=$(bash tests/observe/mpich-observe.sh "$TMP/obey-rd.json" allgather 4 1024 </dev/null) || return 1
    at3=$(bash tests/observe/mpich-observe.sh "$TMP/obey-rd.json" allgather 3 1024 </dev/null) || return 1
    echo "4 ranks: $at4; 3 ranks: $at3"
    [ "$at4" = MPIR_Allgather_intra_recursive_doubling ] && [ "$at3" = MPIR_Allgather_intra_brucks ]
}
check "obey: MPICH runs Bruck's where the table's recursive doubling allgather meets 3 ranks" obey_nonpof2
check "obey: MPICH runs every algorithm of a table by hand; without the file it does not" obey_by_hand mpich
# MPICH's smp compositions on two or three nodes (MPICH's debugging cliques split this machine: by block, or
# round-robin as pact's cyclic mapping): a table choosing smp, emitted by pact tune emit, makes MPICH run smp
# and, on the node and node-leader sub-communicators, its built-in choices; every rank's sends (destination and
# bytes, in order; tests/observe/mpich_once.c MPICH_ONCE_DUMP) equal those of pact's smp schedule for the
# same ranks, nodes and root (pact sim's replay traces).  The sizes cover each part's choices: 64 B (binomial,
# recursive doubling), 4 KiB (reduce_scatter_gather, reduce_scatter_allgather), bcast's three cases at 8 ranks
# (16 KiB: the root's node first; 1 MiB: scatter + ring allgather on all) and at 6 (below MIN_PROCS); barrier
# smp, MPICH's own choice for such communicators.
# obey_smp COLL BYTES NP NODES ROOT block|cyclic
obey_smp() { obey_sends smp int "$@"; }
# obey_sends ALG DTYPE COLL BYTES NP NODES ROOT block|cyclic [PACT_BYTES]: the same for any MPICH algorithm,
# pact's schedule run on elements of DTYPE (MPICH's observer calls with ints) and PACT_BYTES (default BYTES; a
# reduce_scatter's whole vector, where the observer takes a rank's result)
obey_sends() {
    local alg=$1 dtype=$2 c=$3 bytes=$4 np=$5 nodes=$6 root=$7 map=$8 ppn=$(($5 / $6)) pbytes=${9:-$4}
    [ $((nodes * ppn)) = "$np" ] || { echo "obey_sends: $np ranks are not $nodes nodes of equal size"; return 1; }
    local d="$TMP/obey-$alg-$c-$bytes-$np-$nodes-$root-$map"
    mkdir -p "$d"
    printf '%s\n' "collective,procs,ppn,min_bytes,max_bytes,algorithm,params,objective,value,runner_up,runner_up_value" \
        "$c,$np,$ppn,0,inf,$alg,,by_hand,,," >"$d/table.csv"
    $PACT tune emit "$d/table.csv" --target mpich -o "$d/csel.json" >/dev/null || return 1
    bash tests/observe/mpich-observe.sh "$d/csel.json" "$c" 4 "$bytes" >/dev/null 2>&1 || true # builds the observer
    MPICH_ONCE_DUMP=1 MPICH_ONCE_ROOT=$root timeout 300 mpiexec.mpich -n "$np" \
        -genv MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE "$d/csel.json" -genv MPIR_CVAR_DEVICE_COLLECTIVES none \
        -genv MPIR_CVAR_NUM_CLIQUES "$nodes" -genv MPIR_CVAR_CLIQUES_BY_BLOCK "$([ "$map" = block ] && echo 1 || echo 0)" \
        -genv LD_PRELOAD "$OBSERVE_BUILD/mpich_spy.so $MPICH_YIELD" "$OBSERVE_BUILD/mpich_once" "$c" "$bytes" </dev/null \
        >"$d/mpich.txt" 2>"$d/mpich.err" || { tail -3 "$d/mpich.err"; return 1; }
    # barrier: MPICH's release is one MPI_BYTE, pact's one element of the run's datatype (char)
    local size=(--sizes "$pbytes" --dtype "$dtype")
    [ "$c" = barrier ] && size=(--dtype char)
    PACT_KEEP_TRACES=1 $PACT sim --engine replay --platform generic32x32 --nodes "$nodes" --ppn "$ppn" \
        --mapping "$map" --coll "$c" --algs "$alg" "${size[@]}" --root "$root" --patterns no_delay \
        --reps 1 -o "$d/pact" >/dev/null 2>&1 || return 1
    cat "$d"/pact/run/*/replay-0/rank-*.ti | awk '$2 == "send" || $2 == "isend" { print $1, $3, $5 }' |
        sort -s -n -k1,1 >"$d/pact.txt"
    sort -s -n -k1,1 "$d/mpich.txt" >"$d/mpich-sorted.txt"
    echo "$c $bytes B, $np ranks on $nodes nodes ($map), root $root: MPICH $(wc -l <"$d/mpich.txt") sends," \
        "pact $(wc -l <"$d/pact.txt")"
    [ -s "$d/pact.txt" ] && diff "$d/mpich-sorted.txt" "$d/pact.txt"
}
check "obey: MPICH's smp allreduce = pact's smp schedule, 64 B, 2 x 2" obey_smp allreduce 64 4 2 0 block
check "obey: MPICH's smp allreduce = pact's smp schedule, 4 KiB, 8 ranks round-robin on 2" obey_smp allreduce 4096 8 2 0 cyclic
check "obey: MPICH's smp reduce = pact's smp schedule, 64 B, 2 x 2, root 1" obey_smp reduce 64 4 2 1 block
check "obey: MPICH's smp reduce = pact's smp schedule, 4 KiB, 3 x 2, root 5" obey_smp reduce 4096 6 3 5 block
check "obey: MPICH's smp reduce = pact's smp schedule, 4 KiB, 8 round-robin on 2, root 3" obey_smp reduce 4096 8 2 3 cyclic
check "obey: MPICH's smp bcast = pact's smp schedule, 64 B, 2 x 2, root 3" obey_smp bcast 64 4 2 3 block
check "obey: MPICH's smp bcast = pact's smp schedule, 16 KiB, 2 x 4, root 5" obey_smp bcast 16384 8 2 5 block
check "obey: MPICH's smp bcast = pact's smp schedule, 16 KiB, 2 x 3, root 4" obey_smp bcast 16384 6 2 4 block
check "obey: MPICH's smp bcast = pact's smp schedule, 1 MiB, 2 x 4, root 2" obey_smp bcast 1048576 8 2 2 block
check "obey: MPICH's smp barrier = pact's smp schedule, 3 x 2" obey_smp barrier 4 6 3 0 block
check "obey: MPICH's smp barrier = pact's smp schedule, 9 round-robin on 3" obey_smp barrier 4 9 3 0 cyclic
# MPICH's scatter bcasts split bytes (pact's schedule on chars) and go on below P bytes: 12 B on 16 ranks
# (blocks of 1 B, four ranks get none), 20 B on 6 (recursive doubling off a power of two: the ranks whose
# partner does not exist get its blocks by recursive halving), 1,000 B (ints, but blocks of 63 and 167 B)
check "obey: MPICH's scatter + recursive doubling bcast = pact's schedule, 12 B, 16 ranks, root 3" obey_sends \
    mpich_scatter_allgather char bcast 12 16 1 3 block
check "obey: MPICH's scatter + recursive doubling bcast = pact's schedule, 20 B, 6 ranks, root 5" obey_sends \
    mpich_scatter_allgather char bcast 20 6 1 5 block
check "obey: MPICH's scatter + recursive doubling bcast = pact's schedule, 1000 B, 16 ranks" obey_sends \
    mpich_scatter_allgather char bcast 1000 16 1 0 block
check "obey: MPICH's scatter + ring bcast = pact's schedule, 12 B, 16 ranks, root 3" obey_sends \
    mpich_scatter_allgather_ring char bcast 12 16 1 3 block
check "obey: MPICH's scatter + ring bcast = pact's schedule, 1000 B, 6 ranks, root 1" obey_sends \
    mpich_scatter_allgather_ring char bcast 1000 6 1 1 block
# Open MPI's builders that the MPICH target runs under MPICH's names (MPICH's code is theirs): every rank's sends
# the same on 6 ranks, 400 B (MPICH's recursive doubling allgather needs a power of two: 8)
obey_shared() {
    local c=$1 alg=$2 np=${3:-6} pbytes=${4:-}
    obey_sends "$alg" int "$c" 400 "$np" 1 0 block $pbytes
}
check "obey: MPICH's recursive doubling allreduce = pact's recursive_doubling" obey_shared allreduce recursive_doubling
check "obey: MPICH's Bruck allgather = pact's bruck" obey_shared allgather bruck
check "obey: MPICH's ring allgather = pact's ring" obey_shared allgather ring
check "obey: MPICH's recursive doubling allgather = pact's recursive_doubling, 8 ranks" obey_shared allgather \
    recursive_doubling 8
check "obey: MPICH's Bruck alltoall = pact's modified_bruck" obey_shared alltoall modified_bruck
check "obey: MPICH's recursive halving reduce_scatter = pact's recursive_halving" obey_shared reduce_scatter \
    recursive_halving 6 2400
check "obey: MPICH's dissemination barrier = pact's bruck" obey_shared barrier bruck
# The matching rule the summary states for Open MPI below the smallest tuned count: 3 ranks take the entry for 4
# (basic_linear below 1 KiB, nonoverlapping above, where Open MPI's fixed decision runs recursive doubling).
obey_below() {
    local a b c
    a=$(bash tests/observe/ompi-observe.sh "$TMP/obey-rot-ompi.conf" allreduce 3 100 </dev/null | cut -d' ' -f1)
    b=$(bash tests/observe/ompi-observe.sh "$TMP/obey-rot-ompi.conf" allreduce 3 1500 </dev/null | cut -d' ' -f1)
    c=$(bash tests/observe/ompi-observe.sh - allreduce 3 100 </dev/null | cut -d' ' -f1)
    echo "3 ranks: $a at 100 B, $b at 1500 B with the file for 4; $c at 100 B without it"
    [ "$a" = 1 ] && [ "$b" = 2 ] && [ "$c" != 1 ]
}
check "obey: Open MPI below the smallest tuned count takes its entry" obey_below

[ -n "${OBEY_ALONE:-}" ] && finish
true
