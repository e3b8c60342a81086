# tests/integration/sim.sh - pact sim at scale: experiment files, parallel and resumable sweeps, shards and merge.
# Sourced by tests/run-all.sh (check, bad_file, $PACT and $TMP come from tests/lib.sh).

SIMARGS=(--nodes 2 --ppn 4 --coll allreduce,bcast --algs recursive_doubling,ring,binomial,scatter_allgather_ring
    --sizes 8,1K,64K --patterns no_delay,random,last_delayed,ascending --reps 2 --batch cell -q)

# The reference: the sweep uninterrupted, one job.
sim_reference() {
    $PACT sim "${SIMARGS[@]}" --jobs 1 -o "$TMP/simref" >/dev/null || return 1
    # 2 studies x 2 algorithms x 3 sizes x 4 patterns x 2 reps
    [ "$(wc -l <"$TMP/simref/results.csv")" -eq 97 ] && [ -s "$TMP/simref/summary.txt" ] &&
        [ -s "$TMP/simref/experiment.yaml" ]
}
check "pact sim: two collectives in one sweep" sim_reference

sim_jobs() {
    $PACT sim "${SIMARGS[@]}" --jobs 2 -o "$TMP/simjobs" >/dev/null &&
        cmp "$TMP/simref/results.csv" "$TMP/simjobs/results.csv" &&
        cmp "$TMP/simref/summary.txt" "$TMP/simjobs/summary.txt"
}
check "pact sim --jobs 2 equals --jobs 1" sim_jobs

# The same experiment from a YAML file (paths relative to the file, lists as YAML sequences).
sim_yaml() {
    mkdir -p "$TMP/exp"
    cat >"$TMP/exp/study.yaml" <<'EOF'
# two collectives on two nodes of generic32x32
platform: generic32x32
nodes: 2
ppn: 4
coll: [allreduce, bcast]
algs: [recursive_doubling, ring, binomial, scatter_allgather_ring]
sizes: 8,1K,64K
patterns:
  - no_delay
  - random
  - last_delayed
  - ascending
reps: 1
batch: cell
EOF
    # flags override the file
    $PACT sim "$TMP/exp/study.yaml" --reps 2 -q -o "$TMP/simyaml" >/dev/null &&
        cmp "$TMP/simref/results.csv" "$TMP/simyaml/results.csv"
}
check "pact sim EXP.yaml with flags overriding equals the flags alone" sim_yaml

sim_yaml_bad() {
    printf 'nodes: 2\nppn: 4\nsizez: 8\n' >"$TMP/exp/typo.yaml"
    printf 'nodes: 2\nppn: 4\ncoll: allreduce\nsizes: [8, 12Q]\n' >"$TMP/exp/badsize.yaml"
    printf 'nodes: 2\nppn: 4\npatterns: [no_delay, sideways]\n' >"$TMP/exp/badpat.yaml"
    printf 'nodes: 2\nppn: [4\n' >"$TMP/exp/broken.yaml"
    printf 'nodes: 2\nalgs: {ring: 1}\n' >"$TMP/exp/nested.yaml"
    bad_file "typo.yaml:3: unknown field 'sizez'" $PACT sim "$TMP/exp/typo.yaml" -o "$TMP/never" &&
        bad_file "badsize.yaml:4: sizes: malformed size '12Q'" $PACT sim "$TMP/exp/badsize.yaml" -o "$TMP/never" &&
        bad_file "badpat.yaml:3: patterns" $PACT sim "$TMP/exp/badpat.yaml" -o "$TMP/never" &&
        bad_file "broken.yaml:3" $PACT sim "$TMP/exp/broken.yaml" -o "$TMP/never" &&
        bad_file "nested.yaml:2: algs" $PACT sim "$TMP/exp/nested.yaml" -o "$TMP/never" &&
        [ ! -e "$TMP/never" ]
}
check "bad experiment files: file, line and field" sim_yaml_bad

# Kill a sweep with SIGINT, restart, kill it with SIGKILL, restart to the end: results.csv equals the
# uninterrupted run's.  The kills come once some rows are in (a sweep of 96 simulations, about 10 s; 336 of
# them had taken 30 s, and this check 90 s of make test).
KILLARGS=(--nodes 2 --ppn 8 --coll allreduce,bcast --algs recursive_doubling,ring,binomial,scatter_allgather_ring
    --sizes 8,64,1K,64K --patterns no_delay,random,last_delayed,ascending,descending,half_delayed --reps 1 --batch cell -q)
