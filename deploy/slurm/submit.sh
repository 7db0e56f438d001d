#!/bin/bash
# Submits the count as a job array and the merge as a job that starts only
# when every array task has succeeded. Prints the two job IDs: the array's,
# then the merge's.
#   PUZZLE=queens:21 deploy/slurm/submit.sh
#   PUZZLE=magic:5 deploy/slurm/submit.sh --array=1-8
#   PUZZLE=queens:29 PROP=toroidal deploy/slurm/submit.sh --array=1-200
set -euo pipefail
here=$(dirname "$0")
export PUZZLE=${PUZZLE:-queens:20} DIR=${DIR:-$PWD/shards} OUT=${OUT:-$PWD/catalog.db}
array=$(sbatch --parsable --export=ALL "$@" "$here/count.sbatch")
echo "$array"
sbatch --parsable --export=ALL --dependency="afterok:${array%%;*}" "$here/merge.sbatch"
