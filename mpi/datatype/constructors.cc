#include "mpi/datatype/constructors.h"

#include "mpi/datatype/arguments.h"
#include "mpi/datatype/type_builder.h"

namespace zmpi::mpi::types {
namespace {

// Records what built the type (MPI_Type_get_envelope/get_contents) and keeps the inner
// types alive as long as it.
Datatype* withContents(Datatype* type, std::vector<int> ints, std::vector<MPI_Aint> addresses,
                       std::initializer_list<Datatype*> inner) {
  type->contentInts = std::move(ints);
  type->contentAddresses = std::move(addresses);
  for (Datatype* t : inner) {
    type->contentTypes.push_back(t->handle());
    type->holdType(t);
  }
  return type;
}

// Blocks of `oldType` at displacements in units of `unit` bytes (its extent for the
// indexed forms, 1 for the h- forms).
template <typename Displacement>
Datatype* buildIndexed(int count, const int blocklengths[], int sameLength, const Displacement displacements[],
                       std::ptrdiff_t unit, Datatype& oldType, int combiner) {
  TypeMapBuilder builder;
  for (int i = 0; i < count; ++i) {
    const int length = blocklengths ? blocklengths[i] : sameLength;
    if (blocklengths) requireNonNegative(length, nth("blocklengths", i));
    builder.append(oldType, static_cast<std::ptrdiff_t>(displacements[i]) * unit, static_cast<std::size_t>(length));
  }
  return builder.finish(combiner);
}

}  // namespace

Datatype* contiguous(int count, Datatype& oldType) {
  requireCount(count);
  TypeMapBuilder builder;
  builder.append(oldType, 0, static_cast<std::size_t>(count));
  return withContents(builder.finish(MPI_COMBINER_CONTIGUOUS), {count}, {}, {&oldType});
}

Datatype* vector(int count, int blocklength, int stride, Datatype& oldType) {
  requireCount(count);
  requireNonNegative(blocklength, "blocklength");
  TypeMapBuilder builder;
  const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(stride) * oldType.extent();
  for (int i = 0; i < count; ++i) builder.append(oldType, i * step, static_cast<std::size_t>(blocklength));
  return withContents(builder.finish(MPI_COMBINER_VECTOR), {count, blocklength, stride}, {}, {&oldType});
}

Datatype* hvector(int count, int blocklength, MPI_Aint stride, Datatype& oldType) {
  requireCount(count);
  requireNonNegative(blocklength, "blocklength");
  TypeMapBuilder builder;
  for (int i = 0; i < count; ++i) builder.append(oldType, i * stride, static_cast<std::size_t>(blocklength));
  return withContents(builder.finish(MPI_COMBINER_HVECTOR), {count, blocklength}, {stride}, {&oldType});
}

Datatype* indexed(int count, const int blocklengths[], const int displacements[], Datatype& oldType) {
  requireCount(count);
  requireArray(blocklengths, count, "blocklengths");
  requireArray(displacements, count, "displacements");
  Datatype* type = buildIndexed(count, blocklengths, 0, displacements, oldType.extent(), oldType, MPI_COMBINER_INDEXED);
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  ints.insert(ints.end(), displacements, displacements + count);
  return withContents(type, std::move(ints), {}, {&oldType});
}

Datatype* hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype& oldType) {
  requireCount(count);
  requireArray(blocklengths, count, "blocklengths");
  requireArray(displacements, count, "displacements");
  Datatype* type = buildIndexed(count, blocklengths, 0, displacements, 1, oldType, MPI_COMBINER_HINDEXED);
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  return withContents(type, std::move(ints), {displacements, displacements + count}, {&oldType});
}

Datatype* indexedBlock(int count, int blocklength, const int displacements[], Datatype& oldType) {
  requireCount(count);
  requireNonNegative(blocklength, "blocklength");
  requireArray(displacements, count, "displacements");
  Datatype* type =
      buildIndexed(count, nullptr, blocklength, displacements, oldType.extent(), oldType, MPI_COMBINER_INDEXED_BLOCK);
  std::vector<int> ints{count, blocklength};
  ints.insert(ints.end(), displacements, displacements + count);
  return withContents(type, std::move(ints), {}, {&oldType});
}

Datatype* hindexedBlock(int count, int blocklength, const MPI_Aint displacements[], Datatype& oldType) {
  requireCount(count);
  requireNonNegative(blocklength, "blocklength");
  requireArray(displacements, count, "displacements");
  Datatype* type = buildIndexed(count, nullptr, blocklength, displacements, 1, oldType, MPI_COMBINER_HINDEXED_BLOCK);
  return withContents(type, {count, blocklength}, {displacements, displacements + count}, {&oldType});
}

Datatype* structType(int count, const int blocklengths[], const MPI_Aint displacements[], Datatype* const types[]) {
  requireCount(count);
  requireArray(blocklengths, count, "blocklengths");
  requireArray(displacements, count, "displacements");
  requireArray(types, count, "types");
  TypeMapBuilder builder;
  for (int i = 0; i < count; ++i) {
    requireNonNegative(blocklengths[i], nth("blocklengths", i));
    if (types[i] == nullptr) fail(MPI_ERR_TYPE, nth("types", i) + " is MPI_DATATYPE_NULL");
    builder.append(*types[i], displacements[i], static_cast<std::size_t>(blocklengths[i]));
  }
  Datatype* type = builder.finish(MPI_COMBINER_STRUCT);
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  withContents(type, std::move(ints), {displacements, displacements + count}, {});
  for (int i = 0; i < count; ++i) {
    type->contentTypes.push_back(types[i]->handle());
    type->holdType(types[i]);
  }
  return type;
}

Datatype* resized(Datatype& oldType, MPI_Aint lb, MPI_Aint extent) {
  TypeMapBuilder builder;
  builder.append(oldType, 0, 1);
  builder.setExplicitBounds(lb, lb + extent);
  return withContents(builder.finish(MPI_COMBINER_RESIZED), {}, {lb, extent}, {&oldType});
}

Datatype* dup(Datatype& oldType) {
  // One copy at displacement 0 reproduces the type map, the bounds and their markers.
  TypeMapBuilder builder;
  builder.append(oldType, 0, 1);
  Datatype* type = withContents(builder.finish(MPI_COMBINER_DUP), {}, {}, {&oldType});
  if (oldType.committed()) type->markCommitted();
  return type;
}

}  // namespace zmpi::mpi::types
