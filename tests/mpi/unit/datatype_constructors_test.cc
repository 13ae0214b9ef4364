// The derived-datatype constructors: flattened blocks, size, bounds, true bounds, basic
// kind and envelope/contents of each, against type maps worked out by hand.
#include <catch2/catch.hpp>
#include <cstddef>
#include <memory>
#include <vector>

#include "error_code_of.h"
#include "mpi/abi/predefined_objects.h"
#include "mpi/core/error.h"
#include "mpi/datatype/constructors.h"
#include "mpi/datatype/predefined.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

std::vector<std::pair<std::ptrdiff_t, std::size_t>> blocksOf(const Datatype& type) {
  std::vector<std::pair<std::ptrdiff_t, std::size_t>> out;
  for (const TypeBlock& block : type.blocks()) out.emplace_back(block.offset, block.length);
  return out;
}

using Blocks = std::vector<std::pair<std::ptrdiff_t, std::size_t>>;

void checkBounds(const Datatype& type, std::size_t size, std::ptrdiff_t lb, std::ptrdiff_t extent,
                 std::ptrdiff_t trueLb, std::ptrdiff_t trueExtent) {
  CHECK(type.size() == size);
  CHECK(type.lb() == lb);
  CHECK(type.extent() == extent);
  CHECK(type.trueLb() == trueLb);
  CHECK(type.trueExtent() == trueExtent);
}

