#!/usr/bin/env python3
"""The benchmark suite in one command: zmpi side by side with Open MPI (shared memory, and
tcp on loopback) and MPICH, in one run, on this machine.

  bench/run_all.py [--build build] [--out bench/results] [--quick | --smoke]
                   [--mpis zmpi,ompi-sm,...] [--only pingpong,collectives,rma,apps,startup,memory]

Measures, for every MPI installed (zmpi, zmpi-tcp = ZMPI_TRANSPORT=tcp, ompi-sm, ompi-tcp,
mpich; zmq = a raw zmq ping-pong, the floor of zmpi's tcp path):
  pingpong     latency and bandwidth 0 B-4 MiB, 2 ranks             (bench/src/pingpong.c);
               a full run does 3 rounds of every MPI in turn, median per size over them
  collectives  allreduce, bcast, alltoall, allgather 8 B-16 MiB and barrier, 2 and 4 ranks
               (4 ranks oversubscribe the cores: --oversubscribe where the launcher wants it);
               one job per operation and MPI, operation-major (load drift hits all alike);
               a full run does 3 rounds of every operation's jobs in turn, median per size
  rma          one-sided latencies, 2 ranks, passive target (bench/src/rma.c): lock + get +
               unlock, lock + put + unlock, get + flush 8 B-1 MiB, fetch_and_op + flush, on
               MPI_Win_allocate, MPI_Win_create and dynamic windows; rounds as for the collectives
  apps         a real application: Debian's LAMMPS (an Open MPI binary, run unchanged by
               zmpirun) on a Lennard-Jones liquid, 2 and 4 ranks, its loop time; zmpi and
               Open MPI only (MPICH cannot run an Open MPI binary); median of rounds
  startup      wall time of the whole command `launcher -np 4 hello`, median of runs
  memory       each rank's peak resident set (VmHWM): footprint.c (init, one message to every
               peer), and at the end of every pingpong and collectives job
Prints the table of ratios zmpi/peer (medians over sizes, min-max in brackets) and the key
figures; writes results.json, results.csv, results.txt (every size), results.md (the tables
for README) and PNG curves into --out. Full run about 10-15 minutes on 2 cores, --quick about 2, --smoke (zmpi only, the
ctest bench.smoke) a few seconds. Every job has a timeout: a hung or failed MPI is killed,
reported under "problems", and its cells stay empty. Exit status 1 when a zmpi run failed,
timed out or computed a wrong result; a peer's failure is only reported. Needs
`scripts/setup-deps.sh --bench` (MPICH, gnuplot) and a zmpi build (zmpicc, zmpirun).
"""
import argparse
import datetime
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree but --out
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import mpis as mpimod  # noqa: E402
from benchlib import report, suite  # noqa: E402
from benchlib.finish import finish  # noqa: E402

ROOT = suite.ROOT
ALL_MPIS = ["zmpi", "zmpi-tcp", "ompi-sm", "ompi-tcp", "mpich", "zmq"]
# Per mode: program arguments (bench_common.h), timeouts, which runs do collectives.
MODES = {
    "full": dict(
        pingpong=["--budget-ms", "200", "--max-iters", "5000"], pingpong_rounds=3,
        collectives=["--budget-ms", "80", "--reps", "3", "--step", "2"], collective_rounds=3,
        collective_ranks=[2, 4], startup_runs=9, startup_ranks=4, timeout=600,
        collective_mpis=["zmpi", "zmpi-tcp", "ompi-sm", "ompi-tcp", "mpich"],
        app_ranks=[2, 4], app_rounds=5, app_steps=1000,
        rma=["--budget-ms", "50", "--reps", "3", "--min-bytes", "8", "--max-bytes", "1048576",
             "--step", "8"]),
    "quick": dict(
        pingpong=["--budget-ms", "50"],
        collectives=["--budget-ms", "40", "--reps", "2", "--step", "4"],
        collective_ranks=[2, 4], startup_runs=3, startup_ranks=4, timeout=240,
        collective_mpis=["zmpi", "ompi-sm", "ompi-tcp", "mpich"],
        app_ranks=[4], app_rounds=1, app_steps=250,
        rma=["--budget-ms", "20", "--reps", "2", "--min-bytes", "8", "--max-bytes", "65536",
             "--step", "64"]),
    "smoke": dict(
        pingpong=["--budget-ms", "1", "--max-bytes", "65536", "--step", "64", "--max-iters", "20"],
        collectives=["--budget-ms", "1", "--reps", "1", "--min-bytes", "8", "--max-bytes",
                     "4096", "--step", "512", "--max-iters", "10"],
        collective_ranks=[2], startup_runs=1, startup_ranks=2, timeout=30,
        collective_mpis=["zmpi"], app_ranks=[],
        rma=["--budget-ms", "1", "--reps", "1", "--min-bytes", "8", "--max-bytes", "64",
             "--step", "8", "--max-iters", "10"]),
}


