#!/usr/bin/env bash
# Run CMD against a private 3-node Slurm cluster (see cluster.sh):
#
#   with_cluster.sh CMD [ARGS...]
#
# Two modes:
# * ZMPI_SLURM_DIR unset: start a cluster in a fresh temp dir, run CMD with
#   DIR/env sourced, stop the cluster and remove the dir (on normal exit, on
#   failure, on INT/TERM/HUP, and - via a watchdog - even if this script is
#   SIGKILLed, e.g. by a ctest timeout). Returns CMD's exit status.
# * ZMPI_SLURM_DIR=DIR set: use the cluster already running in DIR (ctest
#   FIXTURES_SETUP `cluster.sh start DIR` / FIXTURES_CLEANUP `cluster.sh stop
#   DIR`), just source DIR/env and exec CMD; the fixture owns the lifetime.
#
# ZMPI_SLURM_KEEP=1 keeps the temp dir (config and daemon logs) after the
# run and prints its path. Exit 77 if Slurm is not installed (ctest skip).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cluster=$here/cluster.sh

if [[ $# -eq 0 ]]; then
    echo "usage: $0 CMD [ARGS...]" >&2
    exit 2
fi

if [[ -n ${ZMPI_SLURM_DIR:-} ]]; then
    if [[ ! -r $ZMPI_SLURM_DIR/env ]]; then
        echo "with_cluster.sh: no cluster in $ZMPI_SLURM_DIR (missing env); fixture setup failed?" >&2
        # The fixture's setup exits 77 when Slurm is absent; keep skipping.
        command -v slurmctld >/dev/null 2>&1 || exit 77
        exit 1
    fi
    # shellcheck source=/dev/null
    . "$ZMPI_SLURM_DIR/env"
    exec "$@"
fi

if ! command -v slurmctld >/dev/null 2>&1; then
    echo "with_cluster.sh: SKIP: slurmctld not found (slurm-wlm not installed)"
    exit 77
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/zmpi-slurm.XXXXXX")
child=
watchdog=

# tree PID: PID and all its descendants (exact, by parent links; no names).
tree() {
    ps -eo pid=,ppid= | awk -v root="$1" '
        { kids[$2] = kids[$2] " " $1 }
        END { q[1] = root; n = 1
              for (i = 1; i <= n; i++) { print q[i]; m = split(kids[q[i]], k, " ")
                                         for (j = 1; j <= m; j++) q[++n] = k[j] } }'
}

# stop_cmd PID: TERM the command's process tree, bounded wait, then KILL.
stop_cmd() {
    local pids i
    mapfile -t pids < <(tree "$1")
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
}

# shellcheck disable=SC2317 # invoked via trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if [[ -n $child ]] && kill -0 "$child" 2>/dev/null; then
        # CMD (or a half-done start) goes first, so nothing adds daemons or
        # jobs after stop looked.
        stop_cmd "$child"
        wait "$child" 2>/dev/null || true
    fi
    # A stop failure (something left running) fails the run; 77 is the
    # "cannot run here" skip that start already reported.
    local st=0
    "$cluster" stop "$dir" >/dev/null || st=$?
    if [[ $st -ne 0 && $st -ne 77 ]]; then rc=1; fi
    if [[ -n $watchdog ]]; then kill "$watchdog" 2>/dev/null || true; fi
    if [[ ${ZMPI_SLURM_KEEP:-0} == 1 ]]; then
        echo "with_cluster.sh: kept $dir" >&2
    else
        rm -rf "$dir"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

rc=0
# In the background + wait (as CMD below), so a signal is handled at once.
"$cluster" start "$dir" >&2 &
child=$!
wait "$child" || rc=$?
child=
if [[ $rc -ne 0 ]]; then exit "$rc"; fi

# shellcheck source=/dev/null
. "$dir/env"
# CMD in the background + wait, so INT/TERM traps run at once instead of
# after CMD finishes. Explicit stdin: bash would give a background job
# /dev/null.
"$@" <&0 &
child=$!

# Watchdog: if we die without running the EXIT trap (SIGKILL, e.g. a ctest
# timeout), stop CMD and the cluster anyway. Detached stdio so ctest does not
# wait on our pipes; it only lives as long as this script.
(
    trap - EXIT INT TERM HUP
    while kill -0 "$$" 2>/dev/null; do sleep 1; done
    if kill -0 "$child" 2>/dev/null; then stop_cmd "$child"; fi
    if [[ -e $dir ]]; then "$cluster" stop "$dir" && rm -rf "$dir"; fi
) </dev/null >/dev/null 2>&1 &
watchdog=$!

wait "$child" || rc=$?
child=
exit "$rc"
