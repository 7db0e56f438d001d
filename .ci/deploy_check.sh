#!/usr/bin/env bash
# Runs the deploy/ recipes as far as one machine can: deploy/parallel.sh for
# real (needs GNU parallel), the Slurm array tasks and the merge with the
# variables Slurm would set, and the Kubernetes pods' command line with the
# index the Indexed Job would give (after Kubernetes' own $(VAR) expansion).
# Each result must match a count made in one process. Then .ci/slurm_check.sh
# submits the Slurm recipe to a real single-node Slurm (skipped with a message
# where it cannot run; SLURM_CHECK=require, as .ci/run sets, installs Slurm
# and fails instead).
# Usage: .ci/deploy_check.sh      (PUZZLE=queens:12 K=4 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
PUZZLE=${PUZZLE:-queens:12} K=${K:-4}
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
go build -o "$work/bin/solcat" ./cmd/solcat
export PATH="$work/bin:$PATH"
cd "$work"
solcat --db one.db build "$PUZZLE" --count-only >/dev/null
want=$(solcat --db one.db count "$PUZZLE" --classes)
check() { got=$(solcat --db "$2" count "$PUZZLE" --classes); [ "$got" = "$want" ] || { echo "$1: $got classes, want $want"; exit 1; }; echo "$1: ok ($got classes)"; }

if command -v parallel >/dev/null; then
  K=$K PUZZLE=$PUZZLE DIR=par OUT=par.db "$root/deploy/parallel.sh" >/dev/null 2>&1
  check "GNU parallel" par.db
else
  echo "GNU parallel: not installed, skipped"
fi

for i in $(seq "$K"); do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$K SLURM_CPUS_PER_TASK=1 PUZZLE=$PUZZLE DIR=slurm bash "$root/deploy/slurm/count.sbatch" >/dev/null
done
DIR=slurm OUT=slurm.db bash "$root/deploy/slurm/merge.sbatch" >/dev/null
check "Slurm array + merge" slurm.db

# A split toroidal count, by GNU parallel and by the Slurm scripts: the
# count on the merged catalog prints the published total.
if command -v parallel >/dev/null; then
  got=$(K=3 PUZZLE=queens:19 PROP=toroidal DIR=tpar OUT=tpar.db "$root/deploy/parallel.sh" 2>/dev/null | tail -n 1)
  [ "$got" = 820496 ] || { echo "GNU parallel, toroidal: $got, want 820496"; exit 1; }
  echo "GNU parallel, toroidal queens:19: ok ($got)"
fi
for i in 1 2 3; do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=1 PUZZLE=queens:19 PROP=toroidal DIR=tslurm bash "$root/deploy/slurm/count.sbatch" >/dev/null
done
got=$(PUZZLE=queens:19 PROP=toroidal DIR=tslurm OUT=tslurm.db bash "$root/deploy/slurm/merge.sbatch" 2>/dev/null | tail -n 1)
[ "$got" = 820496 ] || { echo "Slurm array + merge, toroidal: $got, want 820496"; exit 1; }
echo "Slurm array + merge, toroidal queens:19: ok ($got)"

# The pod's command as Kubernetes runs it: $(VAR) expanded from env, $$ -> $.
pod() {
  sed -n '/^ *- >-$/,/^ *env:/p' "$root/deploy/kubernetes/$1" | sed '1d;$d' | tr -d '\n' | sed 's/^ *//' |
    sed "s/\$(PUZZLE_FILE)/k8s/g; s/\$(PUZZLE)/$PUZZLE/g; s/\$(K)/$K/g; s/\\\$\\\$/\$/g; s|/data/|k8s/|g"
}
mkdir -p k8s
for index in $(seq 0 $((K - 1))); do
  JOB_COMPLETION_INDEX=$index sh -c "$(pod count-job.yaml)" >/dev/null
done
merge=$(sed -n 's/^ *- exec \(solcat merge.*\) && .*/\1/p' "$root/deploy/kubernetes/merge-job.yaml" |
  sed "s/\$(PUZZLE_FILE)/k8s/g; s/\$(K)/$K/g; s|/data/|k8s/|g")
sh -c "$merge" >/dev/null
check "Kubernetes Indexed Job + merge Job (commands only)" k8s/k8s.db

"$root/.ci/slurm_check.sh"
