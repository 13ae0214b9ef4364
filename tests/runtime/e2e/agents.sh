#!/usr/bin/env bash
# Two "hosts" on this machine: zmpid agents bound to 127.0.0.2 and 127.0.0.3 (each its own
# ZMPI_HOST, so ranks on them count as being on different hosts), started by zmpirun
# through the agents. Checks the bootstrap each remote rank gets, a real MPI program using
# tcp between the hosts and the same-host path within one, the Kubeflow MPI Operator's way
# to name hosts and mount the secret (docker/kubernetes/), and every way a multi-host job
# fails: wrong secret, no secret, nothing listening, a remote rank's death, an agent's
# death, zmpirun's death, garbage on the agent's port.
source "$(dirname "$0")/lib.sh"
: "${LINE_WRITER:?LINE_WRITER must point at line_writer}"
source "$(dirname "$0")/agents_lib.sh"

declare -A ADDRESS=([a]=127.0.0.2 [b]=127.0.0.3 [wrong]=127.0.0.2 [none]=127.0.0.3)

# Agent b reads the secret the way a Kubernetes Secret volume presents it
# (docker/kubernetes/): the name a symlink to ..data/secret, ..data one to the directory of
# the current version, the file mode 0400.
KUBE_SECRET="$WORK/kube-secret/secret"
mkdir -p "$WORK/kube-secret/..2026_01_01_00_00_00.1"
install -m 400 "$SECRET" "$WORK/kube-secret/..2026_01_01_00_00_00.1/secret"
ln -s ..2026_01_01_00_00_00.1 "$WORK/kube-secret/..data"
ln -s ..data/secret "$KUBE_SECRET"
start_agent a 127.0.0.2 --secret-file "$SECRET" || finish
start_agent b 127.0.0.3 --secret-file "$KUBE_SECRET" || finish
hostfile "$WORK/hosts" a b

# A job across both hosts: every rank joins, output comes back line by line.
run_job two -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" ok
expect_rc two 0
for r in 0 1 2 3; do expect_lines two out "rank $r of 4" 1; done
expect_no_leftovers two

# A remote rank printing short lines, each a message of its own (line_writer), while
# zmpirun's stdout is not read for longer than the heartbeat timeout (a paused pager): every
# line arrives, in order, and nobody is taken for dead. Output credit once counted only
# bytes, so thousands of tiny messages filled zmpirun's receive queue; a full queue stopped
# its zmq I/O thread from reading the connection, zmq's heartbeats went unanswered and the
# agent closed the connection after 3 s (and its sends, failing on the full queue, lost lines).
"$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 1 --hostfile "$WORK/hosts" "$LINE_WRITER" 20000 \
  </dev/null 2>"$WORK/slowreader.err" | { sleep 5; cat; } >"$WORK/slowreader.out"
RC=${PIPESTATUS[0]}
expect_rc slowreader 0
expect_lines slowreader out "line " 20000
if [[ $(tail -n 1 "$WORK/slowreader.out") == "line 20000" ]]; then pass "slowreader: the last line came last"; else
  fail "slowreader: the last line is '$(tail -n 1 "$WORK/slowreader.out")'"; fi
expect_no_leftovers slowreader

# The bootstrap contract of remote ranks: their host as given, its address to bind, and
# zmpirun's rendezvous at an address that host reaches.
run_job env -np 4 --hostfile "$WORK/hosts" sh -c 'echo "R=$ZMPI_RANK H=$ZMPI_HOST B=$ZMPI_BIND_ADDRESS L=$ZMPI_LOCAL_RANK/$ZMPI_LOCAL_SIZE S=${ZMPI_SECRET:-none}"'
expect_rc env 0
expect_text env out "R=0 H=127.0.0.2 B=127.0.0.2 L=0/2 S=none"
expect_text env out "R=3 H=127.0.0.3 B=127.0.0.3 L=1/2 S=none"

# The Kubeflow MPI Operator's launcher (docker/kubernetes/): no host list on the command
# line, the hostfile named by OMPI_MCA_orte_default_hostfile, as Open MPI's mpirun reads it;
# the secret from a Kubernetes-style Secret volume.
ZMPI_SECRET_FILE="$KUBE_SECRET" OMPI_MCA_orte_default_hostfile="$WORK/hosts" run_job operator -np 4 sh -c 'echo "R=$ZMPI_RANK H=$ZMPI_HOST"'
expect_rc operator 0
expect_text operator out "R=0 H=127.0.0.2"
expect_text operator out "R=3 H=127.0.0.3"

