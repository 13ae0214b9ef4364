#!/usr/bin/env bash
# --timeout S (or MPIEXEC_TIMEOUT) ends a job that runs too long: message, status 124, no
# process left -- also when the ranks ignore SIGTERM (they get SIGKILL after a grace).
source "$(dirname "$0")/lib.sh"

started=$(now_ms)
run_job timeout --timeout 1 -np 2 "$FAKE_RANK" hang
ended=$(now_ms)
expect_rc timeout 124
expect_text timeout err "The user-provided time limit for job execution has been reached"
expect_text timeout err "Timeout: 1 seconds"
expect_lines timeout out "ready" 2
if ((ended - started >= 1000 && ended - started < 4000 * SLACK)); then pass "timeout after $((ended - started)) ms"; else
  fail "timeout after $((ended - started)) ms, expected 1-$((4 * SLACK)) s"; fi
expect_no_leftovers timeout

started=$(now_ms)
run_job stubborn --timeout 1 -np 2 "$FAKE_RANK" hang stubborn
ended=$(now_ms)
expect_rc stubborn 124
if ((ended - started < 4000 * SLACK)); then pass "stubborn ranks ended after $((ended - started)) ms"; else
  fail "stubborn ranks ended after $((ended - started)) ms"; fi
expect_no_leftovers stubborn

MPIEXEC_TIMEOUT=1 run_job envtimeout -np 1 "$FAKE_RANK" hang
expect_rc envtimeout 124
expect_no_leftovers envtimeout
finish
