#!/usr/bin/env bash
# Slots and oversubscription. With no host information the slots are this machine's cores
# and more ranks than that run anyway (quietly; one stderr line at info level), unless
# --nooversubscribe. Slots given by -H or a hostfile are a limit: more ranks are refused
# (Open MPI's message) unless --oversubscribe, OMPI_MCA_rmaps_base_oversubscribe=1 or
# ZMPI_OVERSUBSCRIBE=1.
source "$(dirname "$0")/lib.sh"

# zmpirun counts the cores it may run on: pinned to two CPUs it sees at most two, so 4
# ranks are more than its cores on any machine.
pinned=()
if command -v taskset >/dev/null && taskset -c 0,1 true 2>/dev/null; then pinned=(taskset -c 0,1); fi
np=4
((${#pinned[@]} > 0)) || np=$(($(nproc) + 2))
# run_pinned NAME zmpirun-args...: run_job with zmpirun on at most two CPUs.
run_pinned() {
  local name=$1
  shift
  "${pinned[@]}" "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
  RC=$?
}

# Implicit local host: more ranks than cores just run, and say nothing by default.
run_pinned implicit -np "$np" "$FAKE_RANK" ok
expect_rc implicit 0
expect_lines implicit out "of $np" "$np"
if [[ ! -s $WORK/implicit.err ]]; then pass "implicit: nothing on stderr"; else fail "implicit: stderr not empty"; show implicit; fi
ZMPI_LOG_LEVEL=info run_pinned implicitinfo -np "$np" "$FAKE_RANK" ok
expect_rc implicitinfo 0
expect_lines implicitinfo err "oversubscribed" 1
if [[ -n ${HELLO:-} ]]; then
  run_pinned hello -np 4 "$HELLO"
  expect_rc hello 0
  expect_lines hello out "Hello from rank" 4
fi

# --nooversubscribe: the implicit local host is strict too.
run_pinned strict --nooversubscribe -np "$np" "$FAKE_RANK" ok
expect_nonzero strict
expect_text strict err "There are not enough slots available in the system to satisfy the $np"
expect_no_text strict out "rank"
run_pinned fits --nooversubscribe -np 1 "$FAKE_RANK" ok
expect_rc fits 0
run_job contradict --oversubscribe --nooversubscribe -np 1 "$FAKE_RANK" ok
expect_rc contradict 1
expect_text contradict err "contradict"

# Explicit slots are a limit.
run_job refused -np 4 -H localhost:2 "$FAKE_RANK" ok
expect_rc refused 1
expect_text refused err "There are not enough slots available in the system to satisfy the 4"
expect_text refused err "--oversubscribe"
expect_no_text refused out "rank"

run_job onehost -np 2 -H localhost "$FAKE_RANK" ok # a host without :N is one slot
expect_rc onehost 1
expect_text onehost err "satisfy the 2"

printf 'localhost slots=2\n' >"$WORK/hostfile"
run_job hostfile -np 3 --hostfile "$WORK/hostfile" "$FAKE_RANK" ok
expect_rc hostfile 1
expect_text hostfile err "satisfy the 3"

run_job allowed -np 4 -H localhost:2 --oversubscribe "$FAKE_RANK" ok
expect_rc allowed 0
expect_lines allowed out "of 4" 4

OMPI_MCA_rmaps_base_oversubscribe=1 run_job ompienv -np 3 --hostfile "$WORK/hostfile" "$FAKE_RANK" ok
expect_rc ompienv 0
expect_lines ompienv out "of 3" 3
ZMPI_OVERSUBSCRIBE=1 run_job zmpienv -np 3 -H localhost:2 "$FAKE_RANK" ok
expect_rc zmpienv 0
ZMPI_OVERSUBSCRIBE=maybe run_job badenv -np 1 "$FAKE_RANK" ok
expect_rc badenv 1
expect_text badenv err "ZMPI_OVERSUBSCRIBE='maybe' is not a boolean"

run_job aliases -np 3 -H localhost:1,127.0.0.1:1 -H "$(hostname):1" "$FAKE_RANK" ok
expect_rc aliases 0
finish
