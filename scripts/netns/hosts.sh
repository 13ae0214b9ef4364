#!/usr/bin/env bash
# "Hosts" made of Linux network namespaces, for zmpi's multi-host test
# (tests/multihost/netns.sh), the benchmark between hosts (bench/run_hosts.py) and for
# trying multi-host jobs by hand without containers. rsh.sh beside it stands in for ssh
# when Open MPI's or MPICH's launcher starts ranks on these hosts.
# The layout mirrors docker/docker-compose.yml: a launcher and three nodes on one private
# network, each node running a zmpid on port 7117.
#
#   hosts.sh up             bridge zmpibr0 (no address: the root namespace takes no part),
#                           namespaces zmpi-launcher (10.77.0.10) and zmpi-node1..3
#                           (10.77.0.11..13), each joined to the bridge by a veth pair, with
#                           /etc/netns/<ns>/hosts naming launcher and node1..3
#   hosts.sh down           removes all of that (also whatever a failed run left behind)
#   hosts.sh cut NAME       takes NAME's link down (the host drops off the network)
#   hosts.sh heal NAME      and up again
#   hosts.sh exec NAME CMD  runs CMD in NAME's namespace (ip netns exec)
#
# Only addresses created here are ever used, and no namespace has a default route, so no
# packet can leave the private subnet. Needs root and iproute2.
set -euo pipefail
SUBNET=${ZMPI_NETNS_SUBNET:-10.77.0}
PREFIX=${ZMPI_NETNS_PREFIX:-zmpi}
BRIDGE=${PREFIX}br0
NAMES=(launcher node1 node2 node3)
declare -A OCTET=([launcher]=10 [node1]=11 [node2]=12 [node3]=13)

ns() { echo "${PREFIX}-$1"; }
veth() { echo "${PREFIX}-v$1"; }  # root-namespace end, at most 15 characters

up() {
  down 2>/dev/null || true
  ip link add "$BRIDGE" type bridge
  ip link set "$BRIDGE" up
  local hosts="127.0.0.1 localhost"$'\n'
  for name in "${NAMES[@]}"; do hosts+="${SUBNET}.${OCTET[$name]} ${name}"$'\n'; done
  for name in "${NAMES[@]}"; do
    local space
    space=$(ns "$name")
    ip netns add "$space"
    # IPv4 only: no IPv6 link-local chatter on the test network.
    ip netns exec "$space" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    ip link add "$(veth "$name")" type veth peer name "${PREFIX}-p${name}" netns "$space"
    ip link set "$(veth "$name")" master "$BRIDGE" up
    ip -n "$space" link set lo up
    ip -n "$space" link set "${PREFIX}-p${name}" name eth0
    ip -n "$space" addr add "${SUBNET}.${OCTET[$name]}/24" dev eth0
    ip -n "$space" link set eth0 up
    # ip netns exec bind-mounts these over /etc/hosts inside the namespace only.
    mkdir -p "/etc/netns/$space"
    printf '%s' "$hosts" >"/etc/netns/$space/hosts"
  done
}

down() {
  local name failed=0
  for name in "${NAMES[@]}"; do
    local space
    space=$(ns "$name")
    if ip netns list | grep -qw "$space"; then
      # Whatever still runs in the namespace goes with it.
      local pids
      pids=$(ip netns pids "$space" 2>/dev/null || true)
      [[ -n $pids ]] && kill -9 $pids 2>/dev/null || true
      ip netns del "$space" || failed=1
    fi
    ip link del "$(veth "$name")" 2>/dev/null || true
    rm -rf "/etc/netns/$space"
  done
  rmdir /etc/netns 2>/dev/null || true
  ip link del "$BRIDGE" 2>/dev/null || true
  return $failed
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  cut) ip link set "$(veth "$2")" down ;;
  heal) ip link set "$(veth "$2")" up ;;
  exec)
    name=$2
    shift 2
    exec ip netns exec "$(ns "$name")" "$@"
    ;;
  *)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
