#!/usr/bin/env bash
# Sets up, builds and runs zmpi's main job on this machine. Until zmpirun can start an MPI
# example on several ranks, the main job is the transport demo: an echo server, several
# client threads and a rendezvous, all over real zmq sockets (build/bin/transport_demo).
#   scripts/run-main.sh [clients] [messages-per-client]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"${ZMPI_JOBS:-2}" --target transport_demo
exec build/bin/transport_demo "$@"
