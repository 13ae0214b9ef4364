#!/usr/bin/env bash
# Runs COMMAND confined to the CPUs of the namespace "host" it is started in, so that the
# hosts of hosts.sh do not share cores as they would not on separate machines:
#   own-cpu.sh COMMAND...        (inside zmpi-nodeN: nodeN takes the i-th allowed
#                                 CPU where i mod HOSTS = (N - 1) mod HOSTS; HOSTS is
#                                 ZMPI_NETNS_CPU_HOSTS, default 2)
# On 2 CPUs node1 runs on CPU 0 and node2 on CPU 1. Unconfined, the kernel's wake-up
# placement now and then puts both ranks of a ping-pong between node1 and node2 on one CPU,
# where every message waits for a context switch (8 B one way: 26 us instead of 8). Outside
# a node namespace COMMAND runs as it is.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "own-cpu.sh: usage: own-cpu.sh COMMAND..." >&2; exit 2; }
PREFIX=${ZMPI_NETNS_PREFIX:-zmpi}
HOSTS=${ZMPI_NETNS_CPU_HOSTS:-2}
space=$(ip netns identify $$ 2>/dev/null || true)
if [[ $space =~ ^${PREFIX}-node([0-9]+)$ ]]; then
  slot=$(((BASH_REMATCH[1] - 1) % HOSTS))
  allowed=()  # the CPUs this process may use (a container's cpuset may hold fewer)
  IFS=, read -ra ranges < <(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status)
  for range in "${ranges[@]}"; do
    for ((c = ${range%-*}; c <= ${range#*-}; c++)); do allowed+=("$c"); done
  done
  cpus=()
  for i in "${!allowed[@]}"; do
    ((i % HOSTS == slot)) && cpus+=("${allowed[$i]}")
  done
  if [[ ${#cpus[@]} -gt 0 ]]; then
    exec taskset -c "$(IFS=,; echo "${cpus[*]}")" "$@"
  fi
fi
exec "$@"
