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

# Open MPI's default hostfile from the environment, as the Kubeflow MPI Operator sets it
# (OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile); PRRTE's name for Open MPI 5.
export OMPI_MCA_orte_default_hostfile="$WORK/good"
run_job envfile -np 3 "$FAKE_RANK" ok
expect_rc envfile 0
expect_lines envfile out "of 3" 3
run_job envslots -np 4 "$FAKE_RANK" ok # its slots are a limit, as any hostfile's
expect_rc envslots 1
expect_text envslots err "not enough slots available in the system to satisfy the 4"
export OMPI_MCA_orte_default_hostfile="$WORK/nonexistent"
run_job envmissing -np 1 "$FAKE_RANK" ok
expect_rc envmissing 1
expect_text envmissing err "cannot open hostfile '$WORK/nonexistent' (named by OMPI_MCA_orte_default_hostfile)"
run_job envH -H localhost:1 -np 1 "$FAKE_RANK" ok # the command line wins
expect_rc envH 0
run_job envhostfile --hostfile "$WORK/good" -np 3 "$FAKE_RANK" ok
expect_rc envhostfile 0
export OMPI_MCA_orte_default_hostfile=none PRTE_MCA_prte_default_hostfile="$WORK/nonexistent"
run_job envnone -np 5 "$FAKE_RANK" ok # "none": this machine, oversubscribed
expect_rc envnone 0
unset OMPI_MCA_orte_default_hostfile
run_job envprte -np 1 "$FAKE_RANK" ok
expect_rc envprte 1
expect_text envprte err "(named by PRTE_MCA_prte_default_hostfile)"
# The operator's format for MPICH and Intel MPI: host:N.
printf 'localhost:2\n' >"$WORK/colon"
export PRTE_MCA_prte_default_hostfile="$WORK/colon"
run_job envcolon -np 2 "$FAKE_RANK" ok
expect_rc envcolon 0
expect_lines envcolon out "of 2" 2
run_job envcolon3 -np 3 "$FAKE_RANK" ok
expect_rc envcolon3 1
unset PRTE_MCA_prte_default_hostfile

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
