#!/usr/bin/env bash
# Hostfiles: Open MPI's format with comments; errors name the file and the line; hosts
# other than this machine are refused until zmpid exists.
source "$(dirname "$0")/lib.sh"

cat >"$WORK/good" <<HOSTS
# this machine, twice over

localhost slots=1   # first
$(hostname) slots=2
HOSTS
run_job good --hostfile "$WORK/good" -np 3 "$FAKE_RANK" ok
expect_rc good 0
expect_lines good out "of 3" 3

printf 'localhost slots=2\n# fine\nlocalhost slots=two\n' >"$WORK/bad"
run_job bad --hostfile "$WORK/bad" -np 1 "$FAKE_RANK" ok
expect_rc bad 1
expect_text bad err "hostfile '$WORK/bad', line 3: slots must be a positive integer, found 'slots=two'"

printf 'localhost sockets=2\n' >"$WORK/badkey"
run_job badkey -hostfile "$WORK/badkey" -np 1 "$FAKE_RANK" ok
expect_rc badkey 1
expect_text badkey err "line 1: unknown key 'sockets'"

run_job missing --hostfile "$WORK/nonexistent" -np 1 "$FAKE_RANK" ok
expect_rc missing 1
expect_text missing err "cannot open hostfile '$WORK/nonexistent'"

# Other hosts are started through their zmpid agents (tests: agents.sh), which takes the
# secret they share with zmpirun: without one, nothing is attempted.
unset ZMPI_SECRET_FILE ZMPI_SECRET
printf 'localhost slots=1\nnode-elsewhere slots=2\n' >"$WORK/remote"
run_job remote --hostfile "$WORK/remote" -np 3 "$FAKE_RANK" ok
expect_rc remote 1
expect_text remote err "Host 'node-elsewhere' (from hostfile '$WORK/remote', line 2) is not this machine"
expect_text remote err "Set ZMPI_SECRET_FILE"

run_job remoteunused --hostfile "$WORK/remote" -np 1 "$FAKE_RANK" ok
expect_rc remoteunused 0

run_job remoteH -H 127.0.0.2:2 -np 2 "$FAKE_RANK" ok
expect_rc remoteH 1
expect_text remoteH err "Host '127.0.0.2' (from --host) is not this machine"
finish
