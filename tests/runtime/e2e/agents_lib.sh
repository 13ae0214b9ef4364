# zmpid agents on this machine for the end-to-end tests (agents.sh, output_paused.sh):
# source after lib.sh. Needs ZMPID; sets ZMPI_SECRET_FILE for zmpirun.
: "${ZMPID:?ZMPID must point at zmpid}"
trap 'stop_agents; rm -rf "$WORK"' EXIT

SECRET="$WORK/secret"
head -c 32 /dev/urandom | base64 >"$SECRET"
chmod 600 "$SECRET"
export ZMPI_SECRET_FILE="$SECRET"
declare -A AGENT_PID AGENT_PORT

# start_agent NAME ADDRESS [zmpid options...]: port 0 (any free one), read back from the
# agent's "listening on" line (bounded wait).
start_agent() {
  local name=$1 address=$2 tries=0
  shift 2
  # A restarted agent must not be read from its predecessor's files.
  rm -f "$WORK/agent-$name.out" "$WORK/agent-$name.err"
  # Only what the options say: the secret zmpirun uses (in this script's environment) is
  # not the agent's unless passed explicitly.
  env -u ZMPI_SECRET_FILE -u ZMPI_SECRET ZMPI_LOG_LEVEL=info "$ZMPID" --bind "$address:0" "$@" \
    >"$WORK/agent-$name.out" 2>"$WORK/agent-$name.err" &
  AGENT_PID[$name]=$!
  while ! grep -q "listening on" "$WORK/agent-$name.out" 2>/dev/null; do
    if ((tries++ > 200)) || ! kill -0 "${AGENT_PID[$name]}" 2>/dev/null; then
      fail "agent $name did not start"
      cat "$WORK/agent-$name.err" >&2
      return 1
    fi
    nap 0.02
  done
  AGENT_PORT[$name]=$(sed -n 's/.*tcp:\/\/[0-9.]*:\([0-9]*\).*/\1/p' "$WORK/agent-$name.out")
}
stop_agents() {
  local name
  for name in "${!AGENT_PID[@]}"; do kill "${AGENT_PID[$name]}" 2>/dev/null; done
  for name in "${!AGENT_PID[@]}"; do wait "${AGENT_PID[$name]}" 2>/dev/null; done
}
# hostfile FILE NAME...: the named agents (addresses from ADDRESS), two slots each, at their ports.
hostfile() {
  local file=$1 name
  shift
  : >"$file"
  for name in "$@"; do echo "${ADDRESS[$name]} slots=2 agent_port=${AGENT_PORT[$name]}" >>"$file"; done
}
