#!/usr/bin/env bash
# Sets up, builds and runs every test: the one command for a fresh Debian 12 machine, and
# exactly what CI runs (.ci/run).
#   1. installs the packages (scripts/setup-deps.sh, idempotent);
#   2. build/: configure, build, ctest; the 3-host network-namespace test 5 times in a
#      row; then the hang-prone tests (label "hang") again, ZMPI_HANG_REPEAT times in a
#      row (default 20; 0 skips);
#   3. lint: clang-tidy and cppcheck (scripts/lint.sh) from build-lint/ (build/'s
#      configuration without the unity build), in the background at idle CPU priority; its
#      stage comes last and waits for it. clang-tidy checks what changed since the commit in
#      .ci/lint-baseline (ZMPI_LINT_ALL=1: everything), cppcheck everything;
#   4. unless ZMPI_SKIP_SANITIZERS=1: build-asan (ASan+UBSan; with clang, also the libFuzzer
#      targets, each run for a bounded time in its suite unless ZMPI_SKIP_FUZZ=1) and
#      build-tsan (TSan), each tested on its own, without the tests labelled release-only
#      (and, under TSan, shapes and processes): tests/CMakeLists.txt says why. (Compiling
#      them in the background while build/'s tests ran saved nothing measurable: those
#      stages leave too little idle CPU for a build.)
# Every tree is a unity build (CMAKE_UNITY_BUILD: a few sources compiled as one, so the
# system headers are parsed once per batch): about 40% less compile time.
# Every stage runs even if an earlier one failed (a target that does not compile is
# reported, and everything else is still built and tested); the exit status is non-zero
# if anything failed. ZMPI_JOBS sets the parallelism (default 2).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
jobs=${ZMPI_JOBS:-2}
repeat=${ZMPI_HANG_REPEAT:-20}
failed=()

bash scripts/setup-deps.sh || { echo "test.sh: dependency setup failed" >&2; exit 1; }

# The CPU seconds (user + system) of this script's finished children so far (cutime and
# cstime of /proc/PID/stat, in clock ticks; the background lint counts once waited for).
ticks=$(getconf CLK_TCK)
children_cpu() {
  local stat
  stat=$(</proc/$$/stat)
  awk -v ticks="$ticks" '{ sub(/.*\) /, ""); printf "%.0f", ($14 + $15) / ticks }' <<<"$stat"
}

# stage NAME COMMAND...: runs one step, times it (wall and CPU), records a failure by name.
stage() {
  local name=$1 start=$SECONDS cpu
  cpu=$(children_cpu)
  shift
  echo "==> ${name}"
  if "$@"; then
    echo "<== ${name}: ok ($((SECONDS - start)) s, $(($(children_cpu) - cpu)) s of CPU)"
  else
    echo "<== ${name}: FAILED ($((SECONDS - start)) s, $(($(children_cpu) - cpu)) s of CPU)"
    failed+=("${name}")
    return 1
  fi
}

# Ninja, not Makefiles: it compiles a target's sources while the libraries it links are
# still being built (make waits for each target's dependencies to be complete), and it does
# not re-run CMake's dependency scanner per target. A tree made by another generator keeps it.
configure() {
  local dir=$1 generator=()
  shift
  [[ -f "$dir/CMakeCache.txt" ]] || generator=(-G Ninja)
  cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
}

# Keeps going past a target that fails to compile, so one broken folder still leaves
# every other folder's tests built and run (and its failure reported by name).
build() {
  local dir=$1 keep=-k
  [[ -f "$dir/build.ninja" ]] && keep="-k 0"
  # shellcheck disable=SC2086
  cmake --build "$dir" -j"$jobs" -- $keep
}

# Tests without their own TIMEOUT property get 10 minutes; ours set one (60 s).
run_tests() {
  local dir=$1
  shift
  (cd "$dir" && ctest --output-on-failure -j"$jobs" --timeout 600 "$@")
}

# The suite runs real multi-process jobs on a 2-core machine; a test that fails is run
# again (up to ZMPI_TEST_ATTEMPTS times, default 2) and the retry is visible in the log.
# A test that needs the retry is a bug to fix, not noise: ctest prints it as failed first.
attempts=${ZMPI_TEST_ATTEMPTS:-2}

