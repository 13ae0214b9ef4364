"""What a zmpi MPIJob needs beyond its schema: the rules zmpirun, zmpid and the Kubeflow
MPI Operator impose, which no API server checks and which would otherwise show only on a
cluster, as a job that hangs or fails (docker/kubernetes/README.md says why each holds)."""

import base64
import posixpath
import re

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
HOSTFILE = "/etc/mpi/hostfile"  # where the operator mounts the hostfile on the launcher
# zmpirun's options that take a value (runtime/zmpirun/options.cc), single- or double-dash.
ZMPIRUN_VALUES = {"n", "c", "np", "H", "host", "hostfile", "machinefile", "x", "timeout", "wdir", "stdin",
                  "map-by", "bind-to", "agent-port"}
ZMPIRUN_FLAGS = {"oversubscribe", "nooversubscribe", "tag-output", "encrypt", "allow-run-as-root"}


def argv(container):
    return list(container.get("command", [])) + list(container.get("args", []))


def parse_zmpirun(words):
    """zmpirun's options as {name: [values]} and the program, or raises ValueError."""
    options = {}
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        name, _, value = words[i].lstrip("-").partition("=")
        if re.fullmatch(r"n[0-9]+", name):  # -n4
            name, value = "n", name[1:]
        if name in ZMPIRUN_FLAGS:
            options.setdefault(name, []).append(True)
        elif name in ZMPIRUN_VALUES:
            if not value:
                i += 1
                if i >= len(words):
                    raise ValueError(f"zmpirun option '{words[i - 1]}' has no value")
                value = words[i]
            options.setdefault(name, []).append(value)
        else:
            raise ValueError(f"'{words[i]}' is not a zmpirun option")
        i += 1
    if i < len(words) and words[i] == "--":
        i += 1
    if i >= len(words):
        raise ValueError("zmpirun is given no program")
    return options, words[i]


def option_value(words, name):
    """The value of --name V or --name=V in a command line, or None."""
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(name + "="):
            return word[len(name) + 1:]
    return None


def env_value(container, name):
    for variable in container.get("env", []):
        if variable["name"] == name:
            return variable.get("value")
    return None


