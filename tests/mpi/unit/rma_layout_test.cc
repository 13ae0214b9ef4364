// Target layouts: the target datatype and count flattened into byte blocks, which is all
// the target ever sees of the datatype.
#include <mpi.h>

#include <catch2/catch.hpp>
#include <vector>

#include "mpi/datatype/constructors.h"
#include "mpi/datatype/predefined.h"
#include "mpi/rma/target_layout.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using zmpi::mpi::rma::layoutOf;
using namespace zmpi::mpi::types;

namespace {

bool sameBlocks(std::span<const TypeBlock> blocks, const std::vector<TypeBlock>& expected) {
  if (blocks.size() != expected.size()) return false;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].offset != expected[i].offset || blocks[i].length != expected[i].length) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a contiguous target is one block, however many elements", "[rma][layout]") {
  auto layout = layoutOf(intType(), 10);
  CHECK(sameBlocks(layout.blocks(), {{0, 40}}));
  CHECK(layout.bytes == 40);
  CHECK(layout.lowest == 0);
  CHECK(layout.highest == 40);
  CHECK(layoutOf(intType(), 0).blocks().empty());
}

TEST_CASE("a vector target repeats its blocks at its extent, merging where they touch", "[rma][layout]") {
  Datatype* strided = vector(2, 1, 3, intType());  // ints at 0 and 12, extent 16
  auto layout = layoutOf(*strided, 2);
  CHECK(sameBlocks(layout.blocks(), {{0, 4}, {12, 8}, {28, 4}}));  // 12..16 and 16..20 merge
  CHECK(layout.bytes == 16);
  CHECK(layout.highest == 32);
  strided->release();
}

TEST_CASE("a resized type with a negative lower bound reaches below the target address", "[rma][layout]") {
  Datatype* shifted = resized(intType(), -8, 16);
  auto layout = layoutOf(*shifted, 2);
  CHECK(sameBlocks(layout.blocks(), {{0, 4}, {16, 4}}));
  Datatype* backwards = hindexedBlock(2, 1, std::vector<MPI_Aint>{8, -4}.data(), intType());
  auto back = layoutOf(*backwards, 1);
  CHECK(sameBlocks(back.blocks(), {{8, 4}, {-4, 4}}));  // type-map order is kept
  CHECK(back.lowest == -4);
  CHECK(back.highest == 12);
  shifted->release();
  backwards->release();
}

TEST_CASE("packed bytes scatter into the blocks and gather back", "[rma][layout]") {
  Datatype* strided = vector(3, 1, 2, intType());
  auto layout = layoutOf(*strided, 1);
  const int packed[3] = {1, 2, 3};
  int memory[5] = {0, 0, 0, 0, 0};
  rma::scatterPacked(layout.blocks(), reinterpret_cast<const char*>(packed), reinterpret_cast<char*>(memory));
  CHECK((memory[0] == 1 && memory[1] == 0 && memory[2] == 2 && memory[3] == 0 && memory[4] == 3));
  int back[3] = {0, 0, 0};
  rma::gatherPacked(layout.blocks(), reinterpret_cast<const char*>(memory), reinterpret_cast<char*>(back));
  CHECK((back[0] == 1 && back[1] == 2 && back[2] == 3));
  strided->release();
}

TEST_CASE("a block merged into the first stays merged when a separate one follows", "[rma][layout]") {
  // The first block is kept inline; the second continues it, the third does not.
  Datatype* parts = hindexedBlock(3, 1, std::vector<MPI_Aint>{0, 4, 12}.data(), intType());
  auto layout = layoutOf(*parts, 1);
  CHECK(sameBlocks(layout.blocks(), {{0, 8}, {12, 4}}));
  CHECK(layout.bytes == 12);
  CHECK(layout.lowest == 0);
  CHECK(layout.highest == 16);
  const rma::TargetLayout copy = layout;  // the blocks view follows the copy, not the original
  CHECK(copy.blocks().data() != layout.blocks().data());
  CHECK(sameBlocks(copy.blocks(), {{0, 8}, {12, 4}}));
  parts->release();
}

TEST_CASE("a layout read off the wire keeps its blocks as sent", "[rma][layout]") {
  const rma::TargetLayout wire(std::vector<TypeBlock>{{16, 4}, {-8, 8}});
  CHECK(sameBlocks(wire.blocks(), {{16, 4}, {-8, 8}}));
  CHECK(wire.bytes == 12);
  CHECK(wire.lowest == -8);
  CHECK(wire.highest == 20);
  const rma::TargetLayout single = layoutOf(intType(), 3);
  const rma::TargetLayout copied = single;
  CHECK(copied.blocks().data() != single.blocks().data());
  CHECK(sameBlocks(copied.blocks(), {{0, 12}}));
}
