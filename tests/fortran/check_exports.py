#!/usr/bin/env python3
"""mpi.abi.fortran_exports: zmpi's libmpi_mpifh.so.40 exports every symbol Open MPI 4.1's
does (the recorded list fortran/openmpi-4.1-mpifh-exports.txt, and the installed Open MPI
library's own list when given), each a function or an object as there, and the Fortran
symbols Open MPI keeps in libmpi.so.40 that Fortran programs and the module libraries name
(the mpi_fortran_* sentinels, MPI_COMM_DUP_FN and the other predefined callbacks).
  check_exports.py ZMPI_LIB RECORDED_LIST [OPEN_MPI_LIB]"""
import subprocess
import sys

FROM_LIBMPI = [
    "mpi_fortran_bottom_", "mpi_fortran_in_place_", "mpi_fortran_status_ignore_", "mpi_fortran_statuses_ignore_",
    "mpi_fortran_errcodes_ignore_", "mpi_fortran_unweighted_", "mpi_fortran_weights_empty_",
    "mpi_fortran_argv_null_", "mpi_fortran_argvs_null_", "mpi_conversion_fn_null_", "mpi_comm_dup_fn_",
    "mpi_comm_null_copy_fn_", "mpi_comm_null_delete_fn_", "mpi_type_dup_fn_", "mpi_win_dup_fn_", "mpi_dup_fn_",
    "mpi_null_copy_fn_", "mpi_null_delete_fn_",
]


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            symbols[parts[2]] = parts[1]
    return symbols


def main():
    lib, recorded = sys.argv[1], sys.argv[2]
    ours = exported(lib)
    wanted = {}
    for line in open(recorded):
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        if words[0] == "data":
            wanted[words[1]] = "data"
        else:
            for name in words:
                wanted[name] = "function"
    missing = [n for n in wanted if n not in ours]
    wrong = [n for n, kind in wanted.items() if n in ours and (ours[n] in "TW") != (kind == "function")]
    missing += [n for n in FROM_LIBMPI if n not in ours]
    if len(sys.argv) > 3:
        live = exported(sys.argv[3])
        missing += [n for n in live if n not in ours and n not in missing]
    for name in missing[:40]:
        print(f"missing: {name}")
    for name in wrong[:40]:
        print(f"wrong kind: {name} is {ours[name]}")
    if missing or wrong:
        print(f"FAILED: {len(missing)} symbols missing, {len(wrong)} of the wrong kind")
        return 1
    print(f"ok: all {len(wanted)} symbols of Open MPI's libmpi_mpifh.so.40 and {len(FROM_LIBMPI)} of its "
          f"libmpi.so.40's Fortran symbols are exported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
