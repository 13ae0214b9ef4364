#!/usr/bin/env bash
# Runs the mpi4py tour (Debian's python3-mpi4py, an Open MPI build, unchanged) through
# zmpirun on NP ranks; extra arguments are VAR=VALUE settings for the job.
#   run_mpi4py.sh ZMPIRUN NP [VAR=VALUE ...]
# Exit 77 (skipped) where Debian's python3 lacks mpi4py or numpy (scripts/setup-deps.sh
# installs them). Debian's interpreter by path: another python3 may come first on PATH.
set -u
zmpirun=$1 np=$2
shift 2
python=/usr/bin/python3
if ! "$python" -c "import mpi4py, numpy" 2>/dev/null; then
  echo "skipped: $python cannot import mpi4py and numpy (Debian packages python3-mpi4py python3-numpy)"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
env "$@" "$zmpirun" -np "$np" "$python" "$(dirname "$0")/mpi4py_tour.py" >"$out" 2>&1
status=$?
cat "$out"
if ((status != 0)); then
  echo "FAILED: the mpi4py tour on $np ranks exited with $status"
  exit 1
fi
grep -q "^mpi4py tour: ok" "$out" || { echo "FAILED: the tour did not report success"; exit 1; }
echo "ok: the mpi4py tour ran on zmpi with $np ranks"
