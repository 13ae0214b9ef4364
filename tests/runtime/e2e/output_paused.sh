#!/usr/bin/env bash
# zmpirun's stdout is a pipe that nobody reads for a while (a paused pager, a full pipe).
# zmpirun must not stall on it: a SIGTERM to it ends every rank promptly, a rank's death or
# MPI_Abort is acted on at once, with the right exit status, and once the reader reads
# again every line arrives intact. The ranks' output is held back meanwhile (local pipes
# left unread, agents granted no credit), never dropped. Local ranks, and remote ones
# through zmpid agents on 127.0.0.2/.3. A reader that goes away (EPIPE) stops the writing,
# not the job.
#
# The reader is a FIFO this script opens and does not read until it resumes it. The
# ranks are fake_rank spew (numbered lines until ended, one write each; SIGUSR1 aborts);
# zmpirun runs with ZMPI_LOG_LEVEL=debug, which logs when its queue is full and it holds
# the ranks' output back: that line says the reader's pause has reached zmpirun.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/agents_lib.sh"

declare -A ADDRESS=([a]=127.0.0.2 [b]=127.0.0.3)
start_agent a 127.0.0.2 --secret-file "$SECRET" || finish
start_agent b 127.0.0.3 --secret-file "$SECRET" || finish
hostfile "$WORK/hosts" a b
HELD_BACK="the ranks' output is held back"

# start_paused NAME zmpirun-args...: zmpirun in the background (pid in JOB_PID) with its
# stdout on a FIFO that this script holds open (fd in READER) but does not read; stderr
# in $WORK/NAME.err. ZMPI_LOG_LEVEL is debug for zmpirun, error for the ranks.
start_paused() {
  local name=$1
  shift
  mkfifo "$WORK/$name.fifo"
  ZMPI_LOG_LEVEL=debug "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -x ZMPI_LOG_LEVEL=error "$@" \
    >"$WORK/$name.fifo" 2>"$WORK/$name.err" </dev/null &
  JOB_PID=$!
  exec {READER}<"$WORK/$name.fifo" # returns once zmpirun has the FIFO open for writing
}
# resume NAME: the reader reads everything, to $WORK/NAME.out, until zmpirun closes it.
resume() {
  cat <&"$READER" >"$WORK/$1.out" &
  CAT_PID=$!
  exec {READER}<&-
}
# wait_exit NAME SECONDS: zmpirun's status in RC (after SECONDS: killed, a failure); the
# reader's end.
wait_exit() {
  local deadline=$(($(now_ms) + $2 * 1000))
  while kill -0 "$JOB_PID" 2>/dev/null && (($(now_ms) < deadline)); do nap 0.02; done
  if kill -0 "$JOB_PID" 2>/dev/null; then
    fail "$1: zmpirun still running after $2 s"
    show "$1"
    kill -9 "$JOB_PID"
  fi
  wait "$JOB_PID"
  RC=$?
  [[ -n ${CAT_PID:-} ]] && wait "$CAT_PID"
  CAT_PID=
}
# held_back NAME: waits (bounded) until zmpirun holds the ranks' output back.
held_back() {
  if wait_for "$1" err "$HELD_BACK" 1 30; then pass "$1: zmpirun holds the output back"; else
    fail "$1: zmpirun never held output back"
    show "$1"
    return 1
  fi
}
# ended_within NAME MS WHAT: waits until no process of the job is left, at most MS ms
# after `started`; zmpirun must still be waiting for the reader then (it has not been read).
ended_within() {
  while [[ -n $(ranks_left) ]] && (($(now_ms) - started < $2)); do nap 0.01; done
  local elapsed=$(($(now_ms) - started))
  if [[ -z $(ranks_left) ]]; then pass "$1: every rank ended $elapsed ms after $3, the reader still paused"; else
    fail "$1: ranks $(ranks_left | tr '\n' ' ')still running $elapsed ms after $3"
  fi
}
# The job's processes other than zmpirun (which carries the marker in its -x argument only).
ranks_left() { leftovers | grep -vxF "$JOB_PID"; }
# rank_pid R: the pid of rank R of the running job.
rank_pid() {
  local pid
  for pid in $(ranks_left); do
    if grep -qzxF "ZMPI_RANK=$1" "/proc/$pid/environ" 2>/dev/null; then
      echo "$pid"
      return
    fi
  done
}
rss_of() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
expect_intact() {
  if "$FAKE_RANK" verify-lines "$2" "${3:--1}" <"$WORK/$1.out" >"$WORK/$1.verify" 2>&1; then
    pass "$1: $(cat "$WORK/$1.verify"), $(($(stat -c %s "$WORK/$1.out") / 1024)) KiB"
  else
    fail "$1: output damaged: $(cat "$WORK/$1.verify")"
  fi
}

