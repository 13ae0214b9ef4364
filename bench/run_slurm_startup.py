#!/usr/bin/env python3
"""Start-up under a real Slurm: the wall time of `srun -n 4 --mpi=pmix hello` with zmpi and
with Open MPI, side by side in one run, on one node and on three. The cluster is the tests'
own (tests/slurm/cluster.sh: Debian's slurm-wlm, slurmd n1..n3 on this machine), started for
the run and stopped after; both programs are examples/hello.c, built by zmpicc and by Open
MPI's mpicc.openmpi, and run under the same srun, alternating, so load from elsewhere hits
them alike. The first round is a warm-up. Also `--mpi=pmi2` for zmpi (Debian's Open MPI has
no PMI-2 support) and, for reference, the same hello through zmpirun inside `salloc`.

  bench/run_slurm_startup.py [--build build] [--runs 15] [--out bench/results/slurm_startup.txt]

Prints and writes a table of medians (seconds) and the ratio zmpi / Open MPI. Needs root and
slurm-wlm (exit 77 without them)."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", default=os.path.join(root, "bench", "results", "slurm_startup.txt"))
    args = parser.parse_args()
    if os.geteuid() != 0 or not shutil.which("slurmctld") or not shutil.which("mpicc.openmpi"):
        print("skipped: needs root, slurm-wlm and Open MPI's mpicc (scripts/setup-deps.sh)")
        return 77
    build = os.path.abspath(args.build)
    work = tempfile.mkdtemp(prefix="zmpi-sb-", dir="/tmp")
    os.chmod(work, 0o755)  # munged wants every directory above its socket searchable by all
    cluster = os.path.join(work, "c")
    hello = os.path.join(root, "examples", "hello.c")
    zmpi_hello, ompi_hello = os.path.join(work, "hello_zmpi"), os.path.join(work, "hello_ompi")
    subprocess.run([os.path.join(build, "bin", "zmpicc"), "-O2", "-o", zmpi_hello, hello], check=True)
    subprocess.run(["mpicc.openmpi", "-O2", "-o", ompi_hello, hello], check=True)
    script = os.path.join(root, "tests", "slurm", "cluster.sh")
    subprocess.run([script, "start", cluster], check=True)
    try:
        env = dict(os.environ, SLURM_CONF=os.path.join(cluster, "slurm.conf"))
        zmpirun = os.path.join(build, "bin", "zmpirun")
        cases = [
            ("zmpi pmix, 1 node", ["srun", "-N", "1", "-n", "4", "--mpi=pmix", zmpi_hello]),
            ("ompi pmix, 1 node", ["srun", "-N", "1", "-n", "4", "--mpi=pmix", ompi_hello]),
            ("zmpi pmi2, 1 node", ["srun", "-N", "1", "-n", "4", "--mpi=pmi2", zmpi_hello]),
            ("zmpi pmix, 3 nodes", ["srun", "-N", "3", "-n", "4", "--mpi=pmix", zmpi_hello]),
            ("ompi pmix, 3 nodes", ["srun", "-N", "3", "-n", "4", "--mpi=pmix", ompi_hello]),
            ("zmpi pmi2, 3 nodes", ["srun", "-N", "3", "-n", "4", "--mpi=pmi2", zmpi_hello]),
            ("zmpirun in salloc, 3 nodes", ["salloc", "-N", "3", "-n", "4", zmpirun, "-np", "4", zmpi_hello]),
        ]
        samples = {name: [] for name, _ in cases}
        for round_ in range(args.runs + 1):
            for name, command in cases:
                start = time.monotonic()
                result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, timeout=120)
                seconds = time.monotonic() - start
                if result.returncode != 0 or result.stdout.count("Hello") != 4:
                    print(f"FAILED: {name}: exit {result.returncode}\n{result.stdout[-2000:]}")
                    return 1
                if round_ > 0:
                    samples[name].append(seconds)
    finally:
        subprocess.run([script, "stop", cluster])
        shutil.rmtree(work, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in samples.items()}
    lines = [f"Start-up of `-n 4 hello` under Slurm 22.05 (tests/slurm cluster, this machine), median of "
             f"{args.runs} runs, {time.strftime('%Y-%m-%d %H:%M')}", ""]
    for name, _ in cases:
        lines.append(f"  {name:28s} {median[name]:.3f} s")
    lines.append("")
    for nodes in ("1 node", "3 nodes"):
        ratio = median[f"zmpi pmix, {nodes}"] / median[f"ompi pmix, {nodes}"]
        lines.append(f"  zmpi / Open MPI, srun --mpi=pmix, {nodes}: {ratio:.2f}")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
