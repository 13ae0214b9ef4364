#!/usr/bin/env bash
# Static analysis of every zmpi source: clang-tidy (config: .clang-tidy and the lighter
# tests/.clang-tidy) and cppcheck (config: .cppcheck-suppressions, .cppcheck-mpi.cfg), both
# over the compile commands of a build.
#   scripts/lint.sh [--since REV] [BUILD_DIR]
#                                   default build/; needs BUILD_DIR/compile_commands.json of a
#                                   build configured without CMAKE_UNITY_BUILD (a unity build's
#                                   database names its unity_N sources, not the files)
# Checked: every .c/.cc file of the repository that the build compiles, and the project
# headers they include. Not checked: generated code (build/**/*.pb.{h,cc}, the ABI stubs
# build/mpi/generated_stubs.cc) and system headers.
# --since REV: clang-tidy checks only the sources that differ from commit REV (committed or
# not), those whose compile command differs from REV's (a CMake change: REV's tree is
# configured with this build's settings to compare), and those that include, directly or not,
# a header or .proto that differs; all of them when REV is not in the history (a shallow
# clone) or when the checks themselves may differ (a .clang-tidy, this script).
# cppcheck always checks everything (a minute).
# CI passes the commit of .ci/lint-baseline, the last one at which the whole tree was clean.
# Each tool runs over the files ZMPI_JOBS at a time (default 2). Exits non-zero if either
# tool reports anything; the findings are printed as file:line: warning: ... [check].
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
since=
if [[ ${1:-} == --since ]]; then
  since=${2:?"lint: --since needs a commit"}
  shift 2
