"""Runs the benchmark programs under every MPI and turns what they print into records:
dicts with mpi, bench, ranks, op, bytes, rank, metric, value (one measured number each).
Problems (a job that failed, timed out or computed a wrong result) are collected, not
raised: a peer that breaks is reported as missing and the suite goes on."""
import os
import re
import shutil
import statistics

from . import mpis as mpimod

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = {
    "pingpong": os.path.join(ROOT, "bench", "src", "pingpong.c"),
    "collectives": os.path.join(ROOT, "bench", "src", "collectives.c"),
    "footprint": os.path.join(ROOT, "bench", "src", "footprint.c"),
    "rma": os.path.join(ROOT, "bench", "src", "rma.c"),
    "hello": os.path.join(ROOT, "examples", "hello.c"),
    "zmq_pingpong": os.path.join(ROOT, "bench", "src", "zmq_pingpong.c"),
}
# A real application, not compiled here: Debian's LAMMPS, an Open MPI binary that zmpirun
# runs unchanged, on the input of the test that checks its results (tests/apps).
LAMMPS_INPUT = os.path.join(ROOT, "tests", "apps", "lj_liquid.lmp")


def _figures(stdout, fields, named=False):
    """The result lines of a benchmark's output, split: `fields` words, all numbers but the
    first when `named`. Anything else (comments, a launcher's own messages) is skipped."""
    for line in stdout.splitlines():
        parts = line.split()
        if line.startswith("#") or len(parts) != fields:
            continue
        try:
            [float(p) for p in parts[1 if named else 0:]]
        except ValueError:
            continue
        yield parts


