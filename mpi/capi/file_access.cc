// The blocking and nonblocking data-access entry points: read/write at explicit offsets
// and at the individual pointer, independent and collective. Collective forms do
// independent I/O followed by a barrier: each rank's accesses are complete (and, on a
// POSIX file system, visible to the others) when any rank returns. The nonblocking forms
// complete before they return and hand back a completed request. Also the shared runners
// (file_access.h) the split, shared and ordered forms use.
#include "mpi/capi/file_access.h"

#include "mpi/capi/file_entry.h"
#include "mpi/capi/validate.h"
#include "mpi/core/request.h"
#include "mpi/io/collective.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace zmpi::mpi::capi {

std::uint64_t checkAccess(io::File& file, const AccessCall& call) {
  countArg(call.count);
  Datatype& type = typeArg(call.datatype);
  bufferArg(call.buffer, call.count, type);
  // Open MPI's classes: writing a read-only file is MPI_ERR_READ_ONLY, reading a
  // write-only one MPI_ERR_ACCESS.
  if (call.direction == Direction::Write && file.hasMode(MPI_MODE_RDONLY)) {
    fail(MPI_ERR_READ_ONLY, "cannot write: the file was opened MPI_MODE_RDONLY");
  }
  if (call.direction == Direction::Read && file.hasMode(MPI_MODE_WRONLY)) {
    fail(MPI_ERR_ACCESS, "cannot read: the file was opened MPI_MODE_WRONLY");
  }
  if (call.positioning == Positioning::Explicit) {
    notSequential(file, "access at an explicit offset");
    if (call.offset < 0) fail(MPI_ERR_ARG, "offset is negative (" + std::to_string(call.offset) + ")");
  }
  if (call.positioning == Positioning::Individual) notSequential(file, "access through the individual file pointer");
  return static_cast<std::uint64_t>(call.count) * type.size();
}

std::uint64_t transfer(io::File& file, const AccessCall& call) {
  const std::uint64_t bytes = checkAccess(file, call);
  Datatype& type = *datatypeOf(call.datatype);
  const auto count = static_cast<std::size_t>(call.count);
  std::uint64_t position = 0;
  switch (call.positioning) {
    case Positioning::Individual:
      return call.direction == Direction::Read ? file.readNext(call.buffer, count, type)
                                               : file.writeNext(call.buffer, count, type);
    case Positioning::Explicit:
      position = streamPosition(call.offset, *file.view(), "offset");
      break;
    case Positioning::Shared:
      // The pointer moves by the whole request, even when a read then stops at the end of
      // the file (as ROMIO does): a concurrent access has already been placed after it.
      position = file.shared().fetchAdd(bytes);
      break;
  }
  return call.direction == Direction::Read ? file.read(position, call.buffer, count, type)
                                           : file.write(position, call.buffer, count, type);
}

std::uint64_t transferCollective(io::File& file, const AccessCall& call) {
  std::uint64_t bytes = 0;
  const io::Outcome outcome = io::attempt([&] { bytes = transfer(file, call); });
  io::barrier(file.comm());
  if (outcome.code != MPI_SUCCESS) fail(outcome.code, outcome.message);
  return bytes;
}

void setIoStatus(MPI_Status* status, std::uint64_t bytes) {
  if (status == MPI_STATUS_IGNORE) return;
  setEmptyStatus(status);
  status->_ucount = static_cast<std::size_t>(bytes);
}

int runBlocking(const char* name, MPI_File fh, const AccessCall& call, TransferFunction how, MPI_Status* status) {
  return guardedFile(name, fh, [&] {
    setIoStatus(status, how(fileArg(fh), call));
    return MPI_SUCCESS;
  });
}

int runNonblocking(const char* name, MPI_File fh, const AccessCall& call, MPI_Request* request) {
  return guardedFile(name, fh, [&] {
    io::File& file = fileArg(fh);
    requestPointerArg(request);
    const std::uint64_t bytes = transfer(file, call);
    auto* done = new Request(Request::Kind::Completed);
    done->holdComm(&file.comm());
    setIoStatus(&done->status, bytes);
    done->done.store(true);
    *request = done->handle();
    return MPI_SUCCESS;
  });
}

}  // namespace zmpi::mpi::capi

namespace {

int blocking(const char* name, MPI_File fh, const AccessCall& call, bool collective, MPI_Status* status) {
  return runBlocking(name, fh, call, collective ? transferCollective : transfer, status);
}

int nonblocking(const char* name, MPI_File fh, const AccessCall& call, MPI_Request* request) {
  return runNonblocking(name, fh, call, request);
}

AccessCall readAt(MPI_Offset offset, void* buf, int count, MPI_Datatype type) {
  return {Direction::Read, Positioning::Explicit, offset, buf, count, type};
}
AccessCall writeAt(MPI_Offset offset, const void* buf, int count, MPI_Datatype type) {
  return {Direction::Write, Positioning::Explicit, offset, const_cast<void*>(buf), count, type};
}
AccessCall readNext(void* buf, int count, MPI_Datatype type) {
  return {Direction::Read, Positioning::Individual, 0, buf, count, type};
}
AccessCall writeNext(const void* buf, int count, MPI_Datatype type) {
  return {Direction::Write, Positioning::Individual, 0, const_cast<void*>(buf), count, type};
}

}  // namespace

extern "C" {

int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read_at", fh, readAt(offset, buf, count, datatype), false, status);
}
ZMPI_ALIAS(MPI_File_read_at)

int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  return blocking("MPI_File_read_at_all", fh, readAt(offset, buf, count, datatype), true, status);
}
ZMPI_ALIAS(MPI_File_read_at_all)

int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                       MPI_Status* status) {
  return blocking("MPI_File_write_at", fh, writeAt(offset, buf, count, datatype), false, status);
}
ZMPI_ALIAS(MPI_File_write_at)

int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                           MPI_Status* status) {
  return blocking("MPI_File_write_at_all", fh, writeAt(offset, buf, count, datatype), true, status);
}
ZMPI_ALIAS(MPI_File_write_at_all)

int PMPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read", fh, readNext(buf, count, datatype), false, status);
}
ZMPI_ALIAS(MPI_File_read)

int PMPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read_all", fh, readNext(buf, count, datatype), true, status);
}
ZMPI_ALIAS(MPI_File_read_all)

int PMPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write", fh, writeNext(buf, count, datatype), false, status);
}
ZMPI_ALIAS(MPI_File_write)

int PMPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write_all", fh, writeNext(buf, count, datatype), true, status);
}
ZMPI_ALIAS(MPI_File_write_all)

int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                       MPI_Request* request) {
  return nonblocking("MPI_File_iread_at", fh, readAt(offset, buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iread_at)

int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                           MPI_Request* request) {
  return nonblocking("MPI_File_iread_at_all", fh, readAt(offset, buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iread_at_all)

int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                        MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_at", fh, writeAt(offset, buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iwrite_at)

int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                            MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_at_all", fh, writeAt(offset, buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iwrite_at_all)

int PMPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iread", fh, readNext(buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iread)

int PMPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iread_all", fh, readNext(buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iread_all)

int PMPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iwrite", fh, writeNext(buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iwrite)

int PMPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_all", fh, writeNext(buf, count, datatype), request);
}
ZMPI_ALIAS(MPI_File_iwrite_all)

}  // extern "C"
