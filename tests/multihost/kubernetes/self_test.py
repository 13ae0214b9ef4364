"""The validator must fail on broken manifests, not only pass the good one: each case
breaks a copy of the MPIJob one way (or adds a document) and names the message expected.
A case whose copy passes, or fails without the message expected, fails the self-test."""

import copy

SECRET = "c2VjcmV0LW9mLWF0LWxlYXN0LTE2LWJ5dGVz"  # base64 of "secret-of-at-least-16-bytes"


def launcher(job):
    return job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]


def worker(job):
    return job["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]


def secret_name(job):
    return next(v["secret"]["secretName"] for v in worker(job)["volumes"] if "secret" in v)


def set_command(spec, words):
    spec["containers"][0]["command"] = words
    spec["containers"][0].pop("args", None)


def replace_in_command(spec, old, new):
    container = spec["containers"][0]
    container["command"] = [new if word == old else word for word in container["command"]]


def insert_options(spec, *words):
    """Puts zmpirun options right after "zmpirun"."""
    command = spec["containers"][0]["command"]
    command[1:1] = list(words)


def secret_doc(job, value_b64):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": secret_name(job)}, "type": "Opaque",
            "data": {"secret": value_b64}}


def np_of(job):
    words = launcher(job)["containers"][0]["command"]
    return int(words[words.index("-np") + 1])


# (what is broken, how, a piece of the message it must give). `how` edits the MPIJob in
# place and may return extra documents to validate with it.
BROKEN = [
    ("a misspelt spec field", lambda j: j["spec"].update(slotPerWorker=2), "'slotPerWorker' was unexpected"),
    ("slotsPerWorker as a string", lambda j: j["spec"].update(slotsPerWorker="2"), "'2' is not of type 'integer'"),
    ("an unknown MPI implementation", lambda j: j["spec"].update(mpiImplementation="LAM"), "'LAM' is not one of"),
    ("no replica specs", lambda j: j["spec"].pop("mpiReplicaSpecs"), "'mpiReplicaSpecs' is a required property"),
    ("a restart policy the operator refuses",
     lambda j: j["spec"]["mpiReplicaSpecs"]["Worker"].update(restartPolicy="Always"), "'Always' is not one of"),
    ("a container without image", lambda j: worker(j)["containers"][0].pop("image"), "'image' is a required property"),
    ("a misplaced container field", lambda j: worker(j)["containers"][0].update(readinesProbe={}),
     "'readinesProbe' was unexpected"),
    ("an uppercase job name", lambda j: j["metadata"].update(name="Zmpi"), "does not match"),
    ("a job name too long for its pods", lambda j: j["metadata"].update(name="z" * 60), "is not a DNS label"),
    ("two launchers", lambda j: j["spec"]["mpiReplicaSpecs"]["Launcher"].update(replicas=2), "exactly 1 launcher"),
    ("no workers", lambda j: j["spec"]["mpiReplicaSpecs"]["Worker"].update(replicas=0), "no workers"),
    ("the launcher created at start", lambda j: j["spec"].update(launcherCreationPolicy="AtStartup"),
     "must be WaitForWorkersReady"),
    ("ranks on the launcher too", lambda j: j["spec"].update(runLauncherAsWorker=True), "run ranks on workers only"),
    ("workers left running", lambda j: j["spec"]["runPolicy"].update(cleanPodPolicy="None"),
     "must be Running or All"),
    ("a secret readable by the group", lambda j: worker(j)["volumes"][0]["secret"].update(defaultMode=0o440),
     "would have mode 0440"),
    ("a secret with the default mode", lambda j: launcher(j)["volumes"][0]["secret"].pop("defaultMode"),
     "would have mode 0644"),
    ("fsGroup on a pod with the secret", lambda j: worker(j).update(securityContext={"fsGroup": 1000}),
     "securityContext.fsGroup"),
    ("the secret file on no mount", lambda j: worker(j)["containers"][0].pop("volumeMounts"), "is on no volume mount"),
    ("workers with another Secret", lambda j: worker(j)["volumes"][0]["secret"].update(secretName="other"),
     "zmpid would refuse every launch"),
    ("workers running sshd", lambda j: set_command(worker(j), ["/usr/sbin/sshd", "-De"]), "must run zmpid"),
    ("zmpid on every address", lambda j: replace_in_command(worker(j), "$(POD_IP):7117", "0.0.0.0:7117"),
     "bind the pod's own address"),
    ("$(POD_IP) from nowhere", lambda j: worker(j)["containers"][0]["env"].pop(0),
     "env POD_IP is not valueFrom fieldRef status.podIP"),
    ("no readiness probe", lambda j: worker(j)["containers"][0].pop("readinessProbe"), "needs a readinessProbe"),
    ("a probe on another port",
     lambda j: worker(j)["containers"][0]["readinessProbe"]["tcpSocket"].update(port=7118),
     "is not zmpid's port 7117"),
    ("zmpid on a port zmpirun does not try", lambda j: replace_in_command(worker(j), "$(POD_IP):7117", "$(POD_IP):7200"),
     "zmpirun reaches agents on port 7117"),
    ("zmpid without a secret", lambda j: set_command(worker(j), ["zmpid", "--bind", "$(POD_IP):7117"]),
     "has no --secret-file"),
    ("more ranks than slots", lambda j: replace_in_command(launcher(j), str(np_of(j)), str(np_of(j) + 1)),
     "zmpirun refuses more ranks than slots"),
    ("hosts named by -H", lambda j: insert_options(launcher(j), "-H=a:2"),
     "-H replaces the operator's hostfile"),
    ("another hostfile", lambda j: insert_options(launcher(j), "--hostfile", "/hosts"),
     "the operator's hostfile is /etc/mpi/hostfile"),
    ("MPICH's hostfile variable, which zmpirun does not read", lambda j: j["spec"].update(mpiImplementation="MPICH"),
     "add --hostfile /etc/mpi/hostfile"),
    ("a launcher through a shell", lambda j: set_command(launcher(j), ["sh", "-c", "zmpirun -np 6 prog"]),
     "must run zmpirun directly"),
    ("a zmpirun option that does not exist", lambda j: insert_options(launcher(j), "--npp"),
     "'--npp' is not a zmpirun option"),
    ("zmpirun without the secret", lambda j: launcher(j)["containers"][0].pop("env"), "no env ZMPI_SECRET_FILE"),
    ("launcher and workers of different images", lambda j: worker(j)["containers"][0].update(image="zmpi:other"),
     "run different images"),
    ("a Secret too short", lambda j: [secret_doc(j, "c2hvcnQ=")], "holds 5 bytes"),
    ("a Secret without the key", lambda j: [dict(secret_doc(j, SECRET), data={"other": SECRET})], "has no key secret"),
    ("a Secret whose data is not base64", lambda j: [secret_doc(j, "not base64!")], "does not match"),
    ("a ConfigMap with a number as data",
     lambda j: [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"n": 1}}],
     "1 is not of type 'string'"),
    ("a kind without schema", lambda j: [{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}],
     "no schema for apps/v1/Deployment"),
]

