#!/usr/bin/env bash
# A live 3-rank job, attacked through its rank endpoints (tcp and ipc) and its rendezvous
# by hostile_peer, a process that knows the addresses (and, here, even the job id) but is
# not part of the job. Every bad message must be rejected and logged, the job must finish
# correctly, and no rank's resident memory may grow by more than LIMIT_KIB.
#   launched       zmpirun (a job secret: authenticated links, PLAIN with the job's token):
#                  no stranger's byte gets past zmq's handshake, each refused connection is
#                  logged, a forged but well-formed message of the right job is never
#                  matched;
#   launched-encrypt  the same with zmpirun --encrypt (CURVE);
#   byhand-secret  the same, started by hand with ZMPI_JOB_SECRET_FILE (mode 0600);
#   byhand         by hand without a secret (unauthenticated): every malformed message and
#                  every message of another job is rejected by the decoders and logged.
#   hostile_rank.sh launched|launched-encrypt|byhand|byhand-secret   (env: ZMPIRUN, TARGET, HOSTILE_PEER)
set -u
mode=$1
rounds=${ROUNDS:-2000}
limit_kib=${LIMIT_KIB:-16384}
tmp=$(mktemp -d /tmp/hostile-rank.XXXXXX)  # not zmpi-*: the soak test counts those as leftovers
out=$tmp/out
err=$tmp/err
go=$tmp/go
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "hostile_rank ($mode): FAIL: $*"
  echo "--- stdout"; cat "$out"; echo "--- stderr (last 40 lines)"; tail -40 "$err"
  exit 1
}
# Waiting on other processes' output: a bounded poll, never a fixed sleep.
wait_until() {
  local what=$1 seconds=$2; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    ((SECONDS < deadline)) || fail "$what not within $seconds s"
    sleep 0.05
  done
}

export ZMPI_LOG_LEVEL=debug
if [[ $mode == launched* ]]; then
  encrypt=()
  [[ $mode == launched-encrypt ]] && encrypt=(--encrypt)
  "$ZMPIRUN" -np 3 --timeout 150 "${encrypt[@]}" "$TARGET" "$go" "$limit_kib" >"$out" 2>"$err" &
  pids+=($!)
else
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  if [[ $mode == byhand-secret ]]; then
    (umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$tmp/secret")
    export ZMPI_JOB_SECRET_FILE=$tmp/secret
  fi
  for r in 0 1 2; do
    ZMPI_SIZE=3 ZMPI_RANK=$r ZMPI_RENDEZVOUS="tcp://127.0.0.1:$port" ZMPI_JOB_ID="hostile-$$-$port" \
      timeout -k 5 120 "$TARGET" "$go" "$limit_kib" >>"$out" 2>>"$err" &
    pids+=($!)
  done
fi
listening() { (($(grep -c 'listens on' "$err") >= 3)) && grep -q 'hostile_target: job' "$out"; }
wait_until "three ranks listening" 60 listening

read -r job rendezvous < <(sed -n 's/^hostile_target: job \([^ ]*\) rendezvous \(.*\)$/\1 \2/p' "$out" | head -1)
mapfile -t endpoints < <(grep 'listens on' "$err" | grep -o '\(tcp\|ipc\)://[^ ]*' | sort -u)
((${#endpoints[@]} >= 3)) || fail "expected rank endpoints, found: ${endpoints[*]}"
echo "hostile_rank ($mode): job $job, rendezvous $rendezvous, ${#endpoints[@]} rank endpoint(s)"

authenticated=0
[[ $mode != byhand ]] && authenticated=1
links='authenticated (PLAIN'
[[ $mode == launched-encrypt ]] && links='encrypted (CURVE)'
if ((authenticated)); then
  (($(grep -cF "links between the ranks of job $job: $links" "$err") == 3)) || fail "not every rank's links are $links"
fi
FORGE=$authenticated "$HOSTILE_PEER" "$job" "$rounds" "$rendezvous" "${endpoints[@]}" || fail "hostile_peer failed"

if ((authenticated)); then
  # Nothing reaches the decoders; every rank endpoint logs the connections it refused.
  refused() {
    local endpoint
    for endpoint in "${endpoints[@]}"; do
      grep -qF "refused a connection on $endpoint " "$err" || return 1
    done
  }
  wait_until "a refused connection logged on every rank endpoint" 60 refused
  # And the rendezvous (zmpirun's, or rank 0's when started by hand) logs its own.
  rendezvous_refused() { grep -qF "rendezvous: refused a connection on $rendezvous " "$err"; }
  wait_until "a refused connection logged by the rendezvous" 60 rendezvous_refused
else
  # Each endpoint's sentinel comes last on its connection: once every one is logged, every
  # message before it was handled.
  sentinels() { (($(grep -c 'sender -7 ' "$err") >= ${#endpoints[@]})) && grep -q 'participant index 999' "$err"; }
  wait_until "every sentinel rejected" 60 sentinels
fi
touch "$go"

status=0
for pid in "${pids[@]}"; do
  wait "$pid"; rc=$?
  if ((rc != 0 && status == 0)); then status=$rc; fi
done
pids=()
((status == 0)) || fail "the job exited with $status"
grep -q 'hostile_target: ok' "$out" || fail "the job did not report ok"
grep 'resident memory' "$out"
if ((authenticated)); then
  ! grep -q 'rejected a message' "$err" || fail "a stranger's message got past the handshake"
  echo "hostile_rank ($mode): $(grep -c 'refused a connection' "$err") refused connection(s) logged; nothing got through; job ok"
  exit 0
fi
for reason in 'header frame has 40 bytes' 'missing payload frame' 'exceeds the limit' 'protocol version 99' \
  'bad magic' 'message for another job' 'unexpected extra frames' 'header frame has 100 bytes'; do
  grep -q "rejected a message.*$reason" "$err" || fail "no rejection logged for: $reason"
done
grep -q 'rendezvous: rejected a message.*message for another job' "$err" || fail "the rendezvous logged no rejection"
echo "hostile_rank ($mode): $(grep -c 'rejected a message' "$err") message(s) rejected and logged; job ok"