template <typename Body>
std::string errorTextOf(Body&& body) {
  try {
    body();
  } catch (const MpiError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("contiguous types are one block") {
  Owned type(types::contiguous(3, basic(MPI_INT)));
  CHECK(blocksOf(*type) == Blocks{{0, 12}});
  checkBounds(*type, 12, 0, 12, 0, 12);
  CHECK(type->contiguous());
  CHECK_FALSE(type->committed());
  CHECK(type->primitive() == Primitive::Int);
  CHECK(type->primitiveCount() == 3);
  CHECK(type->combiner == MPI_COMBINER_CONTIGUOUS);
  CHECK(type->contentInts == std::vector<int>{3});
  CHECK(type->contentTypes == std::vector<MPI_Datatype>{MPI_INT});

  Owned empty(types::contiguous(0, basic(MPI_INT)));
  CHECK(empty->blocks().empty());
  checkBounds(*empty, 0, 0, 0, 0, 0);
  CHECK(empty->primitiveCount() == 0);
}

TEST_CASE("vector types: blocks at stride times the old extent") {
  Owned type(types::vector(3, 2, 4, basic(MPI_INT)));
  CHECK(blocksOf(*type) == Blocks{{0, 8}, {16, 8}, {32, 8}});
  checkBounds(*type, 24, 0, 40, 0, 40);
  CHECK_FALSE(type->contiguous());
  CHECK(type->primitive() == Primitive::Int);
  CHECK(type->primitiveCount() == 6);
  CHECK(type->contentInts == std::vector<int>{3, 2, 4});

  SECTION("stride equal to blocklength merges into one block") {
    Owned dense(types::vector(4, 2, 2, basic(MPI_INT)));
    CHECK(blocksOf(*dense) == Blocks{{0, 32}});
    CHECK(dense->contiguous());
  }
  SECTION("negative stride runs downwards; lb is the lowest block") {
    Owned down(types::vector(3, 1, -2, basic(MPI_DOUBLE)));
    CHECK(blocksOf(*down) == Blocks{{0, 8}, {-16, 8}, {-32, 8}});
    checkBounds(*down, 24, -32, 40, -32, 40);
  }
  SECTION("zero count") {
    Owned none(types::vector(0, 2, 4, basic(MPI_INT)));
    checkBounds(*none, 0, 0, 0, 0, 0);
  }
}

TEST_CASE("hvector strides in bytes") {
  Owned type(types::hvector(2, 3, 100, basic(MPI_SHORT)));
  CHECK(blocksOf(*type) == Blocks{{0, 6}, {100, 6}});
  checkBounds(*type, 12, 0, 106, 0, 106);
  CHECK(type->combiner == MPI_COMBINER_HVECTOR);
  CHECK(type->contentInts == std::vector<int>{2, 3});
  CHECK(type->contentAddresses == std::vector<MPI_Aint>{100});
}

TEST_CASE("indexed and hindexed keep type-map order") {
  const int lengths[] = {1, 2, 0};
  const int displacements[] = {4, 0, 7};
  Owned type(types::indexed(3, lengths, displacements, basic(MPI_INT)));
  CHECK(blocksOf(*type) == Blocks{{16, 4}, {0, 8}});
  checkBounds(*type, 12, 0, 20, 0, 20);
  CHECK(type->contentInts == std::vector<int>{3, 1, 2, 0, 4, 0, 7});

  const int hLengths[] = {2, 1};
  const MPI_Aint hDisplacements[] = {8, 0};
  Owned h(types::hindexed(2, hLengths, hDisplacements, basic(MPI_DOUBLE)));
  CHECK(blocksOf(*h) == Blocks{{8, 16}, {0, 8}});
  checkBounds(*h, 24, 0, 24, 0, 24);
  CHECK(h->combiner == MPI_COMBINER_HINDEXED);
  CHECK(h->contentInts == std::vector<int>{2, 2, 1});
  CHECK(h->contentAddresses == std::vector<MPI_Aint>{8, 0});
}

TEST_CASE("indexed_block and hindexed_block") {
  const int displacements[] = {0, 3, 6};
  Owned type(types::indexedBlock(3, 2, displacements, basic(MPI_INT)));
  CHECK(blocksOf(*type) == Blocks{{0, 8}, {12, 8}, {24, 8}});
  checkBounds(*type, 24, 0, 32, 0, 32);
  CHECK(type->combiner == MPI_COMBINER_INDEXED_BLOCK);
  CHECK(type->contentInts == std::vector<int>{3, 2, 0, 3, 6});

  const MPI_Aint hDisplacements[] = {0, 12};
  Owned h(types::hindexedBlock(2, 1, hDisplacements, basic(MPI_FLOAT)));
  CHECK(blocksOf(*h) == Blocks{{0, 4}, {12, 4}});
  checkBounds(*h, 8, 0, 16, 0, 16);
  CHECK(h->combiner == MPI_COMBINER_HINDEXED_BLOCK);
  CHECK(h->contentInts == std::vector<int>{2, 1});
  CHECK(h->contentAddresses == std::vector<MPI_Aint>{0, 12});
}

TEST_CASE("struct types mix basic kinds; no alignment padding is added (as Open MPI)") {
  struct S {
    char c;
    double d;
    int i[2];
  };
  const int lengths[] = {1, 1, 2};
  const MPI_Aint displacements[] = {offsetof(S, c), offsetof(S, d), offsetof(S, i)};
  Datatype* inner[] = {&basic(MPI_CHAR), &basic(MPI_DOUBLE), &basic(MPI_INT)};
  Owned type(types::structType(3, lengths, displacements, inner));
  CHECK(blocksOf(*type) == Blocks{{0, 1}, {8, 16}});
  checkBounds(*type, 17, 0, 24, 0, 24);
  CHECK(type->primitive() == Primitive::Mixed);
  CHECK(type->primitiveCount() == 4);
  CHECK(type->combiner == MPI_COMBINER_STRUCT);
  CHECK(type->contentInts == std::vector<int>{3, 1, 1, 2});
  CHECK(type->contentAddresses == std::vector<MPI_Aint>{0, 8, 16});
  CHECK(type->contentTypes == std::vector<MPI_Datatype>{MPI_CHAR, MPI_DOUBLE, MPI_INT});

  SECTION("elements in a partial message count along the type map") {
    CHECK(type->elementsIn(17) == 4u);
    CHECK(type->elementsIn(1) == 1u);
    CHECK(type->elementsIn(9) == 2u);
    CHECK(type->elementsIn(13) == 3u);
    CHECK(type->elementsIn(17 + 9) == 6u);
    CHECK_FALSE(type->elementsIn(5).has_value());
    CHECK(type->bytesOfElements(3) == 13);
    CHECK(type->bytesOfElements(6) == 26);
  }
  SECTION("a trailing char is not padded to the double's alignment") {
    const int ones[] = {1, 1};
    const MPI_Aint at[] = {0, 8};
    Datatype* kinds[] = {&basic(MPI_DOUBLE), &basic(MPI_CHAR)};
    Owned unpadded(types::structType(2, ones, at, kinds));
    checkBounds(*unpadded, 9, 0, 9, 0, 9);
  }
  SECTION("the deprecated MPI_LB/MPI_UB markers set the bounds") {
    const int markerLengths[] = {1, 1, 1};
    const MPI_Aint markerDisplacements[] = {-4, 0, 12};
    Datatype* markerTypes[] = {&basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_lb)), &basic(MPI_INT),
                               &basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_ub))};
    Owned marked(types::structType(3, markerLengths, markerDisplacements, markerTypes));
    checkBounds(*marked, 4, -4, 16, 0, 4);
    CHECK(marked->primitive() == Primitive::Int);
  }
}

