#pragma once
// The two collectives window creation and synchronization need, over the window's own
// communicator: an allgather of a small fixed-size record (every rank learns every peer's
// window size, displacement unit and id before any access; MPI 3.1 section 11.2) and a
// barrier. Kept here, over coll::Channel, so RMA depends only on the narrow
// point-to-point contract, not on the collective selector.
#include <cstddef>
#include <cstring>
#include <vector>

#include "mpi/comm/communicator.h"

namespace zmpi::mpi::rma {

// Every rank contributes `bytes` bytes; returns them all, in rank order. Each rank sends
// its record straight to every peer: p - 1 messages each, fine at window-creation rates.
std::vector<char> allgatherRecords(Communicator& comm, const void* mine, std::size_t bytes);

template <typename Record>
std::vector<Record> allgather(Communicator& comm, const Record& mine) {
  std::vector<char> bytes = allgatherRecords(comm, &mine, sizeof(Record));
  std::vector<Record> records(static_cast<std::size_t>(comm.size()));
  std::memcpy(records.data(), bytes.data(), bytes.size());
  return records;
}

void barrier(Communicator& comm);

}  // namespace zmpi::mpi::rma
