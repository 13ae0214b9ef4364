// Collective open and close on mock worlds (ranks as threads, one real temporary file):
// rank 0 creates, EXCL fails on every rank for an existing file, one rank's failure fails
// them all, DELETE_ON_CLOSE removes the file after everyone closed, APPEND starts at the
// end, hints are reported, and the file's communicator is a private duplicate.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "mock_world.h"
#include "mpi/core/error.h"
#include "mpi/core/info.h"
#include "mpi/io/collective.h"
#include "mpi/io/open.h"
#include "temp_dir.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::io;
using zmpi::mpi::testing::runMockWorlds;
using zmpi::mpi::testing::TempDir;

namespace {

struct Result {
  int code = -1;
  std::string message;
};

// Opens `path` on every rank of a mock world of `size`, runs `use` on the open file, closes
// it; returns each rank's outcome (Catch assertions are not thread-safe: checks run after).
std::vector<Result> openEverywhere(
    int size, const std::function<std::string(int rank)>& pathOf, int amode, const Info* info = nullptr,
    const std::function<void(File&)>& use = [](File&) {}) {
  std::vector<Result> results(static_cast<std::size_t>(size));
  runMockWorlds(size, [&](World& world) {
    Result& mine = results[static_cast<std::size_t>(world.rank())];
    try {
      auto file = openFile(world.commWorld(), pathOf(world.rank()), amode, info, Errhandler::returning());
      use(*file);
      closeFile(*file);
      mine.code = MPI_SUCCESS;
    } catch (const MpiError& error) {
      mine = {error.code(), error.what()};
    }
  });
  return results;
}

}  // namespace

TEST_CASE("rank 0 creates the file with EXCL; opening it again with EXCL fails on every rank") {
  TempDir dir;
  const std::string path = dir.file("excl");
  const auto same = [&](int) { return path; };
  std::vector<std::int64_t> sizes(3);
  auto created = openEverywhere(3, same, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL, nullptr, [&](File& file) {
    const int rank = file.comm().rank();
    file.write(static_cast<std::uint64_t>(rank) * 4, &rank, 1, *byteType());
    barrier(file.comm());
    sizes[static_cast<std::size_t>(rank)] = file.posix().size();
  });
  for (const Result& result : created) CHECK(result.code == MPI_SUCCESS);
  CHECK(sizes == std::vector<std::int64_t>{9, 9, 9});

  auto again = openEverywhere(3, same, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL);
  CHECK(again[0].code == MPI_ERR_FILE_EXISTS);
  CHECK(again[1].code == MPI_ERR_FILE_EXISTS);
  CHECK(again[2].message.find("rank 0") != std::string::npos);
}

TEST_CASE("a missing file without CREATE is MPI_ERR_NO_SUCH_FILE everywhere") {
  TempDir dir;
  auto results = openEverywhere(
      2, [&](int) { return dir.file("absent"); }, MPI_MODE_RDONLY);
  for (const Result& result : results) CHECK(result.code == MPI_ERR_NO_SUCH_FILE);
  CHECK_FALSE(std::filesystem::exists(dir.file("absent")));
}

TEST_CASE("one rank's failure fails every rank, naming it") {
  TempDir dir;
  { std::ofstream(dir.file("present")) << "x"; }
  auto results = openEverywhere(
      3, [&](int rank) { return dir.file(rank == 1 ? "absent" : "present"); }, MPI_MODE_RDONLY);
  CHECK(results[1].code == MPI_ERR_NO_SUCH_FILE);
  CHECK(results[0].code == MPI_ERR_NO_SUCH_FILE);
  CHECK(results[2].code == MPI_ERR_NO_SUCH_FILE);
  CHECK(results[0].message.find("failed on rank 1") != std::string::npos);
}

TEST_CASE("an illegal access mode fails before any message is sent") {
  TempDir dir;
  auto results = openEverywhere(
      2, [&](int) { return dir.file("never"); }, MPI_MODE_RDONLY | MPI_MODE_CREATE);
  for (const Result& result : results) CHECK(result.code == MPI_ERR_AMODE);
  CHECK_FALSE(std::filesystem::exists(dir.file("never")));
}

TEST_CASE("DELETE_ON_CLOSE removes the file once every rank has closed it") {
  TempDir dir;
  const std::string path = dir.file("scratch");
  bool existedWhileOpen = false;
  auto results = openEverywhere(
      3, [&](int) { return path; }, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE, nullptr,
      [&](File& file) {
        if (file.comm().rank() == 0) existedWhileOpen = std::filesystem::exists(path);
      });
  for (const Result& result : results) CHECK(result.code == MPI_SUCCESS);
  CHECK(existedWhileOpen);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("APPEND starts the individual pointer at the end of the file") {
  TempDir dir;
  const std::string path = dir.file("log");
  { std::ofstream(path) << "0123456789"; }
  std::vector<std::uint64_t> positions(2);
  openEverywhere(
      2, [&](int) { return path; }, MPI_MODE_WRONLY | MPI_MODE_APPEND, nullptr,
      [&](File& file) { positions[static_cast<std::size_t>(file.comm().rank())] = file.position(); });
  CHECK(positions == std::vector<std::uint64_t>{10, 10});
}

TEST_CASE("hints: file_perm sets a created file's permissions; cb_nodes is reported; bad values fail") {
  TempDir dir;
  const std::string path = dir.file("perm");
  Info info;
  info.set("file_perm", "0600");
  info.set("access_style", "write_once");
  info.set("no_such_hint", "1");
  std::vector<Hints> hints(2);
  std::vector<char> sameContext(2, 1);  // per rank: ranks run on threads of their own
  auto results = openEverywhere(
      2, [&](int) { return path; }, MPI_MODE_WRONLY | MPI_MODE_CREATE, &info,
      [&](File& file) {
        hints[static_cast<std::size_t>(file.comm().rank())] = file.hints;
        sameContext[static_cast<std::size_t>(file.comm().rank())] =
            file.comm().contextId() == file.comm().world().commWorld().contextId();
      });
  for (const Result& result : results) CHECK(result.code == MPI_SUCCESS);
  CHECK_FALSE(sameContext[0]);
  CHECK_FALSE(sameContext[1]);
  struct stat info_ {};
  REQUIRE(stat(path.c_str(), &info_) == 0);
  CHECK((info_.st_mode & 0777) == 0600);
  const auto has = [&](const std::string& key, const std::string& value) {
    for (const auto& entry : hints[1]) {
      if (entry.first == key) return entry.second == value;
    }
    return false;
  };
  CHECK(has("cb_nodes", "2"));
  CHECK(has("access_style", "write_once"));
  CHECK(has("file_perm", "0600"));
  CHECK_FALSE(has("no_such_hint", "1"));

  Info bad;
  bad.set("file_perm", "rw-r--r--");
  auto rejected = openEverywhere(
      2, [&](int) { return path; }, MPI_MODE_RDONLY, &bad);
  for (const Result& result : rejected) CHECK(result.code == MPI_ERR_INFO_VALUE);
}

TEST_CASE("ROMIO-style file system prefixes are not part of the path") {
  CHECK(pathOf("ufs:/tmp/x") == "/tmp/x");
  CHECK(pathOf("nfs:data") == "data");
  CHECK(pathOf("/tmp/ufs:x") == "/tmp/ufs:x");
}
