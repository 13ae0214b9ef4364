#!/usr/bin/env python3
"""zmpi between hosts, side by side with Open MPI and MPICH in one run. The hosts are Linux
network namespaces on this machine (scripts/netns/hosts.sh: node1 and node2, each joined to
one bridge by a veth pair), so messages between hosts cross the kernel's tcp stack and
network devices as on a real network, while every host shares this machine's cores.

  bench/run_hosts.py [--build build] [--out bench/results/hosts] [--quick | --smoke]
                     [--mpis zmpi,ompi-tcp,mpich] [--only pingpong,collectives]

Measures:
  pingpong     latency and bandwidth 0 B-4 MiB, 2 ranks, one on each host
  collectives  allreduce, bcast, alltoall, allgather 8 B-16 MiB and barrier at 2 ranks (one
               per host) and 4 ranks (two per host: the same-host path within a host and
               tcp between hosts in one job)
Runs, each launched from the namespace "launcher":
  zmpi      zmpirun --host node1:K,node2:K, through a zmpid agent on each host
  ompi-tcp  Open MPI, btl self,vader,tcp on eth0; scripts/netns/rsh.sh stands in for ssh
  mpich     MPICH (hydra, rsh.sh as its ssh), UCX over tcp on eth0 (UCX_TLS=tcp,self: UCX
            would otherwise find every namespace on one machine and use its shared memory).
            Its ranks mostly hang in MPI_Finalize over UCX's tcp transport (UCX 1.13; the
            open UCX issue 8738, "TCP transport hangs during cleanup"): a job still running
            10 s after every rank printed its last line is ended, its figures are kept, and
            the hang is listed under problems
Every rank runs unbound (--bind-to none): each host's launcher would bind its first rank to
core 0, and here the hosts share the cores. Jobs of one rank per host (ping-pong, 2-rank
collectives) run each rank on its host's own CPUs (scripts/netns/own-cpu.sh: on 2 cores node1
on CPU 0, node2 on CPU 1), as on separate machines: unconfined, the kernel now and then
placed both ranks on one CPU, where every small message waited for a context switch (26 us
one way instead of 8; --shared-cpus keeps that). Prints the ratio table zmpi/peer and writes
results.{json,csv,txt,md} and PNG curves into --out. Full run about 10 minutes, --quick
about 2, --smoke (zmpi only, the ctest bench.hosts_smoke) seconds. Needs root and iproute2
(exit 77 without them) and holds /tmp/zmpi-netns.lock, as the multi-host test does. Exit
status 1 when a zmpi job failed, timed out or computed a wrong result.
"""
import argparse
import datetime
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # nothing written into the source tree but --out
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import mpis as mpimod  # noqa: E402
from benchlib import report, suite  # noqa: E402
from benchlib.finish import finish  # noqa: E402
from run_all import MODES, machine_info  # noqa: E402

ROOT = suite.ROOT
HOSTS_SH = os.path.join(ROOT, "scripts", "netns", "hosts.sh")
RSH = os.path.join(ROOT, "scripts", "netns", "rsh.sh")
OWN_CPU = os.path.join(ROOT, "scripts", "netns", "own-cpu.sh")
PREFIX = os.environ.get("ZMPI_NETNS_PREFIX", "zmpi")
NODES = ["node1", "node2"]
AGENT_PORT = 7117
ALL_MPIS = ["zmpi", "ompi-tcp", "mpich"]


