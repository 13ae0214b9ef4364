#!/usr/bin/env bash
# docker/docker-compose.yml is valid (docker-compose config needs no engine), and it,
# docker/README.md, the namespace test and zmpid's default agree on commands and port.
set -u
: "${SOURCE_DIR:?}"
command -v docker-compose >/dev/null || {
  echo "SKIP: docker-compose is not installed (scripts/setup-deps.sh installs it)"
  exit 77
}
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }
# has FILE TEXT WHAT: the fixed string TEXT is in FILE.
has() {
  if grep -qF -- "$2" "$1"; then pass "$3"; else fail "$3: '$2' not in $1"; fi
}

config=$(mktemp)
trap 'rm -f "$config"' EXIT
if (cd "$SOURCE_DIR/docker" && docker-compose -f docker-compose.yml config >"$config" 2>"$config.err"); then
  pass "docker-compose config accepts docker/docker-compose.yml"
else
  fail "docker-compose config: $(cat "$config.err")"
fi
rm -f "$config.err"

port=$(sed -n 's/.*kDefaultAgentPort = \([0-9]*\);.*/\1/p' "$SOURCE_DIR/runtime/common/agent_codec.h")
[[ $port == 7117 ]] && pass "zmpid's default port is 7117" || fail "zmpid's default port is '$port', docs say 7117"
compose="$SOURCE_DIR/docker/docker-compose.yml"
readme="$SOURCE_DIR/docker/README.md"
netns="$SOURCE_DIR/tests/multihost/netns.sh"
for n in 1 2 3; do
  has "$config" "- node$n:$port" "compose: node$n's agent binds node$n:$port"
  has "$compose" "\"zmpid\", \"--bind\", \"node$n:$port\", \"--secret-file\", \"/run/secrets/zmpi_secret\"" \
    "compose: node$n runs zmpid with the secret file"
done
has "$readme" "zmpid --bind nodeN:$port --secret-file /run/secrets/zmpi_secret" "README: the agents' command"
job="zmpirun -H node1:2,node2:2,node3:2 -np 6 /opt/zmpi/examples/heat2d"
has "$readme" "$job" "README: the launcher's command"
has "$compose" "\"zmpirun\", \"-H\", \"node1:2,node2:2,node3:2\", \"-np\", \"6\", \"/opt/zmpi/examples/heat2d\"" \
  "compose: the launcher's command"
has "$compose" "ZMPI_SECRET_FILE: /run/secrets/zmpi_secret" "compose: zmpirun reads the secret file"
has "$netns" "PORT=$port" "netns test: agents on port $port"
has "$netns" '"$ZMPID" --bind "$node:$port" --secret-file "$secret"' "netns test: the agents' command"
has "$SOURCE_DIR/scripts/netns/hosts.sh" "10.77.0.11..13" "netns hosts: node1..3"

if ((failures > 0)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all checks passed"
