#!/usr/bin/env python3
"""Generates zmpi's Fortran entry points (libmpi_mpifh.so.40) at build time.

Inputs: the export list of Open MPI 4.1's libmpi_mpifh.so.40 (openmpi-4.1-mpifh-exports.txt:
per code address the function, ompi_send_f, and its aliases, mpi_send_, MPI_SEND, ...), the
table of mechanical bindings (bindings.txt) and the hand-written sources (*.cc here, which
mark each function they define with ZMPI_FORTRAN_ALIASES(ompi_x_f)). Outputs:
  - bindings.cc: every function of the table over the C API, with its aliases (those the
    table marks unsupported fail through the error handler, naming themselves); for each
    function neither the table nor a hand-written file defines, a stub that aborts naming
    it; the MPI_SIZEOF helpers; Open MPI's data symbols;
  - aliases.h: ZMPI_FORTRAN_ALIASES_ompi_x_f, the alias declarations a hand-written file
    expands beside its definition (an alias needs its target in the same file).
So the library exports exactly Open MPI's list, whatever is implemented.
"""
import re
import sys

HANDLES = {
    "comm": "MPI_Comm", "type": "MPI_Datatype", "group": "MPI_Group", "op": "MPI_Op", "info": "MPI_Info",
    "errh": "MPI_Errhandler", "win": "MPI_Win", "file": "MPI_File", "req": "MPI_Request", "msg": "MPI_Message",
}
SCALARS = {"i": ("MPI_Fint", True), "I": ("MPI_Fint", False), "a": ("MPI_Aint", True), "A": ("MPI_Aint", False),
           "o": ("MPI_Offset", True), "O": ("MPI_Offset", False), "n": ("MPI_Count", True), "N": ("MPI_Count", False)}
SIZEOF = {"character": 1, "logical": 4, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "real32": 4, "real64": 8,
          "real128": 16, "complex32": 8, "complex64": 16, "complex128": 32}


def c_name(impl):
    """ompi_send_f -> (PMPI_Send, MPI_Send); ompix_bcast_init_f -> (PMPIX_Bcast_init, MPIX_Bcast_init)."""
    prefix, base = ("MPIX_", impl[6:-2]) if impl.startswith("ompix_") else ("MPI_", impl[5:-2])
    name = prefix + base[0].upper() + base[1:]
    return "P" + name, name


# Handle kinds whose index the general body checks: one naming no handle fails here, with
# the kind's error class and a message naming the call, the argument and the index.
CHECKED = {"comm": "MPI_ERR_COMM", "type": "MPI_ERR_TYPE", "op": "MPI_ERR_OP", "group": "MPI_ERR_GROUP",
           "info": "MPI_ERR_INFO", "req": "MPI_ERR_REQUEST"}

# Handle kinds with predefined handles resolved from this library's own tables (convert.h).
FAST = {"comm": ("predefinedComm", "kComms"), "type": ("predefinedType", "kDatatypes"), "op": ("predefinedOp", "kOps")}


def binding(impl, args, target=None):
    """The binding of impl. Where it takes communicators, datatypes or ops, the body comes
    twice: with table loads where every such index is a predefined handle (the hot path --
    MPI_Send(buf, n, MPI_INTEGER, dest, tag, MPI_COMM_WORLD) -- without calls that would
    make it save registers), and a general one, out of line, with full conversions."""
    general = body(impl, args, target, fast=False)
    fast_args = [a.split(":") for a in args if a.split(":")[1] in FAST]
    if not fast_args:
        return [line.replace("@NAME@", impl).replace("@LINKAGE@", 'extern "C" ZMPI_FORTRAN_EXPORT ')
                for line in general]
    names = call_names(args)
    condition = " && ".join(f"zf::{FAST[kind][0]}(*{name})" for name, kind in fast_args)
    lines = [line.replace("@NAME@", impl + "_general").replace("@LINKAGE@", "[[gnu::noinline, gnu::cold]] static ")
             for line in general]
    fast = body(impl, args, target, fast=True)
    lines.append(fast[0].replace("@NAME@", impl).replace("@LINKAGE@", 'extern "C" ZMPI_FORTRAN_EXPORT '))
    lines.append(f"  if (!({condition})) [[unlikely]] return {impl}_general({', '.join(names)});")
    lines += fast[1:]
    return lines


