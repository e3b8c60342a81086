# tests/integration/platforms.sh - sourced by run-all.sh after integration.sh (needs tests/integration/lib.sh, $PACT, $TMP).
# Every built-in exported at reduced size runs under smpirun (a 2-rank ping and an allreduce on every rank);
# the probe finds the YAML's latency and bandwidth at every level; Cedar's islands are 2:1 blocking; Thor's
# shared rails double the bandwidth; bad platform files and requests exit 2.  The full-size runs are in
# `make bench-platforms`.
PROBE_SMPI=$PWD/build/bin/pact-probe-smpi

# export_runs NAME NODES PPN [export options]: a 2-rank ping (first and last rank) and an allreduce on all.
export_runs() {
    local name=$1 nodes=$2 ppn=$3; shift 3
    local d="$TMP/export-$name-$RANDOM"
    $PACT platform export "$name" --nodes "$nodes" --ppn "$ppn" "$@" -o "$d" || return 1
    local P=$((nodes * ppn))
    [ "$(wc -l <"$d/hostfile")" -eq "$P" ] || return 1
    { head -1 "$d/hostfile"; tail -1 "$d/hostfile"; } >"$d/hosts2"
    smpirun -np 2 -platform "$d/platform.xml" -hostfile "$d/hosts2" $(cat "$d/smpi-cfg") \
        "$PROBE_SMPI" 0 1048576 | tee "$d/ping.out" || return 1
    [ "$(grep -c '^pair 0 1 ' "$d/ping.out")" -eq 2 ] || return 1
    smpirun -np "$P" -platform "$d/platform.xml" -hostfile "$d/hostfile" $(cat "$d/smpi-cfg") \
        --cfg=smpi/shared-malloc-blocksize:$((1 << 21)) \
        "$BENCH_SMPI" --coll allreduce --alg ring --count 4096 --reps 1 --check | tee "$d/allreduce.out" || return 1
    grep -q ',ok$' "$d/allreduce.out" && ! grep -q ',wrong$\|,late$' "$d/allreduce.out"
}
check "platform export generic32x32 4x32: ping + allreduce" export_runs generic32x32 4 32
check "platform export cedar 40x2 (two islands): ping + allreduce" export_runs cedar 40 2
check "platform export cedar 3 nodes x 4 GPUs: ping + allreduce" export_runs cedar 3 4 --ranks-on gpus
check "platform export mist 3 nodes x 4 GPUs: ping + allreduce" export_runs mist 3 4 --ranks-on gpus
check "platform export mist 2x32 on cores: ping + allreduce" export_runs mist 2 32
check "platform export thor 4x8, rails bound: ping + allreduce" export_runs thor 4 8 --rails binding
check "platform export shaheen2 64x2: ping + allreduce" export_runs shaheen2 64 2

# probe_matches NAME [options]: every level within 5% of the YAML (pact exits 1 otherwise), and at least
# the levels the machine has.
probe_matches() {
    local name=$1 want=$2; shift 2
    $PACT platform probe "$name" "$@" | tee "$TMP/probe.out" || return 1
    [ "$(grep -vc '^#\|^level' "$TMP/probe.out")" -ge "$want" ] &&
        ! grep -q MISMATCH "$TMP/probe.out"
}
check "platform probe generic32x32 = YAML within 5%" probe_matches generic32x32 2
check "platform probe cedar = YAML within 5%" probe_matches cedar 3
check "platform probe cedar GPUs = YAML within 5%" probe_matches cedar 8 --ranks-on gpus
check "platform probe thor (rails shared) = YAML within 5%" probe_matches thor 2
check "platform probe thor (rails bound) = YAML within 5%" probe_matches thor 3 --rails binding
check "platform probe mist GPUs = YAML within 5%" probe_matches mist 7 --ranks-on gpus
check "platform probe shaheen2 = YAML within 5%" probe_matches shaheen2 6

# Cedar: 32 node pairs across two islands get about half the in-island bandwidth (2:1 blocking).
cedar_blocking() {
    $PACT platform probe cedar --pairs 32 | tee "$TMP/cedar.out" || return 1
    awk '/^concurrent_pairs/ { r = $NF; ok = r > 0.45 && r < 0.55 } END { exit !ok }' "$TMP/cedar.out"
}
check "cedar: 32 pairs across islands get half the bandwidth" cedar_blocking

