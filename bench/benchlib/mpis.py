"""The MPI implementations under comparison: how to compile a benchmark for each and how to
launch it, and one bounded way to run a job (a hung job is killed and reported, never waited
for). Only loopback is used: zmpi binds 127.0.0.1 for a local job, Open MPI's tcp BTL and
out-of-band channel are restricted to `lo`, and MPICH's UCX to `lo`."""
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field


@dataclass
class Mpi:
    name: str  # column name in every table: zmpi, zmpi-tcp, ompi-sm, ompi-tcp, mpich, zmq
    family: str  # which compiled binary it runs: zmpi, ompi, mpich or zmq
    description: str
    launcher: list = field(default_factory=list)  # program and options before "-np N"
    options: list = field(default_factory=list)  # options after "-np N"
    env: dict = field(default_factory=dict)
    oversubscribe: list = field(default_factory=list)  # added when ranks > cores
    timeout_option: str = ""  # the launcher's own job timeout (a first line of defence)
    # Seconds a job may still run once every rank printed its "# mem" line, the last thing a
    # benchmark prints before MPI_Finalize; None: no limit but the job timeout. For an MPI
    # known to hang in its finalize on some transport (see bench/run_hosts.py).
    exit_grace: float = None

    def command(self, ranks, binary, args, timeout):
        if self.family == "zmq":
            return [binary] + list(args)
        cmd = list(self.launcher)
        if self.timeout_option:
            cmd += [self.timeout_option, str(int(timeout))]
        if ranks > (os.cpu_count() or 1):
            cmd += self.oversubscribe
        return cmd + ["-np", str(ranks)] + self.options + [binary] + list(args)


def configurations(build_dir):
    """Every MPI the suite knows, in table order; the ones not installed are left out and
    named in the second list."""
    zmpirun = os.path.join(build_dir, "bin", "zmpirun")
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    ompi = ["mpirun.openmpi"] + root
    ompi_lo = ["--mca", "oob_tcp_if_include", "lo"]
    mpich_env = {"UCX_NET_DEVICES": "lo"}
    all_mpis = [
        Mpi("zmpi", "zmpi", "zmpi, default same-host path (shared memory)", [zmpirun],
            oversubscribe=["--oversubscribe"], timeout_option="--timeout"),
        Mpi("zmpi-tcp", "zmpi", "zmpi, ZMPI_TRANSPORT=tcp (loopback)", [zmpirun],
            ["-x", "ZMPI_TRANSPORT=tcp"], oversubscribe=["--oversubscribe"],
            timeout_option="--timeout"),
        Mpi("ompi-sm", "ompi", "Open MPI, --mca btl self,vader (shared memory)", ompi,
            ompi_lo + ["--mca", "btl", "self,vader"], oversubscribe=["--oversubscribe"],
            timeout_option="--timeout"),
        Mpi("ompi-tcp", "ompi", "Open MPI, --mca btl tcp,self (loopback)", ompi,
            ompi_lo + ["--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "lo"],
            oversubscribe=["--oversubscribe"], timeout_option="--timeout"),
        Mpi("mpich", "mpich", "MPICH (mpiexec.mpich, ch4 shared memory)", ["mpiexec.mpich"],
            env=mpich_env),
        Mpi("zmq", "zmq", "raw zmq ping-pong over loopback tcp (the floor of zmpi's tcp path)"),
    ]
    present, absent = [], []
    for mpi in all_mpis:
        have = compiler(mpi.family, build_dir) and (mpi.family == "zmq" or shutil.which(mpi.launcher[0]))
        (present if have else absent).append(mpi if have else mpi.name)
    return present, absent


def compiler(family, build_dir):
    """The compiler command for a family, or None when it is not installed."""
    if family == "zmpi":
        path = os.path.join(build_dir, "bin", "zmpicc")
        return [path] if os.access(path, os.X_OK) else None
    if family == "zmq":
        cc = shutil.which("cc") or shutil.which("gcc")
        return [cc] if cc and os.path.exists("/usr/include/zmq.h") else None
    name = {"ompi": "mpicc.openmpi", "mpich": "mpicc.mpich"}[family]
    return [name] if shutil.which(name) else None


def compile_program(family, build_dir, source, output, log):
    """Compiles one benchmark source for one family; False (and the error in the log) when
    the compiler fails."""
    cmd = compiler(family, build_dir) + ["-O2", "-I", os.path.dirname(source), source, "-o", output]
    if family == "zmq":
        cmd.append("-lzmq")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        log(f"compile failed: {' '.join(cmd)}\n{result.stderr}")
    return result.returncode == 0


def _kill_strays(binaries):
    """Kills (by pid) any process still running one of our benchmark binaries: ranks a
    killed launcher left behind."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
        except OSError:
            continue
        if exe in binaries:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


@dataclass
class JobResult:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool
    hung_after_output: bool = False  # killed exit_grace seconds after its last output


def _wait_for_exit(proc, timeout, out_path, finished, exit_grace):
    """Waits for the job; 'timeout' or 'hung' when it has to be killed, else None. The
    output is looked at every 0.2 s only when there is a grace to watch for."""
    watch = finished is not None and exit_grace is not None
    deadline = time.perf_counter() + timeout
    done_at = None
    while True:
        left = deadline - time.perf_counter()
        try:
            proc.wait(timeout=max(0.0, min(left, 0.2) if watch else left))
            return None
        except subprocess.TimeoutExpired:
            pass
        now = time.perf_counter()
        if now >= deadline:
            return "timeout"
        if done_at is None:
            with open(out_path) as f:
                done_at = now if finished(f.read()) else None
        elif now - done_at > exit_grace:
            return "hung"


def run_job(command, env, timeout, scratch, binaries=(), finished=None, exit_grace=None):
    """Runs a job in its own session with output in files (so what it printed before a
    timeout is kept); on timeout SIGTERM to the session, SIGKILL 3 s later, then strays.
    With finished (a test of the output so far) and exit_grace, a job that has not ended
    exit_grace seconds after its output passed the test is ended the same way."""
    out_path, err_path = os.path.join(scratch, "job.out"), os.path.join(scratch, "job.err")
    with open(out_path, "w") as out, open(err_path, "w") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True)
        ended = _wait_for_exit(proc, timeout, out_path, finished, exit_grace)
        if ended is not None:
            for sig, grace in ((signal.SIGTERM, 3), (signal.SIGKILL, 10)):
                try:
                    os.killpg(proc.pid, sig)
                except OSError:
                    pass
                try:
                    proc.wait(timeout=grace)
                    break
                except subprocess.TimeoutExpired:
                    continue
        seconds = time.perf_counter() - start
    if ended is not None or proc.returncode != 0:
        _kill_strays(set(binaries))
    with open(out_path) as f_out, open(err_path) as f_err:
        return JobResult(proc.returncode if proc.returncode is not None else -9,
                         f_out.read(), f_err.read(), seconds, ended == "timeout", ended == "hung")


def environment(mpi, timeout):
    env = dict(os.environ)
    env.update(mpi.env)
    if mpi.family == "ompi":
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if mpi.family == "mpich":
        env["MPIEXEC_TIMEOUT"] = str(int(timeout))  # Hydra's job timeout
    return env