def call_names(args):
    """The binding's parameter names, in order: the arguments, ierr, the hidden lengths."""
    names = [a.split(":")[0] for a in args]
    return names + ["ierr"] + [f"{n}_len" for n, k in (a.split(":") for a in args) if k == "s"]


def body(impl, args, target, fast):
    pname, mpi_name = c_name(impl)
    if target:
        pname = "PMPI_" + target
    params, before, call, after, lengths, checks = [], [], [], [], [], []
    # The communicator whose error handler a bad index goes to: the first one that is valid.
    first_comm = next((a.split(":")[0] for a in args if a.split(":")[1] == "comm"), None)
    handler_comm = None
    if first_comm:
        handler_comm = f"zf::kComms[static_cast<size_t>(*{first_comm})]" if fast else f"{first_comm}_h"
    for arg in args:
        name, kind = arg.split(":")
        if kind == "b":
            params.append(f"void* {name}")
            call.append(f"zf::buffer({name})")
        elif kind == "weights":
            params.append(f"MPI_Fint* {name}")
            call.append(f"zf::weights({name})")
        elif kind == "ranges":
            params.append(f"MPI_Fint* {name}")
            call.append(f"reinterpret_cast<int (*)[3]>({name})")
        elif kind == "P":
            params.append(f"void* {name}")
            call.append(name)
        elif kind in SCALARS:
            ctype, by_value = SCALARS[kind]
            params.append(f"{ctype}* {name}")
            call.append(f"*{name}" if by_value else name)
        elif kind.rstrip("<>") in HANDLES:
            base = kind.rstrip("<>")
            params.append(f"MPI_Fint* {name}")
            if kind == base and fast and base in FAST:
                call.append(f"zf::{FAST[base][1]}[static_cast<size_t>(*{name})]")
            elif kind == base and base in CHECKED:
                checks.append((base != "comm", f"  {HANDLES[base]} {name}_h = zf::{base}(*{name});"))
                via = handler_comm if base != "comm" and handler_comm else "MPI_COMM_WORLD"
                checks.append((base != "comm", f"  if (zf::namesNothing({name}_h, *{name})) "
                                               f'return zf::badIndex(ierr, {via}, {CHECKED[base]}, "{mpi_name}", '
                                               f'"{name}", *{name});'))
                call.append(f"{name}_h")
            elif kind == base:
                call.append(f"zf::{base}(*{name})")
            else:
                init = f"zf::{base}(*{name})" if kind.endswith("<>") else f"{HANDLES[base]}()"
                before.append(f"  {HANDLES[base]} {name}_c = {init};")
                call.append(f"&{name}_c")
                after.append(f"    *{name} = zf::toFortran({name}_c);")
        elif kind == "l>":
            params.append(f"MPI_Fint* {name}")
            before.append(f"  int {name}_c = 0;")
            call.append(f"&{name}_c")
            after.append(f"    *{name} = zf::logical({name}_c);")
        elif kind in ("status", "status>", "status<>"):
            params.append(f"MPI_Fint* {name}")
            before.append(f"  MPI_Status {name}_copy;")
            before.append(f"  MPI_Status* {name}_c = zf::statusFor({name}, &{name}_copy, "
                          f"{'false' if kind == 'status>' else 'true'});")
            call.append(f"{name}_c")
            if kind != "status":
                after.append(f"    zf::storeStatus({name}, {name}_c, &{name}_copy);")
        elif kind == "s":
            params.append(f"char* {name}")
            lengths.append(f"size_t {name}_len")
            before.append(f"  zf::InString {name}_c({name}, {name}_len);")
            before.append(f'  if (!{name}_c.ok()) return zf::badLength(ierr, "{mpi_name}", "{name}", {name}_len);')
            call.append(f"{name}_c.c()")
        else:
            sys.exit(f"gen_bindings.py: {impl}: unknown kind {kind!r} of {name}")
    signature = ", ".join(params + ["MPI_Fint* ierr"] + lengths)
    lines = [f"@LINKAGE@void @NAME@({signature}) {{"]
    lines += [line for later, line in checks if not later] + [line for later, line in checks if later]
    lines += before
    lines.append(f"  const int rc = {pname}({', '.join(call)});")
    if after:
        lines.append("  if (rc == MPI_SUCCESS) {")
        lines += after
        lines.append("  }")
    lines.append("  zf::setError(ierr, rc);")
    lines.append("}")
    return lines