kill_when_rows() { # SIGNAL ROWS (env: a background job of a script starts with SIGINT ignored)
    env --default-signal=INT $PACT sim "${KILLARGS[@]}" --jobs 2 -o "$TMP/simkill" >/dev/null 2>&1 &
    local pid=$! n=0
    for _ in $(seq 1 600); do
        n=$(wc -l <"$TMP/simkill/results.csv" 2>/dev/null || echo 0)
        [ "$n" -ge "$2" ] && break
        sleep 0.05
    done
    kill "-$1" $pid 2>/dev/null
    wait $pid
    echo "killed with $1 at $(wc -l <"$TMP/simkill/results.csv") lines"
}
sim_resume() {
    $PACT sim "${KILLARGS[@]}" --jobs 2 -o "$TMP/killref" >/dev/null || return 1
    kill_when_rows INT 20
    kill_when_rows KILL 50
    local n
    n=$(wc -l <"$TMP/simkill/results.csv")
    [ "$n" -lt 97 ] || { echo "the sweep ended before the kills ($n lines)"; return 1; }
    $PACT sim "${KILLARGS[@]}" --jobs 2 -o "$TMP/simkill" >/dev/null || return 1
    cmp "$TMP/killref/results.csv" "$TMP/simkill/results.csv" &&
        cmp "$TMP/killref/summary.txt" "$TMP/simkill/summary.txt"
}
check "pact sim killed (SIGINT, SIGKILL) and resumed equals the uninterrupted run" sim_resume

sim_other_experiment() {
    bad_file "holds another experiment" $PACT sim "${SIMARGS[@]}" --reps 3 -o "$TMP/simref"
}
check "pact sim refuses to resume another experiment's folder" sim_other_experiment

sim_shards() {
    for k in 1 2 3; do
        $PACT sim "${SIMARGS[@]}" --shard $k/3 -o "$TMP/shard$k" >/dev/null || return 1
    done
    $PACT merge -o "$TMP/merged" "$TMP/shard1" "$TMP/shard2" "$TMP/shard3" >/dev/null || return 1
    cmp "$TMP/simref/results.csv" "$TMP/merged/results.csv" &&
        cmp "$TMP/simref/summary.txt" "$TMP/merged/summary.txt" || return 1
    # a missing shard is an error, not a short table
    $PACT merge -o "$TMP/merged2" "$TMP/shard1" "$TMP/shard3" >/dev/null 2>"$TMP/merge.err"
    [ $? -eq 1 ] && grep 'cells have no results' "$TMP/merge.err" >/dev/null
}
check "pact sim --shard 1/3, 2/3, 3/3 merged equal the unsharded run" sim_shards

# scripts/slurm-sweep.sh: the array and merge jobs it writes, run here one task after another as Slurm
# would, give the unsharded run's results.csv.
sim_slurm() {
    sed 's/^reps: 1/reps: 2/' "$TMP/exp/study.yaml" >"$TMP/exp/study2.yaml"
    bash scripts/slurm-sweep.sh "$TMP/exp/study2.yaml" -n 3 -o "$TMP/slurm" --pact "$PACT" --cpus 2 || return 1
    grep -- '--array=1-3' "$TMP/slurm/slurm/array.sbatch" >/dev/null || return 1
    for k in 1 2 3; do
        SLURM_ARRAY_TASK_ID=$k bash "$TMP/slurm/slurm/array.sbatch" >/dev/null 2>&1 || return 1
    done
    bash "$TMP/slurm/slurm/merge.sbatch" >/dev/null || return 1
    cmp "$TMP/simref/results.csv" "$TMP/slurm/merged/results.csv"
}
check "scripts/slurm-sweep.sh: array of shards and merge job" sim_slurm