for where in local remote; do
  if [[ $where == local ]]; then hosts=(-np 2) np=2; else hosts=(-np 3 --hostfile "$WORK/hosts") np=3; fi

  # (a) SIGTERM while the reader is paused: every rank ends promptly; once the reader
  # reads, all that was taken arrives whole and zmpirun exits 128+15.
  ZMPI_OUTPUT_DRAIN_MS=60000 start_paused "term-$where" "${hosts[@]}" "$FAKE_RANK" spew 7
  if held_back "term-$where"; then
    # Held back, not piled up: for 1 s of ranks that would print without end, zmpirun's
    # memory stays within its queue and the agents' credit windows (4 MiB each).
    # Under ThreadSanitizer RSS also counts TSan's shadow of each heap byte touched (about 4
    # bytes per byte) and its allocator's slack: +27 to +44 MB measured through agents there
    # (+6.7 MB without TSan), so the bound there is 5 times as large. So under
    # AddressSanitizer, whose quarantine keeps freed blocks resident (+20 MB measured in CI).
    rss_first=$(rss_of "$JOB_PID") rss_max=0 rss_limit=16384
    [[ -n ${TSAN_OPTIONS:-}${ASAN_OPTIONS:-} ]] && rss_limit=$((5 * 16384))
    for _ in $(seq 1 20); do
      rss=$(rss_of "$JOB_PID")
      ((rss > rss_max)) && rss_max=$rss
      nap 0.05
    done
    if ((rss_max - rss_first < rss_limit)); then pass "term-$where: zmpirun's memory bounded ($rss_first -> $rss_max kB)"; else
      fail "term-$where: zmpirun's memory grew from $rss_first to $rss_max kB while its output was held back"; fi
    started=$(now_ms)
    kill -TERM "$JOB_PID"
    ended_within "term-$where" 3000 "SIGTERM"
  fi
  resume "term-$where"
  wait_exit "term-$where" 30
  expect_rc "term-$where" 143
  expect_text "term-$where" err "zmpirun received signal 15 (Terminated)"
  expect_intact "term-$where" "$np"
  expect_no_leftovers "term-$where"

  # (b) A rank killed while the reader is paused: the job ends at once, exit status and
  # message name that rank; then every line arrives.
  start_paused "crash-$where" "${hosts[@]}" "$FAKE_RANK" spew 7
  if held_back "crash-$where"; then
    victim=$(rank_pid 1)
    started=$(now_ms)
    kill -9 "$victim"
    ended_within "crash-$where" 3000 "rank 1 was killed"
  fi
  resume "crash-$where"
  wait_exit "crash-$where" 30
  expect_rc "crash-$where" 137
  expect_text "crash-$where" err "process rank 1 with PID ${victim:-?}"
  expect_intact "crash-$where" "$np"
  expect_no_leftovers "crash-$where"

  # ... and MPI_Abort(7) by rank 1.
  start_paused "abort-$where" "${hosts[@]}" "$FAKE_RANK" spew 7
  if held_back "abort-$where"; then
    started=$(now_ms)
    kill -USR1 "$(rank_pid 1)"
    ended_within "abort-$where" 3000 "MPI_Abort"
  fi
  resume "abort-$where"
  wait_exit "abort-$where" 30
  expect_rc "abort-$where" 7
  expect_text "abort-$where" err "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD"
  expect_intact "abort-$where" "$np"
  expect_no_leftovers "abort-$where"

  # (c) A job longer than what zmpirun holds: the ranks wait while the reader is paused,
  # then finish once it reads; every line of every rank arrives, in order, whole.
  start_paused "lines-$where" "${hosts[@]}" "$FAKE_RANK" lines 3000
  if held_back "lines-$where"; then
    if [[ -n $(ranks_left) ]]; then pass "lines-$where: ranks wait for the reader"; else
      fail "lines-$where: the ranks finished while nobody read (was output dropped?)"; fi
  fi
  resume "lines-$where"
  wait_exit "lines-$where" 60
  expect_rc "lines-$where" 0
  expect_intact "lines-$where" "$np" 3000
  expect_no_leftovers "lines-$where"
done

# Interrupted and nobody reads, ever: zmpirun gives up on the output after
# ZMPI_OUTPUT_DRAIN_MS of no progress and exits 143 with the reader still paused.
ZMPI_OUTPUT_DRAIN_MS=500 start_paused giveup -np 2 "$FAKE_RANK" spew 7
if held_back giveup; then
  started=$(now_ms)
  kill -TERM "$JOB_PID"
  wait_exit giveup 10
  elapsed=$(($(now_ms) - started))
  expect_rc giveup 143
  expect_text giveup err "dropping"
  if ((elapsed < 5000)); then pass "giveup: zmpirun exited $elapsed ms after SIGTERM, never read"; else
    fail "giveup: zmpirun took $elapsed ms"; fi
else
  kill -9 "$JOB_PID"
  wait "$JOB_PID"
fi
exec {READER}<&-
expect_no_leftovers giveup

# --timeout while nobody reads: the ranks end at the time limit, and zmpirun, giving up on
# the output after ZMPI_OUTPUT_DRAIN_MS, exits 124 with the reader still paused.
ZMPI_OUTPUT_DRAIN_MS=500 start_paused timeout --timeout 2 -np 2 "$FAKE_RANK" spew 7
started=$(now_ms)
if held_back timeout; then
  ended_within timeout 5000 "the start (--timeout 2)"
  wait_exit timeout 10
  expect_rc timeout 124
  expect_text timeout err "The user-provided time limit for job execution has been reached"
  expect_text timeout err "dropping"
else
  kill -9 "$JOB_PID"
  wait "$JOB_PID"
fi
exec {READER}<&-
expect_no_leftovers timeout

# The reader goes away (head): zmpirun stops writing, the job runs to its end, status 0.
"$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 2 "$FAKE_RANK" lines 3000 </dev/null 2>"$WORK/epipe.err" |
  head -n 1 >"$WORK/epipe.out"
RC=${PIPESTATUS[0]}
expect_rc epipe 0
expect_lines epipe out "R:" 1
expect_no_leftovers epipe
finish
