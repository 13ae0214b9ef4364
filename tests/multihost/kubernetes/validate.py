#!/usr/bin/env python3
"""Validates zmpi's Kubernetes manifests without a cluster.

kubectl --dry-run=client still asks an API server how to map a kind (and an MPIJob is a
custom resource the server learns from the operator's CRD), so this check is offline:
every document must match its kind's schema in schemas.yaml (MPIJob v2beta1, Secret,
ConfigMap; any other kind is an error), and an MPIJob must keep the rules zmpirun, zmpid
and the operator impose (zmpi_rules.py). --docs FILE: the file shows the commands that
run the manifest (kubectl create secret ..., kubectl apply -f MANIFEST). --self-test:
the check must also fail on broken copies of the first MPIJob, each broken one way.

  validate.py [--self-test] [--docs FILE]... [--default-port P] MANIFEST...

Exit 0: all good; 1: a check failed; 77: python3-yaml or python3-jsonschema is missing
(scripts/setup-deps.sh installs them), which ctest reports as a skip.
"""

import argparse
import os
import sys

try:
    import jsonschema
    import yaml
except ImportError as missing:
    print(f"SKIP: {missing.name} is not installed (Debian: python3-yaml python3-jsonschema)")
    sys.exit(77)

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zmpi_rules  # noqa: E402

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas.yaml")


class Checker:
    def __init__(self, default_port):
        with open(SCHEMAS) as f:
            root = yaml.safe_load(f)
        self.validators = {}
        for kind, ref in root["kinds"].items():
            schema = dict(ref, definitions=root["definitions"])
            jsonschema.Draft7Validator.check_schema(schema)
            self.validators[kind] = jsonschema.Draft7Validator(schema)
        self.default_port = default_port

    def errors(self, documents, origin):
        """Everything wrong with a list of parsed documents, as messages naming `origin`."""
        found = []
        checked = []
        for index, doc in enumerate(documents):
            if doc is None:
                continue  # an empty document ("---" at the end)
            where = f"{origin}, document {index + 1}"
            if not isinstance(doc, dict):
                found.append(f"{where}: not a mapping")
                continue
            kind = f"{doc.get('apiVersion')}/{doc.get('kind')}"
            validator = self.validators.get(kind)
            if validator is None:
                found.append(f"{where}: no schema for {kind} (known: {', '.join(sorted(self.validators))})")
                continue
            problems = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
            for problem in problems:
                path = ".".join(str(p) for p in problem.absolute_path) or "(top)"
                found.append(f"{where} ({kind}): {path}: {problem.message}")
            if not problems:
                checked.append(doc)
        secrets = {d["metadata"]["name"]: d for d in checked if d["kind"] == "Secret"}
        for doc in checked:
            if doc["kind"] == "MPIJob":
                found += [f"{origin}: {e}" for e in zmpi_rules.check_mpijob(doc, secrets, self.default_port)]
        return found


def load(path):
    with open(path) as f:
        return list(yaml.safe_load_all(f))


def first_mpijob(documents):
    return next(d for d in documents if isinstance(d, dict) and d.get("kind") == "MPIJob")


def docs_errors(doc_files, manifests, documents):
    """The files in --docs show how to run the manifests: create the secret, apply the file."""
    found = []
    texts = {path: open(path).read() for path in doc_files}
    jobs = [d for d in documents if isinstance(d, dict) and d.get("kind") == "MPIJob"]
    for path, text in texts.items():
        for manifest in manifests:
            if f"kubectl apply -f {manifest}" not in text:
                found.append(f"{path}: does not show 'kubectl apply -f {manifest}'")
    for job in jobs:
        worker = job["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]
        secret = next((v["secret"] for v in worker.get("volumes", []) if "secret" in v), None)
        words = zmpi_rules.argv(worker["containers"][0])
        key = os.path.basename(zmpi_rules.option_value(words, "--secret-file") or "")
        if secret is None:
            continue
        command = f"kubectl create secret generic {secret['secretName']} --from-file={key}="
        if not any(command in text for text in texts.values()):
            found.append(f"no file of {doc_files} shows '{command}...' (the Secret the MPIJob mounts)")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifests", nargs="+")
    parser.add_argument("--docs", action="append", default=[])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--default-port", type=int, default=7117, help="zmpirun's default agent port")
    args = parser.parse_args()
    checker = Checker(args.default_port)
    failures = 0
    all_documents = []
    for path in args.manifests:
        try:
            documents = load(path)
        except (OSError, yaml.YAMLError) as error:
            print(f"FAIL: {path}: {error}")
            failures += 1
            continue
        all_documents += documents
        errors = checker.errors(documents, path)
        for error in errors:
            print(f"FAIL: {error}")
        failures += len(errors)
        if not errors:
            print(f"ok: {path}: {len([d for d in documents if d is not None])} document(s) valid")
    for error in docs_errors(args.docs, args.manifests, all_documents) if args.docs else []:
        print(f"FAIL: {error}")
        failures += 1
    if args.docs and failures == 0:
        print(f"ok: {', '.join(args.docs)} show how to run {', '.join(args.manifests)}")
    if args.self_test:
        import self_test

        failures += self_test.run(checker, first_mpijob(all_documents))
    if failures:
        print(f"{failures} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
