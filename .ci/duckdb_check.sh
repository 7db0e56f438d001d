#!/usr/bin/env bash
# Reads solcat's Parquet exports with DuckDB, a reader users have (the npm
# package @duckdb/node-api): row counts, column types and the files'
# metadata, for solutions, classes, a filtered export and a Hive-style
# partitioned folder. Needs Node.js and npm; installs the package in a
# temporary folder.
# Usage: .ci/duckdb_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "DuckDB check: skipped: Node.js and npm are not installed"
  [ "${DUCKDB_CHECK:-}" = require ] && exit 1
  exit 0
fi
go build -o "$work/solcat" ./cmd/solcat
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund @duckdb/node-api >/dev/null
./solcat --db cat.db build queens:1-12 magic:3-4 >/dev/null
./solcat --db cat.db export magic:4 --output m4.parquet 2>/dev/null
./solcat --db cat.db export magic:4 --parquet-cells list --output m4list.parquet 2>/dev/null
./solcat --db cat.db export queens:12 --output q12.parquet 2>/dev/null
./solcat --db cat.db export queens:4-8 --output q4to8.parquet 2>/dev/null
./solcat --db cat.db export magic:3-4 --partition-by puzzle --output mrange 2>/dev/null
./solcat --db cat.db export queens:10 --classes --partition-by orbit --output q10cpart 2>/dev/null
./solcat --db cat.db export queens:10 --classes --output q10c.parquet 2>/dev/null
./solcat --db cat.db export queens:10 --cell 1,1=1 --output q10f.parquet 2>/dev/null
./solcat --db cat.db export magic:4 --partition-by cell:1,1 --output m4part 2>/dev/null
./solcat --db cat.db export queens:2 --output q2.parquet 2>/dev/null # no solutions: the schema alone
expect() { # name, then the numbers and hashes solcat says the files must hold
  echo "$1=$2"
}
{
  expect m4 "$(./solcat --db cat.db count magic:4)"
  expect q10c "$(./solcat --db cat.db count queens:10 --classes)"
  expect q10f "$(./solcat --db cat.db count queens:10 --cell 1,1=1)"
  expect hash_m4 "$(./solcat --db cat.db sql "SELECT content_hash FROM puzzles WHERE name = 'magic:4'" --format csv --no-headers)"
  expect hash_q10 "$(./solcat --db cat.db sql "SELECT content_hash FROM puzzles WHERE name = 'queens:10'" --format csv --no-headers)"
  expect corner1 "$(./solcat --db cat.db count magic:4 --cell 1,1=1)"
  expect q12 "$(./solcat --db cat.db count queens:12)"
  expect q12_r9 "$(./solcat --db cat.db count queens:12 --cell 9,5=1)"
  expect q12_r9_r3 "$(./solcat --db cat.db count queens:12 --cell 9,5=1 --cell 3,7=1)"
  expect q12_orbit4 "$(./solcat --db cat.db count queens:12 --orbit 4)"
  expect m4_center "$(./solcat --db cat.db count magic:4 --cell 2,2=16 --prop pandiagonal)"
  expect version "$(./solcat --version | cut -d' ' -f2)"
  expect q8 "$(./solcat --db cat.db count queens:8)"
  expect q8_r3 "$(./solcat --db cat.db count queens:8 --cell 3,3=1)"
  expect m3 "$(./solcat --db cat.db count magic:3)"
  expect q10_orbit4_classes "$(./solcat --db cat.db count queens:10 --orbit 4 --classes)"
} > expected.env
cp "$root/.ci/duckdb_check.mjs" . # its imports resolve from where it is
node duckdb_check.mjs expected.env
