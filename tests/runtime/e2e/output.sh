#!/usr/bin/env bash
# Output: --tag-output prefixes; 4 ranks writing thousands of lines in small pieces never
# share a line; stdin goes to rank 0 only.
source "$(dirname "$0")/lib.sh"

run_job tagged --tag-output -np 2 sh -c 'echo "o$ZMPI_RANK"; echo "e$ZMPI_RANK" >&2; printf "tail$ZMPI_RANK"'
expect_rc tagged 0
expect_lines tagged out "[1,0]<stdout>:o0" 1
expect_lines tagged out "[1,1]<stdout>:o1" 1
expect_lines tagged out "<stdout>:tail" 2
expect_lines tagged err "[1,0]<stderr>:e0" 1
expect_lines tagged err "[1,1]<stderr>:e1" 1

started=$(now_ms)
run_job lines -np 4 "$FAKE_RANK" lines 3000
ended=$(now_ms)
expect_rc lines 0
if "$FAKE_RANK" verify-lines 4 3000 <"$WORK/lines.out" >"$WORK/verify.out" 2>&1; then
  pass "line integrity: $(cat "$WORK/verify.out"), $(($(stat -c %s "$WORK/lines.out") / 1024)) KiB in $((ended - started)) ms"
else
  fail "line integrity: $(cat "$WORK/verify.out")"
fi

seq 1 200000 >"$WORK/input"
STDIN_FILE="$WORK/input" run_job stdin -np 3 "$FAKE_RANK" stdin
expect_rc stdin 0
expect_text stdin out "rank 0 read 200000 lines, last '200000'"
expect_text stdin out "rank 1 stdin empty"
expect_text stdin out "rank 2 stdin empty"

STDIN_FILE="$WORK/input" run_job stdin1 --stdin 1 -np 2 "$FAKE_RANK" stdin
expect_text stdin1 out "rank 0 read 0 lines"
expect_text stdin1 out "rank 1 stdin NOT EMPTY"

# A rank that never reads its stdin must not hold the job up.
STDIN_FILE="$WORK/input" run_job unread -np 2 "$FAKE_RANK" ok
expect_rc unread 0
finish
