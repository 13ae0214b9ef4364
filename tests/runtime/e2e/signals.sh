#!/usr/bin/env bash
# SIGINT or SIGTERM to zmpirun ends every rank; zmpirun exits with 128+signal.
source "$(dirname "$0")/lib.sh"

# Starts a hanging 2-rank job in the background and waits (bounded) for both ranks to
# report they are up. A script's background job inherits SIGINT ignored; env gives the
# default back, as an interactive shell would have.
signal_job() {
  local name=$1 signal=$2 want=$3
  mkfifo "$WORK/$name.fifo"
  env --default-signal=INT "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 2 "$FAKE_RANK" hang \
    >"$WORK/$name.fifo" 2>"$WORK/$name.err" </dev/null &
  local pid=$! line ready=0
  exec 3<"$WORK/$name.fifo"
  while ((ready < 2)) && read -r -t 20 -u 3 line; do
    [[ $line == ready* ]] && ready=$((ready + 1))
  done
  if ((ready == 2)); then pass "$name: ranks up"; else fail "$name: ranks not up"; fi
  kill "-$signal" "$pid"
  cat <&3 >/dev/null  # keep draining until zmpirun closes its stdout
  exec 3<&-
  wait "$pid"
  RC=$?
  : >"$WORK/$name.out"
  expect_rc "$name" "$want"
  expect_text "$name" err "zmpirun received signal"
  expect_no_leftovers "$name"
}

signal_job sigint INT 130
signal_job sigterm TERM 143
finish