# The replay engine (SMPI time-independent traces under smpirun -replay) against the smpi engine: 3
# collectives x 2 algorithms x 2 sizes x 2 patterns on 16 ranks (2 nodes x 8), d^ within 1e-12 cell by cell
# (rounding; tests/replay.sh checks every algorithm).
sim_replay_vs_smpi() {
    local a=(--nodes 2 --ppn 8 --coll allreduce,reduce,bcast
        --algs ring,recursive_doubling,binomial,in_order_binary,knomial --sizes 8,64K
        --patterns no_delay,last_delayed --skew 100us --reps 1 -q --no-figures)
    $PACT sim "${a[@]}" -o "$TMP/eng-smpi" >/dev/null || return 1
    $PACT sim "${a[@]}" --engine replay -o "$TMP/eng-replay" >/dev/null || return 1
    paste -d, "$TMP/eng-smpi/results.csv" "$TMP/eng-replay/results.csv" |
        awk -F, 'NR > 1 { n++; key = $5 " " $6 " " $7 " " $8; s = $14; r = $30
                          if ($13 != "smpi" || $29 != "replay" || key != $21 " " $22 " " $23 " " $24) { bad++; next }
                          d = (r - s) / s; if (d < 0) d = -d; if (d > worst) worst = d
                          if (d > 1e-12) { bad++; print "off:", key, s, r } }
                 END { printf "%d cells, worst relative difference %.3g\n", n, worst; exit (n != 24 || bad > 0) }'
}
check "pact sim --engine replay agrees with smpi to 1e-12 (24 cells, 16 ranks)" sim_replay_vs_smpi

# Timing-only payloads are SMPI shared mallocs, one mapping per smpi/shared-malloc-blocksize: 16 ranks x
# 128 MiB alltoall blocks (2 GiB buffers) are 65536 mappings at SMPI's 1 MiB, past vm.max_map_count, and SMPI
# aborts ("Could not map folded virtual memory"); pact sim raises the block size so that the cell runs.
sim_big_buffers() {
    $PACT sim --nodes 1 --ppn 16 --coll alltoall --algs pairwise --sizes 128M --patterns no_delay --reps 1 \
        -q --no-figures -o "$TMP/bigbuf" >/dev/null || return 1
    grep -q -- "--cfg=smpi/shared-malloc-blocksize:" "$TMP/bigbuf/run/s0/smpirun-b0.log" || return 1
    awk -F, 'NR == 2 { print $14, $16; exit !($16 == "ok" && $14 > 0) }' "$TMP/bigbuf/results.csv"
}
check "pact sim: 16 ranks x 128 MiB alltoall blocks fit SMPI's mappings" sim_big_buffers

# pact-smpi-clock.so (sim/smpi_clock.c): once frozen, the thread CPU clock stands still and every other clock
# runs; without the freeze call nothing changes.  pact sim preloads it into smpirun, and the simulated times
# are those of a run without it (SMPI only reads that clock when smpi/simulate-computation is on).
sim_cpu_clock() {
    local lib
    lib="$(cd "$(dirname "$PACT")" && pwd)/pact-smpi-clock.so"
    cat >"$TMP/clk.c" <<'EOF2'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
static double now(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static void spin(void) { volatile double x = 0; for (long i = 0; i < 20000000; i++) x += i; }
int main(void)
{
    void (*freeze)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "pact_smpi_clock_freeze");
    double c0 = now(CLOCK_THREAD_CPUTIME_ID); spin(); double c1 = now(CLOCK_THREAD_CPUTIME_ID);
    if (freeze) freeze(1);
    double f0 = now(CLOCK_THREAD_CPUTIME_ID), m0 = now(CLOCK_MONOTONIC); spin();
    double f1 = now(CLOCK_THREAD_CPUTIME_ID), m1 = now(CLOCK_MONOTONIC);
    printf("%d %d %d %d\n", freeze != NULL, c1 > c0, f1 > f0, m1 > m0);
    return 0;
}
EOF2
    cc -O2 -o "$TMP/clk" "$TMP/clk.c" -ldl || return 1
    [ "$("$TMP/clk")" = "0 1 1 1" ] || return 1
    [ "$(LD_PRELOAD=$lib "$TMP/clk")" = "1 1 0 1" ] || return 1
    local a=(--nodes 2 --ppn 4 --coll allreduce,reduce --algs ring,rabenseifner,binomial,pipeline --sizes 8,64K
        --patterns no_delay,random --reps 2 -q --no-figures)
    # the C library's allocator (pact_smpi_malloc), so that the clock is all that is preloaded
    PACT_SMPI_MALLOC=glibc $PACT sim "${a[@]}" -o "$TMP/clk-on" >/dev/null || return 1
    grep -q "^\$ LD_PRELOAD='$lib' smpirun" "$TMP/clk-on/run/s0/smpirun-b0.log" || return 1
    mkdir -p "$TMP/clk-bin" && cp "$(dirname "$PACT")/pact-bench-smpi" "$TMP/clk-bin/" || return 1
    PACT_SMPI_MALLOC=glibc PACT_BENCH_SMPI=$TMP/clk-bin/pact-bench-smpi $PACT sim "${a[@]}" -o "$TMP/clk-off" \
        >/dev/null || return 1
    if grep -q LD_PRELOAD "$TMP/clk-off/run/s0/smpirun-b0.log"; then return 1; fi
    cmp "$TMP/clk-on/results.csv" "$TMP/clk-off/results.csv"
}
check "pact-smpi-clock.so stops the thread CPU clock only; pact sim with it = without it" sim_cpu_clock