# stdin goes to rank 0 on its remote host through its agent: a few MiB arrive whole
# (checksum), lines through a pipe arrive in order, the other ranks read /dev/null.
head -c $((3 * 1024 * 1024 + 4321)) /dev/urandom >"$WORK/input.bin"
want=$(md5sum <"$WORK/input.bin" | cut -d' ' -f1)
empty=$(md5sum </dev/null | cut -d' ' -f1)
STDIN_FILE="$WORK/input.bin" run_job stdinsum -np 4 --hostfile "$WORK/hosts" \
  sh -c 'echo "R=$ZMPI_RANK H=$ZMPI_HOST $(md5sum | cut -d" " -f1)"'
expect_rc stdinsum 0
expect_text stdinsum out "R=0 H=127.0.0.2 $want"
for r in 1 2 3; do expect_text stdinsum out "R=$r H=127.0.0.$((2 + r / 2)) $empty"; done
seq 1 200000 | "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 3 --hostfile "$WORK/hosts" "$FAKE_RANK" stdin \
  >"$WORK/stdinlines.out" 2>"$WORK/stdinlines.err"
RC=$?
expect_rc stdinlines 0
expect_text stdinlines out "rank 0 read 200000 lines, last '200000'"
expect_text stdinlines out "rank 1 stdin empty"
expect_text stdinlines out "rank 2 stdin empty"
expect_no_leftovers stdinlines
# --stdin picks another remote rank; empty input is an immediate end of file.
STDIN_FILE="$WORK/input.bin" run_job stdin3 --stdin 3 -np 4 --hostfile "$WORK/hosts" \
  sh -c 'echo "R=$ZMPI_RANK $(md5sum | cut -d" " -f1)"'
expect_text stdin3 out "R=3 $want"
expect_text stdin3 out "R=0 $empty"
run_job stdinempty -np 2 --hostfile "$WORK/hosts" sh -c 'echo "R=$ZMPI_RANK $(md5sum | cut -d" " -f1)"'
expect_text stdinempty out "R=0 $empty"

# Rank 0 exits after three lines while zmpirun still has endless input: the job ends at
# once (the rest of the input is unwanted), no hang.
started=$(now_ms)
yes | timeout 60 "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 2 --hostfile "$WORK/hosts" \
  sh -c 'if [ "$ZMPI_RANK" = 0 ]; then head -n 3; fi' >"$WORK/stdinearly.out" 2>"$WORK/stdinearly.err"
RC=${PIPESTATUS[1]}
elapsed=$(($(now_ms) - started))
expect_rc stdinearly 0
expect_lines stdinearly out "y" 3
if ((elapsed < 10000)); then pass "stdinearly: ended after $elapsed ms"; else fail "stdinearly: took $elapsed ms"; fi
# The same with a rank 0 that closes its stdin and goes on working: the agent's write
# fails (EPIPE), zmpirun stops reading, the job ends when the ranks do.
yes | timeout 60 "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 2 --hostfile "$WORK/hosts" \
  sh -c 'if [ "$ZMPI_RANK" = 0 ]; then head -c 100000 >/dev/null; exec 0<&-; seq 1 20000 | tail -n 1; fi' \
  >"$WORK/stdinclosed.out" 2>"$WORK/stdinclosed.err"
RC=${PIPESTATUS[1]}
expect_rc stdinclosed 0
expect_lines stdinclosed out "20000" 1
expect_no_leftovers stdinclosed

# A rank 0 that never reads while endless input waits: zmpirun and the agent hold at most
# the input window (1 MiB) of it, not whatever 'yes' can write.
rss_of() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
yes | "$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" hang \
  >"$WORK/stdinunread.out" 2>"$WORK/stdinunread.err" &
job=$!
if wait_for stdinunread out ready 4; then
  agent_rss=$(rss_of "${AGENT_PID[a]}") launcher_rss=$(rss_of "$job") agent_max=0 launcher_max=0
  for _ in $(seq 1 20); do # 1 s of endless input on offer
    ar=$(rss_of "${AGENT_PID[a]}") lr=$(rss_of "$job")
    ((ar > agent_max)) && agent_max=$ar
    ((lr > launcher_max)) && launcher_max=$lr
    nap 0.05
  done
  if ((agent_max - agent_rss < 8192 && launcher_max - launcher_rss < 8192)); then
    pass "stdinunread: memory bounded (agent ${agent_rss} -> ${agent_max} kB, zmpirun ${launcher_rss} -> ${launcher_max} kB)"
  else
    fail "stdinunread: memory grew (agent ${agent_rss} -> ${agent_max} kB, zmpirun ${launcher_rss} -> ${launcher_max} kB)"
  fi
else
  fail "stdinunread: ranks not ready"
  show stdinunread
fi
kill -TERM "$job"
wait "$job"
RC=$?
expect_rc stdinunread 143
expect_no_leftovers stdinunread