class Rules:
    def __init__(self, job, secrets, default_port):
        self.job = job
        self.name = job["metadata"]["name"]
        self.secrets = secrets  # name -> Secret document given alongside
        self.default_port = default_port
        self.errors = []

    def fail(self, where, why):
        self.errors.append(f"MPIJob {self.name}: {where}: {why}")

    def check(self):
        spec = self.job["spec"]
        replicas = spec["mpiReplicaSpecs"]
        launcher, worker = replicas["Launcher"], replicas.get("Worker")
        if launcher.get("replicas", 1) != 1:
            self.fail("Launcher", "the operator runs exactly 1 launcher (replicas: 1)")
        if worker is None or worker.get("replicas", 0) < 1:
            self.fail("Worker", "no workers: zmpirun would have no hosts (Worker replicas >= 1)")
            return self.errors
        workers = worker["replicas"]
        for pod in (f"{self.name}-worker-{workers - 1}", f"{self.name}-launcher"):
            if not DNS_LABEL.match(pod) or len(pod) > 63:
                self.fail("metadata.name", f"pod name '{pod}' is not a DNS label (at most 63 of a-z0-9-)")
        if spec.get("launcherCreationPolicy") != "WaitForWorkersReady":
            self.fail("spec.launcherCreationPolicy", "must be WaitForWorkersReady: otherwise zmpirun starts before "
                      "the workers' zmpid listens and their names resolve")
        if spec.get("runLauncherAsWorker"):
            self.fail("spec.runLauncherAsWorker", "zmpirun takes the launcher's hostfile name (its FQDN, not its "
                      "host name) for another host and would look for a zmpid there: run ranks on workers only")
        if spec.get("runPolicy", {}).get("cleanPodPolicy") not in ("Running", "All"):
            self.fail("spec.runPolicy.cleanPodPolicy", "must be Running or All: zmpid never exits by itself, so "
                      "with None the workers outlive the job")
        port, worker_secret = self.check_worker(worker)
        launcher_secret = self.check_launcher(launcher, spec, workers, port)
        if worker_secret and launcher_secret and worker_secret != launcher_secret:
            self.fail("secrets", f"the launcher reads Secret {launcher_secret[0]} key {launcher_secret[1]}, the "
                      f"workers {worker_secret[0]} key {worker_secret[1]}: zmpid would refuse every launch")
        images = {c["image"] for c in (launcher["template"]["spec"]["containers"][0],
                                       worker["template"]["spec"]["containers"][0])}
        if len(images) != 1:
            self.fail("images", f"launcher and workers run different images {sorted(images)}: the program and "
                      "zmpi's version must be the same on every host")
        return self.errors

    def check_worker(self, worker):
        pod = worker["template"]["spec"]
        container = pod["containers"][0]  # the operator's main container
        words = argv(container)
        where = "Worker container " + container["name"]
        if not words or posixpath.basename(words[0]) != "zmpid":
            self.fail(where, f"must run zmpid (command: [zmpid, --bind, ...]), runs {words[:1]}")
            return None, None
        bind = option_value(words, "--bind")
        port = None
        if bind is None:
            self.fail(where, "zmpid has no --bind ADDR:PORT")
        else:
            host, _, text = bind.rpartition(":") if ":" in bind else (bind, ":", str(self.default_port))
            port = int(text) if text.isdigit() else None
            if not host or port is None:
                self.fail(where, f"--bind '{bind}' is not ADDR:PORT")
            elif host in ("*", "0.0.0.0"):
                self.fail(where, f"--bind '{bind}': bind the pod's own address, the one its name resolves to "
                          "and its ranks bind ($(POD_IP))")
            elif "$(POD_IP)" in host and env_source(container, "POD_IP") != "status.podIP":
                self.fail(where, "--bind uses $(POD_IP) but env POD_IP is not valueFrom fieldRef status.podIP")
        probe = container.get("readinessProbe", {}).get("tcpSocket")
        if probe is None:
            self.fail(where, "needs a readinessProbe tcpSocket on zmpid's port: the launcher waits for Ready")
        elif port is not None and self.probe_port(container, probe["port"]) != port:
            self.fail(where, f"readinessProbe port {probe['port']} is not zmpid's port {port}")
        secret_file = option_value(words, "--secret-file")
        if secret_file is None:
            self.fail(where, "zmpid has no --secret-file: without a secret it refuses every launch")
            return port, None
        return port, self.secret_source(pod, container, secret_file, where)

    def check_launcher(self, launcher, spec, workers, port):
        pod = launcher["template"]["spec"]
        container = pod["containers"][0]
        words = argv(container)
        where = "Launcher container " + container["name"]
        if not words or posixpath.basename(words[0]) != "zmpirun":
            self.fail(where, f"must run zmpirun directly (command: [zmpirun, -np, N, program]), runs {words[:1]}")
            return None
        try:
            options, _ = parse_zmpirun(words)
        except ValueError as error:
            self.fail(where, str(error))
            return None
        slots = workers * spec.get("slotsPerWorker", 1)
        for value in options.get("n", []) + options.get("c", []) + options.get("np", []):
            if not value.isdigit() or int(value) < 1:
                self.fail(where, f"-np {value} is not a number of ranks")
            elif int(value) > slots and "oversubscribe" not in options:
                self.fail(where, f"-np {value}: the workers have {slots} slots ({workers} x slotsPerWorker), and "
                          "zmpirun refuses more ranks than slots without --oversubscribe")
        if "H" in options or "host" in options:
            self.fail(where, "-H replaces the operator's hostfile: name no hosts, the hostfile lists the workers")
        hostfiles = options.get("hostfile", []) + options.get("machinefile", [])
        if hostfiles and hostfiles != [HOSTFILE]:
            self.fail(where, f"--hostfile {hostfiles}: the operator's hostfile is {HOSTFILE}")
        if not hostfiles and spec.get("mpiImplementation", "OpenMPI") != "OpenMPI":
            self.fail(where, "zmpirun finds the hostfile through OMPI_MCA_orte_default_hostfile, which the operator "
                      f"sets for mpiImplementation OpenMPI only: add --hostfile {HOSTFILE}")
        agent_port = (options.get("agent-port") or [env_value(container, "ZMPI_AGENT_PORT")])[-1]
        want = int(agent_port) if agent_port and str(agent_port).isdigit() else self.default_port
        if port is not None and port != want:
            self.fail(where, f"zmpirun reaches agents on port {want}, the workers' zmpid listens on {port} "
                      "(--agent-port)")
        secret_file = env_value(container, "ZMPI_SECRET_FILE")
        if secret_file is None:
            self.fail(where, "no env ZMPI_SECRET_FILE: zmpirun refuses a multi-host job without the secret")
            return None
        return self.secret_source(pod, container, secret_file, where)

    def probe_port(self, container, port):
        if isinstance(port, int):
            return port
        for declared in container.get("ports", []):
            if declared.get("name") == port:
                return declared["containerPort"]
        return None

    def secret_source(self, pod, container, path, where):
        """(Secret name, key) that `path` is read from, checking what zmpid demands of the file."""
        mounts = [m for m in container.get("volumeMounts", [])
                  if path.startswith(m["mountPath"].rstrip("/") + "/") and "subPath" not in m]
        if not mounts:
            self.fail(where, f"the secret file {path} is on no volume mount")
            return None
        mount = max(mounts, key=lambda m: len(m["mountPath"]))
        relative = path[len(mount["mountPath"].rstrip("/")) + 1:]
        volume = next((v for v in pod.get("volumes", []) if v["name"] == mount["name"]), None)
        if volume is None or "secret" not in volume:
            self.fail(where, f"the secret file {path} is not on a Secret volume")
            return None
        source = volume["secret"]
        mode = source.get("defaultMode", 0o644)  # the API server's default
        key = relative
        if "items" in source:
            item = next((i for i in source["items"] if i["path"] == relative), None)
            if item is None:
                self.fail(where, f"Secret volume {volume['name']} projects no file {relative}")
                return None
            key, mode = item["key"], item.get("mode", mode)
        if mode & 0o077:
            self.fail(where, f"the secret file {path} would have mode {mode:04o}: zmpid and zmpirun refuse a "
                      "secret file that group or others may read (defaultMode: 0400)")
        if "fsGroup" in pod.get("securityContext", {}):
            self.fail(where, "securityContext.fsGroup makes the Secret's files group-readable (0440), which "
                      "zmpid and zmpirun refuse")
        self.check_secret(source["secretName"], key, where)
        return source["secretName"], key

    def check_secret(self, name, key, where):
        secret = self.secrets.get(name)
        if secret is None:
            return  # made by kubectl create secret, not a manifest
        value = secret.get("stringData", {}).get(key)
        if value is None and key in secret.get("data", {}):
            value = base64.b64decode(secret["data"][key]).decode("latin-1")
        if value is None:
            self.fail(where, f"Secret {name} has no key {key}")
        elif len(value.strip()) < 16:
            self.fail(where, f"Secret {name} key {key} holds {len(value.strip())} bytes; zmpid wants at least 16")


def env_source(container, name):
    for variable in container.get("env", []):
        if variable["name"] == name:
            return variable.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
    return None


def check_mpijob(job, secrets, default_port):
    return Rules(job, secrets, default_port).check()
