// File views and positions (MPI-3.1 sections 13.3, 13.4.3): MPI_File_set_view/get_view,
// the individual file pointer (seek, get_position), get_byte_offset and get_type_extent.
// Offsets are in etypes of the current view; the file keeps positions in stream bytes.
#include <cstring>

#include "mpi/capi/file_entry.h"
#include "mpi/capi/validate.h"
#include "mpi/core/info.h"
#include "mpi/datatype/constructors.h"
#include "mpi/io/collective.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

// A datatype handed back by MPI_File_get_view: predefined ones as they are, derived ones
// as new (committed) duplicates the program frees, as MPI-3.1 13.3 asks.
MPI_Datatype viewType(Datatype& type) {
  if (type.predefined()) return type.handle();
  return types::dup(type)->handle();
}

}  // namespace

extern "C" {

// Collective: both file pointers go back to the start of the new view, so every rank
// first finishes with the old one; rank 0 then resets the shared pointer.
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                       MPI_Info info) {
  return guardedFile("MPI_File_set_view", fh, [&] {
    io::File& file = fileArg(fh);
    Datatype& e = typeArg(etype);
    Datatype& f = typeArg(filetype);
    pointerArg(datarep, "datarep");
    infoOrNull(info);
    const bool current = disp == MPI_DISPLACEMENT_CURRENT;
    if (current && !file.hasMode(MPI_MODE_SEQUENTIAL)) {
      fail(MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT needs a file opened MPI_MODE_SEQUENTIAL");
    }
    // MPI_DISPLACEMENT_CURRENT: where the shared pointer is, as a byte offset in the file,
    // read by rank 0 for everyone (a negative value carries its error). The allgather is
    // also the point where every rank is done with the old view.
    std::int64_t shared = 0;
    if (current && file.comm().rank() == 0) {
      const io::Outcome read = io::attempt([&] { shared = file.view()->mapper().fileOffsetOf(file.shared().get()); });
      if (read.code != MPI_SUCCESS) shared = -read.code;
    }
    shared = io::allgather(file.comm(), shared)[0];
    if (shared < 0) fail(static_cast<int>(-shared), "reading the shared file pointer failed on rank 0");
    io::Outcome outcome = io::attempt(
        [&] { file.setView(io::FileView(current ? shared : disp, e, f, datarep, !file.hasMode(MPI_MODE_RDONLY))); });
    if (outcome.code == MPI_SUCCESS && file.comm().rank() == 0) outcome = io::attempt([&] { file.shared().reset(); });
    io::agree(file.comm(), outcome, "setting the view of '" + file.path() + "'");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_set_view)

int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep) {
  return guardedFile("MPI_File_get_view", fh, [&] {
    io::File& file = fileArg(fh);
    pointerArg(disp, "disp");
    pointerArg(etype, "etype");
    pointerArg(filetype, "filetype");
    pointerArg(datarep, "datarep");
    const auto view = file.view();
    *disp = view->displacement();
    *etype = viewType(view->etype());
    *filetype = viewType(view->filetype());
    std::strncpy(datarep, view->datarep().c_str(), MPI_MAX_DATAREP_STRING - 1);
    datarep[MPI_MAX_DATAREP_STRING - 1] = '\0';
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_view)

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  return guardedFile("MPI_File_seek", fh, [&] {
    io::File& file = fileArg(fh);
    notSequential(file, "MPI_File_seek");
    const auto view = file.view();
    const auto etype = static_cast<MPI_Offset>(view->etypeSize());
    MPI_Offset base = 0;
    switch (whence) {
      case MPI_SEEK_SET:
        break;
      case MPI_SEEK_CUR:
        base = static_cast<MPI_Offset>(file.position()) / etype;
        break;
      case MPI_SEEK_END: {
        // The end of the file in etypes of the view, a partial etype counting as one (ROMIO).
        const auto bytes = static_cast<MPI_Offset>(view->mapper().streamBytesBelow(file.posix().size()));
        base = (bytes + etype - 1) / etype;
        break;
      }
      default:
        fail(MPI_ERR_ARG, "whence " + std::to_string(whence) + " is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
    }
    if (base + offset < 0) {
      fail(MPI_ERR_ARG, "the seek would move the file pointer before the start of the view (to etype " +
                            std::to_string(base + offset) + ")");
    }
    file.setPosition(static_cast<std::uint64_t>(base + offset) * view->etypeSize());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_seek)

int PMPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  return guardedFile("MPI_File_get_position", fh, [&] {
    io::File& file = fileArg(fh);
    notSequential(file, "MPI_File_get_position");
    pointerArg(offset, "offset");
    *offset = static_cast<MPI_Offset>(file.position() / file.view()->etypeSize());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_position)

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  return guardedFile("MPI_File_get_byte_offset", fh, [&] {
    io::File& file = fileArg(fh);
    notSequential(file, "MPI_File_get_byte_offset");
    pointerArg(disp, "disp");
    const auto view = file.view();
    *disp = view->mapper().fileOffsetOf(streamPosition(offset, *view, "offset"));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_byte_offset)

// Files hold data in the native representation, so a type's extent in the file is its
// extent in memory.
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  return guardedFile("MPI_File_get_type_extent", fh, [&] {
    fileArg(fh);
    pointerArg(extent, "extent");
    if (datatype == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL");
    *extent = datatypeOf(datatype)->extent();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_File_get_type_extent)

}  // extern "C"
