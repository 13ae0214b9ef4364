#!/usr/bin/env bash
# Sets up, builds and runs every test: the one command for a fresh Debian 12 machine, and
# exactly what CI runs (.ci/run).
#   1. installs the packages (scripts/setup-deps.sh, idempotent);
#   2. build/: configure, build, ctest; then the hang-prone tests (label "hang") again,
#      ZMPI_HANG_REPEAT times in a row (default 20; 0 skips);
#   3. unless ZMPI_SKIP_SANITIZERS=1: build-asan (ASan+UBSan) and build-tsan (TSan), each
#      built and tested on its own.
# Every stage runs even if an earlier test stage failed (a build failure skips only that
# build's tests); the exit status is non-zero if anything failed. ZMPI_JOBS sets the
# parallelism (default 2).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
jobs=${ZMPI_JOBS:-2}
repeat=${ZMPI_HANG_REPEAT:-20}
failed=()

bash scripts/setup-deps.sh || { echo "test.sh: dependency setup failed" >&2; exit 1; }

# stage NAME COMMAND...: runs one step, times it, records a failure by name.
stage() {
  local name=$1 start=$SECONDS
  shift
  echo "==> ${name}"
  if "$@"; then
    echo "<== ${name}: ok ($((SECONDS - start)) s)"
  else
    echo "<== ${name}: FAILED ($((SECONDS - start)) s)"
    failed+=("${name}")
    return 1
  fi
}

build() {
  local dir=$1
  shift
  # RelWithDebInfo: optimised enough to keep the sanitizer runs fast, with line numbers
  # in their reports.
  cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" && cmake --build "$dir" -j"$jobs"
}

# Tests without their own TIMEOUT property get 10 minutes; ours set one (60 s).
run_tests() {
  local dir=$1
  shift
  (cd "$dir" && ctest --output-on-failure -j"$jobs" --timeout 600 "$@")
}

# run_tests_with DIR VAR=VALUE...: run_tests with those variables set for ctest only.
run_tests_with() {
  local dir=$1
  shift
  (export "$@" && run_tests "$dir")
}

if stage "build" build build; then
  stage "tests" run_tests build
  if ((repeat > 0)); then
    stage "hang tests x${repeat}" run_tests build -L hang --repeat "until-fail:${repeat}"
  fi
fi

if [[ "${ZMPI_SKIP_SANITIZERS:-0}" != 1 ]]; then
  asan_env=(ASAN_OPTIONS="detect_leaks=1"
            UBSAN_OPTIONS="print_stacktrace=1")
  if stage "build-asan" build build-asan -DZMPI_SANITIZE=address; then
    stage "tests (ASan+UBSan)" run_tests_with build-asan "${asan_env[@]}"
  fi
  # libzmq is not instrumented; tests/tsan.supp says which of its reports are suppressed.
  tsan_env=(TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=${root}/tests/tsan.supp")
  if stage "build-tsan" build build-tsan -DZMPI_SANITIZE=thread; then
    stage "tests (TSan)" run_tests_with build-tsan "${tsan_env[@]}"
  fi
fi

if ((${#failed[@]} > 0)); then
  echo "test.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "test.sh: all stages passed"
