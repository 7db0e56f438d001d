#!/usr/bin/env bash
# Measures the N-queens speed targets side by side on this machine:
#   1. count-only: the textbook counter (bitmask + first-row mirror halving,
#      one thread) against the join counter on one thread and on every core
#      (solcat), at N=16 and 17;
#   2. stored builds of queens:16 and queens:17: wall time, solutions per
#      second end to end, bytes per solution;
#   3. queries on queens:17: a count with the first row fixed, and a count
#      with one other cell fixed (a scan).
# The count-only counter against the textbook and Kluev's quarter-board
# counter, whole processes on 1 and 2 workers: .ci/bench/counter.sh.
# Usage: .ci/bench/queens.sh            RUNS=3 (medians of 3 runs each)
#        RUNS=1 SIZES="16" .ci/bench/queens.sh
#        PARTS="store query" .ci/bench/queens.sh    (skip the counters)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
SIZES=${SIZES:-"16 17"}
PARTS=${PARTS:-"count store query"}
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$work/solcat"
go build -o "$bin" ./cmd/solcat

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

if has count; then
echo "== count only (medians of $RUNS runs; ratio = textbook / solcat)"
for n in $SIZES; do
  "$bin" bench "queens:$n" --methods textbook,join,solcat --runs "$RUNS"
done
echo
fi

has store || has query || exit 0
echo "== stored builds (median wall time of $RUNS runs; the progress bar shows on a terminal)"
builds=$RUNS
has store || builds=1 # the queries need the catalog built once
for n in $SIZES; do
  times=""
  for r in $(seq "$builds"); do
    db="$work/q$n.db"
    rm -f "$db" "$db-wal" "$db-shm"
    start=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$work/mem" "$bin" --db "$db" build "queens:$n" >/dev/null
    end=$(date +%s.%N)
    echo "  run $r: $(echo "$end - $start" | bc -l | cut -c1-6) s, peak memory $(($(cat "$work/mem") / 1024)) MB"
    times="$times $(echo "$end - $start" | bc -l)"
  done
  t=$(echo $times | tr ' ' '\n' | median)
  sols=$("$bin" --db "$db" count "queens:$n")
  bytes=$(stat -c %s "$db")
  printf 'queens:%s  %s solutions  %.1f s wall  %.0f solutions/s  %s bytes  %.1f bytes/solution\n' \
    "$n" "$sols" "$t" "$(echo "$sols / $t" | bc -l)" "$bytes" "$(echo "$bytes / $sols" | bc -l)"
done

has query || exit 0
last=$(echo $SIZES | awk '{print $NF}')
db="$work/q$last.db"
echo
echo "== queries on queens:$last (median of $RUNS runs)"
for cell in 1,1=1 9,5=1 "9,5=1 --classes" "1,2=1 --orbit 8"; do
  times=""
  for r in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    n=$("$bin" --db "$db" count "queens:$last" --cell $cell)
    end=$(date +%s.%N)
    times="$times $(echo "$end - $start" | bc -l)"
  done
  t=$(echo $times | tr ' ' '\n' | median)
  printf 'count --cell %s: %s solutions in %.3f s\n' "$cell" "$n" "$t"
done
