#!/usr/bin/env bash
# Starts N copies of an MPI program with the environment Slurm's srun gives its tasks
# (SLURM_PROCID, SLURM_NTASKS, SLURM_NODELIST, SLURM_JOB_ID, SLURMD_NODENAME) and no
# ZMPI_* variables: the ranks must form their world from that alone.
#   run_as_slurm.sh N program [args...]
set -u
n=$1; shift
job=$((RANDOM * 3 + $$ % 1000))
pids=()
for ((r = 0; r < n; r++)); do
  env -u ZMPI_RANK -u ZMPI_SIZE -u ZMPI_RENDEZVOUS SLURM_PROCID=$r SLURM_NTASKS=$n SLURM_NODELIST=localhost \
    SLURM_JOB_ID=$job SLURM_STEP_ID=0 SLURMD_NODENAME=localhost ZMPI_BIND_ADDRESS=127.0.0.1 "$@" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid"; rc=$?
  if ((rc != 0 && status == 0)); then status=$rc; fi
done
exit $status
