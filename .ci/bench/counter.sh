#!/usr/bin/env bash
# Measures solcat's N-queens counter (count-only builds) side by side with
#   - the C textbook counter (bitmask with first-row mirror halving, one
#     thread), built with gcc from ../shared/bench/nq_textbook.c when that
#     file is there, and
#   - Evgeny Kluev's quarter-board counter (github.com/EvgenyKluev/
#     N-Queens-Count-Sol, C++20) on one thread, when given: its board size
#     is a compile-time constant, so give either a source directory, built
#     here once per size (size set in solcounter.h; g++ -std=c++20 -O3
#     -march=native -pthread), or a built binary per size.
# Whole processes, alternating (one run of each program, then the next
# round), RUNS rounds; it prints each program's median wall time and
#   solcat 1 worker vs Kluev 1 thread  (Kluev's time / solcat's: >= 1 is
#                                       solcat as fast or faster)
#   solcat 2 workers vs C textbook     (textbook's time / solcat's)
# and checks every program's count against solcat's (which checks it
# against the published one).
#
# Usage: KLUEV=/path/to/N-Queens-Count-Sol .ci/bench/counter.sh
#        KLUEV17=/path/kluev17 KLUEV18=/path/kluev18 RUNS=5 SIZES="17 18" .ci/bench/counter.sh
#        TEXTBOOK_MAX=16 SIZES="16 17" .ci/bench/counter.sh
# RUNS=5, SIZES="17 18" by default; the textbook runs up to TEXTBOOK_MAX=17
# (it takes about 3 minutes a run at 18). Other work on the machine skews
# the figures: the script prints the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
SIZES=${SIZES:-"17 18"}
TEXTBOOK_MAX=${TEXTBOOK_MAX:-17}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/solcat" ./cmd/solcat
textbook=""
if [ -f ../shared/bench/nq_textbook.c ] && command -v gcc >/dev/null; then
  gcc -O3 -march=native -o "$work/nq_textbook" ../shared/bench/nq_textbook.c
  textbook="$work/nq_textbook"
fi

# kluev N: the path of Kluev's counter for size N, built if need be, or "".
kluev() {
  local n=$1 var="KLUEV$1"
  if [ -n "${!var:-}" ]; then
    echo "${!var}"
  elif [ -n "${KLUEV:-}" ] && [ -f "$KLUEV/solcounter.h" ]; then
    local dir="$work/kluev$n"
    if [ ! -x "$dir/kluev" ]; then
      mkdir -p "$dir"
      cp "$KLUEV"/*.h "$KLUEV"/main.cpp "$dir/"
      sed -i "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" "$dir/solcounter.h"
      g++ -std=c++20 -O3 -march=native -pthread -o "$dir/kluev" "$dir/main.cpp" >&2
    fi
    echo "$dir/kluev"
  fi
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# timed NAME COMMAND...: runs it, appends its wall time to $work/NAME.times
# and its count (the first number it prints after "Result:", or alone on a
# line, or before " solutions") to $work/NAME.count.
timed() {
  local name=$1
  shift
  local start end out
  start=$(date +%s.%N)
  out=$("$@" 2>&1)
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l >>"$work/$name.times"
  echo "$out" | sed -n -e 's/^Result: \([0-9]*\).*/\1/p' -e 's/^\([0-9][0-9]*\)$/\1/p' \
    -e 's/^queens:[0-9]*  \([0-9]*\) solutions.*/\1/p' | head -1 >"$work/$name.count"
}

echo "== count only, whole processes, alternating, medians of $RUNS runs ($(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
for n in $SIZES; do
  rm -f "$work"/*.times "$work"/*.count
  names=""
  [ -n "$textbook" ] && [ "$n" -le "$TEXTBOOK_MAX" ] && names="$names textbook"
  k=$(kluev "$n")
  [ -n "$k" ] && names="$names kluev"
  names="$names solcat1 solcat2"
  for r in $(seq "$RUNS"); do
    for name in $names; do
      case $name in
      textbook) timed textbook "$textbook" "$n" ;;
      kluev) timed kluev "$k" 1 ;;
      solcat1) timed solcat1 "$work/solcat" --db "$work/q.db" build "queens:$n" --count-only --workers 1 --force ;;
      solcat2) timed solcat2 "$work/solcat" --db "$work/q.db" build "queens:$n" --count-only --workers 2 --force ;;
      esac
    done
  done
  want=$(cat "$work/solcat1.count")
  declare -A med=()
  for name in $names; do
    med[$name]=$(median <"$work/$name.times")
    got=$(cat "$work/$name.count")
    check="count $got"
    [ "$got" = "$want" ] || check="count $got, solcat found $want: MISMATCH"
    printf 'queens:%s  %-9s %8.2f s  (%s; runs: %s)\n' "$n" "$name" "${med[$name]}" "$check" \
      "$(tr '\n' ' ' <"$work/$name.times" | xargs printf '%.2f ')"
  done
  if [ -n "${med[kluev]:-}" ]; then
    printf 'queens:%s  solcat 1 worker vs Kluev 1 thread:  %.2fx (Kluev %.2f s / solcat %.2f s)\n' \
      "$n" "$(echo "${med[kluev]} / ${med[solcat1]}" | bc -l)" "${med[kluev]}" "${med[solcat1]}"
  fi
  if [ -n "${med[textbook]:-}" ]; then
    printf 'queens:%s  solcat 2 workers vs C textbook:    %.2fx (textbook %.2f s / solcat %.2f s)\n' \
      "$n" "$(echo "${med[textbook]} / ${med[solcat2]}" | bc -l)" "${med[textbook]}" "${med[solcat2]}"
    printf 'queens:%s  solcat 1 worker vs C textbook:     %.2fx\n' \
      "$n" "$(echo "${med[textbook]} / ${med[solcat1]}" | bc -l)"
  fi
  unset med
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
