#!/usr/bin/env bash
# Ranks that never call MPI_Init: after ZMPI_STARTUP_TIMEOUT_MS the job ends, naming the
# missing ranks and their hosts, instead of waiting forever; started by hand (no
# launcher), MPI_Init fails on the ranks that came, naming the missing ones.
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"
TIMEOUT_MS=1500
export ZMPI_STARTUP_TIMEOUT_MS=$TIMEOUT_MS

# expect_ended_in NAME STARTED: the job took at least the timeout and at most 3 s more.
expect_ended_in() {
  local elapsed=$(($(now_ms) - $2))
  if ((elapsed >= TIMEOUT_MS && elapsed < TIMEOUT_MS + 3000)); then pass "$1: ended after $elapsed ms"; else
    fail "$1: ended after $elapsed ms (start-up timeout $TIMEOUT_MS ms)"; fi
}

started=$(now_ms)
run_job never2 -np 2 "$FAULT_RANK" never 1
expect_ended_in never2 "$started"
expect_rc never2 1
expect_text never2 err "MPI_Init did not complete within the start-up timeout of $TIMEOUT_MS ms"
expect_text never2 err "process rank 1 on node $(hostname) is running but never called MPI_Init"
expect_no_leftovers never2

started=$(now_ms)
run_job never4 -np 4 "$FAULT_RANK" never 1,3
expect_ended_in never4 "$started"
expect_rc never4 1
expect_text never4 err "process ranks 1 on node $(hostname), 3 on node $(hostname) are running but never called"
expect_no_leftovers never4

# Without a launcher: ranks 0 and 2 of 3 come, rank 1 never does.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
started=$(now_ms)
pids=()
for rank in 0 2; do
  ZMPI_TEST_MARKER=$MARKER ZMPI_SIZE=3 ZMPI_RANK=$rank ZMPI_RENDEZVOUS="tcp://127.0.0.1:$port" \
    ZMPI_JOB_ID="byhand-$$-$port" "$FAULT_RANK" never 1 >"$WORK/byhand$rank.out" 2>"$WORK/byhand$rank.err" &
  pids+=($!)
done
for i in 0 1; do
  wait "${pids[$i]}"
  RC=$?
  name="byhand$((i * 2))"
  expect_nonzero "$name"
  expect_text "$name" err "*** An error occurred in MPI_Init"
  expect_text "$name" err "never heard from participant(s) 1"
done
expect_ended_in byhand "$started"
expect_no_leftovers byhand
finish