# A real MPI program: tcp between the two hosts, the same-host path within each.
if [[ -n "${MPI_PROGRAM:-}" ]]; then
  ZMPI_LOG_LEVEL=debug run_job mpi -np 4 --hostfile "$WORK/hosts" "$MPI_PROGRAM"
  expect_rc mpi 0
  expect_text mpi err "path to rank 2 on host 127.0.0.3: tcp"
  if grep -qE "path to rank 1 on host 127.0.0.2: (shm|ipc)" "$WORK/mpi.err"; then
    pass "mpi: ranks on one host use the same-host path"
  else
    fail "mpi: no same-host path between ranks 0 and 1"
    show mpi
  fi
  expect_no_leftovers mpi
fi

# A rank dying on a remote host ends the job, naming rank and host.
run_job crash -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" crash 3
expect_rc crash 137
expect_text crash err "process rank 3 with PID"
expect_text crash err "on node 127.0.0.3 exited on signal 9 (Killed)."
expect_no_leftovers crash

# Agents that do not share zmpirun's secret, or have none, refuse; nothing runs.
WRONG="$WORK/wrong"
head -c 32 /dev/urandom | base64 >"$WRONG"
chmod 600 "$WRONG"
stop_agents
unset 'AGENT_PID[a]' 'AGENT_PID[b]'
start_agent wrong 127.0.0.2 --secret-file "$WRONG" || finish
start_agent none 127.0.0.3 || finish
hostfile "$WORK/wrong-hosts" wrong
run_job wrong -np 2 --hostfile "$WORK/wrong-hosts" "$FAKE_RANK" ok
expect_nonzero wrong
expect_text wrong err "zmpid on host '127.0.0.2' (127.0.0.2:${AGENT_PORT[wrong]}) refused the job"
expect_text wrong err "signature does not verify"
expect_no_leftovers wrong
hostfile "$WORK/none-hosts" none
run_job nosecret -np 2 --hostfile "$WORK/none-hosts" "$FAKE_RANK" ok
expect_nonzero nosecret
expect_text nosecret err "has no secret configured"
if grep -qF "$(cat "$SECRET")" "$WORK"/agent-*.err "$WORK"/*.err 2>/dev/null; then fail "a secret was logged"; fi

# zmpirun without a secret does not even try.
ZMPI_SECRET_FILE= run_job nolocalsecret -np 2 --hostfile "$WORK/wrong-hosts" "$FAKE_RANK" ok
expect_rc nolocalsecret 1
expect_text nolocalsecret err "Set ZMPI_SECRET_FILE"

# Nothing listening at the port: a bounded failure naming host, address and port.
stop_agents
unset 'AGENT_PID[wrong]' 'AGENT_PID[none]'
started=$(now_ms)
ZMPI_AGENT_TIMEOUT_MS=1000 run_job refused -np 2 --hostfile "$WORK/wrong-hosts" "$FAKE_RANK" ok
elapsed=$(($(now_ms) - started))
expect_nonzero refused
expect_text refused err "cannot connect to zmpid on host '127.0.0.2' (127.0.0.2:${AGENT_PORT[wrong]}): connection refused"
if ((elapsed < 4000 * SLACK)); then pass "refused: failed after $elapsed ms"; else fail "refused: took $elapsed ms"; fi

# An agent killed mid-job: the job ends at once with a message naming host and ranks,
# and the ranks on the other host are ended.
start_agent a 127.0.0.2 --secret-file "$SECRET" || finish
start_agent b 127.0.0.3 --secret-file "$SECRET" || finish
hostfile "$WORK/hosts" a b
"$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" hang \
  >"$WORK/agentkill.out" 2>"$WORK/agentkill.err" </dev/null &
job=$!
wait_for agentkill out ready 4 5
started=$(now_ms)
kill -9 "${AGENT_PID[b]}"
wait "${AGENT_PID[b]}" 2>/dev/null
wait "$job"
RC=$?
elapsed=$(($(now_ms) - started))
unset 'AGENT_PID[b]'
expect_rc agentkill 1
expect_text agentkill err "zmpirun lost contact with zmpid on host '127.0.0.3' (127.0.0.3:${AGENT_PORT[b]})"
expect_text agentkill err "Process ranks 2, 3 on node 127.0.0.3 are presumed dead"
if ((elapsed < 2000)); then pass "agentkill: job ended $elapsed ms after the agent died"; else
  fail "agentkill: job took $elapsed ms"; fi
expect_no_leftovers agentkill

# zmpirun killed: the agents stop hearing its heartbeats and end the ranks themselves
# within the heartbeat timeout (3 s) plus the kill grace (0.5 s).
start_agent b 127.0.0.3 --secret-file "$SECRET" || finish
hostfile "$WORK/hosts" a b
"$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" hang \
  >"$WORK/launcherkill.out" 2>"$WORK/launcherkill.err" </dev/null &
job=$!
wait_for launcherkill out ready 4 5
running=$(leftovers | wc -l)
if ((running == 4)); then pass "launcherkill: 4 ranks running"; else
  fail "launcherkill: $running ranks running before zmpirun is killed, expected 4"
  show launcherkill
fi
started=$(now_ms)
kill -9 "$job"
wait "$job" 2>/dev/null
while [[ -n $(leftovers) ]] && (($(now_ms) - started < 8000)); do nap 0.02; done
elapsed=$(($(now_ms) - started))
if [[ -z $(leftovers) ]] && ((elapsed < 4500)); then pass "launcherkill: ranks ended $elapsed ms after zmpirun died"; else
  fail "launcherkill: ranks still there after $elapsed ms"
  cat "$WORK"/agent-[ab].err >&2
fi
expect_no_leftovers launcherkill

# zmpirun killed while remote MPI ranks hold a shared window (named in /dev/shm): their
# agents end them and remove the job's objects (zmpirun, dead, cannot).
if [[ -n ${FAULT_RANK:-} ]]; then
  start_job shmkill -np 4 --hostfile "$WORK/hosts" "$FAULT_RANK" shm
  if wait_for shmkill out '^ready ' 4; then
    mapfile -t objects < <(mapped_objects $(awk '$1 == "ready" { print $3 }' "$WORK/shmkill.out"))
    if ((${#objects[@]} > 0)); then pass "shmkill: the job has ${#objects[@]} object(s) in /dev/shm"; else
      fail "shmkill: the job has no shared-memory object (test precondition)"; fi
    started=$(now_ms)
    kill -9 "$JOB_PID"
    wait "$JOB_PID" 2>/dev/null
    left() { for object in "${objects[@]}"; do [[ -e $object ]] && echo "$object"; done; }
    while [[ -n $(leftovers)$(left) ]] && (($(now_ms) - started < 8000)); do nap 0.02; done
    elapsed=$(($(now_ms) - started))
    if [[ -z $(left) ]]; then pass "shmkill: objects removed $elapsed ms after zmpirun died"; else
      fail "shmkill: $(left) still in /dev/shm $elapsed ms after zmpirun died"; fi
    expect_no_leftovers shmkill
  else
    abandon_job shmkill
  fi
fi

# SIGTERM to zmpirun ends remote ranks too, even ones that ignore SIGTERM (SIGKILL after
# the kill grace, sent through their agents).
"$ZMPIRUN" -x "ZMPI_TEST_MARKER=$MARKER" -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" hang stubborn \
  >"$WORK/term.out" 2>"$WORK/term.err" </dev/null &
job=$!
wait_for term out ready 4 5
kill -TERM "$job"
wait "$job"
RC=$?
expect_rc term 143
expect_text term err "zmpirun received signal 15 (Terminated)"
expect_no_leftovers term

# Garbage on an agent's port, and hostile messages past zmq's handshake (a terabyte frame,
# truncated and lying headers, other versions and kinds, unsigned and badly signed
# launches): rejected, logged, nothing run, memory bounded; the agent keeps serving.
rss() { awk '/VmRSS/ {print $2}' "/proc/${AGENT_PID[a]}/status"; }
rss_before=$(rss)
{ head -c 4096 /dev/urandom >"/dev/tcp/127.0.0.2/${AGENT_PORT[a]}"; } 2>/dev/null
printf 'GET / HTTP/1.0\r\n\r\n' 2>/dev/null >"/dev/tcp/127.0.0.2/${AGENT_PORT[a]}"
if command -v python3 >/dev/null; then
  python3 "$(dirname "$0")/agent_hostile.py" 127.0.0.2 "${AGENT_PORT[a]}" >"$WORK/hostile.out" 2>"$WORK/hostile.err"
  expect_lines hostile out "sent:" 9
fi
run_job aftergarbage -np 4 --hostfile "$WORK/hosts" "$FAKE_RANK" ok
expect_rc aftergarbage 0
if kill -0 "${AGENT_PID[a]}" 2>/dev/null; then pass "agent survived garbage"; else fail "agent died of garbage"; fi
rss_after=$(rss)
if ((rss_after - rss_before < 65536)); then pass "agent memory: ${rss_before} -> ${rss_after} kB"; else
  fail "agent memory grew from ${rss_before} to ${rss_after} kB"; fi
expect_text agent-a err "rejected"

# zmpid refuses a secret file others can read, and an address that is not this machine's.
chmod 640 "$WRONG"
if "$ZMPID" --bind 127.0.0.2:0 --secret-file "$WRONG" >/dev/null 2>"$WORK/perm.err"; then
  fail "zmpid started with a group-readable secret"
else
  expect_text perm err "accessible by group or others (mode 0640)"
fi
if "$ZMPID" --bind 192.0.2.77:0 --secret-file "$SECRET" >/dev/null 2>"$WORK/bind.err"; then
  fail "zmpid bound an address of no interface"
else
  expect_text bind err "192.0.2.77"
fi
finish
