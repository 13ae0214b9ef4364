#!/usr/bin/env bash
# Runs Debian's NWChem (package nwchem-openmpi: Fortran calling MPI through Open MPI's
# libmpi_mpifh.so.40, and Global Arrays over MPI's one-sided calls, unchanged) through
# zmpirun: an SCF energy on 1 rank, then on NP ranks, which must print the same total
# energy to every digit. Extra arguments are VAR=VALUE settings for the NP-rank job.
#   run_nwchem.sh ZMPIRUN NP DECK [VAR=VALUE ...]
# Exit 77 (skipped) where NWChem is not installed (scripts/setup-deps.sh installs it).
set -u
zmpirun=$1 np=$2 deck=$(readlink -f "$3")
shift 3
nwchem=/usr/bin/nwchem.openmpi
if [[ ! -x $nwchem ]]; then
  echo "skipped: $nwchem is missing (Debian package nwchem-openmpi)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

energy() {  # run NP [VAR=VALUE ...]: the "Total SCF energy" line of a run in its own directory
  local ranks=$1 dir="$work/np$1"
  shift
  mkdir -p "$dir"
  (cd "$dir" && env "$@" "$zmpirun" -np "$ranks" "$nwchem" "$deck" >out.txt 2>&1)
  local status=$?
  if ((status != 0)); then
    cat "$dir/out.txt"
    echo "FAILED: NWChem on $ranks ranks exited with $status"
    exit 1
  fi
  grep "Total SCF energy" "$dir/out.txt" || { cat "$dir/out.txt"; echo "FAILED: no SCF energy on $ranks ranks"; exit 1; }
}

one=$(energy 1) || { echo "$one"; exit 1; }
many=$(energy "$np" "$@") || { echo "$many"; exit 1; }
echo "1 rank:  $one"
echo "$np ranks: $many"
if [[ -z $one || $one != "$many" ]]; then
  echo "FAILED: the $np-rank energy differs from the 1-rank one"
  exit 1
fi
echo "ok: NWChem's SCF energy on $np ranks through zmpi equals the 1-rank one"
