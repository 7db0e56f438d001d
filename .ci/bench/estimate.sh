#!/usr/bin/env bash
# How precise solcat's estimates get in a given time: runs
# 'solcat estimate PUZZLE --time T' for each puzzle in turn, on every core,
# and prints the estimate, its standard error, the published count where
# there is one (and how many standard errors off the estimate is), and the
# standard error scaled to one minute (error falls as one over the square
# root of the time), with the date, the CPU and the load before and after:
# other work on the machine slows the probes and widens the errors.
#
# Usage: .ci/bench/estimate.sh
#        PUZZLES="queens:24 queens:27 queens:30" TIME=1m .ci/bench/estimate.sh
#        PUZZLES="queens:30 magic:6" TIME=10m WORKERS=2 .ci/bench/estimate.sh
# SOLCAT_BIN times a solcat built elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
PUZZLES=${PUZZLES:-"queens:24 queens:27 queens:30 magic:6"}
TIME=${TIME:-1m}
WORKERS=${WORKERS:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. .ci/bench/lib.sh
solcat=$(bench_solcat "$work")

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| puzzle | time | probes | solutions | standard error | per minute | published | off |"
echo "|---|---|---|---|---|---|---|---|"
for p in $PUZZLES; do
  "$solcat" --db "$work/e.db" estimate "$p" --time "$TIME" --workers "$WORKERS" --format json > "$work/out.json"
  python3 - "$p" "$work/out.json" <<'PY'
import json, math, sys
p, path = sys.argv[1], sys.argv[2]
e = json.load(open(path))
published = {"queens:24": 227514171973736, "queens:25": 2207893435808352,
             "queens:26": 22317699616364044, "queens:27": 234907967154122528,
             }
pub = e.get("published_solutions") or published.get(p)
if pub is None and e.get("published_classes_estimate"):
    # magic:6 and 7: others' estimates of the classes, times 8 (no square is its own image)
    pub = e["published_classes_estimate"] * 8
rel = e["solutions_stderr"] / e["solutions"] if e["solutions"] else float("nan")
per_minute = rel * math.sqrt(e["seconds"] / 60)
off = "-" if pub is None else "%+.1f" % ((e["solutions"] - pub) / e["solutions_stderr"])
pubtext = "-" if pub is None else "%.6g" % pub
print("| %s | %.0f s | %s | %.6g | %.3f%% | %.3f%% | %s | %s |" % (
    p, e["seconds"], format(e["probes"], ","), e["solutions"], 100 * rel, 100 * per_minute, pubtext, off))
PY
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(per minute: the standard error scaled to a one-minute run; off: the estimate's distance from the published count, in standard errors; the published values of magic:6 and magic:7 are themselves estimates: 0.17745(16)e20 and 3.7982(4)e34 classes)"
