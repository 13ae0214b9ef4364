#!/usr/bin/env bash
# zmpirun killed by SIGKILL while its MPI ranks block in MPI_Recv holding a shared window:
# the ranks die with it (PR_SET_PDEATHSIG=SIGKILL, set in the child before exec) within
# 1 s of the kill and no process of the job is left. Nobody is left to remove the job's
# files, so the next zmpirun does: its /dev/shm objects and ipc endpoint files are gone
# after the next job once they are older than 5 s. (Remote ranks: agents.sh.)
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"
LIMIT_MS=1000
AGE_S=5  # transport::kStaleFileAge

for np in 2 4; do
  name="launcher$np"
  start_job "$name" -np "$np" "$FAULT_RANK" shm
  if ! wait_for "$name" out '^ready ' "$np"; then
    abandon_job "$name"
    expect_no_leftovers "$name"
    continue
  fi
  mapfile -t ranks < <(awk '$1 == "ready" { print $3 }' "$WORK/$name.out")
  mapfile -t files < <(mapped_objects "${ranks[@]}"; ipc_files "${ranks[@]}")
  if [[ $(alive "${ranks[@]}" | wc -l) -eq $np ]]; then pass "$name: $np ranks running"; else
    fail "$name: not every rank is running before the kill"; fi
  if ((${#files[@]} > np)); then pass "$name: the job has ${#files[@]} files in /dev/shm and /tmp"; else
    fail "$name: the job has ${#files[@]} files in /dev/shm and /tmp (test precondition: ipc files and a window)"; fi
  killed=$(now_ms)
  kill -9 "$JOB_PID"
  wait "$JOB_PID" 2>/dev/null
  until [[ -z $(alive "${ranks[@]}") ]] || (($(now_ms) - killed > 5000)); do nap 0.01; done
  elapsed=$(($(now_ms) - killed))
  if [[ -z $(alive "${ranks[@]}") ]] && ((elapsed < LIMIT_MS)); then
    pass "$name: ranks ended $elapsed ms after zmpirun was killed"
  else
    fail "$name: ranks $(alive "${ranks[@]}" | tr '\n' ' ')still alive $elapsed ms after zmpirun was killed"
  fi
  expect_no_leftovers "$name"

  # The next job removes them once they are old enough not to be a job's being set up.
  until (($(now_ms) - killed > AGE_S * 1000 + 1100)); do nap 0.05; done
  run_job "next$np" -np 2 "$FAULT_RANK" traffic
  expect_rc "next$np" 0
  left=()
  for file in "${files[@]}"; do [[ -e $file ]] && left+=("$file"); done
  if ((${#left[@]} == 0)); then pass "next$np: removed the killed job's files"; else
    fail "next$np: left ${left[*]}"
    rm -f "${left[@]}"
  fi
done
finish
