#pragma once
// Data access (MPI-3.1 section 13.4) as one function over its three independent choices:
// direction (read/write), positioning (explicit offset / individual pointer / shared
// pointer) and coordination (independent / collective). Every MPI_File_read*/write* entry
// point is one call of transfer() or transferCollective(); the nonblocking and split forms
// reuse them, and the ordered forms (file_shared.cc) build on transfer().
#include <mpi.h>

#include <cstdint>

#include "mpi/io/file.h"

namespace zmpi::mpi::capi {

enum class Direction { Read, Write };
enum class Positioning { Explicit, Individual, Shared };

struct AccessCall {
  Direction direction;
  Positioning positioning;
  MPI_Offset offset;  // etypes of the view, for Explicit
  void* buffer;
  int count;
  MPI_Datatype datatype;
};

// Checks the arguments (and the access mode) without moving anything; returns the bytes
// the call asks for.
std::uint64_t checkAccess(io::File& file, const AccessCall& call);

// Checks the arguments and moves the data; returns the bytes moved. Errors throw.
std::uint64_t transfer(io::File& file, const AccessCall& call);

// As transfer, followed by a barrier on the file's communicator that every rank reaches
// even when its own transfer failed (so no rank is left waiting); then rethrows.
std::uint64_t transferCollective(io::File& file, const AccessCall& call);

// The collective ordered forms with the shared pointer (file_shared.cc): each rank's data
// follows the lower ranks', from where the shared pointer was; it moves past them all.
std::uint64_t transferOrdered(io::File& file, const AccessCall& call);

// A status for `bytes` moved: count in bytes (MPI_Get_count divides by the type size).
void setIoStatus(MPI_Status* status, std::uint64_t bytes);

using TransferFunction = std::uint64_t (*)(io::File&, const AccessCall&);

// An entry point's body: runs `how` on `fh` and fills `status`; errors go to the file's
// error handler.
int runBlocking(const char* name, MPI_File fh, const AccessCall& call, TransferFunction how, MPI_Status* status);

// The nonblocking forms (MPI-3.1 13.4.5), collective ones included: the transfer is done
// at once, with no barrier (completing a nonblocking collective says nothing about other
// ranks), and the request handed back is already complete.
int runNonblocking(const char* name, MPI_File fh, const AccessCall& call, MPI_Request* request);

// Split collectives (MPI-3.1 13.4.5): *_begin runs `how` and keeps the status for the
// matching *_end; one at a time per file.
int runBegin(const char* name, MPI_File fh, const AccessCall& call, TransferFunction how);
int runEnd(const char* name, const char* beginName, MPI_File fh, MPI_Status* status);

}  // namespace zmpi::mpi::capi
