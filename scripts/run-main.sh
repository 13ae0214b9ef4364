#!/usr/bin/env bash
# Sets up, builds and runs zmpi's main job on this machine: the 2-D heat-equation example
# (Cartesian grid, halo exchange, allreduce of the residual) on 4 ranks through zmpirun,
# then the hello example. This machine may have fewer cores than ranks: with no host list
# zmpirun runs them anyway (as MPICH's mpiexec does; --nooversubscribe would refuse).
#   scripts/run-main.sh [ranks]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ranks=${1:-4}
bash scripts/setup-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"${ZMPI_JOBS:-2}" --target zmpirun zmpi_mpi heat2d hello
build/bin/zmpirun -np "$ranks" build/bin/hello
exec build/bin/zmpirun -np "$ranks" build/bin/heat2d
