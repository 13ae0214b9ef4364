#!/usr/bin/env bash
# A stand-in for ssh for Open MPI's and MPICH's launchers on the namespace "hosts" of
# hosts.sh: `rsh.sh [ssh options] HOST COMMAND...` runs COMMAND in HOST's network namespace
# and in a UTS namespace of its own whose hostname is HOST, so that an MPI which tells
# hosts apart by hostname (MPICH does) sees separate hosts, as it would on real machines.
#   mpirun.openmpi --mca plm_rsh_agent scripts/netns/rsh.sh --host node1,node2 ...
#   mpiexec.mpich -launcher ssh -launcher-exec scripts/netns/rsh.sh -iface eth0 -hosts node1,node2 ...
set -euo pipefail
PREFIX=${ZMPI_NETNS_PREFIX:-zmpi}
while [[ $# -gt 0 && $1 == -* ]]; do
  case $1 in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;  # ssh options that take a value
    *) shift ;;
  esac
done
[[ $# -ge 2 ]] || { echo "rsh.sh: usage: rsh.sh [ssh options] HOST COMMAND..." >&2; exit 2; }
host=$1
shift
# The launchers hand over one shell command line, as ssh would to the remote shell.
exec ip netns exec "${PREFIX}-${host}" unshare --uts /bin/sh -c 'hostname "$1"; shift; eval "$*"' rsh "$host" "$@"
