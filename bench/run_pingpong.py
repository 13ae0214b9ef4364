#!/usr/bin/env python3
"""Ping-pong latency and bandwidth, zmpi side by side with Open MPI and MPICH, in one run.

Builds bench/src/pingpong.c three times (zmpi's zmpicc, Open MPI's mpicc.openmpi, MPICH's
mpicc.mpich), runs each at 2 ranks on this machine, and prints one table of one-way
latency per message size with the ratios zmpi/peer (< 1.0: zmpi is faster). Runs:
  zmpi            shared memory (the default same-host path)
  zmpi-tcp        ZMPI_TRANSPORT=tcp (everything over tcp on loopback)
  ompi-sm         Open MPI, shared memory (vader)
  ompi-tcp        Open MPI, --mca btl tcp,self
  mpich           MPICH (ch4, shared memory)
Needs `scripts/setup-deps.sh --bench` (MPICH) and a build in build/.
  bench/run_pingpong.py [--build build] [--out bench/results]
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(compiler, source, output, env=None):
    subprocess.run([compiler, "-O2", source, "-o", output], check=True, env=env)


def run(command, env=None, timeout=600):
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
    if result.returncode != 0:
        sys.stderr.write(f"{' '.join(command)} failed:\n{result.stderr}\n")
        return None
    rows = {}
    for line in result.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        size, latency, bandwidth = line.split()
        rows[int(size)] = (float(latency), float(bandwidth))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    source = os.path.join(ROOT, "bench", "src", "pingpong.c")
    binaries = {}
    build(os.path.join(args.build, "bin", "zmpicc"), source, os.path.join(args.out, "pingpong_zmpi"))
    binaries["zmpi"] = os.path.join(args.out, "pingpong_zmpi")
    if shutil.which("mpicc.openmpi"):
        build("mpicc.openmpi", source, os.path.join(args.out, "pingpong_ompi"))
    if shutil.which("mpicc.mpich"):
        build("mpicc.mpich", source, os.path.join(args.out, "pingpong_mpich"))

    zmpirun = os.path.join(args.build, "bin", "zmpirun")
    ompi = ["mpirun.openmpi", "--allow-run-as-root", "--oversubscribe", "-np", "2"]
    runs = {
        "zmpi": run([zmpirun, "-np", "2", "--oversubscribe", binaries["zmpi"]]),
        "zmpi-tcp": run([zmpirun, "-np", "2", "--oversubscribe", "-x", "ZMPI_TRANSPORT=tcp", binaries["zmpi"]]),
    }
    if os.path.exists(os.path.join(args.out, "pingpong_ompi")):
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        runs["ompi-sm"] = run(ompi + [os.path.join(args.out, "pingpong_ompi")], env=env)
        runs["ompi-tcp"] = run(ompi + ["--mca", "btl", "tcp,self", os.path.join(args.out, "pingpong_ompi")], env=env)
    if os.path.exists(os.path.join(args.out, "pingpong_mpich")) and shutil.which("mpirun.mpich"):
        runs["mpich"] = run(["mpirun.mpich", "-np", "2", os.path.join(args.out, "pingpong_mpich")])
    runs = {k: v for k, v in runs.items() if v}

    names = list(runs)
    sizes = sorted(set().union(*[set(r) for r in runs.values()]))
    header = "bytes".rjust(9) + "".join(f"{n + ' us':>14}" for n in names)
    peers = [n for n in names if not n.startswith("zmpi")]
    header += "".join(f"{'zmpi/' + p:>14}" for p in peers) + f"{'zmpi-tcp/ompi-tcp':>19}"
    lines = ["# one-way latency (median of round trips / 2), 2 ranks, this machine", header]
    for size in sizes:
        row = f"{size:>9}"
        for n in names:
            row += f"{runs[n][size][0]:>14.2f}" if size in runs[n] else f"{'-':>14}"
        for p in peers:
            if size in runs[p] and size in runs["zmpi"]:
                row += f"{runs['zmpi'][size][0] / runs[p][size][0]:>14.2f}"
            else:
                row += f"{'-':>14}"
        if "ompi-tcp" in runs and "zmpi-tcp" in runs and size in runs["ompi-tcp"]:
            row += f"{runs['zmpi-tcp'][size][0] / runs['ompi-tcp'][size][0]:>19.2f}"
        lines.append(row)
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.out, "pingpong.txt"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
