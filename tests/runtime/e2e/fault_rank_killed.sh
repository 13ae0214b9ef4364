#!/usr/bin/env bash
# A real MPI rank killed by SIGKILL while it is blocked in MPI_Recv, in MPI_Allreduce, in
# a shared-memory MPI_Barrier (others asleep on its futex) and in MPI_Finalize: zmpirun ends the job within 2 s of the kill (measured from the kill),
# with status 137 and a message naming the rank, and no process of the job is left.
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"
LIMIT_MS=2000

for mode in recv coll barrier finalize; do
  for np in 2 4; do
    name="$mode$np"
    # debug: zmpirun logs "rank 1 is finalizing" once rank 1 is inside MPI_Finalize.
    ZMPI_LOG_LEVEL=debug start_job "$name" -np "$np" "$FAULT_RANK" "$mode"
    if ! wait_for "$name" out '^ready ' "$np" || { [[ $mode == finalize ]] && ! wait_for "$name" err 'rank 1 is finalizing' 1; }; then
      abandon_job "$name"
      expect_no_leftovers "$name"
      continue
    fi
    victim=$(awk '$1 == "ready" && $2 == 1 { print $3 }' "$WORK/$name.out")
    killed=$(now_ms)
    kill -9 "$victim"
    wait "$JOB_PID"
    RC=$?
    elapsed=$(($(now_ms) - killed))
    expect_rc "$name" 137
    expect_text "$name" err "process rank 1 with PID $victim on node $(hostname) exited on signal 9 (Killed)."
    if ((elapsed < LIMIT_MS)); then pass "$name: job ended $elapsed ms after the kill"; else
      fail "$name: job ended $elapsed ms after the kill (limit $LIMIT_MS)"; fi
    expect_no_leftovers "$name"
  done
done
finish