# logged_cmd LOG [OUT]: the smpirun command a batch's log starts with, without its LD_PRELOAD, to run again by
# hand (its --out OUT where given).
logged_cmd() {
    head -1 "$1" | sed -e 's/^\$ //' -e "s/LD_PRELOAD='[^']*' //" -e "${2:+s/ --out [^ ]*/ --out $2/}"
}

# The sends that only a rank's last wait completes go as MPI_Issend under SMPI (pact_exec_ctx.late_sends):
# SimGrid 3.32 then does not detach them (its log names each detached send; none of linear alltoall's is), and
# every simulated time is that of SimGrid's detached sends (PACT_BENCH_DETACHED=1), byte for byte, for every
# algorithm with such sends (linear alltoall and allgather, the linear trees' roots, barriers) and beside them
# (MPICH's scattered alltoall on 40 ranks waits for windows of 32 sends: made late, its times move) under
# delays and repetitions; a bad PACT_BENCH_DETACHED is refused.
sim_late_sends() {
    # shellcheck disable=SC2054 # commas inside flag values
    local a=(--nodes 2 --root 3 --patterns no_delay,random,last_delayed --reps 2 -q --no-figures) c
    for c in "alltoall:20:linear,linear_sync,scattered,pairwise,modified_bruck:8,1K" \
        "allgather:8:linear,ring,bruck:8,4K" "bcast:8:basic_linear,binomial,mpich_binomial:8,64K" \
        "reduce:8:linear,binomial,mpich_binomial:8,64K" "barrier:8:linear,bruck,double_ring:0"; do
        IFS=: read -r coll ppn algs sizes <<<"$c"
        $PACT sim "${a[@]}" --ppn "$ppn" --coll "$coll" --algs "$algs" --sizes "$sizes" -o "$TMP/late-$coll" \
            >/dev/null && PACT_BENCH_DETACHED=1 $PACT sim "${a[@]}" --ppn "$ppn" --coll "$coll" --algs "$algs" \
            --sizes "$sizes" -o "$TMP/late-$coll-det" >/dev/null || return 1
        cmp "$TMP/late-$coll/results.csv" "$TMP/late-$coll-det/results.csv" || return 1
    done
    echo "$(cat "$TMP"/late-*-det/results.csv | grep -c ',ok$') rows the same"
    # SimGrid's own account of detached sends: linear alltoall's first cell rerun with its debug log
    local d="$TMP/late-alltoall/run/s0" cmd n_late n_det
    cmd=$(logged_cmd "$d/smpirun-b0.log" late.csv)
    n_late=$(cd "$d" && eval "$cmd --log=smpi_request.thres:debug" 2>&1 | grep -c "is detached")
    n_det=$(cd "$d" && eval "PACT_BENCH_DETACHED=1 $cmd --log=smpi_request.thres:debug" 2>&1 | grep -c "is detached")
    echo "linear alltoall: $n_late detached sends, $n_det with PACT_BENCH_DETACHED=1"
    [ "$n_late" -lt "$n_det" ] || return 1
    bad_file "PACT_BENCH_DETACHED=2: expected 0 or 1" env PACT_BENCH_DETACHED=2 "$PACT" sim "${a[@]}" \
        --ppn 8 --coll barrier --algs linear -o "$TMP/late-bad"
}
check "pact sim: a rank's last sends not detached under SMPI, the times of detached sends" sim_late_sends

