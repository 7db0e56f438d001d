#!/usr/bin/env bash
# Runs deploy/slurm/submit.sh against a real Slurm scheduler: a single-node
# cluster (munged, slurmctld, slurmd) started from a slurm.conf in a
# temporary folder. Three submissions, each compared with a build in one
# process:
#   count   queens:15 --count-only, --array=1-4 -c 1 (same counts)
#   stored  STORED=1 queens:13, --array=1-3 -c 1 (same counts, content hash
#           and export bytes)
#   requeue queens:18 --count-only, --array=1-3 -c 1; task 1 is paused
#           mid-run and requeued with 'scontrol requeue': it resumes from
#           its saved units and the merge runs after it
#   cancel  the same with task 2 paused and cancelled mid-run: the merge
#           can never start until the task is requeued and the merge
#           pointed at it
# The daemons are stopped by their process IDs on exit.
#
# SLURM_CHECK=require (set by .ci/run): install slurmctld, slurmd,
# slurm-client and munge with apt-get if missing; fail if the check cannot
# run. Otherwise (default) the check runs only where Slurm and munge are
# installed and we are root, and says why it is skipped elsewhere.
# Needs solcat on the PATH (built here if not); .ci/deploy_check.sh calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mode=${SLURM_CHECK:-auto}
start=$SECONDS
skip() {
  if [ "$mode" = require ]; then echo "Slurm check: cannot run: $*" >&2; exit 1; fi
  echo "Slurm check: skipped: $*"; exit 0
}
[ "$mode" = skip ] && skip "SLURM_CHECK=skip"
[ "$(id -u)" = 0 ] || skip "needs root to run slurmd (run .ci/run, or as root with SLURM_CHECK=require)"
have_slurm() { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null 2>&1
if ! have_slurm; then
  [ "$mode" = require ] || skip "Slurm is not installed (apt-get install slurmctld slurmd slurm-client munge, or SLURM_CHECK=require to have it installed)"
  command -v apt-get >/dev/null || skip "no apt-get to install Slurm"
  pkgs="slurmctld slurmd slurm-client munge"
  export DEBIAN_FRONTEND=noninteractive
  t=$SECONDS
  apt-get install -y -q --no-install-recommends $pkgs >/dev/null ||
    { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $pkgs >/dev/null; } ||
    skip "apt-get install $pkgs failed"
  echo "Slurm check: installed $pkgs ($((SECONDS - t)) s)"
fi

d=$(mktemp -d /tmp/solcat-slurm.XXXXXX)
chmod 755 "$d"
pids=() jobs=()
stop() {
  rc=$?
  if [ ${#jobs[@]} -gt 0 ]; then
    scancel "${jobs[@]}" 2>/dev/null || true
    for _ in $(seq 30); do [ -z "$(squeue -h -t R,CG 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do # slurmd, slurmctld, munged
    kill "${pids[i]}" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.2; done
    kill -9 "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
  if [ $rc -ne 0 ]; then
    for f in "$d"/*.log "$d"/*/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
  fi
  rm -rf "$d"
  exit $rc
}
trap stop EXIT
trap 'exit 130' INT TERM
fail() { echo "Slurm check: $*" >&2; exit 1; }
unset PUZZLE STORED PROP DIR OUT # submit.sh and the sbatch files read them

if ! command -v solcat >/dev/null; then
  mkdir -p "$d/bin"
  go build -o "$d/bin/solcat" ./cmd/solcat
  export PATH="$d/bin:$PATH"
fi

# The cluster: one node named after this host with its CPUs and 90% of its
# memory. RealMemory must be declared: it defaults to 1 MB, and a job asking
# for --mem=1G would be refused ("Memory specification can not be satisfied").
# Two free ports keep it apart from any other Slurm running here.
host=$(hostname -s)
listening() { awk '$4 == "0A" { split($2, a, ":"); print a[2] }' /proc/net/tcp /proc/net/tcp6 2>/dev/null | while read -r h; do echo $((16#$h)); done; }
for _ in $(seq 20); do
  port=$((20000 + RANDOM % 20000))
  listening | grep -qxE "$port|$((port + 1))" || break
done
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
mkdir -p "$d/state" "$d/spool"
(umask 077 && dd if=/dev/urandom of="$d/munge.key" bs=1024 count=1 2>/dev/null)
cat >"$d/slurm.conf" <<EOF
ClusterName=solcat
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge.socket,cred_expire=5
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
SchedulerParameters=sched_interval=2,bf_interval=2
MpiDefault=none
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$d/slurm.conf

t=$SECONDS
munged -F --force --key-file="$d/munge.key" --socket="$d/munge.socket" --pid-file="$d/munged.pid" \
  --log-file="$d/munged.log" --seed-file="$d/munged.seed" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$d/munge.socket" ] && break; sleep 0.2; done
[ -S "$d/munge.socket" ] || fail "munged did not start"
slurmctld -D -f "$SLURM_CONF" >/dev/null 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 120); do
  [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ] || { sinfo -N -l || true; fail "node $host not idle after 60 s"; }
echo "Slurm check: node $host idle with $cpus CPUs, RealMemory=$mem ($((SECONDS - t)) s)"

# state JOB: the distinct states of a job or of all tasks of an array.
state() { scontrol show job -o "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort -u | tr '\n' ' ' | sed 's/ $//'; }
# wait_done JOB SECONDS: until the job (every task) completed; fails on any
# other end, on a dependency that can no longer be met, or at the time limit.
wait_done() {
  local end=$((SECONDS + $2)) s never=0
  while [ $SECONDS -lt $end ]; do
    s=$(state "$1")
    case " $s " in
      " COMPLETED ") return 0 ;;
      *" FAILED "* | *" CANCELLED "* | *" TIMEOUT "* | *" NODE_FAIL "* | *" OUT_OF_MEMORY "* | *" BOOT_FAIL "* | *" DEADLINE "*)
        fail "job $1 ended $s" ;;
    esac
    # Shortly after a dependency is changed it may still show the old reason.
    if scontrol show job -o "$1" 2>/dev/null | grep -q 'Reason=DependencyNeverSatisfied'; then
      never=$((never + 1))
      [ $never -lt 10 ] || fail "job $1: DependencyNeverSatisfied"
    else
      never=0
    fi
    sleep 0.5
  done
  squeue || true
  fail "job $1 not done after $2 s (state $s)"
}
# submit DIR ARGS...: deploy/slurm/submit.sh in DIR; sets array and merge.
submit() {
  local dir=$1 out
  shift
  mkdir -p "$d/$dir"
  out=$(cd "$d/$dir" && "$root/deploy/slurm/submit.sh" "$@")
  array=$(sed -n '1{s/;.*//;p}' <<<"$out") merge=$(sed -n '2{s/;.*//;p}' <<<"$out")
  [ -n "$array" ] && [ -n "$merge" ] || fail "submit.sh printed '$out', want two job IDs"
  jobs+=("$array" "$merge")
}
# same WHAT ONE MERGED [FIELD]: both catalogs hold the same puzzles with the
# same counts (solutions, classes, orbit split, search nodes, solver, content
# hash); build times, workers and FIELD aside.
summary() { solcat --db "$1" info --format json | grep -vE "\"(workers|build_seconds|built_at${2:+|$2})\""; }
same() {
  local a b
  a=$(summary "$2" "${4:-}") && b=$(summary "$3" "${4:-}") && [ -n "$a" ] || fail "$1: no summary of $2 or $3"
  [ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") || true; fail "$1: $3 differs from the build in one process"; }
}

# 1. Count only: queens:15, four array tasks of one CPU, then the merge.
t=$SECONDS
PUZZLE=queens:15 submit count --array=1-4 -c 1
wait_done "$merge" 120
solcat --db "$d/one15.db" build queens:15 --count-only >/dev/null
same "count" "$d/one15.db" "$d/count/catalog.db"
echo "Slurm check: queens:15 --count-only, 4 tasks + merge: ok ($((SECONDS - t)) s)"

# 2. Stored: queens:13 in three shards; the merged catalog has the content
# hash and exports the bytes of a build in one process.
t=$SECONDS
STORED=1 PUZZLE=queens:13 submit stored --array=1-3 -c 1
wait_done "$merge" 120
solcat --db "$d/one13.db" build queens:13 >/dev/null
same "stored" "$d/one13.db" "$d/stored/catalog.db" search_nodes # a stored merge records none
hash() { solcat --db "$1" sql "SELECT content_hash FROM puzzles WHERE name='queens:13'"; }
[ "$(hash "$d/one13.db")" = "$(hash "$d/stored/catalog.db")" ] || fail "stored: content hash differs"
solcat --db "$d/one13.db" export queens:13 --output "$d/one13.csv" 2>/dev/null
solcat --db "$d/stored/catalog.db" export queens:13 --output "$d/stored.csv" 2>/dev/null
cmp "$d/one13.csv" "$d/stored.csv" || fail "stored: the exports differ"
echo "Slurm check: queens:13 stored, 3 tasks + merge: ok, content hash $(hash "$d/one13.db" | tail -n 1 | cut -c1-12)... ($((SECONDS - t)) s)"

# 3. A split toroidal count: queens:19 in three tasks; the merge job
# finishes the count and prints the published total.
t=$SECONDS
PROP=toroidal PUZZLE=queens:19 submit toroidal --array=1-3 -c 1
wait_done "$merge" 120
got=$(tail -n 1 "$d/toroidal/slurm-$merge.out")
[ "$got" = 820496 ] || fail "toroidal: the merge job printed '$got', want 820496"
echo "Slurm check: queens:19 toroidal, 3 tasks + merge: ok ($((SECONDS - t)) s)"

# 3. Tasks that fail, in queens:18 split in three (1 to a few seconds a
# task, 257 units each).
#
# A task is requeued or cancelled while it has units left to do, never by
# racing it: it is stopped (SIGSTOP) the moment its solcat starts, then let
# run in slices of 50 ms, stopped between them, until its shard shows a
# saved unit. A stopped task does no more work, however long Slurm takes to
# reach it; Slurm then ends it with SIGCONT and SIGTERM (solcat stops between
# units and exits, its units saved) or, KillWait later, SIGKILL, and its
# rerun resumes. A reader sees the units the task's log has copied into the
# file (within a commit or so of running), so when the first shows, the
# task has run a fraction of a second of its shard; the shard must take
# longer than that to count (queens:18's third takes 1.2 s on 2 cores with
# AVX-512, the fastest here).
#
# build_pid DIR I: the process ID of array task I's 'solcat build' (the
# batch script execs it), found by its shard's file, under this check's own
# folder, in its command line (read with builtins: no process a candidate).
build_pid() {
  local want="$d/$1/shards/shard-$2-of-3.db" p args
  for p in /proc/[0-9]*; do
    mapfile -d '' -t args 2>/dev/null <"$p/cmdline" || continue
    if [ "${#args[@]}" -ge 4 ] && [ "${args[0]##*/}" = solcat ] && [ "${args[1]}" = --db ] &&
      [ "${args[2]}" = "$want" ] && [ "${args[3]}" = build ]; then
      echo "${p#/proc/}"
      return 0
    fi
  done
  return 1
}
# saved DIR I: the units array task I's shard shows saved (0 if it cannot be
# read within 2 s: a task stopped while it copied its log holds the file).
saved() {
  local n
  n=$(timeout 2 solcat --db "$d/$1/shards/shard-$2-of-3.db" sql "SELECT count(*) FROM count_units" 2>/dev/null | tail -n 1) || n=0
  echo "${n:-0}"
}
# pause DIR I: stop array task I as above; fails if it ends first.
pause() {
  local end=$((SECONDS + 60)) pid="" slices=0
  until pid=$(build_pid "$1" "$2"); do
    [ $SECONDS -lt $end ] || fail "task ${array}_$2 is $(state "${array}_$2"), its solcat build never started"
    sleep 0.02
  done
  kill -STOP "$pid" 2>/dev/null || fail "task ${array}_$2: its solcat (pid $pid) ended before it could be stopped"
  until [ "$(saved "$1" "$2")" -ge 1 ]; do
    [ $slices -lt 1200 ] || fail "task ${array}_$2: no unit saved after $slices slices of 50 ms"
    kill -CONT "$pid" 2>/dev/null || fail "task ${array}_$2: its solcat (pid $pid) ended"
    sleep 0.05
    kill -STOP "$pid" 2>/dev/null || fail "task ${array}_$2: its solcat (pid $pid) ended before a unit showed"
    slices=$((slices + 1))
  done
  [ "$(sed -E 's/.*\) (.).*/\1/' "/proc/$pid/stat" 2>/dev/null)" = T ] ||
    fail "task ${array}_$2: its solcat (pid $pid) is not stopped"
  echo "Slurm check: task ${array}_$2 stopped after $slices slices of 50 ms, saved units: $(saved "$1" "$2")"
}
# resumed DIR I: the rerun of array task I says it resumed from saved units.
resumed() {
  grep -oE 'resuming, [1-9][0-9,]* of [0-9,]+ units' "$d/$1/slurm-${array}_$2.out" ||
    fail "task ${array}_$2 did not resume from its saved units"
}
solcat --db "$d/one18.db" build queens:18 --count-only --workers "$cpus" >/dev/null

# 3a. 'scontrol requeue' of a running task (paused first): it is ended and
# queued again, resumes, and the merge starts after it as before.
t=$SECONDS
PUZZLE=queens:18 submit requeue --array=1-3 -c 1
pause requeue 1
scontrol requeue "${array}_1"
wait_done "$merge" 300
r=$(resumed requeue 1)
same "requeue" "$d/one18.db" "$d/requeue/catalog.db"
echo "Slurm check: queens:18 --count-only, 3 tasks, task 1 requeued mid-run ($r) + merge: ok ($((SECONDS - t)) s)"

# 3b. A task cancelled mid-run (as a crash, a time limit or a lost node
# would end it): the merge can never start ('afterok'), and Slurm says
# DependencyNeverSatisfied once the other tasks are done. Requeue the task
# and make the merge wait for it: the task resumes and the merge runs. The
# task is paused first, so that it is cancelled, not done.
t=$SECONDS
PUZZLE=queens:18 submit cancel --array=1-3 -c 1
pause cancel 2
scancel "${array}_2"
end=$((SECONDS + 120))
until scontrol show job -o "$merge" | grep -q 'Reason=DependencyNeverSatisfied'; do
  [ $SECONDS -lt $end ] || fail "merge $merge: $(state "$merge"), never DependencyNeverSatisfied"
  sleep 0.5
done
[ "$(state "${array}_2")" = CANCELLED ] || fail "task ${array}_2 is $(state "${array}_2"), want CANCELLED"
scontrol requeue "${array}_2"
scontrol update JobId="$merge" Dependency="afterok:${array}_2"
wait_done "$merge" 300
r=$(resumed cancel 2)
same "cancel" "$d/one18.db" "$d/cancel/catalog.db"
echo "Slurm check: queens:18 --count-only, 3 tasks, task 2 cancelled mid-run, requeued ($r) + merge: ok ($((SECONDS - t)) s)"
echo "Slurm check: ok ($((SECONDS - start)) s)"
