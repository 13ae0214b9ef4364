#!/usr/bin/env bash
# Runs errors_fatal and checks the job ends with a non-zero status and a message naming the
# call (MPI_Send), the error class and the bad argument.
#   check_fatal.sh byhand NP PROGRAM          every rank makes the bad call
#   check_fatal.sh launcher NP PROGRAM ZMPIRUN  only rank 0 does; the launcher ends the rest
set -u
mode=$1 np=$2 program=$3
here=$(cd "$(dirname "$0")" && pwd)
err=$(mktemp)
trap 'rm -f "$err"' EXIT
if [[ $mode == byhand ]]; then
  "$here/../run_by_hand.sh" "$np" "$program" all 2>"$err"
else
  "$4" -np "$np" "$program" one 2>"$err"
fi
status=$?
cat "$err"
if ((status == 0)); then
  echo "FAILED: the job exited with 0"
  exit 1
fi
for needle in "MPI_Send" "MPI_ERR_RANK" "destination rank $((np + 5))"; do
  if ! grep -q "$needle" "$err"; then
    echo "FAILED: the message does not mention '$needle'"
    exit 1
  fi
done
if grep -q "MPI_Send returned" "$err"; then
  echo "FAILED: MPI_Send returned under MPI_ERRORS_ARE_FATAL"
  exit 1
fi
echo "ok: the job ended with status $status and named the call and the argument"
