// Shared file pointer access (MPI-3.1 section 13.4.4): read/write_shared and their
// nonblocking forms, the collective ordered forms (ranks' data one after another in rank
// order), seek_shared and get_position_shared. The pointer itself is io::SharedPointer.
#include <numeric>

#include "mpi/capi/file_access.h"
#include "mpi/capi/file_entry.h"
#include "mpi/capi/validate.h"
#include "mpi/io/collective.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace zmpi::mpi::capi {

// Ranks agree on how much each moves, rank 0 advances the shared pointer once by the
// total, and each rank accesses its slice at base + what the lower ranks move. Every rank
// takes part in each step even when its own arguments are bad, so nobody is left waiting.
std::uint64_t transferOrdered(io::File& file, const AccessCall& call) {
  Communicator& comm = file.comm();
  std::uint64_t want = 0;
  const io::Outcome checked = io::attempt([&] { want = checkAccess(file, call); });
  const std::vector<std::int64_t> wants = io::allgather(comm, static_cast<std::int64_t>(want));
  const auto rank = static_cast<std::size_t>(comm.rank());
  const std::int64_t total = std::accumulate(wants.begin(), wants.end(), std::int64_t{0});
  const std::int64_t before =
      std::accumulate(wants.begin(), wants.begin() + static_cast<std::ptrdiff_t>(rank), std::int64_t{0});
  std::int64_t base = 0;
  const io::Outcome moved = rank == 0
                                ? io::attempt([&] { base = static_cast<std::int64_t>(file.shared().fetchAdd(total)); })
                                : io::Outcome{MPI_SUCCESS, {}};
  // A negative base carries rank 0's error code.
  base = io::allgather(comm, moved.code != MPI_SUCCESS ? -moved.code : base)[0];
  if (moved.code != MPI_SUCCESS) fail(moved.code, moved.message);
  if (base < 0) fail(static_cast<int>(-base), "moving the shared file pointer failed on rank 0");
  std::uint64_t bytes = 0;
  io::Outcome done = checked;
  if (done.code == MPI_SUCCESS) {
    done = io::attempt([&] {
      Datatype& type = *datatypeOf(call.datatype);
      const auto position = static_cast<std::uint64_t>(base + before);
      const auto count = static_cast<std::size_t>(call.count);
      bytes = call.direction == Direction::Read ? file.read(position, call.buffer, count, type)
                                                : file.write(position, call.buffer, count, type);
    });
  }
  io::barrier(comm);
  if (done.code != MPI_SUCCESS) fail(done.code, done.message);
  return bytes;
}

}  // namespace zmpi::mpi::capi

namespace {

AccessCall sharedCall(Direction direction, const void* buf, int count, MPI_Datatype type) {
  return {direction, Positioning::Shared, 0, const_cast<void*>(buf), count, type};
}

int blockingShared(const char* name, MPI_File fh, const AccessCall& call, MPI_Status* status) {
  return runBlocking(name, fh, call, transfer, status);
}

int nonblockingShared(const char* name, MPI_File fh, const AccessCall& call, MPI_Request* request) {
  return runNonblocking(name, fh, call, request);
}

int ordered(const char* name, MPI_File fh, const AccessCall& call, MPI_Status* status) {
  return runBlocking(name, fh, call, transferOrdered, status);
}

int orderedBegin(const char* name, MPI_File fh, const AccessCall& call) {
  return runBegin(name, fh, call, transferOrdered);
}

int orderedEnd(const char* name, const char* beginName, MPI_File fh, MPI_Status* status) {
  return runEnd(name, beginName, fh, status);
}

}  // namespace

extern "C" {

int PMPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blockingShared("MPI_File_read_shared", fh, sharedCall(Direction::Read, buf, count, datatype), status);
}
ZMPI_ALIAS(MPI_File_read_shared)

int PMPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blockingShared("MPI_File_write_shared", fh, sharedCall(Direction::Write, buf, count, datatype), status);
}
ZMPI_ALIAS(MPI_File_write_shared)

int PMPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblockingShared("MPI_File_iread_shared", fh, sharedCall(Direction::Read, buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iread_shared)

int PMPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblockingShared("MPI_File_iwrite_shared", fh, sharedCall(Direction::Write, buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iwrite_shared)

int PMPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return ordered("MPI_File_read_ordered", fh, sharedCall(Direction::Read, buf, count, datatype), status);
}
ZMPI_ALIAS(MPI_File_read_ordered)

int PMPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return ordered("MPI_File_write_ordered", fh, sharedCall(Direction::Write, buf, count, datatype), status);
}
ZMPI_ALIAS(MPI_File_write_ordered)

int PMPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return orderedBegin("MPI_File_read_ordered_begin", fh, sharedCall(Direction::Read, buf, count, datatype));
}
ZMPI_ALIAS(MPI_File_read_ordered_begin)

int PMPI_File_read_ordered_end(MPI_File fh, void* buf, MPI_Status* status) {
  (void)buf;
  return orderedEnd("MPI_File_read_ordered_end", "MPI_File_read_ordered_begin", fh, status);
}
ZMPI_ALIAS(MPI_File_read_ordered_end)

int PMPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return orderedBegin("MPI_File_write_ordered_begin", fh, sharedCall(Direction::Write, buf, count, datatype));
}
ZMPI_ALIAS(MPI_File_write_ordered_begin)

int PMPI_File_write_ordered_end(MPI_File fh, const void* buf, MPI_Status* status) {
  (void)buf;
  return orderedEnd("MPI_File_write_ordered_end", "MPI_File_write_ordered_begin", fh, status);
}
ZMPI_ALIAS(MPI_File_write_ordered_end)

// Collective: after every rank's earlier shared accesses, rank 0 moves the pointer and
// everyone learns the outcome.
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  return guardedFile("MPI_File_seek_shared", fh, [&] {
    io::File& file = fileArg(fh);
    if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END) {
      fail(MPI_ERR_ARG, "whence " + std::to_string(whence) + " is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
    }
    io::barrier(file.comm());
    const io::Outcome moved = file.comm().rank() != 0 ? io::Outcome{MPI_SUCCESS, {}} : io::attempt([&] {
      const auto view = file.view();
      const auto etype = static_cast<MPI_Offset>(view->etypeSize());
      MPI_Offset base = 0;
      if (whence == MPI_SEEK_CUR) base = static_cast<MPI_Offset>(file.shared().get()) / etype;
      if (whence == MPI_SEEK_END) {
        const auto bytes = static_cast<MPI_Offset>(view->mapper().streamBytesBelow(file.posix().size()));
        base = (bytes + etype - 1) / etype;
      }
      if (base + offset < 0) {
        fail(MPI_ERR_ARG, "the seek would move the shared file pointer before the start of the view (to etype " +
                              std::to_string(base + offset) + ")");
      }
      file.shared().set(static_cast<std::uint64_t>(base + offset) * view->etypeSize());
    });
    io::agree(file.comm(), moved, "moving the shared file pointer");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_seek_shared)

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  return guardedFile("MPI_File_get_position_shared", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(offset, "offset");
    *offset = static_cast<MPI_Offset>(file.shared().get() / file.view()->etypeSize());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_position_shared)

}  // extern "C"
