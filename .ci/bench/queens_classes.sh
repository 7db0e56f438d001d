#!/usr/bin/env bash
# Measures the queens puzzles stored as their classes (queens:18 and 19) on
# this machine: 'solcat build queens:N' with its wall time, peak memory and
# file size, then queries over it: a one-cell count (recorded at build
# time), a two-cell count that reads every class (median of RUNS), a
# symmetry-type count, stats by a row, a direct jump, show --solution and
# verify. With KILL=S it then builds again, kills that build with SIGKILL
# after S seconds, resumes it and checks that the content hash is the
# uninterrupted build's. The load average is printed before each step.
# Needs about 1.1 GB (queens:18) and 7.8 GB (queens:19) of free disk in
# $TMPDIR, twice that with KILL.
# Usage: .ci/bench/queens_classes.sh                 (queens:18 and 19: about 20 minutes on 2 cores)
#        SIZES=18 RUNS=5 .ci/bench/queens_classes.sh
#        SIZES=19 KILL=300 KEEP=/path/dir .ci/bench/queens_classes.sh   (keep the catalogs in dir)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
SIZES=${SIZES:-"18 19"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/solcat" ./cmd/solcat
dir=${KEEP:-$work}
mkdir -p "$dir"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>"$work/err"; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
load() { echo "  (load average: $(cut -d' ' -f1-3 /proc/loadavg))"; }
hash() { "$work/solcat" --db "$1" sql "SELECT content_hash FROM puzzles WHERE name = 'queens:$2'" --format csv --no-headers; }

for n in $SIZES; do
  db=$dir/q$n.db
  rm -rf "$db" "$db"-*
  load
  /usr/bin/time -f '%e s wall, %M KB peak memory' -o "$work/time" "$work/solcat" --db "$db" build "queens:$n"
  echo "build queens:$n: $(cat "$work/time"); catalog $(stat -c %s "$db") bytes"
  "$work/solcat" --db "$db" info
  load
  t=$(seconds "$work/solcat" --db "$db" count "queens:$n" --cell 1,2=1)
  printf 'count --cell 1,2=1 (recorded): %s in %.3f s\n' "$(cat "$work/out")" "$t"
  times=""
  for r in $(seq "$RUNS"); do
    load
    t=$(seconds "$work/solcat" --db "$db" count "queens:$n" --cell 1,2=1 --cell 10,9=1)
    times="$times $t"
  done
  printf 'count --cell 1,2=1 --cell 10,9=1 (reads every class): %s, median %.1f s of%s\n' "$(cat "$work/out")" "$(echo $times | tr ' ' '\n' | median)" "$times"
  t=$(seconds "$work/solcat" --db "$db" count "queens:$n" --cell 1,2=1 --cell 10,9=1 --classes)
  printf 'the same, --classes: %s in %.1f s\n' "$(cat "$work/out")" "$t"
  t=$(seconds "$work/solcat" --db "$db" count "queens:$n" --prop rot180-only --cell 1,2=1)
  printf 'count --prop rot180-only --cell 1,2=1 (reads the classes with fewer than 8 members): %s in %.2f s\n' "$(cat "$work/out")" "$t"
  t=$(seconds "$work/solcat" --db "$db" stats "queens:$n" --by row:1)
  printf 'stats --by row:1 (recorded) in %.3f s\n' "$t"
  last=$("$work/solcat" --db "$db" sql "SELECT solutions FROM puzzles WHERE name = 'queens:$n'" --format csv --no-headers)
  t=$(seconds "$work/solcat" --db "$db" list "queens:$n" --offset $((last - 5)) --limit 5)
  printf 'list --offset %d --limit 5 (a direct jump) in %.3f s\n' $((last - 5)) "$t"
  t=$(seconds "$work/solcat" --db "$db" show "queens:$n" --solution "$last")
  printf 'show --solution %d in %.3f s: %s\n' "$last" "$t" "$(head -1 "$work/out")"
  load
  /usr/bin/time -f '%e s wall, %M KB peak memory' -o "$work/time" "$work/solcat" --db "$db" verify "queens:$n"
  echo "verify: $(cat "$work/time")"
  if [ -n "${KILL:-}" ]; then
    killed=$dir/q$n-killed.db
    rm -rf "$killed" "$killed"-*
    load
    "$work/solcat" --db "$killed" build "queens:$n" 2>/dev/null &
    pid=$!
    sleep "$KILL"
    kill -KILL "$pid"
    wait "$pid" || true
    "$work/solcat" --db "$killed" info || true
    /usr/bin/time -f '%e s wall, %M KB peak memory' -o "$work/time" "$work/solcat" --db "$killed" build "queens:$n"
    echo "resumed after SIGKILL at $KILL s: $(cat "$work/time")"
    if [ "$(hash "$killed" "$n")" = "$(hash "$db" "$n")" ]; then
      echo "content hash after the kill: the same as the uninterrupted build's"
    else
      echo "content hash after the kill DIFFERS: $(hash "$killed" "$n") vs $(hash "$db" "$n")"
      exit 1
    fi
  fi
done
