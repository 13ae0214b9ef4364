#!/usr/bin/env bash
# Exit status: 0 for a clean job of 1, 2, 4 and 8 ranks; the rank's code when one exits
# non-zero (the others are ended); plain non-MPI programs work too.
source "$(dirname "$0")/lib.sh"

for np in 1 2 4 8; do
  run_job "ok$np" -np "$np" "$FAKE_RANK" ok
  expect_rc "ok$np" 0
  expect_lines "ok$np" out "of $np" "$np"
done

for np in 2 4 8; do
  last=$((np - 1))
  run_job "exit$np" -np "$np" "$FAKE_RANK" exit 3 "$last"
  expect_rc "exit$np" 3
  expect_text "exit$np" err "Process rank: $last"
  expect_text "exit$np" err "Exit code:    3"
  expect_no_leftovers "exit$np"
done

# Rank 0 fails, rank 1 would run for a minute: the job ends with rank 0's code at once.
# (Both ranks exiting non-zero together would leave "first" to the scheduler.)
run_job plain -np 2 sh -c 'if [ "$ZMPI_RANK" = 0 ]; then exit 5; fi; exec sleep 60'
expect_rc plain 5
expect_text plain err "Process rank: 0"
expect_no_leftovers plain

run_job hostname -np 2 hostname
expect_rc hostname 0
expect_lines hostname out "$(hostname)" 2
finish
