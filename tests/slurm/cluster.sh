#!/usr/bin/env bash
# Private 3-node Slurm cluster (n1, n2, n3) on this one machine, for tests.
#
#   cluster.sh start  DIR   create config/state/logs under DIR, start munged,
#                           slurmctld and three slurmd; wait until 3 nodes idle
#   cluster.sh stop   DIR   stop everything started from DIR (idempotent)
#   cluster.sh status DIR   exit 0 if the cluster in DIR answers and has 3 idle
#                           nodes, 1 otherwise
#
# After start, `. DIR/env` points Slurm clients (srun, sbatch, ...) at it.
#
# Environment (all optional):
#   ZMPI_SLURM_PORT_BASE  first of 4 TCP ports (slurmctld, slurmd n1..n3);
#                         default: first free block in 17000-17990
#   ZMPI_SLURM_CPUS       CPUs declared per node (default 4)
#   ZMPI_SLURM_TIMEOUT    seconds to wait for the nodes to become idle (default 30)
#   ZMPI_SLURM_DEBUG      SlurmctldDebug/SlurmdDebug level (default info)
#
# Exit codes: 0 ok, 1 failure (daemon logs are printed), 2 usage,
# 77 Slurm not installed (ctest SKIP_RETURN_CODE).
#
# Design notes (why it looks like this):
# * Debian's slurmd is built with MULTIPLE_SLURMD, so several slurmd can run on
#   one host, selected by `-N name`. Each gets its own NodeAddr (127.0.0.11-13,
#   all on lo) and port, so all traffic stays on 127.0.0.0/8.
# * Each slurmd runs in its own UTS + mount namespace: the hostname inside is
#   the node name (programs see three distinct hosts), /etc/hosts is replaced
#   by DIR/hosts (n1..n3 resolve to their NodeAddr), and DIR/tmp - the TmpFS
#   under which the mpi/pmix plugin puts its per-step server/client dirs
#   ("spmix_appdir_<uid>_<job>.<step>") - is a per-node directory. Without the
#   latter, the three slurmstepd of one step share (and delete) the same dir.
#   Mounts exist only inside those namespaces and vanish with their last
#   process, so nothing is mounted on the host and stop has nothing to unmount.
# * stop kills daemons by pid file (after checking the pid still belongs to a
#   process started from DIR), then every process left in the node
#   namespaces (slurmstepd, job tasks; found by the DIR/tmp bind mount they
#   see), never anything by name.
# * munged runs with its own key, socket, pid, log and seed under DIR; Slurm
#   is pointed at the socket with AuthInfo=socket=... (auth/munge, cred/munge).
set -euo pipefail

readonly NODES=(n1 n2 n3)
readonly NODE_ADDRS=(127.0.0.11 127.0.0.12 127.0.0.13)
readonly MARKER=.zmpi-slurm-cluster

die() { echo "cluster.sh: $*" >&2; exit 1; }
log() { echo "cluster.sh: $*" >&2; }

usage() {
    echo "usage: $0 start|stop|status DIR" >&2
    exit 2
}

require_slurm() {
    local c
    for c in slurmctld slurmd srun sinfo munged unshare; do
        if ! command -v "$c" >/dev/null 2>&1; then
            echo "cluster.sh: SKIP: '$c' not found (slurm-wlm/munge not installed)"
            exit 77
        fi
    done
    # Namespaces and bind mounts need root; the daemons also run as root.
    if [[ $(id -u) -ne 0 ]]; then
        echo "cluster.sh: SKIP: must run as root (slurmd namespaces, SlurmUser=root)"
        exit 77
    fi
}

# --- process helpers -------------------------------------------------------

# alive PID: true if PID exists and is not a zombie (daemons are not our
# children, so a dead one may linger as a zombie until init reaps it).
alive() {
    local st
    [[ -r /proc/$1/stat ]] || return 1
    st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [[ -n $st && $st != Z && $st != X ]]
}

# ours PID: true if PID is alive and its command line mentions DIR, i.e. it
# is a daemon we started (guards against pid reuse after a stale pid file).
ours() {
    alive "$1" || return 1
    tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF -- "$DIR/"
}

# pidfile_pid FILE: print the pid in FILE if it names one of our processes.
pidfile_pid() {
    local pid
    [[ -s $1 ]] || return 1
    pid=$(tr -dc '0-9' <"$1")
    [[ -n $pid ]] && ours "$pid" && echo "$pid"
}

# wait_gone SECONDS PID...: bounded wait until all PIDs have exited.
wait_gone() {
    local deadline=$((SECONDS + $1)) p any
    shift
    while :; do
        any=0
        for p in "$@"; do alive "$p" && any=1; done
        [[ $any -eq 0 ]] && return 0
        [[ $SECONDS -ge $deadline ]] && return 1
        sleep 0.1
    done
}

