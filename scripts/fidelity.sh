#!/usr/bin/env bash
# Fidelity seed: pact's allreduce algorithms against SimGrid 3.32's own implementations of the same
# algorithms, simulated no-delay d^ side by side on generic32x32 with 64 ranks (2 nodes x 32), gamma 0
# (SMPI's built-ins charge no compute under smpi/simulate-computation:no).
#
#   scripts/fidelity.sh [OUTDIR]
#
# Columns: pact algorithm, SMPI algorithm, bytes, pact d^, SMPI d^, (pact/SMPI - 1) in %, and for ring
# (pact/analytic - 1) in %, the analytic time of Open MPI's ring on this platform: a reduce-scatter whose
# eager sends let each step run at the mean hop time, then an allgather of sendrecvs paced by the
# slowest (inter-node) hop; hop = latency + (m/P + 16)/bandwidth, 16 bytes being SMPI's envelope.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-$(mktemp -d /tmp/pact-fidelity-XXXXXX)/run}
build/bin/pact sim --platform generic32x32 --nodes 2 --ppn 32 --coll allreduce \
    --algs recursive_doubling,ring,smpi:rdb,smpi:lr --sizes 8,64K,1M --patterns no_delay --reps 1 \
    --gamma 0 -o "$OUT" >/dev/null 2>"$OUT.log" || { cat "$OUT.log" >&2; exit 1; }
printf '%-20s %-6s %9s %14s %14s %9s %9s\n' pact smpi bytes pact_us smpi_us diff_% analytic_%
awk -F, -v P=64 -v ppn=32 '
    NR > 1 { t[$6 "," $7] = $14; sizes[$7] = 1 }
    END {
        pair["recursive_doubling"] = "smpi:rdb"; pair["ring"] = "smpi:lr"
        for (a in pair) for (m in sizes) {
            p = t[a "," m]; s = t[pair[a] "," m]
            an = "-"
            if (a == "ring" && m / 8 >= P) {
                bw = 1.25e9; blk = m / P + 16
                intra = 1e-6 + blk / bw; inter = 2e-6 + blk / bw
                mean = ((P - 2) * intra + 2 * inter) / P
                ring = (P - 1) * mean + (P - 1) * inter
                an = sprintf("%.3f", (p / ring - 1) * 100)
            }
            printf "%-20s %-6s %9d %14.3f %14.3f %9.3f %9s\n", a, substr(pair[a], 6), m, p * 1e6, s * 1e6, (p / s - 1) * 100, an
        }
    }' "$OUT/results.csv" | sort -k1,1 -k3,3n
