#pragma once
// A file view (MPI_File_set_view): displacement, etype, filetype and data representation,
// checked as MPI-3.1 section 13.3 asks, with the mapper that places its data in the file.
// Copies share the datatypes, which stay alive while a view names them (the program may
// free its handles right after MPI_File_set_view).
#include <cstdint>
#include <memory>
#include <string>

#include "mpi/datatype/datatype.h"
#include "mpi/io/view_mapper.h"

namespace zmpi::mpi::io {

class FileView {
 public:
  // The view every file starts with: displacement 0, etype and filetype MPI_BYTE, "native".
  FileView();
  // Throws MpiError: MPI_ERR_ARG for a negative displacement; MPI_ERR_TYPE for an etype of
  // size 0, a filetype that is empty, not made of whole etypes, has negative or decreasing
  // displacements, or (when `writable`) overlapping blocks; MPI_ERR_UNSUPPORTED_DATAREP for
  // any representation but "native" (and "internal", the same here).
  FileView(std::int64_t displacement, Datatype& etype, Datatype& filetype, const std::string& datarep, bool writable);

  std::int64_t displacement() const { return mapper_.displacement(); }
  Datatype& etype() const { return *etype_; }
  Datatype& filetype() const { return *filetype_; }
  std::size_t etypeSize() const { return etype_->size(); }
  const std::string& datarep() const { return datarep_; }
  const ViewMapper& mapper() const { return mapper_; }

 private:
  static std::shared_ptr<Datatype> hold(Datatype& type);

  std::shared_ptr<Datatype> etype_;
  std::shared_ptr<Datatype> filetype_;
  std::string datarep_ = "native";
  ViewMapper mapper_;
};

}  // namespace zmpi::mpi::io
