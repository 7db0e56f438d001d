#!/bin/bash
# One big machine: K shards as K processes with GNU parallel (one worker
# each), then the merge. The same as one 'build --count-only' with
# --workers K, but each shard is its own file and process, so the shards can
# also be spread over machines and copied back.
#   K=8 PUZZLE=queens:20 deploy/parallel.sh
set -euo pipefail
K=${K:-$(nproc)} PUZZLE=${PUZZLE:-queens:20} DIR=${DIR:-shards} OUT=${OUT:-catalog.db}
mkdir -p "$DIR"
parallel --halt now,fail=1 -j "$K" solcat --db "$DIR/shard-{}-of-$K.db" build "$PUZZLE" --count-only --shard "{}/$K" --workers 1 ::: $(seq "$K")
solcat merge "$OUT" "$DIR"/shard-*-of-"$K".db
