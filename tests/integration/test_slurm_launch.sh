#!/usr/bin/env bash
# `launch --slurm` on a real single-node Slurm that this test starts in a temporary folder (munged
# with its own key and socket, slurmctld, slurmd with CPUs=8 whatever the machine has):
#   1. packaging/slurm/syncscope.sbatch runs 1 coordinator + 4 workers to the 86% target (and again
#      through 2 group aggregators, and with the model on 2 parameter shards); and
#      packaging/slurm/syncscope-pytorch.sbatch runs 3 PyTorch workers of python/examples/train_worker.py
#      (--worker-command) to a 75% target, where /usr/bin/python3 has torch;
#   2. a second job is scancelled mid-run, and every process of it must be gone.
# Exits 77 (ctest's skip), saying why, without root, without Debian's slurm-wlm and munge, or when the
# daemons do not start. It stops only what it started: processes whose environment names its own
# SLURM_CONF (its daemons, their step daemons and the tasks).
#   tests/integration/test_slurm_launch.sh ENGINE DATA_DIR
set -euo pipefail
engine=${1:?usage: $0 ENGINE DATA_DIR}
data=${2:?usage: $0 ENGINE DATA_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sbatch_template=$repo/packaging/slurm/syncscope.sbatch
pytorch_template=$repo/packaging/slurm/syncscope-pytorch.sbatch
skip=77
engine=$(realpath "$engine")
data=$(realpath "$data")

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: slurmd runs jobs as their users and must be started as root; run this test as root"
  exit $skip
fi
for tool in munged slurmctld slurmd sbatch scancel squeue sinfo; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found (Debian: apt-get install slurm-wlm munge; ./setup.sh test installs them)"
    exit $skip
  fi
done

dir=$(mktemp -d /tmp/syncscope-slurm-test.XXXXXX)
chmod 0755 "$dir"  # munged wants its socket's folder open to all; the key stays 0400
export SLURM_CONF=$dir/slurm.conf
mkdir -p "$dir/spool" "$dir/state" "$dir/jobs"

# Every process this test's Slurm started carries its SLURM_CONF; nothing else on the machine does
# (the test's own shells do too: they are left out by ancestry).
in_this_shell() {
  local pid=$1
  while [ -n "$pid" ] && [ "$pid" -gt 1 ]; do
    [ "$pid" = $$ ] && return 0
    pid=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null) || return 1
  done
  return 1
}
ours() {  # [an environment entry that must match too]
  local environ pid
  for environ in $(grep -lzxF "SLURM_CONF=$SLURM_CONF" /proc/[0-9]*/environ 2>/dev/null); do
    [ $# -eq 0 ] || grep -qzxF "$1" "$environ" 2>/dev/null || continue
    pid=${environ#/proc/}; pid=${pid%/environ}
    in_this_shell "$pid" || echo "$pid"
  done
}
# The engine processes of one job: pgrep's engine processes whose environment names that job.
job_engines() {
  local pid
  for pid in $(pgrep -f "^$engine launch --slurm" || true); do  # not srun's line
    grep -qzxF "SLURM_JOB_ID=$1" "/proc/$pid/environ" 2>/dev/null &&
      grep -qzxF "SLURM_CONF=$SLURM_CONF" "/proc/$pid/environ" 2>/dev/null && echo "$pid"
  done
}
cleanup() {
  if [ -f "$dir/slurmctld.pid" ]; then  # this test's cluster only (SLURM_CONF)
    scancel --full --quiet --user=root 2>/dev/null || true
    sleep 1
  fi
  for signal in TERM KILL; do
    local pids
    pids=$(ours)
    [ -n "$pids" ] && kill -s $signal $pids 2>/dev/null || true
    sleep 1
  done
  [ -f "$dir/munged.pid" ] && kill "$(cat "$dir/munged.pid")" 2>/dev/null || true
  if [ "${keep:-0}" = 1 ]; then echo "kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT

# Ports of its own, so a second copy of this test or another Slurm on the machine is no obstacle;
# below Linux's ephemeral range (32768 and up), where an outgoing connection's local port can hold
# one of them (a coordinator failed to bind its control port so, 2026-11-28).
base=$((20000 + RANDOM % 12000))
node=$(hostname -s)
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 0400 "$dir/munge.key"
if ! munged --socket="$dir/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
     --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" 2>"$dir/munged.err"; then
  echo "SKIP: munged did not start:"; cat "$dir/munged.err" "$dir/munged.log" 2>/dev/null
  exit $skip
fi
cat >"$SLURM_CONF" <<EOF
ClusterName=syncscopetest
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.sock
SlurmctldPort=$((base + 10))
SlurmdPort=$((base + 11))
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmdSpoolDir=$dir/spool
StateSaveLocation=$dir/state
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=10
NodeName=$node CPUs=8 Sockets=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=4000 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
slurmctld -f "$SLURM_CONF" 2>"$dir/slurmctld.err" && slurmd -f "$SLURM_CONF" 2>"$dir/slurmd.err" || true
for _ in $(seq 60); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
  sleep 0.5
done
if [ "$(sinfo -h -o %t 2>/dev/null)" != idle ]; then
  echo "SKIP: this machine's slurmctld + slurmd did not bring node $node up within 30 s:"
  sinfo 2>&1 || true
  tail -n 5 "$dir"/slurmctld.err "$dir"/slurmd.err "$dir"/slurmctld.log "$dir"/slurmd.log 2>/dev/null || true
  exit $skip
fi
echo "slurm: node $node up (ports $((base + 10))-$((base + 11)), state in $dir)"

export SYNCSCOPE_ENGINE=$engine
run_flags=(--data "$data" --model mlp --threads 1 --data-port "$base" --control-port $((base + 1))
           --telemetry-port $((base + 2)))
failed=0
fail() { echo "FAIL: $*"; failed=1; }
# Until job $1 has ended (at most 300 s): sbatch --wait polls every few seconds; this is closer to the
# job's own time.
# Job output $1 of run $2 met the target: its stop line says an evaluation reached 86%, and the
# closing evaluation (of the model a few rounds later, so an mlp's SGD noise moves it: from -1.4 to
# +1.0 points over 16 local runs with and without shards) is at least 84%. Sets accuracy.
check_target() {
  local out=$1 what=$2
  accuracy=$(sed -n 's/^final test accuracy: \([0-9.]*\)%.*/\1/p' "$out" | tail -1)
  grep -q '\] stop: test accuracy [0-9.]*% reached the target 86.00%' "$out" ||
    fail "the run through $what did not reach its 86% target: $(sed -n 's/.*\] stop: /stop: /p' "$out")"
  [ -n "$accuracy" ] && awk -v a="$accuracy" 'BEGIN { exit !(a >= 84) }' ||
    fail "the run through $what ended at ${accuracy:-no} final test accuracy, below 84%"
}
# A bsp job of 7 tasks, 2 of them relays (the flags after NAME and WHAT), trained to 86%: sets job, out
# and accuracy. run_7_task_job NAME WHAT FLAG...
run_7_task_job() {
  local name=$1 what=$2
  shift 2
  job=$(sbatch --parsable --output="$dir/jobs/$name-%j.out" --ntasks=7 --cpus-per-task=1 \
        "$sbatch_template" "${run_flags[@]}" --mode bsp "$@" --target-accuracy 86 --max-seconds 240)
  await_job "$job"
  out="$dir/jobs/$name-$job.out"
  echo "--- $what job $job: its output:"; cat "$out" 2>/dev/null || fail "the $what job wrote no output"
  check_target "$out" "$what"
}
await_job() {
  for _ in $(seq 600); do
    case $(scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*') in
      JobState=PENDING | JobState=RUNNING | JobState=CONFIGURING | JobState=COMPLETING) sleep 0.5 ;;
      *) return ;;
    esac
  done
}

# 1. A whole run, to its end. The target is above 85 because the closing evaluation is of the model
# a few rounds after the evaluation that met the target. sbatch runs from the job folder:
# SLURM_SUBMIT_DIR, where the credentials file is made, is that folder.
cd "$dir/jobs"
started=$(date +%s.%N)
job=$(sbatch --parsable --output="$dir/jobs/train-%j.out" --ntasks=5 --cpus-per-task=1 \
      "$sbatch_template" "${run_flags[@]}" --mode bsp --target-accuracy 86 --max-seconds 240)
await_job "$job"
seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
state=$(scontrol -o show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*\|ExitCode=[0-9:]*' | tr '\n' ' ')
case $state in
  "JobState=COMPLETED ExitCode=0:0 ") ;;
  *) fail "training job $job did not complete cleanly within 300 s: ${state:-no state}" ;;
esac
out=$(ls "$dir"/jobs/train-*.out 2>/dev/null | head -1)
echo "--- training job ${job:-?}: ${seconds} s; its output:"
cat "$out" 2>/dev/null || fail "the job wrote no output"
grep -q "^attach a console: syncscope --attach tcp://$node:$((base + 1)) --credentials $dir/jobs/syncscope-$job.credentials" "$out" ||
  fail "the coordinator did not say where a console attaches"
[ "$(stat -c %a "$dir/jobs/syncscope-$job.credentials" 2>/dev/null)" = 600 ] ||
  fail "no credentials file of mode 0600 in the job's folder"
check_target "$out" "the training job"
if [ "$failed" = 0 ]; then echo "training job: final test accuracy $accuracy% in $seconds s from sbatch to the job's end;" \
          "the run's own log: $(sed -n 's/.*\] stop: /stop: /p' "$out")"; fi
[ "$(grep -c 'the run is over' "$out")" = 4 ] || fail "not all 4 workers ended with the run"

# 1b. The same run with two group aggregators (tasks 1 and 2): the coordinator deals the 4 workers to
# them, and each sends the coordinator one sum of its workers' gradients per bsp round.
run_7_task_job tree aggregators --aggregators 2
summed=$(awk '/^aggregator: [0-9]+ gradients in [0-9]+ sums/ { g += $2; s += $5; n++ } END { if (n == 2 && s > 50 && g >= 1.9 * s) print g " gradients in " s " sums" }' "$out")
[ -n "$summed" ] && echo "aggregators job: final test accuracy $accuracy%; $summed" ||
  fail "the 2 aggregators did not sum the rounds (their closing lines above)"

# 1c. The same run with the model on two parameter shards (tasks 1 and 2): the workers push and pull
# each range there, and every pull of a version is answered with that version.
run_7_task_job shards "parameter shards" --shards 2
exact=$(awk '/^shard [0-9]+: [0-9]+ updates/ && /, 0 of another version/ { n++ } END { if (n == 2) print "both shards" }' "$out")
[ -n "$exact" ] && echo "shards job: final test accuracy $accuracy%; $exact answered every pull with its version" ||
  fail "the 2 shards did not both end with every pull answered exactly (their closing lines above)"

# 1d. PyTorch workers of the user's (--worker-command): each worker task runs the script under sh, told
# its rank and the run by its environment; rank 0 also evaluates.
# Debian's interpreter (python3-torch is for it); the sbatch puts the package and the build's wire module on its path.
python=${SYNCSCOPE_PYTHON3:-/usr/bin/python3}
if "$python" -c 'import torch, zmq, numpy, google.protobuf' 2>/dev/null; then
  job=$(SYNCSCOPE_REPO=$repo SYNCSCOPE_BUILD=$(dirname "$(dirname "$engine")") PYTHON=$python \
        sbatch --parsable --output="$dir/jobs/pytorch-%j.out" --ntasks=4 --cpus-per-task=1 \
        "$pytorch_template" --data "$data" --data-port "$base" --control-port $((base + 1)) \
        --telemetry-port $((base + 2)) --mode bsp --epochs 1 --target-accuracy 75 --threads 1)
  await_job "$job"
  scancel "$job" 2>/dev/null || true  # one that did not end in 300 s would hold the CPUs the next job needs
  out="$dir/jobs/pytorch-$job.out"
  echo "--- PyTorch workers' job $job: its output:"; cat "$out" 2>/dev/null || fail "the PyTorch job wrote no output"
  ranks=$(sed -n 's/^rank \([0-9]\) (worker [0-9]*): the run is over.*/\1/p' "$out" | sort | tr -d '\n')
  accuracy=$(sed -n 's/^final test accuracy: \([0-9.]*\)%.*/\1/p' "$out" | tail -1)
  [ "$ranks" = 012 ] || fail "the 3 PyTorch workers did not all end with the run (ranks seen: '$ranks')"
  [ -n "$accuracy" ] && awk -v a="$accuracy" 'BEGIN { exit !(a >= 73) }' ||
    fail "the PyTorch workers' run ended at ${accuracy:-no} final test accuracy, more than 2 points below its 75% target"
  [ "$failed" = 0 ] && echo "PyTorch workers' job: ranks 0-2 trained to the 75% target; final test accuracy $accuracy%"
else
  echo "part 1d skipped: $python cannot import torch, zmq, numpy and protobuf (./setup.sh test installs them)"
fi

# 2. scancel mid-run: every process of the job goes.
job=$(sbatch --parsable --output="$dir/jobs/cancel-%j.out" --ntasks=5 --cpus-per-task=1 \
      "$sbatch_template" "${run_flags[@]}" --mode bsp --max-seconds 600)
for _ in $(seq 120); do  # until the run has started: its 4 workers are in and training
  grep -q '] start: training started with 4 workers' "$dir/jobs/cancel-$job.out" 2>/dev/null && break
  sleep 0.5
done
grep -q '] start: training started with 4 workers' "$dir/jobs/cancel-$job.out" 2>/dev/null ||
  fail "the second job's run did not start within 60 s"
sleep 2
running=$(job_engines "$job" | wc -l)
echo "--- cancel job $job: $running engine processes running before scancel"
[ "$running" = 5 ] || fail "expected 5 engine processes of job $job before scancel, found $running"
cancelled=$(date +%s.%N)
scancel "$job"
left=""
for _ in $(seq 60); do
  left=$(job_engines "$job"; ours "SLURM_JOB_ID=$job")
  [ -z "$left" ] && [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.5
done
gone=$(awk -v a="$cancelled" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ -n "$left" ]; then
  fail "processes of job $job still there $gone s after scancel: $(echo $left)"
  ps -o pid,stat,args -p "$(echo $left | tr ' ' ,)" || true
else
  echo "cancel job: every process gone $gone s after scancel"
fi
echo "--- cancel job's output:"; cat "$dir/jobs/cancel-$job.out"

[ $failed = 0 ] || { keep=1; exit 1; }
echo "PASS"
