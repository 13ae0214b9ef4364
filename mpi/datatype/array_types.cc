// MPI_Type_create_subarray and MPI_Type_create_darray: both pick, per dimension, which
// indices of a global array belong to the type, and lay the chosen elements out in the
// array's memory order (C: last index fastest; Fortran: first index fastest). The
// standard defines both as resized to the whole array: lb 0, extent = all elements.
#include <numeric>
#include <string>
#include <vector>

#include "mpi/datatype/arguments.h"
#include "mpi/datatype/constructors.h"
#include "mpi/datatype/type_builder.h"

namespace zmpi::mpi::types {
namespace {

// Appends the elements of an array of `sizes` whose index in dimension d is in picked[d]
// (ascending), in memory order, each run of consecutive fastest-dimension indices as one
// append.
void appendPicked(TypeMapBuilder& builder, const std::vector<int>& sizes, const std::vector<std::vector<int>>& picked,
                  int order, Datatype& oldType) {
  const int ndims = static_cast<int>(sizes.size());
  // Dimensions from slowest to fastest varying in memory, with their element strides.
  std::vector<int> dims(ndims);
  for (int k = 0; k < ndims; ++k) dims[k] = order == MPI_ORDER_C ? k : ndims - 1 - k;
  std::vector<std::ptrdiff_t> stride(ndims, 1);
  for (int k = ndims - 2; k >= 0; --k) stride[k] = stride[k + 1] * sizes[dims[k + 1]];
  for (const std::vector<int>& list : picked) {
    if (list.empty()) return;
  }
  const std::ptrdiff_t extent = oldType.extent();
  const std::vector<int>& fastest = picked[dims[ndims - 1]];
  std::vector<std::size_t> at(ndims, 0);  // odometer over the slower dimensions
  while (true) {
    std::ptrdiff_t base = 0;
    for (int k = 0; k < ndims - 1; ++k) base += stride[k] * picked[dims[k]][at[k]];
    for (std::size_t i = 0; i < fastest.size();) {
      std::size_t j = i + 1;
      while (j < fastest.size() && fastest[j] == fastest[j - 1] + 1) ++j;
      builder.append(oldType, (base + fastest[i]) * extent, j - i);
      i = j;
    }
    int k = ndims - 2;
    for (; k >= 0; --k) {
      if (++at[k] < picked[dims[k]].size()) break;
      at[k] = 0;
    }
    if (k < 0) return;
  }
}

void requireOrder(int order) {
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) {
    fail(MPI_ERR_ARG, "order is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN (" + std::to_string(order) + ")");
  }
}

void requireDims(int ndims) {
  if (ndims <= 0) fail(MPI_ERR_ARG, "ndims must be positive (" + std::to_string(ndims) + ")");
}

std::ptrdiff_t elements(const std::vector<int>& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), std::ptrdiff_t{1}, std::multiplies<>());
}

Datatype* finishArray(TypeMapBuilder& builder, const std::vector<int>& sizes, Datatype& oldType, int combiner,
                      std::vector<int> ints) {
  builder.setExplicitBounds(0, elements(sizes) * oldType.extent());
  Datatype* type = builder.finish(combiner);
  type->contentInts = std::move(ints);
  type->contentTypes.push_back(oldType.handle());
  type->holdType(&oldType);
  return type;
}

// Indices of a dimension of `global` elements owned by process coordinate `coord` of
// `procs` (MPI 3.1 section 4.1.4).
std::vector<int> distributed(int dim, int global, int distrib, int darg, int procs, int coord) {
  std::vector<int> owned;
  if (distrib == MPI_DISTRIBUTE_NONE) {
    if (procs != 1) fail(MPI_ERR_ARG, nth("psizes", dim) + " must be 1 for MPI_DISTRIBUTE_NONE");
    owned.resize(static_cast<std::size_t>(global));
    std::iota(owned.begin(), owned.end(), 0);
  } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
    const int block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (global + procs - 1) / procs : darg;
    if (block <= 0 || static_cast<long>(block) * procs < global) {
      fail(MPI_ERR_ARG, nth("dargs", dim) + " " + std::to_string(darg) + " is too small to distribute " +
                            std::to_string(global) + " elements over " + std::to_string(procs) + " processes");
    }
    for (long i = static_cast<long>(coord) * block; i < std::min<long>(global, (coord + 1L) * block); ++i) {
      owned.push_back(static_cast<int>(i));
    }
  } else if (distrib == MPI_DISTRIBUTE_CYCLIC) {
    const int block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (block <= 0) fail(MPI_ERR_ARG, nth("dargs", dim) + " is not positive (" + std::to_string(darg) + ")");
    for (long start = static_cast<long>(coord) * block; start < global; start += static_cast<long>(procs) * block) {
      for (long i = start; i < std::min<long>(global, start + block); ++i) owned.push_back(static_cast<int>(i));
    }
  } else {
    fail(MPI_ERR_ARG, nth("distribs", dim) + " is not a distribution (" + std::to_string(distrib) + ")");
  }
  return owned;
}

}  // namespace