def machine_info():
    info = {"cores": os.cpu_count()}
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout.splitlines():
            if line.startswith("Model name:"):
                info["cpu"] = line.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        info["git"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                     capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="about 2 minutes, fewer sizes")
    mode.add_argument("--smoke", action="store_true", help="seconds, zmpi only (ctest)")
    parser.add_argument("--mpis", help="comma list out of " + ",".join(ALL_MPIS))
    parser.add_argument("--only", help="comma list out of pingpong,collectives,rma,apps,startup,memory")
    parser.add_argument("--timeout", type=float, help="seconds one benchmark job may take "
                        "(default 600 full, 240 quick, 30 smoke); a job over it is killed")
    args = parser.parse_args()
    mode_name = "smoke" if args.smoke else "quick" if args.quick else "full"
    mode = dict(MODES[mode_name])
    if args.timeout:
        mode["timeout"] = args.timeout
    if args.mpis:  # named explicitly: every one of them runs the collectives too
        mode["collective_mpis"] = args.mpis.split(",")
    wanted = (args.mpis or ("zmpi" if args.smoke else ",".join(ALL_MPIS))).split(",")
    parts = (args.only or "pingpong,collectives,rma,apps,startup,memory").split(",")
    build_dir, out_dir = os.path.abspath(args.build), os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)

    def log(text):
        print(text, file=sys.stderr, flush=True)

    present, absent = mpimod.configurations(build_dir)
    runs = [m for m in present if m.name in wanted]
    if any(n.startswith("zmpi") for n in wanted) and not any(m.family == "zmpi" for m in runs):
        log(f"no zmpi build in {build_dir} (bin/zmpicc, bin/zmpirun): build first")
        return 2
    missing = [n for n in absent if n in wanted]
    if missing:
        log(f"not installed, left out: {', '.join(missing)} (scripts/setup-deps.sh --bench)")
    names = [m.name for m in runs]
    meta = dict(mode=mode_name, date=datetime.datetime.now().isoformat(timespec="seconds"),
                load_before="%.2f %.2f %.2f" % os.getloadavg(), **machine_info(),
                mpis={m.name: m.description for m in runs})
    log(f"bench: {mode_name} run of {', '.join(names)}; load {meta['load_before']}")

    with tempfile.TemporaryDirectory(prefix="zmpi-bench-") as scratch:
        s = suite.Suite(runs, build_dir, scratch, mode, log)
        s.compile_all()
        if "pingpong" in parts:
            s.pingpong()
        if "collectives" in parts:
            for ranks in mode["collective_ranks"]:
                s.collectives(ranks, report.OPS)
        if "rma" in parts:
            s.rma(2)
        if "apps" in parts and mode["app_ranks"]:
            s.apps(mode["app_ranks"])
        if "startup" in parts:
            s.startup(mode["startup_ranks"])
        if "memory" in parts:
            s.footprint(4 if mode_name != "smoke" else 2)
        meta["missing"] = missing
        return finish(s, meta, names, out_dir, scratch)

if __name__ == "__main__":
    sys.exit(main())
