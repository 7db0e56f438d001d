#!/usr/bin/env bash
# DuckDB's side of the scan benchmark: counts over a Parquet file (solcat's
# flat export, one column per cell: row1 .. rowN, r1c1 .. rNcN), each a whole
# `node` process running DuckDB (npm package @duckdb/node-api) from start
# to answer, as a user pays it; the median of RUNS runs.
#
# Run it:
#   .ci/bench/duckdb_counts.sh FILE.parquet 'row9 = 5' 'row9 = 5 AND row3 = 7' ...
# prints a line per condition: the condition, the count, the median
# seconds and every run's seconds. Or source it and call
#   duckdb_count FILE.parquet 'row9 = 5'    (prints: COUNT MEDIAN_SECONDS)
# as .ci/bench/scan.sh does, for its table beside solcat's own counts.
#
# Settings: RUNS (5), DUCKDB_THREADS (2), DUCKDB_NODE_DIR (where
# @duckdb/node-api is installed; by default a folder under TMPDIR kept
# between runs, installed with npm when missing).
set -euo pipefail

RUNS=${RUNS:-5}
DUCKDB_THREADS=${DUCKDB_THREADS:-2}
DUCKDB_NODE_DIR=${DUCKDB_NODE_DIR:-${TMPDIR:-/tmp}/solcat-duckdb-node}

# duckdb_setup installs @duckdb/node-api into DUCKDB_NODE_DIR if it is not
# there, and writes the script each run executes.
duckdb_setup() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "duckdb_counts: Node.js and npm are needed (DuckDB runs from the npm package @duckdb/node-api)" >&2
    return 1
  fi
  mkdir -p "$DUCKDB_NODE_DIR"
  if [ ! -d "$DUCKDB_NODE_DIR/node_modules/@duckdb/node-api" ]; then
    (cd "$DUCKDB_NODE_DIR" && { [ -f package.json ] || npm init -y >/dev/null; } &&
      npm install --no-audit --no-fund @duckdb/node-api >/dev/null)
  fi
  cat >"$DUCKDB_NODE_DIR/count.mjs" <<'EOF'
// node count.mjs FILE CONDITION THREADS: prints the count.
import { DuckDBInstance } from '@duckdb/node-api';
const [file, where, threads] = process.argv.slice(2);
const db = await (await DuckDBInstance.create(':memory:', { threads })).connect();
const sql = `SELECT count(*) AS n FROM read_parquet('${file.replaceAll("'", "''")}') WHERE ${where}`;
console.log((await db.runAndReadAll(sql)).getRowObjectsJson()[0].n);
EOF
}

# duckdb_runs FILE CONDITION: the count, then each run's seconds.
duckdb_runs() {
  local file where count="" start end got times=""
  file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  where=$2
  [ -f "$DUCKDB_NODE_DIR/count.mjs" ] || duckdb_setup
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    got=$(cd "$DUCKDB_NODE_DIR" && node count.mjs "$file" "$where" "$DUCKDB_THREADS")
    end=$(date +%s.%N)
    if [ -n "$count" ] && [ "$got" != "$count" ]; then
      echo "duckdb_counts: $where: counts differ between runs ($count, $got)" >&2
      return 1
    fi
    count=$got
    times+=" $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')"
  done
  echo "$count$times"
}

# duckdb_count FILE CONDITION: the count and the median seconds.
duckdb_count() {
  local line
  line=$(duckdb_runs "$1" "$2")
  set -- $line
  echo "$1 $(shift; printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  if [ $# -lt 2 ]; then
    echo "usage: $0 FILE.parquet CONDITION..." >&2
    exit 2
  fi
  file=$1
  shift
  duckdb_setup
  printf '%-40s %12s %9s  %s\n' "DuckDB ($DUCKDB_THREADS threads), WHERE" count median "runs (s), load $(cut -d' ' -f1-3 /proc/loadavg)"
  for where in "$@"; do
    set -- $(duckdb_runs "$file" "$where")
    count=$1
    shift
    median=$(printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '%-40s %12s %8ss  %s\n' "$where" "$count" "$median" "$*"
  done
fi
