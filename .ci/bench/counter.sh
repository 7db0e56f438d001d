#!/usr/bin/env bash
# Measures solcat's N-queens counter (count-only builds, whole processes)
# side by side with
#   - the C textbook counter (bitmask with first-row mirror halving, one
#     thread), built with gcc from ../shared/bench/nq_textbook.c when that
#     file is there (or TEXTBOOK=path/to/nq_textbook.c), and
#   - Evgeny Kluev's quarter-board counter (github.com/EvgenyKluev/
#     N-Queens-Count-Sol, C++20) on one thread, when KLUEV names its source:
#     its board size is a compile-time constant, so it is built here once per
#     size, tuned as its own solcounter.h table says for that size (the
#     settings its author measured): BMI2 and prefetch by uncommenting the
#     includes in bmintrin.h and prefetch.h, and in solcounter.h
#       N=16-18  prefetch
#       N=19     BMI2, prefetch
#       N=20-21  sieveCuts 3, matchMinSize 60, BMI2
#       N=22     sieveCuts 6, matchMinSize 80, BMI2, prefetch, row symmetry
#     (g++ -std=c++20 -O3 -march=native -pthread). KLUEV<N>=path uses a
#     binary built elsewhere for size N instead.
# Whole processes, alternating (one run of each program, then the next
# round), RUNS rounds; it prints the CPU, the load average before and after,
# each program's median wall time (and every run's), and
#   solcat 1 worker vs Kluev 1 thread  (Kluev's time / solcat's: above 1 is
#                                       solcat faster)
#   solcat 2 workers vs C textbook     (textbook's time / solcat's)
#   the whole process against its own count (from its start to its record,
#                                       as the command reports it) and, up to
#                                       N=17, the counting loop alone (solcat
#                                       bench, no catalog), all on 2 workers
#   solcat 1 worker vs Kluev 1 thread in CPU time (user + system, by
#                                       /usr/bin/time), which a busy machine
#                                       changes far less than wall time
# and checks every program's count against solcat's (which checks it
# against the published one). Absolute times differ from machine to
# machine, and with other work on the same machine: compare the ratios of
# one run of this script.
#
# Usage: KLUEV=/path/to/N-Queens-Count-Sol .ci/bench/counter.sh
#        KLUEV=... SIZES="19" RUNS=3 .ci/bench/counter.sh
#        KLUEV=... SIZES="21" RUNS=1 TEXTBOOK_MAX=17 .ci/bench/counter.sh
# RUNS=5, SIZES="17 18" by default; the textbook counter runs up to
# TEXTBOOK_MAX=17 (about 3 minutes a run at 18, 25 at 19).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
SIZES=${SIZES:-"17 18"}
TEXTBOOK_MAX=${TEXTBOOK_MAX:-17}
TEXTBOOK=${TEXTBOOK:-../shared/bench/nq_textbook.c}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/solcat" ./cmd/solcat
textbook=""
if [ -f "$TEXTBOOK" ] && command -v gcc >/dev/null; then
  gcc -O3 -march=native -o "$work/nq_textbook" "$TEXTBOOK"
  textbook="$work/nq_textbook"
fi

# kluev N: the path of Kluev's counter for size N, built tuned if need be,
# or "".
kluev() {
  local n=$1 var="KLUEV$1"
  if [ -n "${!var:-}" ]; then
    echo "${!var}"
    return
  fi
  if [ -z "${KLUEV:-}" ] || [ ! -f "$KLUEV/solcounter.h" ]; then
    return
  fi
  local dir="$work/kluev$n"
  if [ ! -x "$dir/kluev" ]; then
    mkdir -p "$dir"
    cp "$KLUEV"/*.h "$KLUEV"/main.cpp "$dir/"
    local cuts=0 minsize=40 bmi=false pf=false sym=QNoSymmetry
    case $n in
    16 | 17 | 18) pf=true ;;
    19) bmi=true pf=true ;;
    20 | 21) cuts=3 minsize=60 bmi=true ;;
    22) cuts=6 minsize=80 bmi=true pf=true sym=QRowSymmetry ;;
    esac
    if [ "$bmi" = true ]; then
      sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' "$dir/bmintrin.h"
    fi
    if [ "$pf" = true ]; then
      sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$dir/prefetch.h"
    fi
    sed -i -e "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" \
      -e "s/\.sieveCuts = [0-9]*,/.sieveCuts = $cuts,/" -e "s/\.matchMinSize = [0-9]*,/.matchMinSize = $minsize,/" \
      -e "s/\.bmiIntrin = [a-z]*,/.bmiIntrin = $bmi,/" -e "s/\.prefetch = [a-z]*,/.prefetch = $pf,/" \
      -e "s/Subsquare<size \/ 2, QNoSymmetry,/Subsquare<size \/ 2, $sym,/" "$dir/solcounter.h"
    # The settings must have taken: a source laid out otherwise is refused.
    grep -q "size = $n;" "$dir/solcounter.h" && grep -q "sieveCuts = $cuts," "$dir/solcounter.h" &&
      grep -q "matchMinSize = $minsize," "$dir/solcounter.h" && grep -q "bmiIntrin = $bmi," "$dir/solcounter.h" &&
      grep -q "prefetch = $pf," "$dir/solcounter.h" && grep -q "Subsquare<size / 2, $sym," "$dir/solcounter.h" || {
      echo "counter.sh: could not set Kluev's counter's settings for N=$n in $KLUEV/solcounter.h" >&2
      exit 1
    }
    g++ -std=c++20 -O3 -march=native -pthread -o "$dir/kluev" "$dir/main.cpp" >&2
    echo "kluev N=$n: sieveCuts $cuts, matchMinSize $minsize, bmiIntrin $bmi, prefetch $pf, $sym" >"$dir/settings"
  fi
  echo "$dir/kluev"
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
  if [ -x /usr/bin/time ]; then
    out=$(/usr/bin/time -f '%U %S' -o "$work/cpu.last" "$@" 2>&1)
    awk '{ print $1 + $2 }' "$work/cpu.last" >>"$work/$name.cpu"
  else
    out=$("$@" 2>&1)
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l >>"$work/$name.times"
  # (solcat's text writes counts with thousands separators: 14,772,512)
  echo "$out" | sed -n -e 's/^Result: \([0-9]*\).*/\1/p' -e 's/^\([0-9][0-9]*\)$/\1/p' \
    -e 's/^queens:[0-9]*  *\([0-9,]*\) solutions.*/\1/p' | head -1 | tr -d , >"$work/$name.count"
  # solcat's own time for the count, from its start to its record.
  echo "$out" | sed -n 's/^queens:[0-9]*  .*  \([0-9.]*\)s  counts$/\1/p' >>"$work/$name.own"
}