TEST_CASE("resized types set bounds that stick through later constructors") {
  Owned type(types::resized(basic(MPI_INT), -4, 16));
  CHECK(blocksOf(*type) == Blocks{{0, 4}});
  checkBounds(*type, 4, -4, 16, 0, 4);
  CHECK_FALSE(type->contiguous());
  CHECK(type->contentAddresses == std::vector<MPI_Aint>{-4, 16});

  Owned two(types::contiguous(2, *type));
  CHECK(blocksOf(*two) == Blocks{{0, 4}, {16, 4}});
  checkBounds(*two, 8, -4, 32, 0, 20);
  CHECK(two->explicitLb());
  CHECK(two->explicitUb());

  SECTION("a column resized to one element interleaves") {
    Owned column(types::vector(3, 1, 4, basic(MPI_INT)));
    Owned narrow(types::resized(*column, 0, 4));
    Owned columns(types::contiguous(2, *narrow));
    CHECK(blocksOf(*columns) == Blocks{{0, 4}, {16, 4}, {32, 4}, {4, 4}, {20, 4}, {36, 4}});
    checkBounds(*columns, 24, 0, 8, 0, 40);
  }
}

TEST_CASE("dup copies the type map and the committed state") {
  Owned vector(types::vector(2, 1, 3, basic(MPI_DOUBLE)));
  vector->markCommitted();
  Owned copy(types::dup(*vector));
  CHECK(blocksOf(*copy) == blocksOf(*vector));
  checkBounds(*copy, 16, 0, 32, 0, 32);
  CHECK(copy->committed());
  CHECK(copy->combiner == MPI_COMBINER_DUP);
  CHECK(copy->contentTypes == std::vector<MPI_Datatype>{vector->handle()});

  Owned ofBasic(types::dup(basic(MPI_INT)));
  CHECK(ofBasic->committed());
  CHECK_FALSE(ofBasic->predefined());
  CHECK(ofBasic->primitive() == Primitive::Int);
}

TEST_CASE("subarrays in C and Fortran order") {
  const int sizes[] = {4, 5};
  const int subsizes[] = {2, 3};
  const int starts[] = {1, 2};
  Owned c(types::subarray(2, sizes, subsizes, starts, MPI_ORDER_C, basic(MPI_INT)));
  CHECK(blocksOf(*c) == Blocks{{28, 12}, {48, 12}});
  checkBounds(*c, 24, 0, 80, 28, 32);
  CHECK(c->combiner == MPI_COMBINER_SUBARRAY);
  CHECK(c->contentInts == std::vector<int>{2, 4, 5, 2, 3, 1, 2, MPI_ORDER_C});

  Owned fortran(types::subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, basic(MPI_INT)));
  CHECK(blocksOf(*fortran) == Blocks{{36, 8}, {52, 8}, {68, 8}});
  checkBounds(*fortran, 24, 0, 80, 36, 40);

  SECTION("three dimensions, C order") {
    const int sizes3[] = {2, 3, 4};
    const int subsizes3[] = {2, 1, 2};
    const int starts3[] = {0, 1, 1};
    Owned cube(types::subarray(3, sizes3, subsizes3, starts3, MPI_ORDER_C, basic(MPI_CHAR)));
    CHECK(blocksOf(*cube) == Blocks{{5, 2}, {17, 2}});
    checkBounds(*cube, 4, 0, 24, 5, 14);
  }
  SECTION("empty subarray") {
    const int none[] = {0, 3};
    const int zero[] = {0, 0};
    Owned empty(types::subarray(2, sizes, none, zero, MPI_ORDER_C, basic(MPI_INT)));
    CHECK(empty->size() == 0);
    CHECK(empty->extent() == 80);
  }
}