def unsupported_binding(impl, args):
    params = ", ".join([f"void* /*{a}*/" for a in args] + ["MPI_Fint* ierr"])
    return [f'extern "C" ZMPI_FORTRAN_EXPORT void {impl}({params}) {{ zf::unsupportedCall(ierr, "{c_name(impl)[1]}"); }}']


def alias_lines(impl, aliases):
    return [f'extern "C" ZMPI_FORTRAN_EXPORT decltype({impl}) {a} __attribute__((weak, alias("{impl}")));'
            for a in aliases]


def main():
    exports_file, table_file, out_cc, out_h = sys.argv[1:5]
    hand_sources = sys.argv[5:]
    groups, data = [], []
    for line in open(exports_file):
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        if words[0] == "data":
            data.append((words[1], int(words[2])))
        else:
            groups.append((words[0], words[1:]))
    table = {}
    for line in open(table_file):
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        unsupported = words[0].startswith("!")
        name, _, target = words[0].lstrip("!").partition("=")
        impl = ("ompix_" + name[2:] if name.startswith("x_") else "ompi_" + name) + "_f"
        table[impl] = (words[1:], "!" if unsupported else target)
    hand = set()
    for source in hand_sources:
        hand.update(re.findall(r"^ZMPI_FORTRAN_ALIASES\((\w+)\)", open(source).read(), re.M))
    known = {impl for impl, _ in groups}
    for impl in sorted((set(table) | hand) - known):
        sys.exit(f"gen_bindings.py: {impl} is not an entry point of Open MPI's libmpi_mpifh")
    for impl in sorted(set(table) & hand):
        sys.exit(f"gen_bindings.py: {impl} is both in bindings.txt and written by hand")

    header = ["// Generated by fortran/gen_bindings.py. Do not edit.", "#pragma once", ""]
    cc = ["// Generated by fortran/gen_bindings.py from bindings.txt. Do not edit.",
          '#include "fortran/convert.h"', "", "namespace zf = zmpi::fortran;", ""]
    generated = stubbed = 0
    for impl, aliases in groups:
        if impl.startswith(("mpi_sizeof_", "pmpi_sizeof_")):
            kind = impl.split("_")[2]
            # MPI_SIZEOF(x, size, ierror): the bytes of one element of x's type.
            cc.append(f'extern "C" ZMPI_FORTRAN_EXPORT void {impl}(void*, MPI_Fint* size, MPI_Fint* ierr) '
                      f"{{ *size = {SIZEOF[kind]}; zf::setError(ierr, MPI_SUCCESS); }}")
            continue
        if impl in hand:
            header.append(f"#define ZMPI_FORTRAN_ALIASES_{impl} \\")
            header += [f"  {line} \\" for line in alias_lines(impl, aliases)]
            header.append("")
            continue
        if impl in table and table[impl][1] == "!":
            cc += unsupported_binding(impl, table[impl][0])
            stubbed += 1
        elif impl in table:
            cc += binding(impl, *table[impl])
            generated += 1
        elif impl == "mpiext_pcollreq_mpifh_dummy":
            cc.append(f'extern "C" ZMPI_FORTRAN_EXPORT void {impl}() {{}}  // a marker Open MPI exports')
        else:
            cc.append(f'extern "C" ZMPI_FORTRAN_EXPORT void {impl}() {{ zf::unsupported("{c_name(impl)[1]}"); }}')
            stubbed += 1
        cc += alias_lines(impl, aliases)
        cc.append("")
    for name, size in data:
        cc.append(f"// Open MPI's object of that name, {size} bytes; nothing in zmpi reads it.")
        cc.append(f'extern "C" {{ alignas(16) ZMPI_FORTRAN_EXPORT char {name}[{size}] = {{}}; }}')
    total = len([g for g in groups if not g[0].startswith(("mpi_sizeof_", "pmpi_sizeof_"))])
    cc.append(f"// {generated} generated, {len(hand)} by hand, {stubbed} unsupported of {total} functions.")
    open(out_cc, "w").write("\n".join(cc) + "\n")
    open(out_h, "w").write("\n".join(header) + "\n")


if __name__ == "__main__":
    main()
