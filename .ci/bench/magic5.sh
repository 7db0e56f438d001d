#!/usr/bin/env bash
# Measures the order-5 count side by side with the C baseline on this machine:
# ../shared/bench/magic5_ref.c (or $MAGIC5_REF), one core, against
# 'solcat build magic:5 --count-only' on every core. Both count centres 1 to
# 13 and double 1 to 12 for their complements. Prints each run's time, the
# medians, the ratio, and solcat's per-centre counts.
# Usage: .ci/bench/magic5.sh          RUNS=3 (medians of 3 runs each; about 45 minutes)
#        RUNS=1 .ci/bench/magic5.sh   (one run each, about 15 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
REF=${MAGIC5_REF:-../shared/bench/magic5_ref.c}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/solcat" ./cmd/solcat
cc -O3 -march=native -o "$work/magic5_ref" "$REF"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>"$work/err"; end=$(date +%s.%N); echo "$end - $start" | bc -l; }

ref_times="" ; sol_times=""
for r in $(seq "$RUNS"); do
  t=$(seconds "$work/magic5_ref")
  ref_times="$ref_times $t"
  printf 'run %s  magic5_ref (1 core)       %8.1f s  %s\n' "$r" "$t" "$(tail -1 "$work/out")"
  rm -f "$work/m5.db"*
  t=$(seconds "$work/solcat" --db "$work/m5.db" build magic:5 --count-only)
  sol_times="$sol_times $t"
  printf 'run %s  solcat (%s cores)           %8.1f s  %s\n' "$r" "$(nproc)" "$t" "$(head -1 "$work/out")"
done
ref=$(echo $ref_times | tr ' ' '\n' | median)
sol=$(echo $sol_times | tr ' ' '\n' | median)
printf 'median: magic5_ref %.1f s, solcat %.1f s, ratio %.2fx\n' "$ref" "$sol" "$(echo "$ref / $sol" | bc -l)"
"$work/solcat" --db "$work/m5.db" stats magic:5 --by cell:3,3
