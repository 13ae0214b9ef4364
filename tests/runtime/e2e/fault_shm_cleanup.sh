#!/usr/bin/env bash
# A rank SIGKILLed while its job holds shared-memory objects (a shared window, named in
# /dev/shm until MPI_Win_free) and ipc endpoint files: once the job is over, zmpirun has
# removed every one of them (the survivors were ended by signal and removed nothing). The objects are found through the ranks' own mappings, so other jobs running
# meanwhile do not matter.
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"

for np in 2 4; do
  for victim in 0 1; do
    name="shm$np-$victim"
    start_job "$name" -np "$np" "$FAULT_RANK" shm
    if ! wait_for "$name" out '^ready ' "$np"; then
      abandon_job "$name"
      continue
    fi
    mapfile -t ranks < <(awk '$1 == "ready" { print $3 }' "$WORK/$name.out")
    mapfile -t objects < <(mapped_objects "${ranks[@]}")
    mapfile -t sockets < <(ipc_files "${ranks[@]}")
    if ((${#objects[@]} > 0 && ${#sockets[@]} == np)) && [[ -e ${objects[0]} ]]; then
      pass "$name: the job has ${#objects[@]} object(s) in /dev/shm, ${#sockets[@]} ipc files"
    else
      fail "$name: the job has ${#objects[@]} object(s) in /dev/shm and ${#sockets[@]} ipc files (test precondition)"
    fi
    kill -9 "$(awk -v r="$victim" '$1 == "ready" && $2 == r { print $3 }' "$WORK/$name.out")"
    wait "$JOB_PID"
    RC=$?
    expect_rc "$name" 137
    left=()
    for object in "${objects[@]}" "${sockets[@]}"; do [[ -e $object ]] && left+=("$object"); done
    if ((${#left[@]} == 0)); then pass "$name: no object or ipc file of the job left"; else
      fail "$name: left in /dev/shm: ${left[*]}"
      rm -f "${left[@]}"
    fi
    expect_no_leftovers "$name"
  done
done
finish
