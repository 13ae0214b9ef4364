#!/usr/bin/env python3
"""Fails naming each read of a ZMPI_* variable that bypasses the settings registry.

Usage: check_reads.py SOURCE_ROOT ZMPI_INFO

Every "ZMPI_..." string literal in mpi/, transport/ and runtime/ must be the name of a
setting `zmpi_info --names` lists (a literal that is not is a variable read, written or
forwarded without a declaration), no name may be declared twice, and getenv() may take a
name that is not a literal only in the few places that read other programs' variables
(SLURM_*, PMIx, Open MPI's) or are the registry itself.
"""
import pathlib
import re
import subprocess
import sys

LAYERS = ("mpi", "transport", "runtime")
LITERAL = re.compile(r'"(ZMPI_[A-Z0-9_]+)')
GETENV = re.compile(r"\b(?:secure_)?getenv\s*\(\s*([^)]*)\)")
# Files whose getenv() takes a computed name, and why that is not a ZMPI_ setting.
COMPUTED_NAME_ALLOWED = {
    "transport/settings.cc": "the registry itself",
    "mpi/core/environment.cc": "environmentString, for SLURM_* (its callers pass literals, checked above)",
    "runtime/zmpirun/options.cc": "Open MPI's and PRTE's variables (OMPI_MCA_*, *_default_hostfile)",
}


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    names_out = subprocess.run([sys.argv[2], "--names"], check=True, capture_output=True, text=True).stdout
    names = names_out.split()
    problems = []
    seen = set()
    for name in names:
        if name in seen:
            problems.append(f"{name} is declared twice")
        seen.add(name)
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in (".cc", ".h", ".cpp", ".c") or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                code = line.split("//", 1)[0]
                for name in LITERAL.findall(code):
                    if name not in seen:
                        problems.append(f"{rel}:{number}: {name} is not a declared setting (transport/settings.h)")
                for argument in GETENV.findall(code):
                    argument = argument.strip()
                    if argument.startswith('"'):
                        if argument.startswith('"ZMPI_'):
                            problems.append(f"{rel}:{number}: getenv({argument}) bypasses the registry")
                    elif rel not in COMPUTED_NAME_ALLOWED:
                        problems.append(f"{rel}:{number}: getenv({argument}) reads a computed name outside the "
                                        "registry")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} read(s) bypass the settings registry")
        return 1
    print(f"{len(names)} settings; every ZMPI_ name in {', '.join(LAYERS)} is one of them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
