#!/bin/bash
# One big machine: K shards as K processes with GNU parallel (one worker
# each), then the merge. The same as one 'build --count-only' with
# --workers K, but each shard is its own file and process, so the shards can
# also be spread over machines and copied back.
#   K=8 PUZZLE=queens:20 deploy/parallel.sh
# PROP=toroidal or PROP=superqueen splits that count of the puzzle instead
# ('count PUZZLE --prop PROP --shard I/K'), and the count on the merged
# catalog finishes it and prints the total:
#   K=8 PUZZLE=queens:25 PROP=toroidal deploy/parallel.sh
set -euo pipefail
K=${K:-$(nproc)} PUZZLE=${PUZZLE:-queens:20} DIR=${DIR:-shards} OUT=${OUT:-catalog.db} PROP=${PROP:-}
mkdir -p "$DIR"
if [ -n "$PROP" ]; then
  parallel --halt now,fail=1 -j "$K" GOMAXPROCS=1 solcat --db "$DIR/$PROP-{}-of-$K.db" count "$PUZZLE" --prop "$PROP" --shard "{}/$K" ::: $(seq "$K")
  solcat merge "$OUT" "$DIR"/"$PROP"-*-of-"$K".db
  exec solcat --db "$OUT" count "$PUZZLE" --prop "$PROP"
fi
parallel --halt now,fail=1 -j "$K" solcat --db "$DIR/shard-{}-of-$K.db" build "$PUZZLE" --count-only --shard "{}/$K" --workers 1 ::: $(seq "$K")
solcat merge "$OUT" "$DIR"/shard-*-of-"$K".db
