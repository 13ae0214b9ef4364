#!/usr/bin/env bash
# Runs programs of OpenCoarrays' own test suite (Debian's libcoarrays-openmpi-dev: Fortran
# coarray programs whose runtime, libcaf_mpi, is built for Open MPI and works through MPI's
# one-sided calls -- windows, passive-target locks, gets, puts, atomics) through zmpirun on
# NP ranks, unchanged; each must exit 0 and say "Test passed". Arguments after NP up to
# "--" are VAR=VALUE settings for the job, the rest the programs' names.
#   run_coarrays.sh ZMPIRUN NP [VAR=VALUE ...] -- PROGRAM ...
# Exit 77 (skipped) where the package is missing (scripts/setup-deps.sh installs it).
set -u
zmpirun=$1 np=$2
shift 2
settings=()
while (($#)) && [[ $1 != -- ]]; do settings+=("$1"); shift; done
shift
dir=/usr/lib/x86_64-linux-gnu/open-coarrays/openmpi/bin/OpenCoarrays-2.10.1-tests
if [[ ! -d $dir ]]; then
  echo "skipped: no $dir (Debian package libcoarrays-openmpi-dev)"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=0
for program in "$@"; do
  env "${settings[@]}" "$zmpirun" -np "$np" "$dir/$program" >"$out" 2>&1
  status=$?
  if ((status != 0)) || ! grep -qi "test passed" "$out"; then
    cat "$out"
    echo "FAILED: $program on $np ranks (exit $status)"
    failed=1
  else
    echo "ok: $program on $np ranks"
  fi
done
exit $failed
