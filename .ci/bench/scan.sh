#!/usr/bin/env bash
# Times solcat's filtered counts, as whole processes, on catalogs it builds
# (or is given): queens:16 stored solution by solution by default; queens:17
# (stored: about 2.8 GB and minutes to build), queens:19 and magic:5 (stored
# as their classes: hours to build, so give their catalogs) when asked.
# Each question runs RUNS times (5) in turn with the others, once to warm
# the page cache first; the script prints each one's median wall and user
# CPU time, with the date, the CPU and the load average before and after:
# other work on the machine skews the figures.
#
# Usage: .ci/bench/scan.sh
#        SIZES="16 17" RUNS=5 .ci/bench/scan.sh
#        Q19_DB=/path/q19.db M5_DB=/path/m5.db .ci/bench/scan.sh
#        DB_DIR=/var/tmp/scan .ci/bench/scan.sh    # keep the catalogs built
# SIZES are the stored queens sizes (16 by default); Q19_DB and M5_DB name
# catalogs holding queens:19 and magic:5 as classes (none by default);
# SOLCAT_BIN times a solcat built elsewhere (an older one, to compare).
#
# For queens, it times a filtered list page and the web's filtered puzzle
# page too, and for every puzzle 'stats --by row:1' (queens) or 'stats --by
# cell:1,1' (magic), without a filter and with two cells. After solcat's rows, DuckDB answers the same questions
# over solcat's flat Parquet export of the puzzle (duckdb_side below), and
# readlimit (../shared/bench/readlimit.c, built with gcc when it is there;
# READLIMIT_C names another copy) reads every page of the catalog once on
# 2 threads, by positioned reads into a buffer that stays in cache: the
# most a scan that reads every page can do on this machine. All three are
# measured in one sitting. Peak memory (RSS) is the median of the counts'.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
SIZES=${SIZES:-16}
work=$(mktemp -d)
DB_DIR=${DB_DIR:-$work}
mkdir -p "$DB_DIR"
trap 'rm -rf "$work"' EXIT

. .ci/bench/lib.sh
solcat=$(bench_solcat "$work")

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# readlimit: the page-cache limit program, built once, or nothing.
readlimit_c=${READLIMIT_C:-../shared/bench/readlimit.c}
readlimit=""
if [ -f "$readlimit_c" ] && command -v gcc >/dev/null && gcc -O3 -march=native -pthread -o "$work/readlimit" "$readlimit_c" 2>/dev/null; then
  readlimit="$work/readlimit"
fi

# limit DB: readlimit's median wall time over DB, reading every page once
# with positioned reads on 2 threads (and, for comparison, through a
# memory map).
limit() {
  local db=$1 mode
  if [ -z "$readlimit" ]; then
    echo "  (readlimit skipped: gcc and $readlimit_c are needed)"
    return
  fi
  for mode in r m; do
    : >"$work/pw"
    for _ in $(seq "$RUNS"); do
      /usr/bin/time -f '%e %U' -o "$work/t" "$readlimit" "$db" "$mode" 2 >/dev/null
      cut -d' ' -f1 "$work/t" >>"$work/pw"
    done
    case $mode in
      r) printf '  %-60s wall %5ss\n' "readlimit: every page once, positioned reads, 2 threads" "$(median <"$work/pw")" ;;
      m) printf '  %-60s wall %5ss\n' "readlimit: every page once, through a memory map, 2 threads" "$(median <"$work/pw")" ;;
    esac
  done
}

machine() {
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "cpu:  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores)"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# questions PUZZLE: the counts asked of a puzzle, one a line (solcat's
# flags); the same filters for DuckDB follow from them.
questions() {
  case $1 in
    queens:*) printf '%s\n' "--cell 9,5=1" "--cell 9,5=1 --cell 3,7=1" "--cell 9,5=1 --cell 3,7=1 --cell 12,2=1" "--cell 9,5=1 --cell 3,7=1 --cell 12,12=1" ;;
    magic:5) printf '%s\n' "--cell 3,3=13" "--cell 1,1=1 --cell 5,5=25" "--cell 1,2=3 --cell 4,5=6" "--cell 1,1=1 --cell 3,3=13 --cell 5,5=25" "--cell 1,2=3 --cell 4,5=6 --cell 2,4=20" ;;
  esac
}

