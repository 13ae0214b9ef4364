#!/usr/bin/env python3
"""Runs Debian's LAMMPS (`lmp`, an Open MPI binary) unchanged through zmpirun on NP ranks and
checks the simulation: the thermodynamic table must equal a 1-rank run's (the domain
decomposition only changes which rank computes what), the atoms must all be there, and the
total energy of the NVE run must stay put (a lost or corrupted ghost atom shows at once).
  run_lammps.py LAUNCHER NP INPUT [VAR=VALUE ...]   (environment of the NP-rank run)
LAUNCHER is zmpirun's path (run as LAUNCHER -np N), or a command whose last word takes the
rank count ("srun -N 3 --mpi=pmix -n": run as srun -N 3 --mpi=pmix -n N).
Exit 77 (skipped) where lmp is not installed (scripts/setup-deps.sh installs it)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

launcher, np_text, script = shlex.split(sys.argv[1]), sys.argv[2], sys.argv[3]
ranks = int(np_text)
extra_env = dict(item.split("=", 1) for item in sys.argv[4:])
lmp = shutil.which("lmp") or shutil.which("lmp", path="/usr/bin")
if lmp is None:
    print("skipped: lmp (Debian package lammps) is not installed")
    sys.exit(77)


def run(nranks, env_updates):
    env = dict(os.environ, **env_updates)
    with tempfile.TemporaryDirectory(prefix="zmpi-lammps-") as work:  # LAMMPS writes log.lammps
        count = ["-np", str(nranks)] if len(launcher) == 1 else [str(nranks)]
        result = subprocess.run(launcher + count + [lmp, "-in", script, "-log", "none"], cwd=work,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240)
    print(f"--- {nranks} rank(s), exit {result.returncode}\n{result.stdout}")
    if result.returncode != 0:
        sys.exit(f"FAILED: lmp on {nranks} rank(s) exited with {result.returncode}")
    return result.stdout


def thermo(output):
    rows = [line.split() for line in output.splitlines() if re.match(r"^\s+\d+\s+[-\d.]", line)]
    if not rows:
        sys.exit("FAILED: no thermodynamic output")
    return [[float(value) for value in row] for row in rows]


reference = thermo(run(1, {}))
output = run(ranks, extra_env)
table = thermo(output)
loop = re.search(r"Loop time of \S+ on (\d+) procs for (\d+) steps with (\d+) atoms", output)
if not loop or int(loop.group(1)) != ranks or int(loop.group(3)) != 4000:
    sys.exit(f"FAILED: expected a loop on {ranks} procs with 4000 atoms")
if len(table) != len(reference):
    sys.exit(f"FAILED: {len(table)} thermo rows, the 1-rank run printed {len(reference)}")
for mine, theirs in zip(table, reference):
    for a, b in zip(mine, theirs):
        if abs(a - b) > 1e-6 * max(1.0, abs(b)):
            sys.exit(f"FAILED: thermo row {mine} differs from the 1-rank run's {theirs}")
energies = [row[3] for row in table]  # thermo_style custom step temp pe etotal press
if max(energies) - min(energies) > 1e-2:
    sys.exit(f"FAILED: total energy drifted: {energies}")
print(f"ok: LAMMPS on {ranks} ranks through zmpi matches the 1-rank run ({len(table)} thermo rows)")
