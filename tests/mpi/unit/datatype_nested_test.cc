// Nested derived types against a naive model of MPI's definitions: each constructor is
// "copies of the old type map, shifted", computed here element by element with no
// merging or shortcuts, then compared with the flattened blocks, the bounds and the bytes
// packed from a patterned buffer (count 1 and 3).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "mpi/datatype/constructors.h"
#include "mpi/datatype/predefined.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

// The model: a type map of (offset, bytes) basic elements and the bounds.
struct Model {
  std::vector<std::pair<std::ptrdiff_t, std::size_t>> map;
  std::ptrdiff_t lb = 0, ub = 0;
  bool explicitBounds = false;
  std::ptrdiff_t extent() const { return ub - lb; }
};

Model basicModel(std::size_t bytes) { return {{{0, bytes}}, 0, static_cast<std::ptrdiff_t>(bytes), false}; }

// Copies of `t` at each displacement, in order (MPI's type-map concatenation).
Model replicate(const Model& t, const std::vector<std::ptrdiff_t>& displacements) {
  Model out;
  out.explicitBounds = t.explicitBounds;
  bool first = true;
  for (std::ptrdiff_t d : displacements) {
    for (auto [offset, bytes] : t.map) out.map.emplace_back(d + offset, bytes);
    out.lb = first ? d + t.lb : std::min(out.lb, d + t.lb);
    out.ub = first ? d + t.ub : std::max(out.ub, d + t.ub);
    first = false;
  }
  return out;
}

Model vectorModel(int count, int blocklength, std::ptrdiff_t strideBytes, const Model& t) {
  std::vector<std::ptrdiff_t> at;
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < blocklength; ++j) at.push_back(i * strideBytes + j * t.extent());
  }
  return replicate(t, at);
}

Model structModel(const std::vector<std::pair<std::ptrdiff_t, Model>>& fields) {
  Model out;
  bool first = true;
  for (const auto& [d, t] : fields) {
    Model one = replicate(t, {d});
    out.map.insert(out.map.end(), one.map.begin(), one.map.end());
    out.lb = first ? one.lb : std::min(out.lb, one.lb);
    out.ub = first ? one.ub : std::max(out.ub, one.ub);
    first = false;
  }
  return out;
}

Model resizedModel(Model t, std::ptrdiff_t lb, std::ptrdiff_t extent) {
  t.lb = lb;
  t.ub = lb + extent;
  t.explicitBounds = true;
  return t;
}

void compare(const Datatype& type, const Model& model) {
  std::vector<std::pair<std::ptrdiff_t, std::size_t>> merged;
  std::size_t size = 0;
  std::ptrdiff_t trueLb = 0, trueUb = 0;
  for (auto [offset, bytes] : model.map) {
    const std::ptrdiff_t end = offset + static_cast<std::ptrdiff_t>(bytes);
    trueLb = size == 0 ? offset : std::min(trueLb, offset);
    trueUb = size == 0 ? end : std::max(trueUb, end);
    size += bytes;
    if (!merged.empty() && merged.back().first + static_cast<std::ptrdiff_t>(merged.back().second) == offset) {
      merged.back().second += bytes;
    } else {
      merged.emplace_back(offset, bytes);
    }
  }
  std::vector<std::pair<std::ptrdiff_t, std::size_t>> blocks;
  for (const TypeBlock& b : type.blocks()) blocks.emplace_back(b.offset, b.length);
  CHECK(blocks == merged);
  CHECK(type.size() == size);
  CHECK(type.lb() == model.lb);
  CHECK(type.extent() == model.extent());
  CHECK(type.trueLb() == trueLb);
  CHECK(type.trueExtent() == trueUb - trueLb);

  // Pack 3 elements from a patterned buffer and compare with the model's bytes.
  const std::ptrdiff_t last = 2 * model.extent();
  const std::ptrdiff_t low = std::min<std::ptrdiff_t>(0, last) + trueLb;
  const std::ptrdiff_t high = std::max<std::ptrdiff_t>(0, last) + trueUb;
  std::vector<uint8_t> memory(static_cast<std::size_t>(high - low));
  for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<uint8_t>(i * 7 + 3);
  const uint8_t* base = memory.data() - low;
  std::vector<uint8_t> expected;
  for (int e = 0; e < 3; ++e) {
    for (auto [offset, bytes] : model.map) {
      const uint8_t* p = base + e * model.extent() + offset;
      expected.insert(expected.end(), p, p + bytes);
    }
  }
  std::vector<uint8_t> packed(3 * type.size());
  type.pack(base, 3, packed.data());
  CHECK(packed == expected);
}

}  // namespace

TEST_CASE("vector of a struct of a vector") {
  Owned inner(types::vector(2, 1, 3, basic(MPI_SHORT)));
  const Model innerModel = vectorModel(2, 1, 3 * 2, basicModel(2));
  compare(*inner, innerModel);

  const int lengths[] = {1, 2};
  const MPI_Aint at[] = {0, 16};
  Datatype* kinds[] = {&basic(MPI_DOUBLE), inner.get()};
  Owned record(types::structType(2, lengths, at, kinds));
  const Model recordModel = structModel({{0, basicModel(8)}, {16, replicate(innerModel, {0, innerModel.extent()})}});
  compare(*record, recordModel);

  Owned outer(types::vector(3, 2, -5, *record));
  compare(*outer, vectorModel(3, 2, -5 * recordModel.extent(), recordModel));
}

TEST_CASE("hindexed of a resized contiguous, then contiguous of that") {
  Owned pair(types::contiguous(2, basic(MPI_INT)));
  Owned padded(types::resized(*pair, -8, 24));
  const Model paddedModel = resizedModel(replicate(basicModel(4), {0, 4}), -8, 24);
  compare(*padded, paddedModel);

  const int lengths[] = {2, 0, 1};
  const MPI_Aint at[] = {100, 7, -60};
  Owned h(types::hindexed(3, lengths, at, *padded));
  const Model hModel = replicate(paddedModel, {100, 100 + 24, -60});
  compare(*h, hModel);

  Owned many(types::contiguous(4, *h));
  std::vector<std::ptrdiff_t> copies;
  for (int i = 0; i < 4; ++i) copies.push_back(i * hModel.extent());
  compare(*many, replicate(hModel, copies));
}

TEST_CASE("indexed_block of a subarray") {
  const int sizes[] = {3, 4}, subsizes[] = {2, 2}, starts[] = {0, 1};
  Owned sub(types::subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, basic(MPI_FLOAT)));
  // Fortran order: element (i, j) at (i + 3 j) * 4; i in 0..1, j in 1..2.
  const Model subModel = resizedModel(replicate(basicModel(4), {12, 16, 24, 28}), 0, 48);
  compare(*sub, subModel);

  const int displacements[] = {2, 0};
  Owned blocks(types::indexedBlock(2, 2, displacements, *sub));
  compare(*blocks, replicate(subModel, {2 * 48, 3 * 48, 0, 48}));
}

TEST_CASE("hvector with overlapping strides keeps every copy") {
  Owned two(types::contiguous(2, basic(MPI_DOUBLE)));
  Owned overlap(types::hvector(3, 1, 8, *two));
  compare(*overlap, replicate(replicate(basicModel(8), {0, 8}), {0, 8, 16}));
}