# where QUESTION: solcat's --cell flags as DuckDB's condition over the flat
# export's columns (queens: rR = C, the queen of row R in column C;
# magic: cR_C = V).
where() {
  local out="" cell r c v
  for cell in $(echo "$1" | sed 's/--cell //g'); do
    r=${cell%%,*} c=${cell#*,} c=${c%%=*} v=${cell#*=}
    case $puzzle in
      queens:*) out="$out${out:+ AND }row$r = $c" ;;
      *) out="$out${out:+ AND }r${r}c$c = $v" ;;
    esac
  done
  echo "$out"
}

# duckdb_side PUZZLE DB: the same questions asked of DuckDB (2 threads, a
# whole node process each) over 'solcat export PUZZLE' as Parquet, one
# column per cell (written once into DB_DIR), medians of RUNS. Skipped
# with a line when Node.js is missing (DUCKDB=0 skips it too).
duckdb_side() {
  local puzzle=$1 db=$2
  if [ "${DUCKDB:-1}" = 0 ] || ! command -v node >/dev/null; then
    echo "  (DuckDB side skipped: Node.js and npm are needed, or DUCKDB=0)"
    return
  fi
  if [ "$(stored_as "$puzzle" "$db")" = classes ] && [ "${DUCKDB_CLASSES:-0}" != 1 ]; then
    echo "  (DuckDB side skipped: the flat export of a puzzle stored as classes has every member, billions of rows; DUCKDB_CLASSES=1 writes it)"
    return
  fi
  # Named after its cell columns (row1, r1c1), so that a file of other
  # column names left in DB_DIR is not read.
  local file="$DB_DIR/${puzzle/:/}-cells.parquet"
  [ -s "$file" ] || "$solcat" --db "$db" export "$puzzle" --output "$file" >/dev/null
  # shellcheck source=duckdb_counts.sh
  source .ci/bench/duckdb_counts.sh
  duckdb_setup
  local i=0
  while IFS= read -r q; do
    local w
    i=$((i + 1))
    w=$(where "$q")
    read -r n t < <(duckdb_count "$file" "$w")
    printf '  duckdb WHERE %-45s %12s  wall %5ss\n' "$w" "$n" "$t"
    if [ "$n" != "$(cat "$work/count$i")" ]; then
      echo "scan.sh: DuckDB counts $n where solcat counts $(cat "$work/count$i") ($q)" >&2
      exit 1
    fi
  done < <(questions "$puzzle")
}

# stored_as PUZZLE DB: "solutions" or "classes".
stored_as() { "$solcat" --db "$2" info --format csv | awk -F, -v p="$1" '$1 == p {print $4}'; }

# timed NAME COMMAND...: the median wall time of RUNS runs of a command.
timed() {
  local name=$1
  shift
  : >"$work/pw"
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e' -o "$work/t" "$@" >/dev/null 2>&1
    cat "$work/t" >>"$work/pw"
  done
  printf '  %-60s wall %5ss\n' "$name" "$(median <"$work/pw")"
}

