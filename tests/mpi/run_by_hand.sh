#!/usr/bin/env bash
# Starts N copies of an MPI program by hand, the way a scheduler would: each gets
# ZMPI_RANK/ZMPI_SIZE and a rendezvous address (rank 0 hosts it). Exits with the first
# non-zero status. Used by the tests of launcher-less bootstrap.
#   run_by_hand.sh N program [args...]
set -u
n=$1; shift
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
pids=()
for ((r = 0; r < n; r++)); do
  ZMPI_SIZE=$n ZMPI_RANK=$r ZMPI_RENDEZVOUS="tcp://127.0.0.1:$port" ZMPI_JOB_ID="byhand-$$-$port" "$@" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid"; rc=$?
  if ((rc != 0 && status == 0)); then status=$rc; fi
done
exit $status