# Thor: shared rails give about twice one rail's bandwidth between two nodes, at the same latency.
thor_rails() {
    $PACT platform probe thor --rails sharing >"$TMP/shared.out" || return 1
    $PACT platform probe thor --rails binding >"$TMP/bound.out" || return 1
    cat "$TMP/shared.out" "$TMP/bound.out"
    local s b
    s=$(awk '/^same switch/ { print $(NF-2), $(NF-5) }' "$TMP/shared.out")
    b=$(awk '/^same switch/ { print $(NF-2), $(NF-5) }' "$TMP/bound.out")
    echo "shared: $s  bound: $b"
    awk -v s="$s" -v b="$b" 'BEGIN { split(s, x, " "); split(b, y, " ")
        r = x[1] / y[1]; l = x[2] / y[2]; print "bandwidth ratio", r, "latency ratio", l
        exit !(r > 1.9 && r < 2.1 && l > 0.99 && l < 1.01) }'
}
check "thor: shared rails double the bandwidth, same latency" thor_rails

# bad_platform WANT ARGS...: exit 2 and a message naming the problem, no output.
bad_platform() {
    local want=$1; shift
    local o="$TMP/badplat-$RANDOM"
    $PACT platform "$@" -o "$o" >"$TMP/bp.out" 2>"$TMP/bp.err"
    local st=$?
    cat "$TMP/bp.err"
    [ $st -eq 2 ] && grep -q -- "$want" "$TMP/bp.err" && [ ! -e "$o/platform.xml" ]
}
check "bad platform: --ppn 33 on 32 cores" bad_platform "ppn 33" export generic32x32 --nodes 2 --ppn 33
check "bad platform: --nodes 200 on mist" bad_platform "nodes 200" export mist --nodes 200 --ppn 1
check "bad platform: GPUs on a CPU machine" bad_platform "no GPU" export thor --nodes 2 --ranks-on gpus
check "bad platform: unknown machine" bad_platform "no such built-in" export nosuch --nodes 2
printf 'name: broken\nnodes: 4\nnode:\n  sockets: two\n' >"$TMP/broken.yaml"
check "bad platform file: file:line:field" bad_platform "broken.yaml:4: node.sockets: 'two' is not a number" \
    show "$TMP/broken.yaml"
sim_bad_platform() {
    $PACT sim --platform "$TMP/broken.yaml" --nodes 1 --ppn 2 -o "$TMP/simbad" 2>"$TMP/sb.err"
    local st=$?
    cat "$TMP/sb.err"
    [ $st -eq 2 ] && grep -q "broken.yaml:4" "$TMP/sb.err" && [ ! -e "$TMP/simbad" ]
}
check "pact sim: bad platform file exits 2" sim_bad_platform

# pact sim on a built-in other than generic32x32, on a user's YAML, and on a user's XML + hostfile: the
# three give the same times for the same machine.
sim_platforms() {
    local d="$TMP/simplat"
    mkdir -p "$d"
    cp platforms/thor.yaml "$d/mythor.yaml"
    sed -i 's/^name: thor/name: mythor/' "$d/mythor.yaml"
    $PACT platform export thor --nodes 2 --ppn 4 -o "$d/xml" || return 1
    local args="--nodes 2 --ppn 4 --coll bcast --algs binomial --sizes 1K,64K --patterns no_delay --reps 1"
    $PACT sim --platform thor $args -o "$d/a" >/dev/null || return 1
    $PACT sim --platform "$d/mythor.yaml" $args -o "$d/b" >/dev/null || return 1
    $PACT sim --platform "$d/xml/platform.xml" --hostfile "$d/xml/hostfile" $args -o "$d/c" >/dev/null || return 1
    for x in a b c; do cut -d, -f5- "$d/$x/results.csv" | sort >"$d/$x.rows"; done
    head -3 "$d/a/results.csv"
    [ -s "$d/a.rows" ] && cmp "$d/a.rows" "$d/b.rows" && cmp "$d/a.rows" "$d/c.rows"
}
check "pact sim --platform: built-in, YAML file and XML + hostfile agree" sim_platforms