# pages PUZZLE DB: a filtered list page (the first, and one 50,000 matches
# in) and the web's filtered puzzle page (the first, and page 2,000 of 50
# matches each), medians of RUNS: list as whole processes, the web page as
# the time curl waits for it from a running 'solcat serve'.
pages() {
  local puzzle=$1 db=$2 f="--cell 9,5=1 --cell 3,7=1" q="cell=9,5=1&cell=3,7=1"
  # shellcheck disable=SC2086 # f is a list of flags
  timed "solcat list $puzzle $f --limit 50" "$solcat" --db "$db" list "$puzzle" $f --limit 50
  # shellcheck disable=SC2086
  timed "solcat list $puzzle $f --offset 50000 --limit 20" "$solcat" --db "$db" list "$puzzle" $f --offset 50000 --limit 20
  if ! command -v curl >/dev/null; then
    echo "  (web page skipped: curl is needed)"
    return
  fi
  local port=$((20000 + RANDOM % 20000))
  "$solcat" --db "$db" serve --addr "127.0.0.1:$port" >/dev/null 2>&1 &
  local server=$!
  local url="http://127.0.0.1:$port/puzzle/$puzzle?$q"
  for _ in $(seq 50); do curl -sf -o /dev/null "$url" && break || sleep 0.1; done
  for page in 1 2000; do
    : >"$work/pw"
    for _ in $(seq "$RUNS"); do
      curl -sf -o /dev/null -w '%{time_total}\n' "$url&page=$page" | awk '{printf "%.3f\n", $1}' >>"$work/pw"
    done
    printf '  %-60s wall %6ss\n' "web /puzzle/$puzzle?$q&page=$page" "$(median <"$work/pw")"
  done
  kill "$server"
  wait "$server" 2>/dev/null || true
}

# bench PUZZLE DB: the median time of each question on one catalog.
bench() {
  local puzzle=$1 db=$2
  echo "== $puzzle ($(du -hL "$db" | cut -f1), $("$solcat" --db "$db" info --format csv | awk -F, -v p="$puzzle" '$1 == p {print $5 " solutions, stored as " $4}'))"
  # shellcheck disable=SC2046 # the first question's flags
  "$solcat" --db "$db" count "$puzzle" $(questions "$puzzle" | head -1) >/dev/null # warm the page cache
  local i=0
  while IFS= read -r q; do
    i=$((i + 1))
    : >"$work/wall$i" && : >"$work/user$i" && : >"$work/rss$i"
    local n=""
    for _ in $(seq "$RUNS"); do
      # shellcheck disable=SC2086 # q is a list of flags
      n=$( { /usr/bin/time -f '%e %U %M' -o "$work/t" "$solcat" --db "$db" count "$puzzle" $q; } 2>/dev/null)
      read -r wall user rss <"$work/t"
      echo "$wall" >>"$work/wall$i"
      echo "$user" >>"$work/user$i"
      echo "$rss" >>"$work/rss$i"
    done
    printf '  solcat count %-45s %12s  wall %5ss  user %5ss  rss %4s MB\n' "$q" "$n" "$(median <"$work/wall$i")" "$(median <"$work/user$i")" "$(($(median <"$work/rss$i") / 1024))"
    echo "$n" >"$work/count$i"
  done < <(questions "$puzzle")
  local by="cell:1,1" filter="--cell 1,2=3 --cell 4,5=6"
  [[ $puzzle == queens:* ]] && by="row:1" filter="--cell 9,5=1 --cell 3,7=1"
  timed "solcat stats $puzzle --by $by" "$solcat" --db "$db" stats "$puzzle" --by "$by"
  # shellcheck disable=SC2086 # filter is a list of flags
  timed "solcat stats $puzzle --by $by $filter" "$solcat" --db "$db" stats "$puzzle" --by "$by" $filter
  [[ $puzzle == queens:* ]] && pages "$puzzle" "$db"
  limit "$db"
  duckdb_side "$puzzle" "$db"
}

machine
for n in $SIZES; do
  db="$DB_DIR/q$n.db"
  if ! "$solcat" --db "$db" info --format csv 2>/dev/null | grep -q "^queens:$n,queens,$n,solutions,"; then
    echo "building queens:$n in $db ..."
    "$solcat" --db "$db" build "queens:$n" >/dev/null
  fi
  bench "queens:$n" "$db"
done
[ -n "${Q19_DB:-}" ] && bench queens:19 "$Q19_DB"
[ -n "${M5_DB:-}" ] && bench magic:5 "$M5_DB"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