class HostsMpi(mpimod.Mpi):
    """An MPI launched in the launcher's namespace onto node1 and node2, half the ranks on
    each (node1 takes the odd one). A job of one rank per host runs each rank on its host's
    own CPUs (own-cpu.sh), as on separate machines; larger jobs share every core."""

    def __init__(self, *args, hosts_option, slot_separator=":", **kwargs):
        super().__init__(*args, **kwargs)
        self.hosts_option, self.slot_separator = hosts_option, slot_separator
        self.own_cpus = True

    def command(self, ranks, binary, args, timeout):
        per_host = [(ranks + 1) // 2, ranks // 2]
        hosts = ",".join(f"{n}{self.slot_separator}{k}" for n, k in zip(NODES, per_host) if k)
        if ranks <= len(NODES) and self.own_cpus:
            binary, args = OWN_CPU, [binary] + list(args)
        cmd = super().command(ranks, binary, args, timeout)
        at = cmd.index("-np")
        cmd[at:at] = [self.hosts_option, hosts]
        return ["ip", "netns", "exec", f"{PREFIX}-launcher"] + cmd


def configurations(build_dir, secret_file):
    zmpirun = os.path.join(build_dir, "bin", "zmpirun")
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    all_mpis = [
        HostsMpi("zmpi", "zmpi", "zmpi: zmpirun through zmpid agents on node1 and node2",
                 [zmpirun, "--bind-to", "none"], env={"ZMPI_SECRET_FILE": secret_file},
                 timeout_option="--timeout", hosts_option="--host"),
        HostsMpi("ompi-tcp", "ompi", "Open MPI, btl self,vader,tcp over eth0, rsh.sh as ssh",
                 ["mpirun.openmpi"] + root + ["--bind-to", "none"],
                 ["--mca", "plm_rsh_agent", RSH, "--mca", "btl", "self,vader,tcp",
                  "--mca", "btl_tcp_if_include", "eth0", "--mca", "oob_tcp_if_include", "eth0"],
                 timeout_option="--timeout", hosts_option="--host"),
        HostsMpi("mpich", "mpich", "MPICH (hydra, rsh.sh as ssh), UCX over tcp on eth0",
                 ["mpiexec.mpich", "-launcher", "ssh", "-launcher-exec", RSH, "-iface", "eth0"],
                 env={"UCX_NET_DEVICES": "eth0", "UCX_TLS": "tcp,self"}, hosts_option="-hosts",
                 exit_grace=10),
    ]
    present, absent = [], []
    for mpi in all_mpis:
        have = mpimod.compiler(mpi.family, build_dir) and shutil.which(mpi.launcher[0])
        (present if have else absent).append(mpi if have else mpi.name)
    return present, absent


class Hosts:
    """The namespaces and a zmpid agent on each node, for the length of a `with`."""

    def __init__(self, build_dir, scratch, log):
        self.zmpid = os.path.join(build_dir, "bin", "zmpid")
        self.scratch, self.log, self.agents = scratch, log, []
        self.secret_file = os.path.join(scratch, "secret")

    def __enter__(self):
        self.lock = open("/tmp/zmpi-netns.lock", "w")
        deadline = time.monotonic() + 240
        while True:  # bounded: the multi-host test of another build tree may hold it
            try:
                fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise RuntimeError("another namespace user held /tmp/zmpi-netns.lock 240 s")
                time.sleep(0.2)
        subprocess.run(["bash", HOSTS_SH, "up"], check=True, timeout=60)
        with open(os.open(self.secret_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(os.urandom(24).hex())
        for node in NODES:
            self._start_agent(node)
        return self

    def _start_agent(self, node):
        out = os.path.join(self.scratch, f"agent-{node}.out")
        with open(out, "w") as stdout:
            agent = subprocess.Popen(
                ["ip", "netns", "exec", f"{PREFIX}-{node}", self.zmpid, "--bind",
                 f"{node}:{AGENT_PORT}", "--secret-file", self.secret_file],
                stdout=stdout, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=dict(os.environ, ZMPI_LOG_LEVEL="info"))
        self.agents.append(agent)
        for _ in range(500):  # up to 10 s
            with open(out) as f:
                if "listening on" in f.read():
                    return
            if agent.poll() is not None:
                break
            time.sleep(0.02)
        with open(out) as f:
            raise RuntimeError(f"zmpid on {node} did not start: {f.read()[-500:]}")

    def __exit__(self, *exc):
        for agent in self.agents:
            agent.terminate()
        for agent in self.agents:
            try:
                agent.wait(timeout=10)
            except subprocess.TimeoutExpired:
                agent.kill()
        subprocess.run(["bash", HOSTS_SH, "down"], timeout=60)
        self.lock.close()
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "hosts"))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="about 2 minutes, fewer sizes")
    mode.add_argument("--smoke", action="store_true", help="seconds, zmpi only (ctest)")
    parser.add_argument("--mpis", help="comma list out of " + ",".join(ALL_MPIS))
    parser.add_argument("--only", help="comma list out of pingpong,collectives")
    parser.add_argument("--timeout", type=float, help="seconds one benchmark job may take")
    parser.add_argument("--shared-cpus", action="store_true",
                        help="do not confine the ranks of 2-rank jobs to their host's CPUs")
    args = parser.parse_args()

    def log(text):
        print(text, file=sys.stderr, flush=True)

    if os.geteuid() != 0 or not shutil.which("ip"):
        log("SKIP: the namespace hosts need root and iproute2's ip")
        return 77
    mode_name = "smoke" if args.smoke else "quick" if args.quick else "full"
    mode = dict(MODES[mode_name])
    mode["collective_ranks"] = [2] if args.smoke else [2, 4]
    if args.timeout:
        mode["timeout"] = args.timeout
    wanted = (args.mpis or ("zmpi" if args.smoke else ",".join(ALL_MPIS))).split(",")
    mode["collective_mpis"] = wanted
    parts = (args.only or "pingpong,collectives").split(",")
    build_dir, out_dir = os.path.abspath(args.build), os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="zmpi-bench-hosts-") as scratch:
        os.chmod(scratch, 0o755)  # the ranks of every namespace read the binaries in it
        with Hosts(build_dir, scratch, log) as hosts:
            present, absent = configurations(build_dir, hosts.secret_file)
            runs = [m for m in present if m.name in wanted]
            for m in runs:
                m.own_cpus = not args.shared_cpus
            if "zmpi" in wanted and not any(m.name == "zmpi" for m in runs):
                log(f"no zmpi build in {build_dir} (bin/zmpicc, bin/zmpirun): build first")
                return 2
            missing = [n for n in absent if n in wanted]
            if missing:
                log(f"not installed, left out: {', '.join(missing)} (scripts/setup-deps.sh --bench)")
            names = [m.name for m in runs]
            layout = "2 namespace hosts (veth, one bridge)" + (
                "" if args.shared_cpus else "; 2-rank jobs: each rank on its host's own CPUs")
            meta = dict(mode=mode_name, layout=layout,
                        date=datetime.datetime.now().isoformat(timespec="seconds"),
                        load_before="%.2f %.2f %.2f" % os.getloadavg(), **machine_info(),
                        mpis={m.name: m.description for m in runs})
            log(f"bench hosts: {mode_name} run of {', '.join(names)}; load {meta['load_before']}")
            s = suite.Suite(runs, build_dir, scratch, mode, log)
            s.compile_all()
            if "pingpong" in parts:
                s.pingpong()
            if "collectives" in parts:
                for ranks in mode["collective_ranks"]:
                    s.collectives(ranks, report.OPS)
        meta["missing"] = missing
        return finish(s, meta, names, out_dir, scratch, ", 2 namespace hosts")


if __name__ == "__main__":
    sys.exit(main())
