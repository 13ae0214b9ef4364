#!/usr/bin/env bash
# Installs the Debian 12 packages zmpi needs to build and test. Idempotent: packages
# already present are skipped, so re-running is cheap and safe.
#   scripts/setup-deps.sh          build + test dependencies
#   scripts/setup-deps.sh --bench  also the reference MPIs and plotting for bench/
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libzmq3-dev cppzmq-dev libprotobuf-dev protobuf-compiler libspdlog-dev catch2
  libopenmpi-dev openmpi-bin   # mpi.h (the ABI we implement) and mpicc for the ABI tests
  libsodium-dev                # HMAC for the job secret (never hand-rolled crypto)
  libcli11-dev                 # command lines of zmpirun/zmpid
  nlohmann-json3-dev
  libpmix-dev libpmi2-0-dev    # the cluster managers' wire-up (PMIx, PMI-2): headers; libraries loaded at run time
  slurm-wlm munge              # tests/slurm: a real Slurm (3 nodes on this machine) for srun --mpi=pmix/pmi2
  iproute2 procps psmisc       # netns multi-host test, process checks
  gdb                          # backtraces of core dumps a crashed test leaves (scripts/test.sh)
  docker-compose               # only to validate docker/docker-compose.yml, no engine
  python3-yaml python3-jsonschema  # to validate docker/kubernetes/ offline (tests/multihost/kubernetes)
  clang libclang-rt-14-dev     # libFuzzer targets, the ASan+UBSan and TSan builds
  clang-tidy-22 cppcheck       # scripts/lint.sh (clang-tidy 22: it skips system headers, half the CPU of 14)
  lammps python3-mpi4py python3-numpy libcoarrays-openmpi-dev  # tests/apps: Open MPI applications run unchanged on zmpi
  gfortran nwchem-openmpi      # fortran/ (zmpif90) and tests/fortran (mpif90.openmpi), NWChem in tests/apps
)
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(mpich libmpich-dev gnuplot-nox hyperfine)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-deps: done"
