#!/usr/bin/env bash
# Runs a program built by Open MPI's own mpicc against zmpi's library: LD_LIBRARY_PATH puts
# zmpi's libmpi.so.40 first, the ranks are started by hand (environment bootstrap). Fails
# unless the program reports success and the library it ran on really was zmpi.
#   run_ompi_built.sh ZMPI_LIB_DIR NP PROGRAM
set -u
libdir=$1 np=$2 program=$3
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$here/../run_by_hand.sh" "$np" "$program" >"$out" 2>&1
status=$?
cat "$out"
if ((status != 0)); then
  echo "FAILED: $program exited with $status"
  exit 1
fi
if ! grep -q "^library: zmpi" "$out"; then
  echo "FAILED: $program did not run on zmpi's library"
  exit 1
fi
if ! grep -q "ompi_built: ok" "$out"; then
  echo "FAILED: $program did not report success"
  exit 1
fi
echo "ok: $program (built by Open MPI's mpicc) ran on zmpi with $np ranks"
