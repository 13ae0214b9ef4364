# Shared helpers for zmpirun's end-to-end tests; each test script sources this file.
# ctest passes ZMPIRUN (the launcher) and FAKE_RANK (tests/runtime/fake_rank.cc).
set -u
: "${ZMPIRUN:?ZMPIRUN must point at zmpirun}" "${FAKE_RANK:?FAKE_RANK must point at fake_rank}"
export ZMPI_LOG_LEVEL=${ZMPI_LOG_LEVEL:-error}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Every job of this script carries this variable, so its processes can be found in /proc.
MARKER="zmpi-e2e-$$-$RANDOM$RANDOM"
failures=0
RC=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

# run_job NAME zmpirun-args...: runs zmpirun (stdin /dev/null unless redirected by the
# caller through STDIN_FILE), output in $WORK/NAME.out and .err, status in RC.
run_job() {
  local name=$1
  shift
  "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" <"${STDIN_FILE:-/dev/null}"
  RC=$?
}

expect_rc() {
  local name=$1 want=$2
  if [[ $RC -eq $want ]]; then pass "$name exits $want"; else fail "$name exits $RC, expected $want"; show "$name"; fi
}
expect_nonzero() {
  local name=$1
  if [[ $RC -ne 0 ]]; then pass "$name exits non-zero ($RC)"; else fail "$name exits 0"; show "$name"; fi
}
# expect_text NAME out|err TEXT: the fixed string TEXT occurs in the job's stdout/stderr.
expect_text() {
  if grep -qF -- "$3" "$WORK/$1.$2"; then pass "$1 $2 has '$3'"; else fail "$1 $2 lacks '$3'"; show "$1"; fi
}
expect_no_text() {
  if ! grep -qF -- "$3" "$WORK/$1.$2"; then pass "$1 $2 has no '$3'"; else fail "$1 $2 has '$3'"; show "$1"; fi
}
expect_lines() {
  local count
  count=$(grep -cF -- "$3" "$WORK/$1.$2")
  if [[ $count -eq $4 ]]; then pass "$1: $4 lines with '$3'"; else fail "$1: $count lines with '$3', expected $4"; show "$1"; fi
}
show() {
  echo "--- $1 stdout:" >&2
  head -c 2000 "$WORK/$1.out" >&2
  echo "--- $1 stderr:" >&2
  head -c 2000 "$WORK/$1.err" >&2
}

# Processes of this script's jobs that are still alive (a zombie's environ reads empty),
# in one grep over /proc: a pipeline per process cost hundreds of forks per look.
leftovers() {
  grep -lzxF "ZMPI_TEST_MARKER=$MARKER" /proc/[0-9]*/environ 2>/dev/null | sed 's|/proc/\([0-9]*\)/environ|\1|'
}
# After zmpirun returns, the ranks are reaped and their descendants have been sent
# SIGKILL; the kernel may still be tearing the last of those down. Bounded retry.
expect_no_leftovers() {
  local name=$1 tries=0 left
  while left=$(leftovers) && [[ -n $left ]] && ((tries++ < 50)); do nap 0.02; done
  if [[ -z $left ]]; then
    pass "$name left no process behind"
  else
    fail "$name left processes behind: $left"
    kill -9 $left 2>/dev/null
  fi
}

# The helpers below poll in loops, and on a 2-core VM every process started costs about a
# millisecond of CPU (fork, exec, dynamic linking) that the jobs under test then lack: the
# clock and the pauses come from bash itself.
# Milliseconds since the epoch (EPOCHREALTIME: seconds and microseconds, whatever the
# locale's decimal separator).
now_ms() { echo $((${EPOCHREALTIME//[!0-9]/} / 1000)); }
# nap SECONDS: a pause without a sleep process: a read that times out on a pipe nobody
# writes to (this shell holds both of its ends, so it never reads end of file).
exec {NAP_FD}<> <(:)
nap() { read -rt "$1" -u "$NAP_FD" || true; }
# Upper bounds on how long something may take are multiplied by this: a sanitized zmpirun
# and its ranks start and stop several times slower (under TSan on a loaded 2-core machine
# a 4 s bound was missed by a few hundred ms). Lower bounds stay as they are.
SLACK=1
[[ -n ${TSAN_OPTIONS:-}${ASAN_OPTIONS:-} ]] && SLACK=2

# start_job NAME zmpirun-args...: as run_job, but in the background; its pid in JOB_PID.
start_job() {
  local name=$1
  shift
  "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null &
  JOB_PID=$!
}

# abandon_job NAME: a started job whose ranks never got ready -- a failure; shows its
# output and kills it (the caller checks for leftovers if it cares).
abandon_job() {
  fail "$1: ranks not ready"
  show "$1"
  kill -9 "$JOB_PID"
  wait "$JOB_PID"
}
# wait_for NAME out|err PATTERN COUNT [SECONDS]: waits until the job's stdout/stderr has
# COUNT lines matching the extended regex PATTERN; false after SECONDS (default 30).
wait_for() {
  local file="$WORK/$1.$2" pattern=$3 count=$4 deadline=$(($(now_ms) + ${5:-30} * 1000)) seen
  # (A file not yet created counts as no lines, not as an empty arithmetic operand.)
  until seen=$(grep -cE -- "$pattern" "$file" 2>/dev/null); ((${seen:-0} >= count)); do
    (($(now_ms) < deadline)) || return 1
    nap 0.01
  done
}
# The named (not yet unlinked) /dev/shm/zmpi-* objects the given processes map.
mapped_objects() {
  local pid
  for pid in "$@"; do
    awk '$6 ~ /^\/dev\/shm\/zmpi-/ && NF == 6 { print $6 }' "/proc/$pid/maps" 2>/dev/null
  done | sort -u
}
# The zmpi ipc endpoint files the given processes listen on.
ipc_files() {
  local pid
  for pid in "$@"; do
    local inodes
    inodes=$(find "/proc/$pid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | tr -dc '0-9\n')
    [[ -n $inodes ]] && awk -v list="$inodes" 'BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) want[a[i]] = 1 }
      $7 in want && $8 ~ /^\/tmp\/zmpi-/ { print $8 }' "/proc/$pid/net/unix"
  done | sort -u
}
# Processes among the given pids that are still alive (not zombies).
alive() {
  local pid stat state
  for pid in "$@"; do
    { stat=$(<"/proc/$pid/stat"); } 2>/dev/null || continue
    state=${stat##*) }  # the state follows the command name, which may hold spaces
    state=${state%% *}
    [[ -n $state && $state != Z ]] && echo "$pid"
  done
}

finish() {
  if ((failures > 0)); then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}
