#!/usr/bin/env bash
# The watchdog: with ZMPI_WATCHDOG_SECONDS=1, rank 0 blocked in MPI_Recv for 3 s (rank 1
# sends late) logs a warning naming the call, source, tag and communicator after 1 s and
# again every second; the job still succeeds; likewise in a shared-memory MPI_Barrier that
# rank 1 enters 3 s late. Unset, nothing is logged.
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"
export ZMPI_LOG_LEVEL=warn  # the watchdog's level
LINE='MPI_Recv: receive from source 1, tag 42, communicator MPI_COMM_WORLD'

ZMPI_WATCHDOG_SECONDS=1 run_job on -np 2 "$FAULT_RANK" late 3
expect_rc on 0
expect_text on out "late ok"
expect_text on err "watchdog: $LINE (blocked for 1 s)"
expect_text on err "watchdog: $LINE (blocked for 2 s)"
expect_text on err "rank 0 pid"  # the logger names the rank that waits
count=$(grep -c "watchdog: " "$WORK/on.err")
if ((count >= 2 && count <= 3)); then pass "on: $count watchdog lines, one a second"; else
  fail "on: $count watchdog lines in 3 s, expected 2 or 3"; show on; fi
expect_no_text on err "rank 1 pid"  # rank 1 sleeps outside MPI: nothing to report

# The same for a rank asleep in a shared-memory barrier (coll/shm_wait.h), not in the engine.
BARRIER='MPI_Barrier: communicator MPI_COMM_WORLD'
ZMPI_WATCHDOG_SECONDS=1 run_job barrier -np 2 "$FAULT_RANK" latebarrier 3
expect_rc barrier 0
expect_text barrier out "late ok"
expect_text barrier err "watchdog: $BARRIER (blocked for 1 s)"
expect_text barrier err "watchdog: $BARRIER (blocked for 2 s)"

run_job off -np 2 "$FAULT_RANK" late 3
expect_rc off 0
expect_no_text off err "watchdog"
expect_no_leftovers watchdog
finish
