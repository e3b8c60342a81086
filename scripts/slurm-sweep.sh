#!/usr/bin/env bash
# slurm-sweep.sh - spreads a pact sim experiment over a Slurm cluster: a job array of N shards
# (pact sim EXP --shard K/N) and a merge job that runs after all of them (pact merge).
#
#   scripts/slurm-sweep.sh EXPERIMENT.yaml -n N -o DIR [--pact PATH] [--time HH:MM:SS] [--cpus C]
#                          [--partition P] [--submit]
#
# Writes DIR/slurm/array.sbatch and DIR/slurm/merge.sbatch, and prints the two sbatch commands; with
# --submit it runs them (the merge depends on the array: afterok).  Shard K writes DIR/shard-K/; the merged
# experiment lands in DIR/merged/.  A shard that was killed (time limit, preemption) resumes when resubmitted:
# pact sim keeps the rows it already wrote.  Each shard runs `--jobs C` simulations at once on its node.
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

exp="" n="" out="" pact="" time_limit="04:00:00" cpus=1 partition="" submit=0
while [ $# -gt 0 ]; do
    case "$1" in
    -n) n=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --pact) pact=$2; shift 2 ;;
    --time) time_limit=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --partition) partition=$2; shift 2 ;;
    --submit) submit=1; shift ;;
    -h | --help) usage ;;
    -*) echo "slurm-sweep.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$exp" ] || { echo "slurm-sweep.sh: one experiment file" >&2; exit 2; }; exp=$1; shift ;;
    esac
done
[ -n "$exp" ] && [ -n "$n" ] && [ -n "$out" ] || usage
[ -f "$exp" ] || { echo "slurm-sweep.sh: $exp: no such file" >&2; exit 2; }
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "slurm-sweep.sh: -n $n: expected a number of shards >= 1" >&2; exit 2; }
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || { echo "slurm-sweep.sh: --cpus $cpus: expected a number >= 1" >&2; exit 2; }
if [ -z "$pact" ]; then
    pact=$(command -v pact || true)
    [ -n "$pact" ] || pact="$(cd "$(dirname "$0")/.." && pwd)/build/bin/pact"
fi
[ -x "$pact" ] || { echo "slurm-sweep.sh: $pact: not an executable pact (--pact PATH)" >&2; exit 2; }
pact=$(readlink -f "$pact")
exp=$(readlink -f "$exp")
mkdir -p "$out/slurm"
out=$(readlink -f "$out")
part=""
[ -z "$partition" ] || part="#SBATCH --partition=$partition"

cat >"$out/slurm/array.sbatch" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=pact-sweep
#SBATCH --array=1-$n
#SBATCH --cpus-per-task=$cpus
#SBATCH --time=$time_limit
#SBATCH --output=$out/slurm/shard-%a.log
$part
set -euo pipefail
k=\${SLURM_ARRAY_TASK_ID:?run as a Slurm array task}
exec "$pact" sim "$exp" --shard "\$k/$n" --jobs $cpus -o "$out/shard-\$k"
EOF
{
    echo "#!/usr/bin/env bash"
    echo "#SBATCH --job-name=pact-merge"
    echo "#SBATCH --time=00:30:00"
    echo "#SBATCH --output=$out/slurm/merge.log"
    [ -z "$part" ] || echo "$part"
    echo "set -euo pipefail"
    printf 'exec "%s" merge -o "%s/merged"' "$pact" "$out"
    for k in $(seq 1 "$n"); do printf ' "%s/shard-%d"' "$out" "$k"; done
    echo
} >"$out/slurm/merge.sbatch"
chmod +x "$out/slurm/array.sbatch" "$out/slurm/merge.sbatch"

if [ $submit -eq 1 ]; then
    command -v sbatch >/dev/null || { echo "slurm-sweep.sh: sbatch not found (run without --submit)" >&2; exit 1; }
    id=$(sbatch --parsable "$out/slurm/array.sbatch")
    sbatch --dependency="afterok:${id%%;*}" "$out/slurm/merge.sbatch"
    echo "submitted array $id; results in $out/merged/ when the merge job ends"
else
    echo "sbatch --parsable $out/slurm/array.sbatch          # prints JOBID"
    echo "sbatch --dependency=afterok:JOBID $out/slurm/merge.sbatch"
fi
