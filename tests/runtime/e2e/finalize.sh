#!/usr/bin/env bash
# A rank that called MPI_Init and exits without MPI_Finalize while others run is an error
# naming rank, host and cause (programs that never join, like hostname, are fine: see
# exit_codes.sh).
source "$(dirname "$0")/lib.sh"

for np in 2 4; do
  run_job "nofinalize$np" -np "$np" "$FAKE_RANK" nofinalize 1
  expect_rc "nofinalize$np" 1
  expect_text "nofinalize$np" err "process rank 1 with PID"
  expect_text "nofinalize$np" err "node $(hostname) exiting improperly"
  expect_text "nofinalize$np" err "called MPI_Init but exited without calling MPI_Finalize"
  expect_no_leftovers "nofinalize$np"
done

# (A rank that never joins while others do is covered by job_monitor_test.cc: from the
# outside, whether it exits before or after the others join is a race.)
finish
