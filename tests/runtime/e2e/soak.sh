#!/usr/bin/env bash
# 200 consecutive jobs (MPI_Init, point-to-point of eager and rendezvous sizes,
# collectives, MPI_Finalize) on 2, 3 and 4 ranks in turn. None hangs (each is bounded by
# --timeout) or fails; every rank ends MPI_Finalize with the descriptors it had before
# MPI_Init and no /dev/shm mapping (fault_rank checks); no process, /dev/shm object or ipc
# socket file of the jobs is left; zmpirun holds as many descriptors in the last jobs as
# in the first (counted while the ranks wait, after MPI_Init, for a file).
# ZMPI_SOAK_JOBS sets the count.
source "$(dirname "$0")/lib.sh"
: "${FAULT_RANK:?FAULT_RANK must point at mpi_fault_rank}"
JOBS=${ZMPI_SOAK_JOBS:-200}

# zmpi files we own in /dev/shm and /tmp (ipc endpoints).
# Only names a job's files have (transport/job_files.h: zmpi-<16 hex digits>-...): other
# tests' scratch directories (zmpi-e2e.*, zmpi-hostile.*) are not the jobs' leftovers.
snapshot() {
  find /dev/shm /tmp -maxdepth 1 -user "$(id -u)" -regextype posix-extended -regex '.*/zmpi-[0-9a-f]{16}-.*' \
    2>/dev/null | sort
}
before=$(snapshot)

declare -A first_fds last_fds
failed=0
started=$(now_ms)
for ((job = 1; job <= JOBS; job++)); do
  np=$((2 + job % 3))
  name="soak$job"
  if ((job <= 3 || job > JOBS - 3)); then
    hold="$WORK/$name.hold"
    start_job "$name" --timeout 60 -np "$np" "$FAULT_RANK" traffic "$hold"
    if wait_for "$name" out '^ready ' "$np"; then
      fds=$(ls "/proc/$JOB_PID/fd" | wc -l)
      if ((job <= 3)); then first_fds[$np]=$fds; else last_fds[$np]=$fds; fi
    fi
    : >"$hold"
    wait "$JOB_PID"
    RC=$?
  else
    run_job "$name" --timeout 60 -np "$np" "$FAULT_RANK" traffic
  fi
  if ((RC != 0)) || ! grep -qx "traffic ok $np" "$WORK/$name.out"; then
    fail "job $job (np $np) exits $RC"
    show "$name"
    failed=$((failed + 1))
    ((failed > 3)) && break
  fi
  rm -f "$WORK/$name".*
done
pass "$((job - 1)) jobs in $(($(now_ms) - started)) ms"
for np in 2 3 4; do
  if [[ -n ${first_fds[$np]:-} && ${first_fds[$np]} == "${last_fds[$np]:-}" ]]; then
    pass "np $np: zmpirun holds ${first_fds[$np]} descriptors in the first and the last jobs"
  else
    fail "np $np: zmpirun holds ${first_fds[$np]:-?} descriptors in the first jobs, ${last_fds[$np]:-?} in the last"
  fi
done
expect_no_leftovers soak
# Of the files that appeared, those no live process uses (tests running alongside may
# hold theirs): an object nobody maps, an ipc path nobody listens on. A test running
# alongside may also be between creating an object and mapping it, or unmapping and
# unlinking it (an RMA window's -wN segment under TSan took that long): a file counts as
# left behind only if it stays so for 3 s (bounded retries, looking again each 0.1 s).
unused() {
  case $1 in
    /dev/shm/*) [[ -e $1 ]] && ! grep -qsF "$1" /proc/[0-9]*/maps ;;
    *) [[ -e $1 ]] && ! grep -qsF "$1" /proc/net/unix ;;
  esac
}
stale=()
for file in $(comm -13 <(echo "$before") <(snapshot)); do
  for ((look = 0; look < 30; ++look)); do
    unused "$file" || continue 2
    nap 0.1
  done
  stale+=("$file")
done
if ((${#stale[@]} == 0)); then pass "no shared-memory object or ipc file left"; else fail "left behind: ${stale[*]}"; fi
finish
