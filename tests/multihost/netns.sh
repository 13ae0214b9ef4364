#!/usr/bin/env bash
# zmpi across three hosts, for real addresses and real failures, without containers: the
# hosts are network namespaces (scripts/netns/hosts.sh: node1..3 at 10.77.0.11..13, a
# launcher at 10.77.0.10, one bridge), each node runs `zmpid --bind nodeN:7117
# --secret-file S` as docker/docker-compose.yml does, and zmpirun runs in the launcher's
# namespace. Checked:
#   - p2p, collective and one-sided test programs, a communicator split by host, examples/heat2d,
#     and a program built by Open MPI's mpicc; tcp between hosts, the same-host path within
#   - an agent killed mid-job: the job ends at once, naming the host; nothing is left
#   - a host cut off mid-job: the job ends within the heartbeat timeout (3 s) + 1 s, and
#     that host's agent ends its ranks within another 0.5 s (kill grace)
#   - an agent with another secret refuses; an address where nobody listens fails in time
# Everything is torn down on exit, whatever failed. Skips (exit 77) without root or ip.
set -u
skip() {
  echo "SKIP: $*"
  exit 77
}
[[ $(id -u) -eq 0 ]] || skip "network namespaces need root"
command -v ip >/dev/null || skip "iproute2's ip is not installed"
: "${BUILD_DIR:?}" "${SOURCE_DIR:?}" "${ZMPIRUN:?}" "${ZMPID:?}" "${FAKE_RANK:?}"
HOSTS="$SOURCE_DIR/scripts/netns/hosts.sh"
# One run per machine at a time: namespaces, bridge and addresses are machine-wide, and
# several build trees (build, build-asan, ...) may run their tests at once. ctest's
# RUN_SERIAL covers one ctest process only.
exec 9>/tmp/zmpi-netns.lock  # held until this script exits; its children do not inherit it
if ! flock -w 240 9; then
  echo "FAIL: another multi-host namespace test held /tmp/zmpi-netns.lock for 240 s" >&2
  exit 1
fi
PROGRAMS="$BUILD_DIR/tests/bin"
PORT=7117
JOB_TIMEOUT=${ZMPI_NETNS_JOB_TIMEOUT:-60}
# Slack on the measured bounds (ms): sanitized builds start and stop processes slower.
SLACK=1000
[[ -n ${ZMPI_SANITIZE:-} ]] && SLACK=4000
WORK=$(mktemp -d)
MARKER="zmpi-netns-$$-$RANDOM$RANDOM"
failures=0
RC=0
declare -A AGENT_PID

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }
now_ms() { date +%s%3N; }

