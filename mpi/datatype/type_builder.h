#pragma once
// How every type constructor describes its result: "n copies of an existing type at byte
// displacement d". The builder flattens those copies at once into byte blocks and
// basic-element runs, merging neighbours as it goes (a contiguous type of a million ints
// is one block, never a million), and works out the bounds by MPI's rules.
#include <cstddef>
#include <vector>

#include "mpi/datatype/datatype.h"

namespace zmpi::mpi {

class TypeMapBuilder {
 public:
  // `count` copies of `type`, the first at byte displacement `displacement`, each next one
  // extent(type) further. Markers in `type` (explicit bounds) come along.
  void append(const Datatype& type, std::ptrdiff_t displacement, std::size_t count = 1);

  // Replaces every bound marker so far with lb/ub markers at these displacements
  // (MPI_Type_create_resized; subarray and darray types, which the standard defines as
  // resized to the whole array).
  void setExplicitBounds(std::ptrdiff_t lb, std::ptrdiff_t ub);

  // The new, uncommitted type (reference count 1) with this type map. The caller fills in
  // its envelope.
  Datatype* finish(int combiner);

 private:
  void pushBlock(TypeBlock block);
  void pushRun(PrimitiveRun run);

  std::vector<TypeBlock> blocks_;
  std::vector<PrimitiveRun> runs_;
  std::size_t size_ = 0;
  // Bounds, MPI-1 style: a marker, where present, wins over the data's extremes.
  bool hasLbMarker_ = false, hasUbMarker_ = false;
  std::ptrdiff_t lbMarker_ = 0, ubMarker_ = 0;
  bool hasDataLb_ = false, hasDataUb_ = false;
  std::ptrdiff_t dataLb_ = 0, dataUb_ = 0;
  bool hasTrue_ = false;
  std::ptrdiff_t trueLb_ = 0, trueUb_ = 0;
};

}  // namespace zmpi::mpi