# run_tests_with DIR EXCLUDED_LABELS VAR=VALUE...: run_tests without the tests of those
# labels (a regular expression), with the variables set for ctest only.
run_tests_with() {
  local dir=$1 excluded=$2
  shift 2
  (export "$@" && run_tests "$dir" --repeat "until-pass:${attempts}" -LE "$excluded")
}

# build_and_test DIR LABEL EXCLUDED_LABELS [VAR=VALUE...] -- [cmake options...]
build_and_test() {
  local dir=$1 label=$2 excluded=$3
  shift 3
  local envs=()
  while [[ $# -gt 0 && $1 != -- ]]; do envs+=("$1"); shift; done
  shift || true
  stage "configure ${dir}" configure "$dir" "$@" || return 1
  stage "build ${dir}" build "$dir"
  stage "tests ${label}" run_tests_with "$dir" "$excluded" "${envs[@]}"
}

# Static analysis (scripts/lint.sh): clang-tidy (.clang-tidy) and cppcheck
# (.cppcheck-suppressions) over every source in build/'s compile_commands.json; any finding
# fails the stage. It runs in the background at idle priority (below) from the configuration
# of build-lint/ until every other stage is done; its stage comes last and says how long the
# run waited for it; scripts/lint.sh's own lines say how long it ran.
# Background work at idle CPU priority (SCHED_IDLE, else nice 19): it gets a core only when
# no build or test wants it, and the test stages leave much of the machine idle (ranks
# waiting for each other, for timeouts, for the network).
idle=(chrt --idle 0)
"${idle[@]}" true 2>/dev/null || idle=(nice -n 19)
# A process's descendants, by parent.
descendants() {
  local pid
  for pid in $(pgrep -P "$1"); do
    echo "$pid"
    descendants "$pid"
  done
}
# Nothing is left to give way to: what remains of the background job PID (the lint) runs at
# this script's priority (twice, for a child started during the first pass).
to_foreground() {
  local pid niceness
  niceness=$(nice)
  for _ in 1 2; do
    for pid in "$1" $(descendants "$1"); do
      chrt --other -p 0 "$pid" >/dev/null 2>&1
      renice -n "$niceness" -p "$pid" >/dev/null 2>&1
    done
  done
}

lint_pid=
lint_log=$root/build-lint/lint.log
lint_since=()
if [[ ${ZMPI_LINT_ALL:-0} != 1 && -f .ci/lint-baseline ]]; then
  lint_since=(--since "$(grep -v '^#' .ci/lint-baseline | head -1)")
fi
start_lint() {
  "${idle[@]}" bash scripts/lint.sh "${lint_since[@]}" build-lint >"$lint_log" 2>&1 &
  lint_pid=$!
  echo "=== lint (clang-tidy, cppcheck): running in the background (${idle[*]}), output at the end"
}
finish_lint() {
  local status=0
  to_foreground "$lint_pid"
  wait "$lint_pid" || status=$?
  cat "$lint_log"
  return "$status"
}

# Every tree a unity build (see the top).
unity=(-DCMAKE_UNITY_BUILD=ON)
# -O1 and line tables only for the sanitizer and fuzz builds: they compile much faster than
# -O2 -g, and their reports still name file and line. No -DNDEBUG: assertions stay on here.
sanitizer_flags=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1")
# Precompiled system headers (cmake/Pch.cmake) take another quarter off the compile time of
# the ASan and TSan builds (with GCC, the TSan build's, they go without GCC's false
# -Warray-bounds and -Wstringop-* from a precompiled <string>; build/ keeps those warnings).
pch=(-DZMPI_PCH=ON)

# build-asan: ASan+UBSan, and with clang (when installed) the libFuzzer targets too -- one
# tree instead of a GCC ASan tree and a clang fuzz tree: every library carries libFuzzer's
# coverage instrumentation (cheap), and its suite runs each fuzz target (label "fuzz") for
# ZMPI_FUZZ_SECONDS (default 15) from the corpus in the repository, among the other tests.
asan_options=(-DZMPI_SANITIZE=address "${sanitizer_flags[@]}" "${pch[@]}" "${unity[@]}")
fuzz=0
if command -v clang++ >/dev/null; then
  asan_options+=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
  if [[ "${ZMPI_SKIP_FUZZ:-0}" != 1 ]]; then
    fuzz=1
    asan_options+=(-DZMPI_FUZZ=ON -DZMPI_FUZZ_SECONDS="${ZMPI_FUZZ_SECONDS:-15}")
  fi
fi
tsan_options=(-DZMPI_SANITIZE=thread "${sanitizer_flags[@]}" "${pch[@]}" "${unity[@]}")

# build/ by hand (not build_and_test): the lint starts between its configuration and build.
# -O2 with line tables only (-g1): a quarter less compile time than -g, and a report or a
# backtrace still names file and line.
release_flags=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
# The lint needs the compile commands of the sources themselves (a unity build's commands name its
# batches) and the generated protobuf headers: build-lint/ is build/'s configuration without
# the unity build, never built. The lint starts before the build and takes the cycles the
# build leaves (link steps, the last objects).
if configure build-lint "${release_flags[@]}" -DCMAKE_UNITY_BUILD=OFF >/dev/null && [[ -f build-lint/build.ninja ]]; then
  mapfile -t generated < <(ninja -C build-lint -t targets all | sed -n 's/^\([^:/][^:]*\.pb\.h\): .*/\1/p')
  ((${#generated[@]} == 0)) || ninja -C build-lint "${generated[@]}" >/dev/null
  start_lint
else
  echo "test.sh: configuring build-lint failed: no lint" >&2
  failed+=("configure build-lint")
fi
if stage "configure build" configure build "${release_flags[@]}" "${unity[@]}"; then
  stage "build build" build build
  stage "tests (RelWithDebInfo)" run_tests build --repeat "until-pass:${attempts}" -LE multihost
fi

# The 3-host network-namespace test (root only; skipped with a notice otherwise) runs on
# its own, 3 times in a row: it must pass repeatably, not once in a while.
if [[ -f build/CTestTestfile.cmake ]]; then
  stage "multihost netns x3" run_tests build -L multihost --repeat until-fail:3
fi
if ((repeat > 0)) && [[ -f build/CTestTestfile.cmake ]]; then
  stage "hang tests x${repeat}" run_tests build -L hang --repeat "until-fail:${repeat}"
fi

if [[ "${ZMPI_SKIP_SANITIZERS:-0}" != 1 ]]; then
  build_and_test build-asan "(ASan+UBSan$( ((fuzz)) && echo ", libFuzzer"))" "multihost|release-only" ASAN_OPTIONS="detect_leaks=1" \
    LSAN_OPTIONS="suppressions=${root}/tests/lsan.supp print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1" -- "${asan_options[@]}"
  # libzmq is not instrumented: tests/tsan.supp ignores its own memory accesses, and
  # transport/tsan_annotations.h states the order it gives zmpi's (its hand-overs).
  # ZMPI_TEST_MAX_RANKS: the collective unit suites loop up to 4 ranks (coll_harness.h), as
  # the programs do without label shapes: 5-8 threads of one process show TSan the same
  # hand-overs as 4, at 2-3x the time.
  build_and_test build-tsan "(TSan)" "multihost|release-only|shapes|processes" \
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=${root}/tests/tsan.supp" \
    ZMPI_TEST_MAX_RANKS=4 -- "${tsan_options[@]}"
elif ((fuzz)); then
  # The sanitizer suites skipped: only the fuzz targets are built and run.
  fuzz_only() {
    local targets=(wire_message_fuzz rendezvous_fuzz rank_message_fuzz agent_message_fuzz)
    configure build-asan "${asan_options[@]}" >/dev/null &&
      cmake --build build-asan -j"$jobs" --target "${targets[@]}" &&
      (cd build-asan && ctest --output-on-failure -j"$jobs" -L fuzz)
  }
  stage "fuzz (libFuzzer)" fuzz_only
fi

if [[ -n $lint_pid ]]; then
  stage "lint (clang-tidy, cppcheck; the wait for it)" finish_lint
fi

if ((${#failed[@]} > 0)); then
  echo "test.sh: FAILED: ${failed[*]} (${SECONDS} s in all)"
  exit 1
fi
echo "test.sh: all stages passed (${SECONDS} s in all)"
