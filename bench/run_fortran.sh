#!/usr/bin/env bash
# The cost of zmpi's Fortran bindings (bench/src/fortran_pingpong.c): an 8 B ping-pong
# through mpi_send_/mpi_recv_ against MPI_Send/MPI_Recv, alternating batches in one 2-rank
# job, ROUNDS jobs in a row (default 5). Prints each job's medians and ratio.
#   bench/run_fortran.sh [--build DIR] [--rounds N] [program arguments...]
set -euo pipefail
build=build rounds=5
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) break ;;
  esac
done
here=$(dirname "$(readlink -f "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/zmpicc" -O2 -I"$here/src" "$here/src/fortran_pingpong.c" -o "$work/fortran_pingpong" \
  -L"$build/lib" -lmpi_mpifh
echo "# job fortran_us C_us fortran/C median_of_batch_pair_ratios"
for ((r = 1; r <= rounds; r++)); do
  line=$("$build/bin/zmpirun" -np 2 "$work/fortran_pingpong" "$@" | grep -v '^#')
  echo "$r $line"
done