class Suite:
    def __init__(self, mpis, build_dir, out_dir, mode, log):
        self.mpis, self.build_dir, self.mode, self.log = mpis, build_dir, mode, log
        self.bin_dir = os.path.join(out_dir, "bin")
        os.makedirs(self.bin_dir, exist_ok=True)
        self.records, self.problems, self.binaries = [], [], {}
        self.loads = []  # (job, 1-minute load average when it started): how noisy it was

    def add(self, mpi, bench, ranks, op, metric, value, bytes=None, rank=None):
        self.records.append(dict(mpi=mpi, bench=bench, ranks=ranks, op=op, bytes=bytes,
                                 rank=rank, metric=metric, value=value))

    def problem(self, mpi, what):
        self.log(f"PROBLEM {mpi}: {what}")
        self.problems.append(dict(mpi=mpi, what=what))

    def compile_all(self):
        for family in sorted({m.family for m in self.mpis}):
            programs = ["zmq_pingpong"] if family == "zmq" else ["pingpong", "collectives",
                                                                   "footprint", "hello", "rma"]
            for program in programs:
                output = os.path.join(self.bin_dir, f"{program}_{family}")
                if mpimod.compile_program(family, self.build_dir, SOURCES[program], output,
                                          self.log):
                    self.binaries[(program, family)] = output
                else:
                    self.problem(family, f"{program} does not compile")

    def _job(self, mpi, program, ranks, args, timeout):
        """Runs one job; its stdout on success, what it printed before failing otherwise."""
        binary = self.binaries.get((program, mpi.family))
        if binary is None:
            return None
        cmd = mpi.command(ranks, binary, args, timeout)
        what = f"{program} {args[args.index('--ops') + 1]}" if "--ops" in args else program
        self.loads.append((f"{mpi.name} {what} -np {ranks}", round(os.getloadavg()[0], 2)))
        result = mpimod.run_job(cmd, mpimod.environment(mpi, timeout), timeout + 15,
                                self.bin_dir, self.binaries.values(),
                                finished=lambda out: out.count("# mem ") >= ranks,
                                exit_grace=mpi.exit_grace)
        if result.hung_after_output:  # its figures stand; the hang is the MPI's to fix
            self.problem(mpi.name, f"{program} -np {ranks} printed everything but did not "
                         f"exit within {mpi.exit_grace:g} s (ended): `{' '.join(cmd)}`")
        elif result.timed_out or result.returncode != 0:
            how = "timed out" if result.timed_out else f"exit status {result.returncode}"
            tail = result.stderr.strip().splitlines()[-3:]
            self.problem(mpi.name, f"{program} -np {ranks} {how} after {result.seconds:.0f} s: "
                         f"`{' '.join(cmd)}` {' | '.join(tail)}")
        for line in result.stdout.splitlines():
            if line.startswith("# wrong"):
                self.problem(mpi.name, f"{program} -np {ranks}: wrong result: {line[8:]}")
        return result.stdout

    def _memory(self, mpi, program, ranks, stdout):
        for line in stdout.splitlines():
            parts = line.split()
            if line.startswith("# mem") and len(parts) == 4:
                self.add(mpi.name, "memory", ranks, program, "peak_kib", int(parts[3]),
                         rank=int(parts[2]))

    def pingpong(self):
        """Every MPI's ping-pong job, `pingpong_rounds` times in turn (zmpi, Open MPI, ...,
        then again), and per size the median over the rounds: the 2 cores of a VM have slow
        minutes, and one job each would hand a slow minute to whichever MPI ran in it."""
        p = self.mode
        rounds = p.get("pingpong_rounds", 1)
        figures = {}  # (mpi name, bytes) -> [(latency, bandwidth) per round]
        for turn in range(1, rounds + 1):
            for mpi in self.mpis:
                program = "zmq_pingpong" if mpi.family == "zmq" else "pingpong"
                which = f" (round {turn}/{rounds})" if rounds > 1 else ""
                self.log(f"ping-pong: {mpi.name}{which}")
                out = self._job(mpi, program, 2, p["pingpong"], p["timeout"])
                if out is None:
                    continue
                for parts in _figures(out, 3):
                    figures.setdefault((mpi.name, int(parts[0])), []).append(
                        (float(parts[1]), float(parts[2])))
                self._memory(mpi, "pingpong", 2, out)
        for (name, size), trips in figures.items():
            self.add(name, "pingpong", 2, "pingpong", "latency_us",
                     round(statistics.median(t[0] for t in trips), 3), size)
            self.add(name, "pingpong", 2, "pingpong", "bandwidth_MBps",
                     round(statistics.median(t[1] for t in trips), 1), size)

    def _rounds(self, program, ranks, args, label, memory):
        """`program` once per MPI that runs the collectives, `collective_rounds` times in turn
        (zmpi, Open MPI, ..., then again): {(mpi name, op, bytes): [time_us per round]}."""
        rounds = self.mode.get("collective_rounds", 1)
        figures = {}
        for turn in range(1, rounds + 1):
            for mpi in self.mpis:
                if mpi.family == "zmq" or mpi.name not in self.mode["collective_mpis"]:
                    continue
                which = f" (round {turn}/{rounds})" if rounds > 1 else ""
                self.log(f"{label}: {mpi.name}{which}")
                out = self._job(mpi, program, ranks, args, self.mode["timeout"])
                if out is None:
                    continue
                for parts in _figures(out, 4, named=True):
                    figures.setdefault((mpi.name, parts[0], int(parts[1])), []).append(float(parts[2]))
                if memory:
                    self._memory(mpi, program, ranks, out)
        return figures

    def collectives(self, ranks, ops):
        """One job per operation and MPI, operation-major, so the MPIs measure an operation
        minutes apart at most and a change of load from elsewhere hits them alike; with
        `collective_rounds` > 1 every operation's jobs run that many times in turn (zmpi,
        Open MPI, ..., then again), and per size the median over the rounds counts, as in
        pingpong(): a slow minute of the VM then lands in one round of every MPI instead
        of in the one job of whichever MPI ran in it."""
        for op in ops:
            figures = self._rounds("collectives", ranks, self.mode["collectives"] + ["--ops", op],
                                   f"collectives {op} -np {ranks}", memory=True)
            for (name, what, size), times in figures.items():
                self.add(name, "collectives", ranks, what, "time_us",
                         round(statistics.median(times), 3), size)

    def rma(self, ranks):
        """One-sided latencies (bench/src/rma.c: passive target, allocated and created
        windows), one job per MPI and round, median per size over the rounds."""
        figures = self._rounds("rma", ranks, self.mode["rma"], f"one-sided -np {ranks}", memory=False)
        for (name, what, size), times in figures.items():
            self.add(name, "rma", ranks, what, "time_us", round(statistics.median(times), 3), size)

    def footprint(self, ranks):
        for mpi in self.mpis:
            if mpi.family == "zmq":
                continue
            self.log(f"footprint -np {ranks}: {mpi.name}")
            out = self._job(mpi, "footprint", ranks, [], 60)
            if out is not None:
                self._memory(mpi, "footprint", ranks, out)

    def apps(self, ranks_list):
        """Debian's LAMMPS (`lmp`, built for Open MPI) on a Lennard-Jones liquid: its own
        "Loop time" (the MD steps, without start-up) under every MPI that runs an Open MPI
        binary -- zmpi, zmpi-tcp, ompi-sm, ompi-tcp; MPICH cannot --, `app_rounds` times in
        turn, the median counts. Not a kernel of ours: ghost-atom exchanges (Irecv, Send,
        Wait) between compute phases, and small allreduces."""
        lmp = shutil.which("lmp") or shutil.which("lmp", path="/usr/bin")
        if lmp is None:
            self.log("apps: lmp not installed (scripts/setup-deps.sh installs lammps): skipped")
            return
        rounds, steps = self.mode.get("app_rounds", 1), self.mode.get("app_steps", 250)
        args = ["-in", LAMMPS_INPUT, "-log", "none", "-var", "steps", str(steps)]
        targets = [m for m in self.mpis if m.family in ("zmpi", "ompi")]
        for ranks in ranks_list:
            times = {}
            for turn in range(1, rounds + 1):
                for mpi in targets:
                    self.log(f"apps lammps -np {ranks}: {mpi.name} (round {turn}/{rounds})")
                    cmd = mpi.command(ranks, lmp, args, self.mode["timeout"])
                    self.loads.append((f"{mpi.name} lammps -np {ranks}", round(os.getloadavg()[0], 2)))
                    result = mpimod.run_job(cmd, mpimod.environment(mpi, self.mode["timeout"]),
                                            self.mode["timeout"] + 15, self.bin_dir, [lmp])
                    loop = re.search(r"Loop time of (\S+) on (\d+) procs", result.stdout)
                    if result.returncode != 0 or result.timed_out or not loop or int(loop.group(2)) != ranks:
                        tail = " | ".join(result.stderr.strip().splitlines()[-3:])
                        self.problem(mpi.name, f"lammps -np {ranks} failed (status {result.returncode}, "
                                     f"timed out {result.timed_out}): `{' '.join(cmd)}` {tail}")
                        continue
                    times.setdefault(mpi.name, []).append(float(loop.group(1)))
            for name, samples in times.items():
                self.add(name, "apps", ranks, "lammps", "loop_s", round(statistics.median(samples), 4))

    def startup(self, ranks):
        """Wall time of the whole launcher command running hello, round-robin over the MPIs
        (so a burst of load from elsewhere hits them alike); the first round is a warm-up."""
        runs = self.mode["startup_runs"]
        self.log(f"start-up -np {ranks} hello: {runs} runs + 1 warm-up each")
        targets = [m for m in self.mpis if m.family != "zmq" and ("hello", m.family) in self.binaries]
        failed = set()
        for round_ in range(runs + 1):
            for mpi in targets:
                if mpi.name in failed:
                    continue
                binary = self.binaries[("hello", mpi.family)]
                cmd = mpi.command(ranks, binary, [], 60)
                result = mpimod.run_job(cmd, mpimod.environment(mpi, 60), 75, self.bin_dir,
                                        self.binaries.values())
                if result.timed_out or result.returncode != 0 or result.stdout.count("Hello") != ranks:
                    failed.add(mpi.name)
                    self.problem(mpi.name, f"hello -np {ranks} failed (status {result.returncode},"
                                 f" timed out {result.timed_out}): {result.stderr.strip()[-300:]}")
                elif round_ > 0:
                    self.add(mpi.name, "startup", ranks, "hello", "wall_s", result.seconds)
        for mpi in targets:
            samples = [r["value"] for r in self.records
                       if r["bench"] == "startup" and r["mpi"] == mpi.name]
            if samples:
                self.log(f"  {mpi.name}: median {statistics.median(samples):.3f} s")