# Ranks that start at one instant run in rank order under SMPI (bench_time.c, pb_proto_start), so every call
# of a cell whose outcome depends on that order gives one time, the replay's and the model's: SimGrid's own
# ompi_binary reduce on 8 x 4 ranks, 1 KiB, no delay, gave 20.312 and 22.184 us by turns when the barrier
# resumed the ranks in the order the previous call left (PACT_BENCH_ANY_ORDER=1), and pact's binary with
# detached sends the same; a bad PACT_BENCH_ANY_ORDER is refused.
# order_times DIR: the distinct d^ of DIR's rows, in us
order_times() { awk -F, 'NR > 1 { printf "%.6f\n", $14 * 1e6 }' "$1/results.csv" | sort -u | paste -sd' '; }
sim_start_order() {
    # shellcheck disable=SC2054 # commas inside flag values
    local a=(--nodes 8 --ppn 4 --coll reduce --sizes 1K --patterns no_delay --reps 3 --gamma 0 -q --no-figures)
    $PACT sim "${a[@]}" --algs smpi:ompi_binary,binary -o "$TMP/order" >/dev/null &&
        PACT_BENCH_DETACHED=1 $PACT sim "${a[@]}" --algs binary -o "$TMP/order-det" >/dev/null &&
        PACT_BENCH_ANY_ORDER=1 $PACT sim "${a[@]}" --algs smpi:ompi_binary -o "$TMP/order-any" >/dev/null &&
        $PACT sim "${a[@]}" --algs binary --engine replay -o "$TMP/order-replay" >/dev/null || return 1
    local ord det rep any
    ord=$(order_times "$TMP/order") det=$(order_times "$TMP/order-det") rep=$(order_times "$TMP/order-replay")
    any=$(order_times "$TMP/order-any")
    echo "in rank order: $ord us (detached sends: $det); replay $rep; any order: $any"
    [ "$ord" = "$rep" ] && [ "$det" = "$rep" ] && [ "$(wc -w <<<"$any")" = 2 ] || return 1
    bad_file "PACT_BENCH_ANY_ORDER=yes: expected 0 or 1" env PACT_BENCH_ANY_ORDER=yes "$PACT" sim "${a[@]}" \
        --algs binary -o "$TMP/order-bad" && [ ! -e "$TMP/order-bad" ]
}
check "pact sim: ranks that start at one instant run in rank order under SMPI, every call alike" sim_start_order

# A node of several SimGrid hosts (thor's rails under binding, cedar's sockets and GPUs) is one node to the
# algorithms that need the nodes (MPICH's smp compositions): pact's export names each host's node (pact_node)
# and the bench driver groups ranks by it, where MPI_COMM_TYPE_SHARED made each host a node of its own; then
# pact timeline --engine smpi refused the run (its operations were not the model's schedules), and the smpi
# engine's smp times were not the replay's.
sim_place_hosts() {
    $PACT timeline --platform thor --rails binding --nodes 2 --ppn 8 --coll bcast --alg smp -m 64K \
        --engine smpi --format csv >"$TMP/place-thor.csv" || return 1
    $PACT platform export thor --rails binding --nodes 2 --ppn 8 -o "$TMP/place-xml" >/dev/null &&
        [ "$(grep -c '<prop id="pact_node" value="1"/>' "$TMP/place-xml/platform.xml")" = 2 ] || return 1
    # shellcheck disable=SC2054 # commas inside flag values
    local a=(--platform cedar --ranks-on gpus --nodes 2 --coll bcast,reduce --algs smp --sizes 8,64K
        --patterns no_delay,last_delayed --reps 1 --gamma 0 -q --no-figures) e
    for e in smpi replay; do
        $PACT sim "${a[@]}" --engine $e -o "$TMP/place-$e" >/dev/null || return 1
    done
    paste -d, "$TMP/place-smpi/results.csv" "$TMP/place-replay/results.csv" | awk -F, 'NR > 1 {
        d = $14 - $30; if (d < 0) d = -d; if (d > 1e-9 * $30) { print "smpi " $14 " replay " $30 ": " $5, $7, $8; bad = 1 }
        n++ } END { print n " cells of smp on cedar'"'"'s GPUs, smpi against replay"; exit bad }'
}
check "pact sim: the nodes of hosts of one node (rails, GPUs) as the algorithms see them under SMPI" sim_place_hosts

