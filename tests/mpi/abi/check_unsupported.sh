#!/usr/bin/env bash
# Picks a function that is still a generated stub (mpi/abi/gen_stubs.py output) and checks
# it fails loudly: MPI_ERR_UNSUPPORTED_OPERATION under MPI_ERRORS_RETURN, and under the
# default handler a non-zero exit with a message naming the function. Exit 77 (skipped)
# when every candidate has been implemented.
#   check_unsupported.sh GENERATED_STUBS_CC PROGRAM
set -u
stubs=$1 program=$2
here=$(cd "$(dirname "$0")" && pwd)
# Functions unlikely to be implemented soon (dynamic processes, name service) first.
candidates="MPI_Open_port MPI_Close_port MPI_Publish_name MPI_Lookup_name MPI_Unpublish_name MPI_Comm_join
  MPI_Comm_spawn MPI_Comm_accept MPI_Comm_connect MPI_Register_datarep"
name=""
for candidate in $candidates; do
  if grep -q "zmpi_unsupported(\"$candidate\")" "$stubs"; then
    name=$candidate
    break
  fi
done
if [[ -z $name ]]; then
  echo "skipped: none of the candidate functions is still a stub"
  exit 77
fi
"$here/../run_by_hand.sh" 2 "$program" "$name" return || { echo "FAILED: $name under MPI_ERRORS_RETURN"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$here/../run_by_hand.sh" 1 "$program" "$name" fatal 2>"$err"
status=$?
cat "$err"
if ((status == 0)); then
  echo "FAILED: $name under MPI_ERRORS_ARE_FATAL exited with 0"
  exit 1
fi
if ! grep -q "$name" "$err" || ! grep -q "MPI_ERR_UNSUPPORTED_OPERATION" "$err" || ! grep -q "not implemented" "$err"; then
  echo "FAILED: the fatal message does not name $name and MPI_ERR_UNSUPPORTED_OPERATION"
  exit 1
fi
echo "ok: $name fails loudly (exit $status)"
