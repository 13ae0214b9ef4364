#!/usr/bin/env bash
# The command line: clear errors for unknown options, --version/--help, the program's
# own arguments untouched, working directory and environment forwarded.
source "$(dirname "$0")/lib.sh"

run_job unknown --bogus -np 1 "$FAKE_RANK" ok
expect_rc unknown 1
expect_text unknown err "zmpirun: unknown option '--bogus'"
expect_text unknown err "zmpirun --help"

run_job bindto -np 1 --bind-to core "$FAKE_RANK" ok
expect_rc bindto 0
run_job bindoverload -np 1 --bind-to core:overload-allowed "$FAKE_RANK" ok
expect_rc bindoverload 0
run_job badbind -np 1 --bind-to cores "$FAKE_RANK" ok
expect_rc badbind 1
expect_text badbind err "--bind-to: cores not in"

run_job version --version
expect_rc version 0
expect_text version out "zmpirun (zmpi)"
run_job help --help
expect_rc help 0
expect_text help out "--oversubscribe"
expect_text help out "--nooversubscribe"
expect_text help out "stdin goes to rank 0"
expect_text help out "--hostfile"

# A malformed duration in the environment is an error, not a timeout of 0 ms.
ZMPI_STARTUP_TIMEOUT_MS=15s run_job badduration -np 1 "$FAKE_RANK" ok
expect_rc badduration 1
expect_text badduration err "zmpirun: ZMPI_STARTUP_TIMEOUT_MS=15s is not a whole number of milliseconds"

# So is a malformed socket linger (read with atoi once: "1s" was a linger of 1 ms).
ZMPI_LINGER_MS=1s run_job badlinger -np 1 "$FAKE_RANK" ok
expect_rc badlinger 1
expect_text badlinger err "zmpirun: ZMPI_LINGER_MS=1s is not a whole number of milliseconds"

run_job noprogram -np 2
expect_rc noprogram 1
expect_text noprogram err "no program given"

run_job notfound -np 2 ./no-such-program
expect_rc notfound 127
expect_text notfound err "unable to find the specified executable"
expect_text notfound err "Executable: ./no-such-program"

run_job args -np 1 sh -c 'printf "[%s]" "$@"' sh -np 5 --foo "a b" -- -x
expect_rc args 0
expect_text args out "[-np][5][--foo][a b][--][-x]"

(cd "$WORK" && run_job cwd -np 1 pwd)
expect_text cwd out "$WORK"
run_job wdir --wdir / -np 1 pwd
expect_lines wdir out "/" 1

FORWARDED=yes run_job env -np 2 -x SET=1 -x FORWARDED -x "EQ=a=b" sh -c 'echo "$FORWARDED $SET $EQ"'
expect_lines env out "yes 1 a=b" 2

ZMPI_LIBDIR=/opt/zmpi-test/lib LD_LIBRARY_PATH=/elsewhere run_job ldpath -np 1 sh -c 'echo "$LD_LIBRARY_PATH"'
expect_lines ldpath out "/opt/zmpi-test/lib:/elsewhere" 1

run_job contract -np 2 -H localhost:2 sh -c \
  'echo "R=$ZMPI_RANK S=$ZMPI_SIZE L=$ZMPI_LOCAL_RANK/$ZMPI_LOCAL_SIZE U=$ZMPI_UNIVERSE_SIZE A=$ZMPI_APPNUM B=$ZMPI_BIND_ADDRESS H=$ZMPI_HOST X=$ZMPI_LAUNCHED J=${#ZMPI_JOB_ID} V=${ZMPI_RENDEZVOUS%%:[0-9]*}"'
expect_text contract out "R=0 S=2 L=0/2 U=2 A=0 B=127.0.0.1 H=$(hostname) X=1 J=16 V=tcp://127.0.0.1"
expect_text contract out "R=1 S=2 L=1/2"
finish