# node_pids: pids of all processes inside our node namespaces (slurmd,
# slurmstepd, job tasks): exactly those that see the per-node bind mount on
# DIR/tmp, which exists in no other mount namespace. Namespace inode ids are
# recycled quickly, so they would not be a safe identity on their own.
node_pids() {
    grep -lsF -- " $DIR/tmp " /proc/[0-9]*/mountinfo 2>/dev/null |
        awk -F/ -v self="$$" '$3 != self {print $3}'
}

# --- ports -----------------------------------------------------------------

port_busy() {
    if command -v ss >/dev/null 2>&1; then
        ss -Htan 2>/dev/null | awk -v p="$1" '{n=split($4,a,":"); if (a[n]==p) f=1} END {exit !f}'
    else
        # Fallback: something accepts connections on 127.0.0.1:port.
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
    fi
}

pick_ports() {
    local base i off
    if [[ -n ${ZMPI_SLURM_PORT_BASE:-} ]]; then
        PORT_BASE=$ZMPI_SLURM_PORT_BASE
        return
    fi
    # Start at a random block so concurrent clusters rarely probe the same
    # one; the flock held by start closes the remaining race.
    off=$((RANDOM % 100))
    for ((i = 0; i < 100; i++)); do
        base=$((17000 + ((off + i) % 100) * 10))
        if ! port_busy "$base" && ! port_busy $((base + 1)) &&
            ! port_busy $((base + 2)) && ! port_busy $((base + 3)); then
            PORT_BASE=$base
            return
        fi
    done
    die "no free port block in 17000-17990 (set ZMPI_SLURM_PORT_BASE)"
}

# --- config ----------------------------------------------------------------

