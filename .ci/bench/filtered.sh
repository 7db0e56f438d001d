#!/usr/bin/env bash
# Times filtered counts of queens past storage (queens:20 to 32, no record
# needed) beside the textbook search under the same filter
# (../shared/bench/nq_textbook_fixed.c, built with gcc; TEXTBOOK_C names
# another copy), as whole processes. For each filter it prints the answer,
# solcat's wall and CPU time (user and system, both workers) as the median
# of RUNS runs (1 by default) into a new catalog, its --explain estimate,
# the textbook's CPU time on one thread when it ran (the median of
# TEXTBOOK_RUNS runs, 1 by default), and the ratio per core
# (the textbook's CPU time over solcat's). CPU time, not wall, is what to
# compare on a shared machine; the date, the CPU and the load average
# before and after are printed with the table.
#
# Usage: .ci/bench/filtered.sh
#        TEXTBOOK=short .ci/bench/filtered.sh   # the textbook only where it takes minutes
#        TEXTBOOK=none RUNS=3 .ci/bench/filtered.sh
#        ONLY="q26six q24six" .ci/bench/filtered.sh
#        ONLY=q24six RUNS=5 TEXTBOOK_RUNS=5 .ci/bench/filtered.sh   # the textbook's median too
# TEXTBOOK is all (every filter, hours in all: queens:22's takes over an
# hour, queens:28's about one), short (those of under 3 minutes; the
# default) or none. SOLCAT_BIN times a solcat built elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-1}
TEXTBOOK_RUNS=${TEXTBOOK_RUNS:-1}
TEXTBOOK=${TEXTBOOK:-short}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. .ci/bench/lib.sh
solcat=$(bench_solcat "$work")
textbook_c=${TEXTBOOK_C:-../shared/bench/nq_textbook_fixed.c}
textbook=""
if [ "$TEXTBOOK" != none ] && [ -f "$textbook_c" ] && command -v gcc >/dev/null &&
  gcc -O3 -march=native -o "$work/textbook" "$textbook_c" 2>/dev/null; then
  textbook="$work/textbook"
fi

# The filters: name, whether the textbook's run is short, N, cells.
filters=(
  "q20two short 20 1,3 2,7"
  "q20one long 20 1,1"
  "q21three short 21 1,3 2,7 3,11"
  "q22three long 22 1,2 2,5 22,10"
  "q23four short 23 1,2 2,4 3,6 12,12"
  "q24four long 24 1,1 2,3 3,5 4,7"
  "q25five short 25 1,1 2,3 3,5 4,7 5,9"
  "q26six short 26 1,1 2,3 3,5 4,7 5,9 6,11"
  "q24six short 24 1,5 2,9 3,1 4,12 5,20 10,10"
  "q28six long 28 1,1 2,3 3,5 4,7 5,9 6,11"
)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-14s %9s %9s %-22s %12s %8s\n' filter answer "wall s" "CPU s" "--explain" "textbook s" ratio
for f in "${filters[@]}"; do
  read -r name length n cells <<<"$f"
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
    continue
  fi
  args=() tb=()
  for c in $cells; do
    args+=(--cell "$c=1")
    tb+=("$c=1")
  done
  rm -f "$work"/cat.db*
  explain=$("$solcat" count "queens:$n" "${args[@]}" --db "$work/cat.db" --explain 2>&1 | sed -n 's/^ *estimate: \(about \)*\([^,]*\),.*/\2/p')
  walls="" cpus="" answer=""
  for _ in $(seq "$RUNS"); do
    rm -f "$work"/cat.db*
    /usr/bin/time -f '%e %U %S' -o "$work/time" "$solcat" count "queens:$n" "${args[@]}" --db "$work/cat.db" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    answer=$(cat "$work/out")
    read -r wall user sys <"$work/time"
    walls+="$wall"$'\n'
    cpus+="$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')"$'\n'
  done
  wall=$(printf '%s' "$walls" | median)
  cpu=$(printf '%s' "$cpus" | median)
  tbcpu="" ratio=""
  if [ -n "$textbook" ] && { [ "$TEXTBOOK" = all ] || [ "$length" = short ]; }; then
    tbcpus=""
    for _ in $(seq "$TEXTBOOK_RUNS"); do
      /usr/bin/time -f '%U %S' -o "$work/time" "$textbook" "$n" "${tb[@]}" >"$work/tbout"
      if [ "$(cat "$work/tbout")" != "$answer" ]; then
        echo "$name: solcat counts $answer, the textbook $(cat "$work/tbout")" >&2
        exit 1
      fi
      read -r user sys <"$work/time"
      tbcpus+="$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')"$'\n'
    done
    tbcpu=$(printf '%s' "$tbcpus" | median)
    ratio=$(awk -v t="$tbcpu" -v c="$cpu" 'BEGIN {printf "%.1fx", t / c}')
  fi
  printf '%-10s %-14s %9s %9s %-22s %12s %8s\n' "$name" "$answer" "$wall" "$cpu" "${explain:-?}" "${tbcpu:--}" "${ratio:--}"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
