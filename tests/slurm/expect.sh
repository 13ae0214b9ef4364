#!/usr/bin/env bash
# Runs a command under the test cluster and checks what it did, for the slurm ctest entries:
#   expect.sh [--fails] [--within SECONDS] [--left PATTERN] REGEX -- CMD [ARGS...]
# Passes when CMD exits 0 (with --fails: non-zero), within SECONDS (default 60), its output
# (stdout and stderr) matches the extended REGEX on some line (ANY: no check), and, with
# --left, no process
# whose command line starts with PATTERN is running afterwards (bounded wait of 5 s for the
# manager to finish ending them).
set -uo pipefail
fails=0 within=60 left=
while [[ $# -gt 0 && $1 != -- ]]; do
  case $1 in
    --fails) fails=1; shift ;;
    --within) within=$2; shift 2 ;;
    --left) left=$2; shift 2 ;;
    *) break ;;
  esac
done
regex=$1
shift
[[ ${1:-} == -- ]] && shift
output=$(mktemp)
trap 'rm -f "$output"' EXIT
start=$SECONDS
timeout --kill-after=5 "$within" "$@" >"$output" 2>&1
status=$?
elapsed=$((SECONDS - start))
cat "$output"
echo "expect.sh: exit $status after ${elapsed} s"
if ((status == 124 || elapsed >= within)); then
  echo "expect.sh: FAILED: still running after ${within} s" >&2
  exit 1
fi
if ((fails == 0 && status != 0)); then
  echo "expect.sh: FAILED: exit status $status" >&2
  exit 1
fi
if ((fails == 1 && status == 0)); then
  echo "expect.sh: FAILED: succeeded, but it should have failed" >&2
  exit 1
fi
if [[ $regex != ANY ]] && ! grep -Eq -- "$regex" "$output"; then
  echo "expect.sh: FAILED: no line matches /$regex/" >&2
  exit 1
fi
if [[ -n $left ]]; then
  for _ in $(seq 50); do
    pgrep -f -- "^$left" >/dev/null || exit 0
    sleep 0.1  # a bounded retry: 100 ms between looks, 5 s in all
  done
  echo "expect.sh: FAILED: processes left running:" >&2
  pgrep -af -- "^$left" >&2
  exit 1
fi
exit 0