write_config() {
    local cpus=${ZMPI_SLURM_CPUS:-4} dbg=${ZMPI_SLURM_DEBUG:-info} i
    cat >"$DIR/slurm.conf" <<EOF
# Generated by tests/slurm/cluster.sh - private test cluster, do not edit.
ClusterName=zmpi$PORT_BASE
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$PORT_BASE
SlurmdPort=$((PORT_BASE + 1))
# Bind slurmctld to 127.0.0.1 only, not INADDR_ANY.
CommunicationParameters=NoCtldInAddrAny

AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
SlurmUser=root
SlurmdUser=root

StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.%n.log
SlurmctldDebug=$dbg
SlurmdDebug=$dbg
# Per-node inside each slurmd's mount namespace (see cluster.sh).
TmpFS=$DIR/tmp
# Keep the host's /etc/slurm out of the picture.
PlugStackConfig=$DIR/plugstack.conf

# Nodes declare more CPUs than the machine has: accept the config as truth.
SlurmdParameters=config_overrides
# No cgroups here: track processes via /proc, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none

# Fast failure detection / cleanup; tests want quick turnaround.
ReturnToService=2
SlurmctldTimeout=10
SlurmdTimeout=10
MessageTimeout=5
KillWait=2
InactiveLimit=0
BatchStartTimeout=10
# sbatch --wait polls every 2s only while 2 < MinJobAge/2 is false; with a
# larger MinJobAge it backs off to 8s polls. Finished jobs stay visible 5s.
MinJobAge=5
# Schedule batch jobs at submit time (default defers up to 3s) and run the
# main scheduling loop every second instead of 60 (pending jobs waiting on a
# just-finished one otherwise can sit for seconds).
SchedulerParameters=batch_sched_delay=0,sched_interval=1

NodeName=DEFAULT CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=1024 State=UNKNOWN
EOF
    for i in "${!NODES[@]}"; do
        echo "NodeName=${NODES[i]} NodeHostname=${NODES[i]} NodeAddr=${NODE_ADDRS[i]} Port=$((PORT_BASE + 1 + i))" >>"$DIR/slurm.conf"
    done
    echo "PartitionName=debug Nodes=n[1-3] Default=YES MaxTime=INFINITE State=UP" >>"$DIR/slurm.conf"

    # No SPANK plugins.
    : >"$DIR/plugstack.conf"

    # /etc/hosts seen inside the node namespaces: the host's plus n1..n3.
    {
        cat /etc/hosts 2>/dev/null || echo "127.0.0.1 localhost"
        for i in "${!NODES[@]}"; do echo "${NODE_ADDRS[i]} ${NODES[i]}"; done
    } >"$DIR/hosts"

    # Sourced by clients. Drop SLURM_* job variables inherited from an outer
    # allocation so srun does not try to run inside a foreign job id.
    cat >"$DIR/env" <<EOF
for _v in \$(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "\$_v"; done; unset _v
export SLURM_CONF='$DIR/slurm.conf'
export ZMPI_SLURM_DIR='$DIR'
EOF
}

# --- start -----------------------------------------------------------------

print_logs() {
    local f
    for f in "$DIR"/log/*; do
        [[ -f $f ]] || continue
        echo "===== $f (last 40 lines) =====" >&2
        tail -n 40 "$f" >&2 || true
    done
}

fail_start() {
    log "start failed: $*"
    print_logs
    cmd_stop >/dev/null 2>&1 || true
    exit 1
}

# wait_file SECONDS FILE: bounded wait for FILE to appear non-empty (or, for
# a socket, to exist).
wait_file() {
    local deadline=$((SECONDS + $1))
    until [[ -s $2 || -S $2 ]]; do
        [[ $SECONDS -ge $deadline ]] && return 1
        sleep 0.05
    done
}

idle_count() {
    SLURM_CONF=$DIR/slurm.conf timeout 5 sinfo -h -N -p debug -o '%N %t' 2>/dev/null |
        awk '$2 == "idle" {n++} END {print n + 0}'
}

cmd_start() {
    local i n t0=$SECONDS timeout=${ZMPI_SLURM_TIMEOUT:-30} deadline
    # Unix socket paths are limited to 107 bytes; the longest is the pmix
    # plugin's DIR/spool/nN/stepd.slurm.pmix.JOB.STEP (DIR + ~34 with 5-digit
    # job ids; measured: 79-char DIR fails, 69 works).
    if [[ ${#DIR} -gt 70 ]]; then
        die "DIR '$DIR' is ${#DIR} chars; max 70 (Unix socket paths under it); use a shorter DIR"
    fi
    if [[ -e $DIR/$MARKER ]]; then
        # Reused DIR (e.g. a ctest fixture dir): stop leftovers, start fresh.
        cmd_stop >/dev/null 2>&1 || true
        rm -rf "${DIR:?}"/{munge,state,spool,run,log,tmp,nodes} \
            "$DIR"/{slurm.conf,plugstack.conf,hosts,env,ports}
    elif [[ -d $DIR && -n $(ls -A "$DIR") ]]; then
        die "$DIR is not empty and not a cluster dir; refusing to use it"
    fi
    mkdir -p "$DIR"
    : >"$DIR/$MARKER"
    mkdir -p "$DIR"/{munge,state,run,log,tmp}
    # munged insists that every directory above its socket is searchable by
    # all (clients of any uid must reach it); mktemp -d gives 0700.
    chmod 755 "$DIR"
    chmod 711 "$DIR/munge"
    for n in "${NODES[@]}"; do mkdir -p "$DIR/spool/$n" "$DIR/nodes/$n/tmp"; done
    # Node tmp dirs are TMPDIR-like for jobs; sticky + world-writable like /tmp.
    chmod 1777 "$DIR"/nodes/*/tmp

    # Serialize port choice + daemon start among concurrent clusters, so two
    # starts cannot pick the same free block. Bounded.
    exec 9>"${TMPDIR:-/tmp}/zmpi-slurm-ports.lock"
    flock -w 120 9 || die "timed out waiting for port lock"
    pick_ports
    echo "$PORT_BASE" >"$DIR/ports"
    write_config

    # munged: own key/socket/pid/log/seed, nothing from /etc/munge.
    dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$DIR/munge/munge.key"
    munged --socket="$DIR/munge/munge.socket" --key-file="$DIR/munge/munge.key" \
        --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/log/munged.log" \
        --seed-file="$DIR/munge/munged.seed" --num-threads=4 \
        </dev/null >>"$DIR/log/munged.out" 2>&1 9>&- ||
        fail_start "munged did not start"
    wait_file 10 "$DIR/munge/munge.socket" || fail_start "munge socket did not appear"

    # Daemons get stdio away from our caller (ctest waits for its pipes to
    # close) and must not inherit the lock fd 9 (they would hold it forever).
    slurmctld -f "$DIR/slurm.conf" </dev/null >>"$DIR/log/slurmctld.out" 2>&1 9>&- ||
        fail_start "slurmctld exited with $?"
    wait_file 10 "$DIR/run/slurmctld.pid" || fail_start "no pid file from slurmctld"

    for i in "${!NODES[@]}"; do
        n=${NODES[i]}
        # Inside new UTS+mount namespaces (propagation private by default):
        # hostname, per-node TmpFS, node-aware /etc/hosts, then slurmd.
        # shellcheck disable=SC2016 # $1/$2 expand in the inner shell
        unshare --uts --mount -- /bin/sh -c '
            set -e
            hostname "$1"
            mount --bind "$2/nodes/$1/tmp" "$2/tmp"
            mount --bind "$2/hosts" /etc/hosts
            exec slurmd -f "$2/slurm.conf" -N "$1"
        ' slurmd-ns "$n" "$DIR" </dev/null >>"$DIR/log/slurmd.$n.out" 2>&1 9>&- ||
            fail_start "slurmd $n exited with $?"
    done

    for n in "${NODES[@]}"; do
        wait_file 10 "$DIR/run/slurmd.$n.pid" || fail_start "no pid file from slurmd $n"
        pidfile_pid "$DIR/run/slurmd.$n.pid" >/dev/null || fail_start "slurmd $n died"
    done

    deadline=$((SECONDS + timeout))
    while [[ $(idle_count) -lt ${#NODES[@]} ]]; do
        pidfile_pid "$DIR/run/slurmctld.pid" >/dev/null || fail_start "slurmctld died"
        for n in "${NODES[@]}"; do
            pidfile_pid "$DIR/run/slurmd.$n.pid" >/dev/null || fail_start "slurmd $n died"
        done
        [[ $SECONDS -ge $deadline ]] && fail_start "nodes not idle after ${timeout}s: $(
            SLURM_CONF=$DIR/slurm.conf timeout 5 sinfo -h -N -o '%N=%t' 2>&1 | tr '\n' ' ')"
        sleep 0.2
    done
    exec 9>&- # ports are bound now; let the next cluster pick

    echo "slurm cluster up: 3 nodes (n1 n2 n3) ctld port $PORT_BASE in $((SECONDS - t0))s; . $DIR/env"
}

# --- stop ------------------------------------------------------------------

cmd_stop() {
    local n pid pids=() left=()
    [[ -d $DIR ]] || return 0
    [[ -e $DIR/$MARKER ]] || { log "$DIR is not a cluster dir; nothing to stop"; return 0; }

    # Clients sourcing env from now on should fail clearly, not hang on srun.
    rm -f "$DIR/env"

    # SIGTERM slurmctld and the slurmd (clean shutdown, pid files removed).
    if pid=$(pidfile_pid "$DIR/run/slurmctld.pid"); then pids+=("$pid"); fi
    for n in "${NODES[@]}"; do
        if pid=$(pidfile_pid "$DIR/run/slurmd.$n.pid"); then pids+=("$pid"); fi
    done
    if [[ ${#pids[@]} -gt 0 ]]; then
        kill -TERM "${pids[@]}" 2>/dev/null || true
        if ! wait_gone 10 "${pids[@]}"; then
            log "daemons did not exit on SIGTERM; SIGKILL"
            kill -KILL "${pids[@]}" 2>/dev/null || true
            wait_gone 5 "${pids[@]}" || true
        fi
    fi

    # Whatever still lives in the node namespaces: slurmstepd, job tasks.
    mapfile -t left < <(node_pids)
    if [[ ${#left[@]} -gt 0 ]]; then
        kill -KILL "${left[@]}" 2>/dev/null || true
        wait_gone 5 "${left[@]}" || log "processes still alive: ${left[*]}"
    fi

    # munged last: slurm daemons may authenticate while shutting down.
    if pid=$(pidfile_pid "$DIR/munge/munged.pid"); then
        kill -TERM "$pid" 2>/dev/null || true
        if ! wait_gone 5 "$pid"; then
            kill -KILL "$pid" 2>/dev/null || true
            wait_gone 5 "$pid" || true
        fi
    fi

    # Report anything of ours that survived; stop must leave nothing running.
    left=()
    for pid in $( (pidfile_pid "$DIR/run/slurmctld.pid" || true
        for n in "${NODES[@]}"; do pidfile_pid "$DIR/run/slurmd.$n.pid" || true; done
        node_pids
        pidfile_pid "$DIR/munge/munged.pid" || true) 2>/dev/null); do
        left+=("$pid")
    done
    if [[ ${#left[@]} -gt 0 ]]; then
        log "stop: still running: ${left[*]}"
        return 1
    fi
    echo "slurm cluster in $DIR stopped"
}

cmd_status() {
    [[ -e $DIR/$MARKER ]] || return 1
    [[ $(idle_count) -ge ${#NODES[@]} ]]
}

[[ $# -eq 2 ]] || usage
# Absolute, symlink-free: the path appears in slurm.conf, in daemon command
# lines (checked by stop) and in /proc/*/mountinfo (node_pids).
DIR=$(realpath -m -- "$2")
case $1 in
start) require_slurm; cmd_start ;;
stop) require_slurm; cmd_stop ;;
status) require_slurm; cmd_status ;;
*) usage ;;
esac
