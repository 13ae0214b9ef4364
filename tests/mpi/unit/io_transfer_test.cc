// POSIX file, views and transfers against a real temporary file: errno to MPI error
// classes, writes through vector/subarray views landing where the view says, short reads
// at the end of the file, non-contiguous memory types, atomic-mode locking, and the view's
// checks of etype, filetype and data representation.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "error_code_of.h"
#include "mpi/core/error.h"
#include "mpi/datatype/constructors.h"
#include "mpi/datatype/predefined.h"
#include "mpi/io/amode.h"
#include "mpi/io/posix_file.h"
#include "mpi/io/transfer.h"
#include "mpi/io/view.h"
#include "predefined_handles.h"
#include "temp_dir.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;
using namespace zmpi::mpi::io;

namespace {

PosixFile create(const std::string& path) {
  return PosixFile(path, openFlags(MPI_MODE_RDWR | MPI_MODE_CREATE, true), 0644);
}

std::vector<char> contents(const PosixFile& file) {
  std::vector<char> all(static_cast<std::size_t>(file.size()));
  file.readAt(0, all.data(), all.size());
  return all;
}

}  // namespace

TEST_CASE("errno values become MPI-IO error classes") {
  CHECK(errorClassOf(ENOENT) == MPI_ERR_NO_SUCH_FILE);
  CHECK(errorClassOf(EACCES) == MPI_ERR_ACCESS);
  CHECK(errorClassOf(EEXIST) == MPI_ERR_FILE_EXISTS);
  CHECK(errorClassOf(EROFS) == MPI_ERR_READ_ONLY);
  CHECK(errorClassOf(ENOSPC) == MPI_ERR_NO_SPACE);
  CHECK(errorClassOf(EDQUOT) == MPI_ERR_QUOTA);
  CHECK(errorClassOf(EIO) == MPI_ERR_IO);
}

TEST_CASE("opening: missing file, existing file with EXCL, a directory, no permission") {
  TempDir dir;
  const std::string path = dir.file("data");
  CHECK(errorCodeOf([&] { PosixFile(path, openFlags(MPI_MODE_RDONLY, false), 0644); }) == MPI_ERR_NO_SUCH_FILE);
  { PosixFile made = create(path); }
  const int exclusive = openFlags(MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL, true);
  CHECK(errorCodeOf([&] { PosixFile(path, exclusive, 0644); }) == MPI_ERR_FILE_EXISTS);
  CHECK(errorCodeOf([&] { PosixFile(dir.file(""), openFlags(MPI_MODE_RDONLY, false), 0644); }) == MPI_ERR_BAD_FILE);
  if (geteuid() != 0) {  // root reads anything
    chmod(path.c_str(), 0200);
    CHECK(errorCodeOf([&] { PosixFile(path, openFlags(MPI_MODE_RDONLY, false), 0644); }) == MPI_ERR_ACCESS);
  }
  CHECK(errorCodeOf([&] { PosixFile::remove(dir.file("absent")); }) == MPI_ERR_NO_SUCH_FILE);
}

TEST_CASE("size, truncate, allocate and sync") {
  TempDir dir;
  PosixFile file = create(dir.file("sized"));
  CHECK(file.size() == 0);
  file.truncate(1000);
  CHECK(file.size() == 1000);
  file.allocate(500);  // never shrinks
  CHECK(file.size() == 1000);
  file.allocate(4096);
  CHECK(file.size() == 4096);
  file.truncate(10);
  CHECK(file.size() == 10);
  CHECK_NOTHROW(file.sync());
}

TEST_CASE("writing through a vector view lands in the filetype's blocks; reading gives it back") {
  TempDir dir;
  PosixFile file = create(dir.file("vector"));
  Datatype& intType = basic(MPI_INT);
  // Two ranks' interleaved views: blocks of 2 ints every 4 ints; rank 1 displaced 8 bytes.
  Owned filetype(types::vector(1, 2, 4, intType));
  Owned tiled(types::resized(*filetype, 0, 16));
  for (int rank = 0; rank < 2; ++rank) {
    FileView view(rank * 8, intType, *tiled, "native", true);
    std::vector<int> mine(6);
    std::iota(mine.begin(), mine.end(), rank * 100);
    CHECK(writeView({file, view.mapper()}, 0, mine.data(), mine.size(), intType) == 24);
  }
  std::vector<int> raw(12);
  REQUIRE(file.readAt(0, raw.data(), 48) == 48);
  CHECK(raw == std::vector<int>{0, 1, 100, 101, 2, 3, 102, 103, 4, 5, 104, 105});

  FileView view(8, intType, *tiled, "native", false);
  std::vector<int> back(6, -1);
  CHECK(readView({file, view.mapper()}, 4, back.data(), 4, intType) == 16);
  CHECK(std::vector<int>(back.begin(), back.begin() + 4) == std::vector<int>{101, 102, 103, 104});
}

