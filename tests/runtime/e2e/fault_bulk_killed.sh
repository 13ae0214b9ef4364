#!/usr/bin/env bash
# A rank killed by SIGKILL in the middle of a rendezvous payload on a bulk data connection
# (ZMPI_TRANSPORT=tcp ZMPI_TCP_BULK=1, transport/bulk_link.h): the sender, with the receiver reading, and
# the receiver, with the sender writing. The job ends within 2 s of the kill, non-zero, with
# a message naming the killed rank, and no process of the job is left: the survivor hangs
# neither in its read nor in its write. Two reports race, both right: zmpirun's (the rank
# exited on signal 9: status 137) and the survivor's own (its bulk connection to that rank
# broke mid-transfer, so it aborts the job).
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"
LIMIT_MS=2000
export ZMPI_TRANSPORT=tcp ZMPI_TCP_BULK=1

for victim_rank in 1 0; do
  name="stream-kill$victim_rank"
  start_job "$name" -np 2 "$FAULT_RANK" stream
  if ! wait_for "$name" out '^ready ' 2; then
    abandon_job "$name"
    expect_no_leftovers "$name"
    continue
  fi
  victim=$(awk -v r="$victim_rank" '$1 == "ready" && $2 == r { print $3 }' "$WORK/$name.out")
  killed=$(now_ms)
  kill -9 "$victim"
  wait "$JOB_PID"
  RC=$?
  elapsed=$(($(now_ms) - killed))
  expect_nonzero "$name"
  if grep -qF "process rank $victim_rank with PID $victim on node $(hostname) exited on signal 9 (Killed)." "$WORK/$name.err"; then
    pass "$name: zmpirun reported the kill"
  else
    expect_text "$name" err "broke mid-transfer"
    expect_text "$name" err "rank $victim_rank on $(hostname)"
  fi
  if ((elapsed < LIMIT_MS)); then pass "$name: job ended $elapsed ms after the kill"; else
    fail "$name: job ended $elapsed ms after the kill (limit $LIMIT_MS)"; fi
  expect_no_leftovers "$name"
done
finish