# looptime N: the counting loop alone, on both cores, as solcat bench
# times it (no catalog), appended to $work/loop2.times.
looptime() {
  local out t
  out=$("$work/solcat" bench "queens:$1" --methods solcat --runs 1)
  t=$(echo "$out" | awk '$1 == "solcat" { if ($5 == "ms") print $4 / 1000; else if ($5 == "s") print $4; else if ($5 == "min") print $4 * 60 }')
  echo "$t" >>"$work/loop2.times"
  echo "$out" | awk '$1 == "solcat" { gsub(",", "", $2); print $2 }' >"$work/loop2.count"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
vector="no AVX-512"
grep -q avx512_vpopcntdq /proc/cpuinfo && vector="AVX-512 with VPOPCNTQ"
echo "== count only, whole processes, alternating, medians of $RUNS runs; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "== $cpu, $(nproc) cores, $vector; load average before $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $SIZES; do
  rm -f "$work"/*.times "$work"/*.count "$work"/*.own "$work"/*.cpu
  names=""
  [ -n "$textbook" ] && [ "$n" -le "$TEXTBOOK_MAX" ] && names="$names textbook"
  k=$(kluev "$n")
  [ -n "$k" ] && names="$names kluev"
  [ -n "$k" ] && [ -f "$(dirname "$k")/settings" ] && cat "$(dirname "$k")/settings"
  names="$names solcat1 solcat2"
  # solcat bench times the loop alone up to N=17.
  [ "$n" -le 17 ] && names="$names loop2"
  for r in $(seq "$RUNS"); do
    for name in $names; do
      case $name in
      textbook) timed textbook "$textbook" "$n" ;;
      kluev) timed kluev "$k" 1 ;;
      solcat1) timed solcat1 "$work/solcat" --db "$work/q.db" build "queens:$n" --count-only --workers 1 --force ;;
      solcat2) timed solcat2 "$work/solcat" --db "$work/q.db" build "queens:$n" --count-only --workers 2 --force ;;
      loop2) looptime "$n" ;;
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
    # On a busy machine the wall times mostly measure the other work; the
    # CPU time of a one-thread process measures the program.
    if [ -s "$work/kluev.cpu" ] && [ -s "$work/solcat1.cpu" ]; then
      kc=$(median <"$work/kluev.cpu")
      sc=$(median <"$work/solcat1.cpu")
      printf 'queens:%s  solcat 1 worker vs Kluev 1 thread, CPU time:  %.2fx (Kluev %.2f s / solcat %.2f s of CPU)\n' \
        "$n" "$(echo "$kc / $sc" | bc -l)" "$kc" "$sc"
    fi
  fi
  if [ -n "${med[textbook]:-}" ]; then
    printf 'queens:%s  solcat 2 workers vs C textbook:    %.2fx (textbook %.2f s / solcat %.2f s)\n' \
      "$n" "$(echo "${med[textbook]} / ${med[solcat2]}" | bc -l)" "${med[textbook]}" "${med[solcat2]}"
    printf 'queens:%s  solcat 1 worker vs C textbook:     %.2fx\n' \
      "$n" "$(echo "${med[textbook]} / ${med[solcat1]}" | bc -l)"
  fi
  # over WHOLE PART LABEL: how much longer the whole process took.
  over() {
    awk -v whole="$1" -v part="$2" -v n="$n" -v label="$3" 'BEGIN { if (part > 0)
      printf "queens:%s  solcat 2 workers, whole process vs %s: %+.0f%% (%.2f s / %.2f s)\n", n, label, 100 * (whole / part - 1), whole, part }'
  }
  over "${med[solcat2]}" "$(median <"$work/solcat2.own")" "its count as it reports it"
  [ -n "${med[loop2]:-}" ] && over "${med[solcat2]}" "${med[loop2]}" "the counting loop alone"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  unset med
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
