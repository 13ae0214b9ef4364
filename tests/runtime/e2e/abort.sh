#!/usr/bin/env bash
# MPI_Abort(comm, code): the job ends within a second with status `code` and Open MPI's
# message, for 1, 2, 4 and 8 ranks; no process of the job is left. The jobs log at debug
# level (timestamped: who joined, the abort, each rank's end), shown when the second is
# missed: once in a CI run, abort4 ended 1013 ms after the abort, and 15 runs under a
# compile's load right after took 14-41 ms each.
source "$(dirname "$0")/lib.sh"

# clock_of MS: epoch milliseconds as the log's time of day.
clock_of() { printf '%(%T)T.%03d' $(($1 / 1000)) $(($1 % 1000)); }

for np in 1 2 4 8; do
  target=$((np / 2))
  ZMPI_LOG_LEVEL=debug run_job "abort$np" -np "$np" "$FAKE_RANK" abort 7 "$target"
  ended=$(now_ms)
  expect_rc "abort$np" 7
  expect_text "abort$np" err "MPI_ABORT was invoked on rank $target in communicator MPI_COMM_WORLD"
  expect_text "abort$np" err "with errorcode 7."
  started=$(sed -n "s/^rank $target aborting at \([0-9]*\)$/\1/p" "$WORK/abort$np.out")
  if [[ -n $started ]] && ((ended - started < 1000)); then
    pass "abort$np: job ended $((ended - started)) ms after MPI_Abort"
  else
    fail "abort$np: job ended $((ended - ${started:-0})) ms after MPI_Abort (limit 1000); its log, ended at $(clock_of "$ended"):"
    tail -n 60 "$WORK/abort$np.err" >&2
  fi
  expect_no_leftovers "abort$np"
done
finish
