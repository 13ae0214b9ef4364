// MPI_Pack / MPI_Unpack (native layout: the bytes a send of the type would carry),
// MPI_Pack_external / MPI_Unpack_external ("external32"), and MPI_Get_address.
#include <cstring>
#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/validate.h"
#include "mpi/datatype/external32.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

// MPI-1's MPI_Address, removed in MPI-3.0 but still exported by Open MPI (see datatypes.cc).
extern "C" __attribute__((visibility("default"))) int PMPI_Address(void* location, MPI_Aint* address);

namespace {

// Checks that `bytes` fit at `position` in a buffer of `size` bytes.
void requireRoom(MPI_Aint position, MPI_Aint size, std::size_t bytes, const char* what, const char* sizeName) {
  if (position < 0 || position > size) {
    fail(MPI_ERR_ARG, "position " + std::to_string(position) + " is outside 0.." + std::to_string(size));
  }
  if (bytes > static_cast<std::size_t>(size - position)) {
    fail(MPI_ERR_TRUNCATE, std::string(what) + " " + std::to_string(bytes) + " bytes at position " +
                               std::to_string(position) + " overflows " + sizeName + " " + std::to_string(size));
  }
}

void requireExternal32(const char* datarep) {
  pointerArg(datarep, "datarep");
  if (std::strcmp(datarep, "external32") != 0) {
    fail(MPI_ERR_ARG, std::string("datarep \"") + datarep + "\" is not supported (only \"external32\")");
  }
}

}  // namespace

extern "C" {

int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
              MPI_Comm comm) {
  return guardedComm("MPI_Pack", comm, [&] {
    commArg(comm);
    countArg(incount, "incount");
    const Datatype& type = typeArg(datatype);
    bufferArg(inbuf, incount, type);
    pointerArg(position, "position");
    const std::size_t bytes = static_cast<std::size_t>(incount) * type.size();
    requireRoom(*position, outsize, bytes, "packing", "outsize");
    if (bytes > 0) {
      pointerArg(outbuf, "outbuf");
      type.pack(inbuf, static_cast<std::size_t>(incount), static_cast<char*>(outbuf) + *position);
    }
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Pack)

int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm) {
  return guardedComm("MPI_Unpack", comm, [&] {
    commArg(comm);
    countArg(outcount, "outcount");
    const Datatype& type = typeArg(datatype);
    bufferArg(outbuf, outcount, type);
    pointerArg(position, "position");
    const std::size_t bytes = static_cast<std::size_t>(outcount) * type.size();
    requireRoom(*position, insize, bytes, "unpacking", "insize");
    if (bytes > 0) {
      pointerArg(inbuf, "inbuf");
      type.unpack(static_cast<const char*>(inbuf) + *position, bytes, outbuf);
    }
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Unpack)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  return guardedComm("MPI_Pack_size", comm, [&] {
    commArg(comm);
    countArg(incount, "incount");
    const Datatype& type = typeArg(datatype);
    pointerArg(size, "size");
    const std::size_t bytes = static_cast<std::size_t>(incount) * type.size();
    if (bytes > static_cast<std::size_t>(INT_MAX)) {
      fail(MPI_ERR_ARG, "packed size " + std::to_string(bytes) + " does not fit in an int");
    }
    *size = static_cast<int>(bytes);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Pack_size)

int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                       MPI_Aint outsize, MPI_Aint* position) {
  return guarded("MPI_Pack_external", [&] {
    requireExternal32(datarep);
    countArg(incount, "incount");
    const Datatype& type = typeArg(datatype);
    bufferArg(inbuf, incount, type);
    pointerArg(position, "position");
    const std::size_t bytes = external32Size(type, static_cast<std::size_t>(incount));
    requireRoom(*position, outsize, bytes, "packing", "outsize");
    if (bytes > 0) {
      pointerArg(outbuf, "outbuf");
      packExternal32(type, inbuf, static_cast<std::size_t>(incount), static_cast<char*>(outbuf) + *position);
    }
    *position += static_cast<MPI_Aint>(bytes);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Pack_external)

int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                         int outcount, MPI_Datatype datatype) {
  return guarded("MPI_Unpack_external", [&] {
    requireExternal32(datarep);
    countArg(outcount, "outcount");
    const Datatype& type = typeArg(datatype);
    bufferArg(outbuf, outcount, type);
    pointerArg(position, "position");
    const std::size_t bytes = external32Size(type, static_cast<std::size_t>(outcount));
    requireRoom(*position, insize, bytes, "unpacking", "insize");
    if (bytes > 0) {
      pointerArg(inbuf, "inbuf");
      unpackExternal32(type, static_cast<const char*>(inbuf) + *position, static_cast<std::size_t>(outcount), outbuf);
    }
    *position += static_cast<MPI_Aint>(bytes);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Unpack_external)

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  return guarded("MPI_Pack_external_size", [&] {
    requireExternal32(datarep);
    countArg(incount, "incount");
    const Datatype& type = typeArg(datatype);
    pointerArg(size, "size");
    *size = static_cast<MPI_Aint>(external32Size(type, static_cast<std::size_t>(incount)));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Pack_external_size)

// Addresses are plain pointers: MPI_BOTTOM is 0, so a type built from these addresses
// describes absolute memory when used with buffer MPI_BOTTOM.
int PMPI_Get_address(const void* location, MPI_Aint* address) {
  return guarded("MPI_Get_address", [&] {
    pointerArg(address, "address");
    *address = reinterpret_cast<MPI_Aint>(location);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Get_address)

int PMPI_Address(void* location, MPI_Aint* address) { return PMPI_Get_address(location, address); }
ZMPI_ALIAS(MPI_Address)

}  // extern "C"
