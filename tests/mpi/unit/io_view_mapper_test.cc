// The view mapper: file ranges of a view's byte stream for contiguous, vector and subarray
// filetypes (hand-written blocks and blocks of real derived types), merging across tiles,
// stream positions to file offsets, and file sizes back to stream positions.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "mpi/datatype/constructors.h"
#include "mpi/datatype/predefined.h"
#include "mpi/io/view_mapper.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using zmpi::mpi::io::FileSegment;
using zmpi::mpi::io::ViewMapper;

namespace {

ViewMapper mapperOf(std::int64_t disp, const Datatype& filetype) {
  return ViewMapper(disp, filetype.blocks(), filetype.extent());
}

using Segments = std::vector<FileSegment>;

}  // namespace

TEST_CASE("the default view is the file's bytes from the displacement") {
  ViewMapper bytes;
  CHECK(bytes.contiguous());
  CHECK(bytes.segments(5, 10) == Segments{{5, 10}});
  CHECK(bytes.segments(7, 0).empty());
  CHECK(bytes.fileOffsetOf(42) == 42);
  CHECK(bytes.streamBytesBelow(100) == 100);

  ViewMapper shifted(64);
  CHECK(shifted.segments(0, 8) == Segments{{64, 8}});
  CHECK(shifted.fileOffsetOf(3) == 67);
  CHECK(shifted.streamBytesBelow(100) == 36);
  CHECK(shifted.streamBytesBelow(10) == 0);
}

TEST_CASE("a contiguous filetype of several etypes is still one range") {
  Owned four(types::contiguous(4, intType()));
  ViewMapper view = mapperOf(8, *four);
  CHECK(view.contiguous());
  CHECK(view.segments(4, 40) == Segments{{12, 40}});
}

TEST_CASE("a vector filetype maps to its blocks, tile after tile") {
  // 3 blocks of 2 ints, stride 4 ints: blocks at 0, 16, 32 (8 bytes each), extent 40.
  Owned vec(types::vector(3, 2, 4, intType()));
  REQUIRE(vec->extent() == 40);
  ViewMapper view = mapperOf(100, *vec);
  CHECK_FALSE(view.contiguous());
  CHECK(view.segments(0, 24) == Segments{{100, 8}, {116, 8}, {132, 8}});
  // Starting and ending inside blocks.
  CHECK(view.segments(4, 8) == Segments{{104, 4}, {116, 4}});
  // The second tile starts one extent later.
  CHECK(view.segments(24, 12) == Segments{{140, 8}, {156, 4}});
  CHECK(view.fileOffsetOf(0) == 100);
  CHECK(view.fileOffsetOf(9) == 117);
  CHECK(view.fileOffsetOf(24) == 140);
  // A file of 120 bytes holds block 0 and half of block 1 of tile 0.
  CHECK(view.streamBytesBelow(120) == 12);
  CHECK(view.streamBytesBelow(140) == 24);
  CHECK(view.streamBytesBelow(150) == 32);
  CHECK(view.streamBytesBelow(99) == 0);
}

TEST_CASE("ranges that touch across a tile boundary are merged") {
  // Blocks at 0 and 8 (4 bytes), extent 12: block 1 of a tile ends where the next begins.
  ViewMapper view(0, {{0, 4}, {8, 4}}, 12);
  CHECK(view.segments(4, 8) == Segments{{8, 8}});
  CHECK(view.segments(0, 16) == Segments{{0, 4}, {8, 8}, {20, 4}});
}

TEST_CASE("interleaved records: each rank's vector view, shifted by its displacement") {
  // 4 ranks each own every 4th record of 3 doubles: blocklength 3, stride 12 doubles.
  Datatype& dbl = *datatypeOf(MPI_DOUBLE);
  Owned records(types::vector(2, 3, 12, dbl));
  for (int rank = 0; rank < 4; ++rank) {
    ViewMapper view = mapperOf(rank * 24, *records);
    const std::int64_t base = rank * 24;
    CHECK(view.segments(0, 48) == Segments{{base, 24}, {base + 96, 24}});
  }
}

TEST_CASE("a subarray filetype places a 2-D block in a row-major global array") {
  // Global 4 x 6 ints, local 2 x 3 from (1, 2): rows at (1*6+2)*4 = 32 and (2*6+2)*4 = 56.
  const int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
  Owned sub(types::subarray(2, sizes, subsizes, starts, MPI_ORDER_C, intType()));
  REQUIRE(sub->extent() == 96);
  ViewMapper view = mapperOf(0, *sub);
  CHECK(view.segments(0, 24) == Segments{{32, 12}, {56, 12}});
  CHECK(view.segments(8, 8) == Segments{{40, 4}, {56, 4}});
  CHECK(view.fileOffsetOf(12) == 56);
  CHECK(view.streamBytesBelow(96) == 24);
  CHECK(view.streamBytesBelow(60) == 16);
}

TEST_CASE("a visitor can stop the walk early") {
  ViewMapper view(0, {{0, 4}, {8, 4}}, 16);
  int visited = 0;
  view.forEachSegment(0, 64, [&](const FileSegment&) { return ++visited < 2; });
  CHECK(visited == 2);
}

TEST_CASE("file size to stream position when blocks reach past the extent") {
  // Blocks [0,4) and [8,12), tiled every 6 bytes (a read-only, overlapping view).
  ViewMapper view(0, {{0, 4}, {8, 4}}, 6);
  // Tile 0: 4 + 2 bytes below 10; tile 1 (from 6): [6,10) 4 bytes, [14,18) none.
  CHECK(view.streamBytesBelow(10) == 10);
  CHECK(view.streamBytesBelow(0) == 0);
  // Far out, whole tiles are counted without walking them: tiles 0..1000 end by 6012,
  // and tile 1001 (from 6006) has its first block below it.
  CHECK(view.streamBytesBelow(6 * 1000 + 12) == 1001 * 8 + 4);
}

TEST_CASE("zero-length blocks are ignored") {
  ViewMapper view(0, {{0, 0}, {4, 4}, {8, 0}}, 12);
  CHECK(view.segments(0, 8) == Segments{{4, 4}, {16, 4}});
}
