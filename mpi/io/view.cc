#include "mpi/io/view.h"

#include <mpi.h>

#include "mpi/core/error.h"
#include "mpi/datatype/predefined.h"
#include "mpi/io/datarep.h"

namespace zmpi::mpi::io {
namespace {

std::string typeName(const Datatype& type) { return type.name.empty() ? "(derived)" : type.name; }

void checkFiletypeBlocks(const Datatype& filetype, bool writable) {
  const std::vector<TypeBlock>& blocks = filetype.blocks();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].offset < 0) {
      fail(MPI_ERR_TYPE, "filetype " + typeName(filetype) + " has a negative displacement (" +
                             std::to_string(blocks[i].offset) + "); MPI-3.1 13.3 requires non-negative ones");
    }
    if (i == 0) continue;
    const TypeBlock& previous = blocks[i - 1];
    if (blocks[i].offset < previous.offset) {
      fail(MPI_ERR_TYPE, "filetype " + typeName(filetype) + " has decreasing displacements (" +
                             std::to_string(previous.offset) + " then " + std::to_string(blocks[i].offset) +
                             "); MPI-3.1 13.3 requires non-decreasing ones");
    }
    if (writable && blocks[i].offset < previous.offset + static_cast<std::ptrdiff_t>(previous.length)) {
      fail(MPI_ERR_TYPE, "filetype " + typeName(filetype) + " overlaps itself at byte " +
                             std::to_string(blocks[i].offset) + ", which a file open for writing cannot use");
    }
  }
}

}  // namespace

std::shared_ptr<Datatype> FileView::hold(Datatype& type) {
  type.retain();
  return std::shared_ptr<Datatype>(&type, [](Datatype* held) { held->release(); });
}

FileView::FileView() : etype_(hold(*byteType())), filetype_(etype_) {}

FileView::FileView(std::int64_t displacement, Datatype& etype, Datatype& filetype, const std::string& datarep,
                   bool writable)
    : datarep_(datarep) {
  if (displacement < 0) fail(MPI_ERR_ARG, "displacement is negative (" + std::to_string(displacement) + ")");
  requireUsableDatarep(datarep);
  if (etype.size() == 0) fail(MPI_ERR_TYPE, "etype " + typeName(etype) + " has size 0");
  if (filetype.size() == 0) fail(MPI_ERR_TYPE, "filetype " + typeName(filetype) + " has size 0");
  if (filetype.size() % etype.size() != 0) {
    fail(MPI_ERR_TYPE, "filetype " + typeName(filetype) + " (" + std::to_string(filetype.size()) +
                           " bytes) is not made of whole etypes of " + std::to_string(etype.size()) + " bytes");
  }
  if (filetype.extent() <= 0) {
    fail(MPI_ERR_TYPE, "filetype " + typeName(filetype) + " has extent " + std::to_string(filetype.extent()) +
                           ": it cannot be tiled");
  }
  checkFiletypeBlocks(filetype, writable);
  etype_ = hold(etype);
  filetype_ = hold(filetype);
  mapper_ = ViewMapper(displacement, filetype.blocks(), filetype.extent());
}

}  // namespace zmpi::mpi::io
