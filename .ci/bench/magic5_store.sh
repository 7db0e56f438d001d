#!/usr/bin/env bash
# Measures the stored order-5 build and queries over it on this machine:
# 'solcat build magic:5' (all 275,305,224 classes) with its wall time, peak
# memory and file size, then a count answered from the recorded cell table,
# counts that read every class (median of RUNS), a property count and a
# listing. Needs about 12 GB of free disk in $TMPDIR while it runs.
# Usage: .ci/bench/magic5_store.sh            (about 10 minutes on 2 cores)
#        KEEP=/path/m5.db .ci/bench/magic5_store.sh   (keep the catalog there)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/solcat" ./cmd/solcat
db=${KEEP:-$work/m5.db}
rm -rf "$db" "$db"-* "$db.sort"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>"$work/err"; end=$(date +%s.%N); echo "$end - $start" | bc -l; }

/usr/bin/time -f '%e s wall, %M KB peak memory' -o "$work/time" "$work/solcat" --db "$db" build magic:5 | tee "$work/build"
echo "build: $(cat "$work/time"); catalog $(stat -c %s "$db") bytes"
"$work/solcat" --db "$db" info

t=$(seconds "$work/solcat" --db "$db" count magic:5 --cell 1,1=1)
printf 'count --cell 1,1=1 (recorded): %s in %.3f s\n' "$(cat "$work/out")" "$t"
for filter in "--cell 1,1=1 --cell 5,5=25" "--pattern '. . . . . / . 7 . . . / . . 13 . . / . . . . . / . . . . .'"; do
  times=""
  for r in $(seq "$RUNS"); do
    t=$(eval seconds "$work/solcat" --db "$db" count magic:5 $filter)
    times="$times $t"
  done
  printf 'count %s (reads every class): %s, median %.1f s of%s\n' "$filter" "$(cat "$work/out")" "$(echo $times | tr ' ' '\n' | median)" "$times"
done
t=$(seconds "$work/solcat" --db "$db" count magic:5 --prop associative --classes)
printf 'count --prop associative --classes: %s in %.2f s\n' "$(cat "$work/out")" "$t"
t=$(seconds "$work/solcat" --db "$db" list magic:5 --limit 8)
printf 'list --limit 8 in %.3f s:\n%s\n' "$t" "$(cat "$work/out")"
echo "classes and squares by centre value, from the stored build:"
"$work/solcat" --db "$db" stats magic:5 --by cell:3,3
