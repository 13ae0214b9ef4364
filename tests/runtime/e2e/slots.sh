#!/usr/bin/env bash
# Slots: more ranks than slots is refused (Open MPI's message) unless --oversubscribe;
# with no host list the slots are this machine's cores.
source "$(dirname "$0")/lib.sh"

run_job refused -np 3 -H localhost:2 "$FAKE_RANK" ok
expect_rc refused 1
expect_text refused err "There are not enough slots available in the system to satisfy the 3"
expect_text refused err "--oversubscribe"
expect_no_text refused out "rank"

run_job allowed -np 3 -H localhost:2 --oversubscribe "$FAKE_RANK" ok
expect_rc allowed 0
expect_lines allowed out "of 3" 3

run_job cores -np 4096 "$FAKE_RANK" ok
expect_rc cores 1
expect_text cores err "to satisfy the 4096"

run_job aliases -np 3 -H localhost:1,127.0.0.1:1 -H "$(hostname):1" "$FAKE_RANK" ok
expect_rc aliases 0
finish
