#pragma once
// The few collective steps MPI-IO needs, over the file's own communicator (a dup of the
// one the file was opened on, so they never match the program's messages): a barrier,
// and agreeing on an outcome so every rank of a collective call fails together.
#include <cstdint>
#include <string>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/error.h"

namespace zmpi::mpi::io {

void barrier(Communicator& comm);

// Every rank's value, in rank order.
std::vector<std::int64_t> allgather(Communicator& comm, std::int64_t value);

// An MPI error code and its message, as a rank saw it (code MPI_SUCCESS: no error).
struct Outcome {
  int code;
  std::string message;
};

// Each rank contributes its outcome; if any rank failed, every rank throws: a failing rank
// its own error, the others the error of the lowest failing rank, naming it.
void agree(Communicator& comm, const Outcome& mine, const std::string& what);

// Runs `body`, catching an MpiError into an Outcome (other exceptions propagate).
template <typename Body>
Outcome attempt(Body&& body) {
  try {
    body();
  } catch (const MpiError& error) {
    return {error.code(), error.what()};
  }
  return {0, {}};
}

}  // namespace zmpi::mpi::io