TEST_CASE("darray: block and cyclic distributions") {
  const int gsizes[] = {4, 6};
  const int distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
  const int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
  const int psizes[] = {2, 2};
  // Rank 3 of a 2x2 grid is at (1, 1): rows 2..3, columns 3..5.
  Owned block(types::darray(4, 3, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, basic(MPI_INT)));
  CHECK(blocksOf(*block) == Blocks{{60, 12}, {84, 12}});
  checkBounds(*block, 24, 0, 96, 60, 36);
  CHECK(block->combiner == MPI_COMBINER_DARRAY);
  CHECK(block->contentInts.size() == 4 * 2 + 4);

  const int g1[] = {8};
  const int cyclic[] = {MPI_DISTRIBUTE_CYCLIC};
  const int two[] = {2};
  const int p1[] = {2};
  // Cyclic(2) over 2 processes: rank 1 owns 2, 3, 6, 7.
  Owned cyc(types::darray(2, 1, 1, g1, cyclic, two, p1, MPI_ORDER_C, basic(MPI_INT)));
  CHECK(blocksOf(*cyc) == Blocks{{8, 8}, {24, 8}});
  checkBounds(*cyc, 16, 0, 32, 8, 24);

  CHECK(errorCodeOf([&] {
          const int wrong[] = {3, 1};
          Owned t(types::darray(4, 0, 2, gsizes, distribs, dargs, wrong, MPI_ORDER_C, basic(MPI_INT)));
        }) == MPI_ERR_ARG);
}

TEST_CASE("pair types keep their padding; runs count pairs") {
  Owned type(types::contiguous(2, basic(MPI_DOUBLE_INT)));
  CHECK(blocksOf(*type) == Blocks{{0, 12}, {16, 12}});
  checkBounds(*type, 24, 0, 32, 0, 28);
  CHECK(type->primitive() == Primitive::DoubleInt);
  CHECK(type->primitiveCount() == 2);
  CHECK(type->denseRun());
  CHECK(basic(MPI_SHORT_INT).size() == 6);
  CHECK(basic(MPI_SHORT_INT).extent() == 8);
  CHECK(basic(MPI_LONG_DOUBLE_INT).size() == 20);
}

TEST_CASE("types hold the types they were built from") {
  Datatype* inner = types::contiguous(2, basic(MPI_INT));
  Owned outer(types::vector(2, 1, 3, *inner));
  CHECK(inner->references() == 2);
  inner->release();  // the program's MPI_Type_free: the outer type still needs it
  CHECK(inner->references() == 1);
  CHECK(outer->contentTypes[0] == inner->handle());
  CHECK(datatypeOf(outer->contentTypes[0])->size() == 8);
}

TEST_CASE("bad arguments name the argument") {
  CHECK(errorCodeOf([] { Owned t(types::contiguous(-1, basic(MPI_INT))); }) == MPI_ERR_COUNT);
  CHECK(errorTextOf([] { Owned t(types::contiguous(-1, basic(MPI_INT))); }) == "count is negative (-1)");
  CHECK(errorCodeOf([] { Owned t(types::vector(2, -1, 1, basic(MPI_INT))); }) == MPI_ERR_ARG);
  CHECK(errorTextOf([] { Owned t(types::vector(2, -1, 1, basic(MPI_INT))); }) == "blocklength is negative (-1)");
  const int lengths[] = {1, -3};
  const int displacements[] = {0, 1};
  CHECK(errorTextOf([&] { Owned t(types::indexed(2, lengths, displacements, basic(MPI_INT))); }) ==
        "blocklengths[1] is negative (-3)");
  CHECK(errorCodeOf([&] { Owned t(types::indexed(2, nullptr, displacements, basic(MPI_INT))); }) == MPI_ERR_ARG);
  const int sizes[] = {4};
  const int subsizes[] = {2};
  const int starts[] = {3};
  CHECK(errorTextOf([&] { Owned t(types::subarray(1, sizes, subsizes, starts, MPI_ORDER_C, basic(MPI_INT))); }) ==
        "starts[0] 3 is outside 0..2");
  CHECK(errorCodeOf([&] { Owned t(types::subarray(1, sizes, subsizes, subsizes, 7, basic(MPI_INT))); }) == MPI_ERR_ARG);
  Datatype* none[] = {nullptr};
  const int one[] = {1};
  const MPI_Aint zero[] = {0};
  CHECK(errorCodeOf([&] { Owned t(types::structType(1, one, zero, none)); }) == MPI_ERR_TYPE);
}