fi
build=$(realpath -m "${1:-build}")
jobs=${ZMPI_JOBS:-2}
db=$build/compile_commands.json
[[ -f "$db" ]] || { echo "lint: $db not found (configure with cmake first)" >&2; exit 2; }
# clang-tidy 22, not Debian's default 14: since version 21 it skips the declarations of system
# headers (the standard library, Catch2, spdlog, CLI11, zmq.hpp...) when it matches its checks
# instead of matching every check against them in every file, and that was most of its time
# outside the static analyzer (the lint's CPU about halves). ZMPI_CLANG_TIDY picks another.
clang_tidy=${ZMPI_CLANG_TIDY:-clang-tidy-22}
for tool in "$clang_tidy" cppcheck; do
  command -v "$tool" >/dev/null || { echo "lint: $tool not installed (scripts/setup-deps.sh)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The sources to check: the database's entries inside the repository and outside the build
# tree, each file once (a file compiled into several targets has the same flags in each).
python3 - "$db" "$root" "$build" "$work" <<'EOF' || exit 2
import json, os, re, sys
db, root, build, work = sys.argv[1:]
seen, keep = set(), []
for entry in json.load(open(db)):
    f = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    # (a file the database names but the tree no longer has: the build is not yet reconfigured)
    if not f.startswith(root + "/") or f.startswith(build + "/") or f in seen or not os.path.exists(f):
        continue
    seen.add(f)
    # The build's precompiled header (cmake/Pch.cmake, gcc's .gch) is forced into each source
    # with -include: the checks see the source with its own includes instead.
    if "arguments" in entry:
        args, out = entry["arguments"], []
        for a in args:
            if out and out[-1] == "-include" and a.endswith("cmake_pch.hxx"):
                out.pop()
            elif a != "-Winvalid-pch":
                out.append(a)
        entry["arguments"] = out
    else:
        entry["command"] = re.sub(r" -Winvalid-pch| -include \S*cmake_pch\.hxx", "", entry["command"])
    keep.append(entry)
json.dump(keep, open(os.path.join(work, "compile_commands.json"), "w"), indent=1)
with open(os.path.join(work, "files"), "w") as out:
    out.writelines(f + "\n" for f in sorted(seen, key=os.path.getsize, reverse=True))
EOF
nfiles=$(wc -l <"$work/files")
# recompiled_since REV: the sources whose compile command differs from REV's (what a CMake
# change did to flags, definitions, include paths): REV's tree configured with this build's
# settings (compilers, flags, build type, unity, ZMPI_* options from its cache), commands
# compared (scripts/lint_recompiled.py). False if REV's tree cannot be configured so.
recompiled_since() {
  local base=$work/base options
  mkdir -p "$base/src" && git archive "$1" | tar -x -C "$base/src" || return 1
  mapfile -t options < <(sed -n -E 's/^((CMAKE_BUILD_TYPE|CMAKE_(C|CXX)_COMPILER|CMAKE_(C|CXX)_FLAGS[A-Z_]*|CMAKE_UNITY_BUILD|ZMPI_[A-Z0-9_]+):[A-Z]+=.*)$/-D\1/p' "$build/CMakeCache.txt")
  cmake -S "$base/src" -B "$base/build" -G Ninja "${options[@]}" >"$base/configure.log" 2>&1 || return 1
  python3 scripts/lint_recompiled.py "$base/build/compile_commands.json" "$base/src" "$base/build" "$db" "$root" "$build"
}

# clang-tidy's share of them (all, or with --since the ones a change can affect).
cp "$work/files" "$work/tidy-files"
if [[ -n $since ]]; then
  if ! git rev-parse --verify --quiet "${since}^{commit}" >/dev/null; then
    echo "lint: ${since} is not in this clone's history: clang-tidy checks every file"
  else
    git diff --name-only "$since" -- . >"$work/changed"
    git ls-files --others --exclude-standard >>"$work/changed"
    recompiled=()
    if recompiled_since "$since" >"$work/recompiled"; then
      recompiled=("$work/recompiled")
    else
      echo "lint: ${since:0:12} could not be configured as ${build} is: a CMake file changed counts for its folder (the top ones for all)"
    fi
    python3 scripts/lint_affected.py "$root" "$work/files" "$work/changed" "${recompiled[@]}" >"$work/tidy-files" || exit 2
    echo "lint: clang-tidy checks the $(wc -l <"$work/tidy-files") of ${nfiles} files that changes since ${since:0:12} can affect"
  fi
fi
ntidy=$(wc -l <"$work/tidy-files")

# The generated protobuf headers must exist before anything that includes them is parsed.
# Only the missing ones are generated: with all of them there (scripts/test.sh makes them
# first), the lint never runs ninja, so it can run beside a build of the same tree.
if [[ -f "$build/build.ninja" ]]; then
  mapfile -t generated < <(ninja -C "$build" -t targets all | sed -n 's/^\([^:/][^:]*\.pb\.h\): .*/\1/p')
  missing=()
  for header in "${generated[@]}"; do [[ -f "$build/$header" ]] || missing+=("$header"); done
  ((${#missing[@]} == 0)) || ninja -C "$build" "${missing[@]}" >/dev/null ||
    { echo "lint: generating ${missing[*]} failed" >&2; exit 2; }
fi

status=0
# ZMPI_LINT_TOOLS picks the tools (default both), e.g. ZMPI_LINT_TOOLS=cppcheck.
tools=${ZMPI_LINT_TOOLS:-clang-tidy cppcheck}

if [[ " $tools " == *" clang-tidy "* ]] && ((ntidy == 0)); then
  echo "lint: clang-tidy has nothing to check"
elif [[ " $tools " == *" clang-tidy "* ]]; then
  start=$SECONDS
  # One process per file (largest first, so the -j slots end together), each writing its
  # own report (a failure without a finding, e.g. a crash, is reported with its stderr);
  # -Wno-unknown-warning-option because the database may be gcc's; -Wno-c2y-extensions because
  # clang 22's -Wpedantic names __COUNTER__ (in Catch2's macros) a C2y extension, which GCC, the
  # compiler of the database, and C++20 accept.
  # Each file's CPU seconds go to $work/times (the slowest are printed: where the time goes).
  export work clang_tidy
  mkdir -p "$work/tidy" "$work/stderr" "$work/times"
  xargs -P "$jobs" -I{} bash -c 'name=${1//\//_}; out="$work/tidy/$name" err="$work/stderr/$name" TIMEFORMAT="%U %S"
    { time "$clang_tidy" --quiet -p "$work" --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-c2y-extensions "$1" >"$out" 2>"$err"; } 2>"$work/times/$name"
    rc=$?; echo "$1" >>"$work/times/$name"
    if [ $rc -ne 0 ] && [ ! -s "$out" ]; then { echo "clang-tidy exit status $rc on $1"; cat "$err"; } >"$out"; fi' \
    bash {} <"$work/tidy-files"
  # A finding in a header is reported by every file that includes it: print each once
  # (a finding is its "file:line:col: warning|error:" line and the notes up to the next).
  awk '/^\/.*: (warning|error): |^clang-tidy exit status/ { show = !seen[$0]++; if (show) n++ }
       show { print }
       END { if (n) printf "lint: clang-tidy: %d finding(s)\n", n }' "$work"/tidy/* >"$work/tidy.out"
  cat "$work/tidy.out"
  grep -q '' "$work/tidy.out" && status=1
  # (times/NAME: the "user system" CPU seconds, then the file)
  find "$work/times" -type f -exec awk -v root="$root/" 'FNR == 1 { cpu = $1 + $2 } FNR == 2 { sub(root, ""); printf "%.1f %s\n", cpu, $0 }' {} + |
    sort -rn >"$work/times.out"
  cpu=$(awk '{ total += $1 } END { printf "%.0f", total }' "$work/times.out")
  echo "lint: clang-tidy checked ${ntidy} files in $((SECONDS - start)) s (${cpu} s of CPU); the slowest, in CPU s:"
  head -5 "$work/times.out" | sed 's/^/  /'
fi

if [[ " $tools " == *" cppcheck "* ]]; then
  start=$SECONDS
  mkdir -p "$build/cppcheck"
  # warning, performance and portability classes (style is clang-format's and clang-tidy's);
  # any finding is an error. Suppressions only in .cppcheck-suppressions or inline
  # (// cppcheck-suppress id) with a reason.
  if ! cppcheck --project="$work/compile_commands.json" -j "$jobs" --quiet --inline-suppr \
    --enable=warning,performance,portability --library=posix --library="$root/.cppcheck-mpi.cfg" \
    --suppressions-list="$root/.cppcheck-suppressions" --error-exitcode=1 \
    --template='{file}:{line}: {severity}: {message} [{id}]' \
    --cppcheck-build-dir="$build/cppcheck" 2>&1; then
    echo "lint: cppcheck reported findings"
    status=1
  fi
  echo "lint: cppcheck checked ${nfiles} files in $((SECONDS - start)) s"
fi
exit $status