Datatype* subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                   Datatype& oldType) {
  requireDims(ndims);
  requireArray(sizes, ndims, "sizes");
  requireArray(subsizes, ndims, "subsizes");
  requireArray(starts, ndims, "starts");
  requireOrder(order);
  std::vector<int> full(sizes, sizes + ndims);
  std::vector<std::vector<int>> picked(static_cast<std::size_t>(ndims));
  for (int d = 0; d < ndims; ++d) {
    if (sizes[d] <= 0) fail(MPI_ERR_ARG, nth("sizes", d) + " is not positive (" + std::to_string(sizes[d]) + ")");
    if (subsizes[d] < 0 || subsizes[d] > sizes[d]) {
      fail(MPI_ERR_ARG,
           nth("subsizes", d) + " " + std::to_string(subsizes[d]) + " is outside 0.." + std::to_string(sizes[d]));
    }
    if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d]) {
      fail(MPI_ERR_ARG, nth("starts", d) + " " + std::to_string(starts[d]) + " is outside 0.." +
                            std::to_string(sizes[d] - subsizes[d]));
    }
    picked[d].resize(static_cast<std::size_t>(subsizes[d]));
    std::iota(picked[d].begin(), picked[d].end(), starts[d]);
  }
  TypeMapBuilder builder;
  appendPicked(builder, full, picked, order, oldType);
  std::vector<int> ints{ndims};
  for (const int* array : {sizes, subsizes, starts}) ints.insert(ints.end(), array, array + ndims);
  ints.push_back(order);
  return finishArray(builder, full, oldType, MPI_COMBINER_SUBARRAY, std::move(ints));
}

Datatype* darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                 const int psizes[], int order, Datatype& oldType) {
  if (size <= 0) fail(MPI_ERR_ARG, "size is not positive (" + std::to_string(size) + ")");
  if (rank < 0 || rank >= size) {
    fail(MPI_ERR_ARG, "rank " + std::to_string(rank) + " is outside 0.." + std::to_string(size - 1));
  }
  requireDims(ndims);
  for (auto [array, name] :
       {std::pair{gsizes, "gsizes"}, {distribs, "distribs"}, {dargs, "dargs"}, {psizes, "psizes"}}) {
    requireArray(array, ndims, name);
  }
  requireOrder(order);
  long processes = 1;
  for (int d = 0; d < ndims; ++d) {
    if (gsizes[d] <= 0) fail(MPI_ERR_ARG, nth("gsizes", d) + " is not positive (" + std::to_string(gsizes[d]) + ")");
    if (psizes[d] <= 0) fail(MPI_ERR_ARG, nth("psizes", d) + " is not positive (" + std::to_string(psizes[d]) + ")");
    processes *= psizes[d];
  }
  if (processes != size) {
    fail(MPI_ERR_ARG,
         "the product of psizes (" + std::to_string(processes) + ") is not size (" + std::to_string(size) + ")");
  }
  // The process grid is row-major whatever the array's order (MPI 3.1 section 4.1.4).
  std::vector<int> coords(static_cast<std::size_t>(ndims));
  for (int d = ndims - 1, r = rank; d >= 0; --d) {
    coords[d] = r % psizes[d];
    r /= psizes[d];
  }
  std::vector<int> full(gsizes, gsizes + ndims);
  std::vector<std::vector<int>> picked;
  for (int d = 0; d < ndims; ++d)
    picked.push_back(distributed(d, gsizes[d], distribs[d], dargs[d], psizes[d], coords[d]));
  TypeMapBuilder builder;
  appendPicked(builder, full, picked, order, oldType);
  std::vector<int> ints{size, rank, ndims};
  for (const int* array : {gsizes, distribs, dargs, psizes}) ints.insert(ints.end(), array, array + ndims);
  ints.push_back(order);
  return finishArray(builder, full, oldType, MPI_COMBINER_DARRAY, std::move(ints));
}

}  // namespace zmpi::mpi::types
