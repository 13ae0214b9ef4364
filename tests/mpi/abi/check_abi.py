#!/usr/bin/env python3
"""Checks zmpi's libmpi.so.40 against Open MPI 4.1's ABI (DESIGN.md, "ABI with Open MPI 4.1").

  check_abi.py exports LIB EXPORTS_TXT [OMPI_LIB MPI_H]
      Every MPI_*/PMPI_* function in the recorded export list (and, when given, in the live
      Open MPI library) is exported by LIB; where Open MPI has both MPI_X and PMPI_X, MPI_X
      is weak and PMPI_X strong, so a profiling tool can interpose MPI_X. With the live
      library and its mpi.h, also every other symbol mpi.h names that Open MPI exports
      (OMPI_C_MPI_COMM_DUP_FN, MPI_F_STATUS_IGNORE, ...): a program may reference those too.
  check_abi.py sizes LIB SIZES_TXT [OMPI_LIB MPI_H]
      Every predefined object has exactly Open MPI's symbol size (nm -D -S), because an
      executable built by Open MPI's mpicc holds COPY relocations of that size.
  check_abi.py copyreloc PROGRAM SYMBOL...
      PROGRAM (built by Open MPI's mpicc) has R_X86_64_COPY relocations for the SYMBOLs,
      i.e. it really exercises the copy-relocation path when run against zmpi.
Exit status 0 when everything holds; otherwise every problem is listed.
"""
import re
import subprocess
import sys


def dynamic_symbols(lib):
    """name -> (type letter, size or None) for the defined dynamic symbols of lib."""
    out = subprocess.run(["nm", "-D", "-S", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            symbols[parts[3]] = (parts[2], int(parts[1], 16))
        elif len(parts) == 3:
            symbols[parts[2]] = (parts[1], None)
    return symbols


def read_list(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def header_identifiers(mpi_h):
    with open(mpi_h) as f:
        return set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", f.read()))


def is_weak(kind):
    return kind in ("W", "V", "w", "v")


def check_exports(args):
    lib, exports_txt = args[0], args[1]
    zmpi = dynamic_symbols(lib)
    expected = {row[0] for row in read_list(exports_txt)}
    ompi = None
    if len(args) >= 4:
        ompi = dynamic_symbols(args[2])
        live = {name for name in ompi if re.match(r"P?MPI_", name) and ompi[name][0] in "TWtw"}
        stale = sorted(live - expected)
        if stale:
            print(f"note: {len(stale)} functions exported by {args[2]} are not in {exports_txt}: {stale[:10]}")
        expected |= live
    problems = []
    for name in sorted(expected):
        if name not in zmpi:
            problems.append(f"missing export: {name}")
    for name in sorted(expected):
        if not name.startswith("MPI_") or "P" + name not in expected:
            continue  # Open MPI has no PMPI_ twin for this one (MPI_COMM_DUP_FN, ...)
        if name in zmpi and not is_weak(zmpi[name][0]):
            problems.append(f"{name} should be a weak alias, is '{zmpi[name][0]}'")
        pname = "P" + name
        if pname in zmpi and zmpi[pname][0] != "T":
            problems.append(f"{pname} should be a strong function, is '{zmpi[pname][0]}'")
    if ompi is not None:
        named = header_identifiers(args[3])
        for name in sorted(named & set(ompi)):
            if re.match(r"P?MPI_", name) and ompi[name][0] in "TWtw":
                continue  # checked above
            if name not in zmpi:
                problems.append(f"missing export of a symbol mpi.h names: {name} ({ompi[name][0]})")
    # Not a failure (yet): anything else exported can interpose on, or be interposed by, a
    # program's own copy of the same library (zmq, spdlog, fmt, the C++ runtime).
    foreign = sorted(name for name in zmpi if not re.match(r"(P?MPIX?_|ompi_|OMPI_|mpi_|MPIR_|zmpi_)", name))
    if foreign:
        print(f"note: {len(foreign)} other symbols are exported, e.g. {foreign[:3]}")
    checked = len(expected)
    return problems, f"{checked} MPI_*/PMPI_* functions exported (MPI_X weak, PMPI_X strong)"


def check_sizes(args):
    lib, sizes_txt = args[0], args[1]
    zmpi = dynamic_symbols(lib)
    expected = {row[0]: int(row[1]) for row in read_list(sizes_txt)}
    if len(args) >= 4:
        ompi = dynamic_symbols(args[2])
        named = header_identifiers(args[3])
        for name in named & set(ompi):
            kind, size = ompi[name]
            if kind in "BDVRbdr" and size is not None:
                if name in expected and expected[name] != size:
                    print(f"note: {sizes_txt} says {name} is {expected[name]} bytes, {args[2]} says {size}")
                expected[name] = size
    problems = []
    for name, size in sorted(expected.items()):
        if name not in zmpi:
            problems.append(f"missing object: {name} ({size} bytes)")
        elif zmpi[name][1] != size:
            problems.append(f"{name} is {zmpi[name][1]} bytes, Open MPI's is {size}")
        elif zmpi[name][0] not in "BDVbd":
            problems.append(f"{name} is not a data object (type '{zmpi[name][0]}')")
    return problems, f"{len(expected)} predefined objects have Open MPI's sizes"


def check_copyreloc(args):
    program, symbols = args[0], args[1:]
    out = subprocess.run(["readelf", "-r", "-W", program], capture_output=True, text=True, check=True).stdout
    copied = set()
    for line in out.splitlines():
        if "R_X86_64_COPY" in line:
            copied.add(line.split()[-3] if line.split()[-2] == "+" else line.split()[-1])
    copied = {re.sub(r"@.*", "", name) for name in copied}
    problems = [f"{program} has no COPY relocation for {name}" for name in symbols if name not in copied]
    return problems, f"COPY relocations for {', '.join(symbols)}"


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    command, args = sys.argv[1], sys.argv[2:]
    checks = {"exports": check_exports, "sizes": check_sizes, "copyreloc": check_copyreloc}
    if command not in checks:
        print(__doc__)
        return 2
    problems, summary = checks[command](args)
    for problem in problems:
        print(problem)
    if problems:
        print(f"FAILED: {len(problems)} problems")
        return 1
    print(f"ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
