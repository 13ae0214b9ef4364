#!/usr/bin/env python3
"""The sources whose compile command differs between two configurations of the tree, for
scripts/lint.sh --since: what a CMake change (flags, definitions, include paths) alters.

usage: lint_recompiled.py BASE_DB BASE_ROOT BASE_BUILD DB ROOT BUILD
  BASE_DB, DB  compile_commands.json of the baseline's tree (configured in BASE_BUILD from
               the sources in BASE_ROOT) and of the current one (ROOT, BUILD)
Prints the absolute paths (under ROOT) of the sources in DB whose options, with the
baseline's paths read as the current ones, are not the baseline's (in any order) -- new
sources included.
"""
import json
import os
import shlex
import sys


def commands(db, root, build):
    """Source path relative to ROOT -> its command as a list of arguments, ROOT and BUILD
    spelled as placeholders (so two trees in different places compare equal)."""
    root, build = os.path.realpath(root), os.path.realpath(build)
    out = {}
    for entry in json.load(open(db)):
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        if not path.startswith(root + "/") or path.startswith(build + "/"):
            continue
        args = entry.get("arguments") or shlex.split(entry["command"])
        # The build tree first: it may lie inside the source tree.
        args = [a.replace(build, "@BUILD@").replace(root, "@ROOT@") for a in args]
        out.setdefault(os.path.relpath(path, root), options_of(args))
    return out


# Options whose value is the next argument.
WITH_VALUE = {"-I", "-D", "-U", "-o", "-x", "-include", "-imacros", "-isystem", "-iquote", "-MF", "-MT", "-MQ"}


def options_of(args):
    """The arguments as a sorted list of options (each with its value): a tree configured
    afresh and one configured again may order the same options differently (pkg-config's
    flags after or before the build type's)."""
    options, i = [], 0
    while i < len(args):
        if args[i] in WITH_VALUE and i + 1 < len(args):
            options.append(args[i] + " " + args[i + 1])
            i += 2
        else:
            options.append(args[i])
            i += 1
    return sorted(options)


def main():
    base_db, base_root, base_build, db, root, build = sys.argv[1:]
    base = commands(base_db, base_root, base_build)
    for path, args in commands(db, root, build).items():
        if base.get(path) != args:
            print(os.path.join(os.path.realpath(root), path))


if __name__ == "__main__":
    main()