TEST_CASE("a read past the end of the file is short, and only the bytes read are stored") {
  TempDir dir;
  PosixFile file = create(dir.file("short"));
  const std::vector<char> data = {'a', 'b', 'c', 'd', 'e'};
  file.writeAt(0, data.data(), data.size());
  ViewMapper bytes;
  std::vector<char> back(8, '.');
  CHECK(readView({file, bytes}, 2, back.data(), 8, basic(MPI_CHAR)) == 3);
  CHECK(std::string(back.begin(), back.end()) == "cde.....");
  CHECK(readView({file, bytes}, 10, back.data(), 8, basic(MPI_CHAR)) == 0);
}

TEST_CASE("a non-contiguous memory type is packed on write and unpacked on read") {
  TempDir dir;
  PosixFile file = create(dir.file("memtype"));
  Datatype& intType = basic(MPI_INT);
  Owned everyOther(types::vector(3, 1, 2, intType));  // ints 0, 2, 4 of the buffer
  const int source[] = {1, -1, 2, -1, 3};
  ViewMapper bytes;
  CHECK(writeView({file, bytes}, 0, source, 1, *everyOther) == 12);
  int raw[3] = {};
  file.readAt(0, raw, sizeof raw);
  CHECK((raw[0] == 1 && raw[1] == 2 && raw[2] == 3));
  int target[5] = {9, 9, 9, 9, 9};
  // Two of the three ints are in the file past offset 4: the unpack stops after them.
  CHECK(readView({file, bytes}, 4, target, 1, *everyOther) == 8);
  CHECK((target[0] == 2 && target[1] == 9 && target[2] == 3 && target[4] == 9));
}

TEST_CASE("atomic mode locks the range it touches and releases it") {
  TempDir dir;
  PosixFile file = create(dir.file("atomic"));
  ViewMapper bytes;
  const char text[] = "atomic";
  CHECK(writeView({file, bytes, true}, 0, text, 6, basic(MPI_CHAR)) == 6);
  // The lock is gone: a second, independent descriptor can lock the same bytes.
  PosixFile other(dir.file("atomic"), openFlags(MPI_MODE_RDWR, false), 0644);
  { PosixFile::RangeLock lock(other, 0, 6, true); }
  char back[6];
  CHECK(readView({file, bytes, true}, 0, back, 6, basic(MPI_CHAR)) == 6);
  CHECK(std::string(back, 6) == "atomic");
  CHECK(contents(file).size() == 6);
}

TEST_CASE("view checks: displacement, etype, filetype and data representation") {
  Datatype& intType = basic(MPI_INT);
  Datatype& byteType = basic(MPI_BYTE);
  CHECK(errorCodeOf([&] { FileView(-1, intType, intType, "native", true); }) == MPI_ERR_ARG);
  CHECK(errorCodeOf([&] { FileView(0, intType, intType, "external32", true); }) == MPI_ERR_UNSUPPORTED_DATAREP);
  CHECK(errorCodeOf([&] { FileView(0, intType, intType, "internal", true); }) == MPI_SUCCESS);
  // Three bytes are not whole ints.
  Owned three(types::contiguous(3, byteType));
  CHECK(errorCodeOf([&] { FileView(0, intType, *three, "native", true); }) == MPI_ERR_TYPE);
  Owned empty(types::contiguous(0, intType));
  CHECK(errorCodeOf([&] { FileView(0, intType, *empty, "native", true); }) == MPI_ERR_TYPE);
  CHECK(errorCodeOf([&] { FileView(0, *empty, intType, "native", true); }) == MPI_ERR_TYPE);
  // Decreasing displacements are never allowed; overlapping ones only for reading.
  const int lengths[] = {1, 1};
  const int backwards[] = {2, 0};
  Owned decreasing(types::indexed(2, lengths, backwards, intType));
  CHECK(errorCodeOf([&] { FileView(0, intType, *decreasing, "native", false); }) == MPI_ERR_TYPE);
  const MPI_Aint overlapping[] = {0, 2};
  Owned overlap(types::hindexed(2, lengths, overlapping, intType));
  CHECK(errorCodeOf([&] { FileView(0, byteType, *overlap, "native", true); }) == MPI_ERR_TYPE);
  CHECK(errorCodeOf([&] { FileView(0, byteType, *overlap, "native", false); }) == MPI_SUCCESS);
  // A view keeps its types alive after the program releases its own reference.
  Datatype* vec = types::vector(2, 1, 3, intType);
  FileView kept(0, intType, *vec, "native", true);
  vec->release();
  CHECK(kept.filetype().size() == 8);
  CHECK(kept.mapper().segments(0, 8) == std::vector<FileSegment>{{0, 4}, {12, 4}});
}
