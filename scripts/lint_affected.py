#!/usr/bin/env python3
"""The sources a change can affect, for scripts/lint.sh --since.

usage: lint_affected.py ROOT SOURCES CHANGED [RECOMPILED]
  SOURCES     absolute paths of the sources to choose from, one a line (lint.sh's list)
  CHANGED     paths relative to ROOT that differ from the baseline, one a line (git diff)
  RECOMPILED  absolute paths of the sources whose compile command differs from the
              baseline's (lint.sh configures the baseline as the build was configured)
Prints the sources (absolute, in SOURCES' order) that are changed themselves, compiled
otherwise, or include, directly or through other project headers, a changed header -- a
changed foo.proto counts as a change of the foo.pb.h generated from it. Prints every source
when a change can alter what the checks report: a .clang-tidy, or scripts/lint.sh (the
flags it gives clang-tidy). This script and lint_recompiled.py only choose the files.
With RECOMPILED, a CMake file counts only through the commands it changed. Without it (the
baseline could not be configured), a change of the top CMakeLists.txt or a cmake/ file
counts as a change of every source, and a CMakeLists.txt further down (the flags of the
targets it defines, whose sources lie in its folder) as a change of every source under its
folder.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
CHECKS = re.compile(r'(^|/)\.clang-tidy$|^scripts/lint\.sh$')
TOP_BUILD = re.compile(r'^CMakeLists\.txt$|^cmake/')
FOLDER_BUILD = re.compile(r'^(.+)/CMakeLists\.txt$')


def includes_of(path, root, cache):
    """Project files PATH includes directly: "x.h" next to it or from the root; "x.pb.h"
    stands for its x.proto (the generated header lives in the build tree)."""
    if path in cache:
        return cache[path]
    found = []
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        text = ""
    for name in INCLUDE.findall(text):
        if name.endswith(".pb.h"):
            name = name[: -len(".pb.h")] + ".proto"
        for base in (os.path.dirname(path), root):
            candidate = os.path.normpath(os.path.join(base, name))
            if os.path.isfile(candidate):
                found.append(candidate)
                break
    cache[path] = found
    return found


def main():
    root, sources_file, changed_file = sys.argv[1:4]
    root = os.path.realpath(root)
    sources = [line.strip() for line in open(sources_file) if line.strip()]
    changed_rel = [line.strip() for line in open(changed_file) if line.strip()]
    recompiled = None
    if len(sys.argv) > 4:
        recompiled = {line.strip() for line in open(sys.argv[4]) if line.strip()}
    if any(CHECKS.search(path) or (recompiled is None and TOP_BUILD.search(path)) for path in changed_rel):
        print("\n".join(sources))
        return
    changed = {os.path.normpath(os.path.join(root, path)) for path in changed_rel} | (recompiled or set())
    folders = []
    if recompiled is None:
        folders = [os.path.join(root, m.group(1)) + "/" for m in map(FOLDER_BUILD.match, changed_rel) if m]
    cache = {}
    for source in sources:
        if any(source.startswith(folder) for folder in folders):
            print(source)
            continue
        seen, stack = {source}, [source]
        while stack:
            current = stack.pop()
            if current in changed:
                print(source)
                break
            for included in includes_of(current, root, cache):
                if included not in seen:
                    seen.add(included)
                    stack.append(included)


if __name__ == "__main__":
    main()