# The allocator smpirun's children preload (PACT_SMPI_MALLOC, sim/host/smpi_env.c): jemalloc by default where
# it is installed (scripts/install-deps.sh installs it), the C library's with glibc, a library by its path;
# the simulated times are the same bytes under each (SMPI and replay engines: linear alltoall, whose SimGrid
# lists it speeds up, and the rest), and a bad value is refused before anything is written.
sim_malloc() {
    local je=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 e m
    [ -f "$je" ] || je=$(ldconfig -p | awk '/libjemalloc.so.2 /{print $NF; exit}')
    if [ -z "$je" ] || [ ! -f "$je" ]; then
        echo "libjemalloc2 is not installed (scripts/install-deps.sh)"
        return 1
    fi
    # shellcheck disable=SC2054 # commas inside flag values
    local a=(--nodes 2 --ppn 8 --coll alltoall,allreduce --algs linear,pairwise,ring,rabenseifner --sizes 8,4K
        --patterns no_delay,random,last_delayed --reps 2 -q --no-figures)
    local -x PACT_KEEP_TRACES=1 # the replay's folders, with its smpirun.log
    for e in smpi replay; do
        PACT_SMPI_MALLOC='' $PACT sim "${a[@]}" --engine $e -o "$TMP/mal-$e-def" >/dev/null &&
            PACT_SMPI_MALLOC=glibc $PACT sim "${a[@]}" --engine $e -o "$TMP/mal-$e-glibc" >/dev/null &&
            PACT_SMPI_MALLOC=$je $PACT sim "${a[@]}" --engine $e -o "$TMP/mal-$e-path" >/dev/null || return 1
        for m in glibc path; do
            cmp "$TMP/mal-$e-def/results.csv" "$TMP/mal-$e-$m/results.csv" || return 1
        done
    done
    local def glibc
    def=$(cat "$TMP"/mal-{smpi-def/run/s*/smpirun-b*,replay-def/run/s*/*/smpirun}.log |
        grep -c "^\$ LD_PRELOAD='.*libjemalloc.so.2' smpirun")
    glibc=$(cat "$TMP"/mal-{smpi-glibc/run/s*/smpirun-b*,replay-glibc/run/s*/*/smpirun}.log | grep -c libjemalloc)
    echo "$(grep -c ',ok$' "$TMP/mal-smpi-def/results.csv") + $(grep -c ',ok$' "$TMP/mal-replay-def/results.csv")" \
        "rows the same; $def runs with jemalloc by default, $glibc with glibc"
    [ "$def" -gt 0 ] && [ "$glibc" -eq 0 ] || return 1
    for m in tcmalloc /nonexistent/libx.so "$TMP/a b.so"; do
        bad_file "PACT_SMPI_MALLOC=$m:" env PACT_SMPI_MALLOC="$m" "$PACT" sim "${a[@]}" -o "$TMP/mal-bad" || return 1
    done
    [ ! -e "$TMP/mal-bad" ]
}
check "pact sim: SimGrid's runs under jemalloc (PACT_SMPI_MALLOC) give the same bytes as under glibc's" sim_malloc

# pact's algorithms run under SimGrid without a warm-up call (pact-bench --no-warmup, which pact sim passes):
# each batch run again from its log with the warm-up gives the same times to 1e-10 here (on larger runs some
# cells' calls vary from one to the next, the first or any other: bench.c, run_cell), its calls send 3/2 the
# messages of tag 100 (pact's executor), and SimGrid's own algorithm (smpi:lr) keeps its warm-up (SMPI sets
# up the node layout in a first call).
sim_no_warmup() {
    # shellcheck disable=SC2054 # commas inside flag values
    local a=(--nodes 2 --ppn 4 --coll allreduce --algs ring,rabenseifner,smpi:lr --sizes 8,64K
        --patterns no_delay,random,last_delayed --reps 2 -q --no-figures) d="$TMP/nowarm/run/s0" b cmd
    $PACT sim "${a[@]}" -o "$TMP/nowarm" >/dev/null || return 1
    local n=0 sends=()
    for b in "$d"/smpirun-b*.log; do
        grep -q -- "--no-warmup" "$b" || return 1
        cmd=$(logged_cmd "$b")
        local out
        out=$(echo "$cmd" | sed -n 's/.* --out \([^ ]*\).*/\1/p')
        (cd "$d" && eval "${cmd/ --no-warmup/} --out warm-$out" >/dev/null 2>&1) || return 1
        # the same rows, the times within 1e-10 of each other
        awk -F, 'NR == FNR { t[$1 "," $2] = $3 " " $4; next }
            { split(t[$1 "," $2], u, " "); if (!(($1 "," $2) in t)) exit 1
              for (i = 3; i <= 4; i++) { x = $i; y = u[i - 2]; if (x - y > 1e-10 * x || y - x > 1e-10 * x) exit 1 } }
            END { if (FNR != length(t)) exit 1 }' "$d/$out" "$d/warm-$out" || return 1
        n=$((n + 1))
    done
    # messages of tag 100 (the executor's) in the first batch (ring at 8 B) with and without the warm-up, and
    # all messages of smpi:lr's batch
    local first lr
    first=$(logged_cmd "$d/smpirun-b0.log" x.csv)
    lr=$(grep -l 'smpi/allreduce:lr' "$d"/smpirun-b*.log | head -1)
    [ -n "$lr" ] || return 1
    lr=$(logged_cmd "$lr" x.csv)
    local log
    for cmd in "$first" "${first/ --no-warmup/}" "$lr" "${lr/ --no-warmup/}"; do
        log=$(cd "$d" && eval "$cmd --log=smpi_request.thres:verbose" 2>&1)
        sends+=("$(grep -c 'New send .*tag = 100,' <<<"$log")" "$(grep -c 'New send ' <<<"$log")")
    done
    echo "$n batches again with the warm-up: the same times to 1e-10; sends of tag 100 (all sends): ring" \
        "${sends[0]} (${sends[1]}), with the warm-up ${sends[2]} (${sends[3]}); smpi:lr ${sends[5]}, with ${sends[7]}"
    # --reps 2: two calls, three with the warm-up
    [ "${sends[0]}" -gt 0 ] && [ $((2 * sends[2])) -eq $((3 * sends[0])) ] && [ "${sends[5]}" -eq "${sends[7]}" ]
}
check "pact sim: pact's algorithms under SimGrid without a warm-up call, the times of a warm call" \
    sim_no_warmup

# --batch auto (the default): under the smpi engine an algorithm's consecutive sizes of a phase share one smpirun
# while their cells x ranks stay within 4,096 (a smpirun costs 0.1-0.2 s before its first cell on this VM).
# 64 ranks, the 11 shapes, 8 sizes: the 8 no-delay cells (512) in one call, the 10 patterns (640 a size) of
# 8-256 B (3,840) in one and of 512 B-1 KiB in another, where --batch size makes 16 calls; the same rows, the
# times within 1e-12 (a cell's times depend on the clock it starts at only in their last bits), and
# the same bytes with one job as with two.
sim_batch_auto() {
    # shellcheck disable=SC2054 # commas inside flag values
    local d="$TMP/sim-batch-auto" a=(--nodes 2 --ppn 32 --coll allreduce --algs recursive_doubling --sizes 8..1K
        --patterns no_delay,ascending,descending,first_delayed,last_delayed,middle_delayed,ends_delayed,half_delayed,random,node_delayed,two_level
        --reps 1 --jobs 2 -q --no-figures)
    rm -rf "$d"
    $PACT sim "${a[@]}" -o "$d/auto" >/dev/null || return 1
    $PACT sim "${a[@]}" --batch size -o "$d/size" >/dev/null || return 1
    local got
    got=$(awk -F, 'NR > 1 { print $4 ":" $6 ":" $7 }' "$d/auto/run/batches.csv" | sort | tr '\n' ' ')
    echo "auto: $(($(wc -l <"$d/auto/run/batches.csv") - 1)) smpiruns (phase:first size:cells) $got;" \
        "size: $(($(wc -l <"$d/size/run/batches.csv") - 1))"
    [ "$got" = "1:8:8 2:512:20 2:8:60 " ] || return 1
    [ "$(wc -l <"$d/size/run/batches.csv")" -eq 17 ] || return 1
    # the same rows in the same order, the other fields equal; skew_s, last_delay_s and total_delay_s within
    # 1e-12 relative (rows_apart, lib.sh)
    if ! { [ "$(wc -l <"$d/auto/results.csv")" -eq 89 ] &&
        cmp <(cut -d, -f1-10,12,13,16- "$d/auto/results.csv") <(cut -d, -f1-10,12,13,16- "$d/size/results.csv") &&
        [ "$(rows_apart "$d/auto/results.csv" "$d/size/results.csv")" -eq 0 ]; }; then
        echo "rows differ beyond 1e-12"
        return 1
    fi
    # the groups come from the experiment alone: one job gives the bytes of two
    $PACT sim "${a[@]}" --jobs 1 -o "$d/auto1" >/dev/null && cmp "$d/auto/results.csv" "$d/auto1/results.csv"
}
check "pact sim --batch auto: an algorithm's sizes share a smpirun at few ranks, the rows of --batch size" \
    sim_batch_auto
