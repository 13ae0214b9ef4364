#!/usr/bin/env bash
# A rank killed by SIGKILL ends the job promptly: status 137, a message naming rank, host
# and signal, and no process of the job left -- including a child each rank started in the
# background with its output on /dev/null, even one that escaped with setsid.
source "$(dirname "$0")/lib.sh"
export FAKE_RANK_GRANDCHILD=1

for np in 2 4 8; do
  started=$(now_ms)
  run_job "killed$np" -np "$np" "$FAKE_RANK" crash 1
  ended=$(now_ms)
  expect_rc "killed$np" 137
  expect_text "killed$np" err "process rank 1 with PID"
  expect_text "killed$np" err "on node $(hostname) exited on signal 9 (Killed)."
  if ((ended - started < 5000)); then pass "killed$np: job took $((ended - started)) ms"; else
    fail "killed$np: job took $((ended - started)) ms"; fi
  expect_no_leftovers "killed$np"
done

# Children that left the job's process group and session (daemons) are ended too, both
# when a rank dies and when the job succeeds.
FAKE_RANK_GRANDCHILD=setsid run_job escaped -np 2 "$FAKE_RANK" crash 1
expect_rc escaped 137
expect_no_leftovers escaped
FAKE_RANK_GRANDCHILD=setsid run_job escapedok -np 2 "$FAKE_RANK" ok
expect_rc escapedok 0
expect_no_leftovers escapedok
finish