cleanup() {
  local name
  for name in "${!AGENT_PID[@]}"; do kill "${AGENT_PID[$name]}" 2>/dev/null; done
  for name in "${!AGENT_PID[@]}"; do wait "${AGENT_PID[$name]}" 2>/dev/null; done
  local left
  left=$(leftovers)
  [[ -n $left ]] && kill -9 $left 2>/dev/null
  "$HOSTS" down || echo "netns.sh: teardown incomplete" >&2
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Processes of this test's jobs, in any namespace (they share the pid namespace).
leftovers() {
  grep -lzxF "ZMPI_TEST_MARKER=$MARKER" /proc/[0-9]*/environ 2>/dev/null | sed 's|/proc/\([0-9]*\)/environ|\1|'
}
# expect_no_leftovers NAME [BOUND_MS]: bounded wait for the job's processes to be gone.
expect_no_leftovers() {
  local name=$1 bound=${2:-2000} started left
  started=$(now_ms)
  while left=$(leftovers) && [[ -n $left ]] && (($(now_ms) - started < bound)); do sleep 0.02; done
  if [[ -z $left ]]; then pass "$name: no process left on any host"; else
    fail "$name: processes left: $left"
    kill -9 $left 2>/dev/null
  fi
}

# start_agent NODE [SECRET [PORT]]: zmpid in the node's namespace, as compose runs it.
start_agent() {
  local node=$1 secret=${2:-$WORK/secret} port=${3:-$PORT} tries=0 key="$1:${3:-$PORT}"
  rm -f "$WORK/agent-$key.out" "$WORK/agent-$key.err"  # not its predecessor's "listening"
  "$HOSTS" exec "$node" env -u ZMPI_SECRET_FILE -u ZMPI_SECRET ZMPI_LOG_LEVEL=info \
    "$ZMPID" --bind "$node:$port" --secret-file "$secret" >"$WORK/agent-$key.out" 2>"$WORK/agent-$key.err" 9>&- &
  AGENT_PID[$key]=$!
  while ! grep -q "listening on" "$WORK/agent-$key.out" 2>/dev/null; do
    if ((tries++ > 250)) || ! kill -0 "${AGENT_PID[$key]}" 2>/dev/null; then
      fail "zmpid on $node:$port did not start: $(cat "$WORK/agent-$key.err")"
      return 1
    fi
    sleep 0.02
  done
}
stop_agent() {
  local key=$1
  kill "${AGENT_PID[$key]}" 2>/dev/null
  wait "${AGENT_PID[$key]}" 2>/dev/null
  unset "AGENT_PID[$key]"
}

# zrun NAME zmpirun-args...: zmpirun in the launcher's namespace; output in WORK/NAME.*.
zrun() {
  local name=$1
  shift
  # A hung job fails its own step (status 124) rather than the whole test.
  "$HOSTS" exec launcher env ZMPI_SECRET_FILE="$WORK/secret" "$ZMPIRUN" --timeout "$JOB_TIMEOUT" \
    -x "ZMPI_TEST_MARKER=$MARKER" "$@" \
    >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null 9>&-
  RC=$?
  return $RC
}
show() {
  echo "--- $1 stdout:" >&2
  tail -c 1500 "$WORK/$1.out" >&2
  echo "--- $1 stderr:" >&2
  tail -c 3000 "$WORK/$1.err" >&2
}
expect_ok() {
  if [[ $RC -eq 0 ]]; then pass "$1 exits 0"; else
    fail "$1 exits $RC"
    show "$1"
  fi
}
expect_text() {
  if grep -qE -- "$3" "$WORK/$1.$2"; then pass "$1 $2 matches '$3'"; else
    fail "$1 $2 lacks '$3'"
    show "$1"
  fi
}
# The largest rank count a test program lists (// zmpi-test-ranks: ...) up to 6.
ranks_for() {
  local list
  list=$(grep -o 'zmpi-test-ranks:[0-9 ]*' "$SOURCE_DIR/tests/mpi/programs/$1.c" | cut -d: -f2)
  local best=2 n
  for n in $list; do ((n <= 6 && n > best)) && best=$n; done
  echo "$best"
}

started_all=$(now_ms)
"$HOSTS" up || {
  fail "could not create the namespaces"
  exit 1
}
head -c 32 /dev/urandom | base64 >"$WORK/secret"
chmod 600 "$WORK/secret"
for node in node1 node2 node3; do start_agent "$node" || exit 1; done
# Two layouts of two slots per host: ranks dealt one per host in turn (--map-by node:
# neighbours on different hosts), and two consecutive ranks per host.
printf 'node1 slots=2\nnode2 slots=2\nnode3 slots=2\n' >"$WORK/packed"
SPREAD=(--hostfile "$WORK/packed" --map-by node)

# Transport per pair, from the ranks' own debug log: tcp across hosts, same-host within.
ZMPI_LOG_LEVEL=debug zrun paths -np 6 --hostfile "$WORK/packed" "$PROGRAMS/prog_p2p_ring"
expect_ok paths
expect_text paths err "path to rank 2 on host node2: tcp"
expect_text paths err "path to rank 5 on host node3: tcp"
expect_text paths err "path to rank 1 on host node1: (shm|ipc)"

# Point to point, every collective and every one-sided test program (windows spanning
# hosts: locks and operations as messages, mpi/rma/README.md).
for program in "$PROGRAMS"/prog_p2p_* "$PROGRAMS"/prog_coll_* "$PROGRAMS"/prog_rma_*; do
  name=$(basename "$program")
  name=${name#prog_}
  [[ $name == p2p_flood_memory ]] && continue  # a single-host memory bound, 2 ranks
  np=$(ranks_for "$name")
  zrun "$name" -np "$np" "${SPREAD[@]}" "$program"
  expect_ok "$name (np $np)"
done

# The bulk data connections between hosts (on by default): each rank listens on its host's
# address, and the rendezvous traffic of p2p_bulk (Rts and payloads, eager messages between
# them) crosses connections made to ranks on the other hosts; the ranks' debug log says so.
# ZMPI_TCP_BULK in zmpirun's environment reaches every rank (remote ones through their
# agent): with 0 none makes a connection, and the same program passes over zmq alone.
ZMPI_TCP_BULK=0 ZMPI_LOG_LEVEL=debug zrun nobulk -np 3 "${SPREAD[@]}" "$PROGRAMS/prog_p2p_bulk"
expect_ok nobulk
expect_text nobulk err "path to rank 2 on host node3: tcp"  # the remote ranks' debug log is here
if grep -q "bulk data connection to rank" "$WORK/nobulk.err"; then
  fail "nobulk: a rank made a bulk data connection with ZMPI_TCP_BULK=0"
  show nobulk
else
  pass "nobulk: ZMPI_TCP_BULK=0 reached every rank (no bulk data connection)"
fi
ZMPI_LOG_LEVEL=debug zrun bulk -np 3 "${SPREAD[@]}" "$PROGRAMS/prog_p2p_bulk"
expect_ok bulk
expect_text bulk err "bulk data connection to rank 1 at ${ZMPI_NETNS_SUBNET:-10.77.0}\.12:"
expect_text bulk err "bulk data connection to rank 0 at ${ZMPI_NETNS_SUBNET:-10.77.0}\.11:"
expect_text bulk err "bulk data connection to rank 2 at ${ZMPI_NETNS_SUBNET:-10.77.0}\.13:"
expect_text bulk err "[1-9][0-9]* bulk frames sent"

# A communicator split by host: ranks dealt in turn, so each host's ranks are not adjacent.
zrun split -np 6 "${SPREAD[@]}" "$PROGRAMS/multihost_split_by_host"
expect_ok split
expect_text split out "rank 0 on node1: node rank 0 of 2, 3 hosts"
expect_text split out "rank 4 on node2: node rank 1 of 2, 3 hosts"
zrun splitpacked -np 6 --hostfile "$WORK/packed" "$PROGRAMS/multihost_split_by_host"
expect_ok splitpacked
expect_text splitpacked out "rank 5 on node3: node rank 1 of 2, 3 hosts"

# The heat stencil example on a 3 x 2 grid of ranks.
zrun heat2d -np 6 --hostfile "$WORK/packed" "$BUILD_DIR/bin/heat2d"
expect_ok heat2d
expect_text heat2d out "converged after|stopped after"

# A binary built by Open MPI's mpicc runs on zmpi on every host.
if command -v mpicc.openmpi >/dev/null; then
  if mpicc.openmpi -o "$WORK/ring_ompi" "$SOURCE_DIR/examples/ring.c" 2>"$WORK/mpicc.err"; then
    zrun ompi -np 6 "${SPREAD[@]}" "$WORK/ring_ompi"
    expect_ok ompi
    expect_text ompi out "Rank 5 done"
  else
    fail "mpicc.openmpi failed: $(cat "$WORK/mpicc.err")"
  fi
else
  fail "mpicc.openmpi is not installed (scripts/setup-deps.sh installs it)"
fi
expect_no_leftovers "programs"

# run_blocked NAME: a job whose six ranks all wait in MPI_Recv; returns once all said ready.
run_blocked() {
  local name=$1 tries=0
  zrun "$name" -np 6 "${SPREAD[@]}" "$PROGRAMS/multihost_block_forever" &
  JOB=$!
  while (($(cat "$WORK/$name.out" 2>/dev/null | grep -c ready) < 6)); do
    if ((tries++ > 500)) || ! kill -0 "$JOB" 2>/dev/null; then
      fail "$name: ranks never got ready"
      show "$name"
      return 1
    fi
    sleep 0.02
  done
}

# An agent killed mid-job: its ranks die with it; the job ends at once, naming the host.
if run_blocked agentkill; then
  t0=$(now_ms)
  kill -9 "${AGENT_PID[node3:$PORT]}"
  wait "${AGENT_PID[node3:$PORT]}" 2>/dev/null
  unset "AGENT_PID[node3:$PORT]"
  wait "$JOB"
  RC=$?
  elapsed=$(($(now_ms) - t0))
  if ((RC != 0)); then pass "agentkill exits $RC"; else fail "agentkill exits 0"; fi
  expect_text agentkill err "lost contact with zmpid on host 'node3' \(10.77.0.13:$PORT\)"
  if ((elapsed < 1000 + SLACK)); then pass "agentkill: job ended $elapsed ms after the agent died"; else
    fail "agentkill: job ended after $elapsed ms"; fi
  expect_no_leftovers agentkill
fi
start_agent node3 || exit 1

# A host cut off mid-job: zmpirun hears nothing from its agent for the heartbeat timeout
# and ends the job; the agent, hearing nothing from zmpirun, ends its own ranks.
if run_blocked cut; then
  t0=$(now_ms)
  "$HOSTS" cut node2
  wait "$JOB"
  RC=$?
  elapsed=$(($(now_ms) - t0))
  if ((RC != 0)); then pass "cut exits $RC"; else fail "cut exits 0"; fi
  expect_text cut err "zmpid on host 'node2' \(10.77.0.12:$PORT\): nothing came from it for 3000 ms"
  if ((elapsed >= 2500 && elapsed < 3000 + SLACK)); then pass "cut: job ended $elapsed ms after the link went down"; else
    fail "cut: job ended after $elapsed ms (bound: 3000 ms heartbeat timeout + $SLACK ms)"; fi
  expect_no_leftovers cut $((2000 + SLACK))
  "$HOSTS" heal node2
fi

# An agent with another secret refuses; the ranks already started elsewhere are ended.
head -c 32 /dev/urandom | base64 >"$WORK/other-secret"
chmod 600 "$WORK/other-secret"
start_agent node2 "$WORK/other-secret" 7118 || exit 1
printf 'node1 slots=2\nnode2 slots=2 agent_port=7118\n' >"$WORK/wrong"
zrun wrong -np 4 --hostfile "$WORK/wrong" "$PROGRAMS/prog_p2p_ring"
if ((RC != 0)); then pass "wrong secret: exits $RC"; else fail "wrong secret: exits 0"; fi
expect_text wrong err "zmpid on host 'node2' \(10.77.0.12:7118\) refused the job: .*signature does not verify"
expect_no_leftovers wrong

# Nobody at that address (inside the test subnet): a bounded failure naming it.
printf 'node1 slots=2\n10.77.0.99 slots=2\n' >"$WORK/absent"
t0=$(now_ms)
ZMPI_AGENT_TIMEOUT_MS=1500 zrun absent -np 4 --hostfile "$WORK/absent" "$PROGRAMS/prog_p2p_ring"
elapsed=$(($(now_ms) - t0))
if ((RC != 0 && elapsed < 1500 + 1000 + SLACK)); then pass "absent: failed after $elapsed ms"; else
  fail "absent: exit $RC after $elapsed ms"; fi
expect_text absent err "no answer from zmpid on host '10.77.0.99' \(10.77.0.99:$PORT\) within"
expect_no_leftovers absent

echo "netns test took $(($(now_ms) - started_all)) ms"
if ((failures > 0)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all checks passed"