# Variants that must stay valid: the check is not merely strict.
GOOD = [
    ("the hostfile named explicitly",
     lambda j: insert_options(launcher(j), "--hostfile", "/etc/mpi/hostfile")),
    ("MPICH with the hostfile named",
     lambda j: (j["spec"].update(mpiImplementation="MPICH"), insert_options(launcher(j), "-hostfile=/etc/mpi/hostfile"))
     and None),
    ("more ranks with --oversubscribe",
     lambda j: (replace_in_command(launcher(j), str(np_of(j)), str(np_of(j) * 2)),
                insert_options(launcher(j), "--oversubscribe")) and None),
    ("zmpid on its default port", lambda j: replace_in_command(worker(j), "$(POD_IP):7117", "$(POD_IP)")),
    ("a Secret and a ConfigMap alongside", lambda j: [
        secret_doc(j, SECRET), {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "b"}}]),
    ("the secret projected with its own mode", lambda j: worker(j)["volumes"][0]["secret"].update(
        defaultMode=0o644, items=[{"key": "secret", "path": "secret", "mode": 0o600}])),
]


def run(checker, job):
    failures = 0
    for what, how, expected in BROKEN:
        broken = copy.deepcopy(job)
        extra = how(broken)
        documents = [broken] + (extra if isinstance(extra, list) else [])
        errors = checker.errors(documents, "broken")
        if any(expected in e for e in errors):
            print(f"ok: refuses {what}")
        else:
            failures += 1
            print(f"FAIL: self-test: {what}: expected an error with '{expected}', got {errors or 'none'}")
    for what, how in GOOD:
        variant = copy.deepcopy(job)
        extra = how(variant)
        documents = [variant] + (extra if isinstance(extra, list) else [])
        errors = checker.errors(documents, "variant")
        if errors:
            failures += 1
            print(f"FAIL: self-test: {what} should pass, got {errors}")
        else:
            print(f"ok: accepts {what}")
    return failures
