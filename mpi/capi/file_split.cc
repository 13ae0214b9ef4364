// Split collective data access (MPI-3.1 section 13.4.5): *_begin does the whole collective
// access and keeps its status; the matching *_end hands it over. At most one split
// collective may be in progress on a file, and an *_end must match its *_begin.
#include <string>

#include "mpi/capi/file_access.h"
#include "mpi/capi/file_entry.h"
#include "mpi/capi/validate.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace zmpi::mpi::capi {

int runBegin(const char* name, MPI_File fh, const AccessCall& call, TransferFunction how) {
  return guardedFile(name, fh, [&] {
    io::File& file = fileArg(fh);
    if (file.splitCollective) {
      fail(MPI_ERR_OTHER,
           "a split collective (" + file.splitCollective->first + ") is already in progress on this file");
    }
    MPI_Status status;
    setIoStatus(&status, how(file, call));
    file.splitCollective.emplace(name, status);
    return MPI_SUCCESS;
  });
}

int runEnd(const char* name, const char* beginName, MPI_File fh, MPI_Status* status) {
  return guardedFile(name, fh, [&] {
    io::File& file = fileArg(fh);
    if (!file.splitCollective || file.splitCollective->first != beginName) {
      fail(MPI_ERR_OTHER, std::string(name) + " without a matching " + beginName +
                              (file.splitCollective ? " (in progress: " + file.splitCollective->first + ")" : ""));
    }
    if (status != MPI_STATUS_IGNORE) *status = file.splitCollective->second;
    file.splitCollective.reset();
    return MPI_SUCCESS;
  });
}

}  // namespace zmpi::mpi::capi

namespace {

int begin(const char* name, MPI_File fh, const AccessCall& call) {
  return runBegin(name, fh, call, transferCollective);
}

int end(const char* name, const char* beginName, MPI_File fh, MPI_Status* status) {
  return runEnd(name, beginName, fh, status);
}

}  // namespace

extern "C" {

int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_read_at_all_begin", fh,
               {Direction::Read, Positioning::Explicit, offset, buf, count, datatype});
}
ZMPI_ALIAS(MPI_File_read_at_all_begin)

int PMPI_File_read_at_all_end(MPI_File fh, void* buf, MPI_Status* status) {
  (void)buf;
  return end("MPI_File_read_at_all_end", "MPI_File_read_at_all_begin", fh, status);
}
ZMPI_ALIAS(MPI_File_read_at_all_end)

int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_write_at_all_begin", fh,
               {Direction::Write, Positioning::Explicit, offset, const_cast<void*>(buf), count, datatype});
}
ZMPI_ALIAS(MPI_File_write_at_all_begin)

int PMPI_File_write_at_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
  (void)buf;
  return end("MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", fh, status);
}
ZMPI_ALIAS(MPI_File_write_at_all_end)

int PMPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_read_all_begin", fh, {Direction::Read, Positioning::Individual, 0, buf, count, datatype});
}
ZMPI_ALIAS(MPI_File_read_all_begin)

int PMPI_File_read_all_end(MPI_File fh, void* buf, MPI_Status* status) {
  (void)buf;
  return end("MPI_File_read_all_end", "MPI_File_read_all_begin", fh, status);
}
ZMPI_ALIAS(MPI_File_read_all_end)

int PMPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_write_all_begin", fh,
               {Direction::Write, Positioning::Individual, 0, const_cast<void*>(buf), count, datatype});
}
ZMPI_ALIAS(MPI_File_write_all_begin)

int PMPI_File_write_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
  (void)buf;
  return end("MPI_File_write_all_end", "MPI_File_write_all_begin", fh, status);
}
ZMPI_ALIAS(MPI_File_write_all_end)

}  // extern "C"
