#!/usr/bin/env bash
# The examples, run through zmpirun as a user would, on 1, 2, 4 and 8 ranks; plus one
# built by Open MPI's own mpicc, run unmodified on zmpi's library.
# Needs ZMPIRUN, BIN_DIR (where the examples are) and SOURCE_DIR.
set -u
: "${ZMPIRUN:?}" "${BIN_DIR:?}" "${SOURCE_DIR:?}"
export ZMPI_LOG_LEVEL=${ZMPI_LOG_LEVEL:-error}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }
# run NAME zmpirun-args...: output in $WORK/NAME, status checked to be 0.
run() {
  local name=$1
  shift
  if "$ZMPIRUN" "$@" >"$WORK/$name" 2>&1 </dev/null; then pass "$name"; else
    fail "$name exited $?: $(tail -20 "$WORK/$name")"; fi
}
expect() {
  if grep -qE -- "$2" "$WORK/$1"; then pass "$1 has /$2/"; else fail "$1 lacks /$2/: $(tail -20 "$WORK/$1")"; fi
}
count() {
  local got
  got=$(grep -cE -- "$2" "$WORK/$1")
  if [[ $got -eq $3 ]]; then pass "$1: $3 x /$2/"; else fail "$1: $got x /$2/, expected $3"; fi
}

for np in 1 2 4 8; do
  run "hello$np" -np "$np" "$BIN_DIR/hello"
  count "hello$np" "^Hello from rank [0-9]+ of $np on " "$np"
  count "hello$np" "^Library: zmpi" 1

  run "ring$np" -np "$np" "$BIN_DIR/ring" 3
  count "ring$np" "^Rank [0-9]+ done" "$np"
  expect "ring$np" "^Rank 0: token back, 0 lap\(s\) left"

  run "pi$np" -np "$np" "$BIN_DIR/pi" 2000000
  expect "pi$np" "^pi is approximately 3\.14159265358[0-9]*, error [0-9.]+e-1[0-9]"

  run "heat$np" -np "$np" "$BIN_DIR/heat2d" 32 1e-3
  expect "heat$np" "^converged after"
  grep '^mean temperature' "$WORK/heat$np" >"$WORK/heat$np.summary"
done
# The decomposition must not change the answer.
for np in 2 4 8; do
  if cmp -s "$WORK/heat1.summary" "$WORK/heat$np.summary"; then pass "heat2d on $np ranks = on 1"; else
    fail "heat2d on $np ranks: $(cat "$WORK/heat$np.summary") vs $(cat "$WORK/heat1.summary")"; fi
done
expect heat4 "on a 2 x 2 grid of ranks"

run pingpong -np 2 "$BIN_DIR/pingpong" 65536
count pingpong "^ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+$" 18

# A binary built by Open MPI's mpicc runs unmodified: zmpirun puts zmpi's library first.
if command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi ${ZMPI_SANITIZE_FLAGS:-} "$SOURCE_DIR/examples/ring.c" -o "$WORK/ring_ompi" || fail "mpicc.openmpi"
  run ompi -np 2 "$WORK/ring_ompi" 2
  count ompi "^Rank [0-9]+ done" 2
else
  echo "skip: no mpicc.openmpi"
fi

if ((failures > 0)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all checks passed"
