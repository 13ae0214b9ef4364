// The shared file pointer's side file: concurrent fetch-and-add from several descriptors
// (as ranks on different processes would hold) hands out disjoint ranges; an absent or
// empty side file reads as the initial position; reset does not create the file; remove
// deletes it and tolerates its absence.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mpi/io/shared_pointer.h"
#include "temp_dir.h"

using zmpi::mpi::io::SharedPointer;
using zmpi::mpi::testing::TempDir;

TEST_CASE("the side file sits next to the data file, hidden, named by the token") {
  SharedPointer pointer("/data/run/out.dat", 0xabc, 0);
  CHECK(pointer.path() == "/data/run/.out.dat.zmpi-shfp-0000000000000abc");
}

TEST_CASE("fetch-and-add from several descriptors and threads hands out disjoint ranges") {
  TempDir dir;
  constexpr int kHolders = 4, kThreadsEach = 2, kSteps = 200;
  std::vector<std::unique_ptr<SharedPointer>> holders;
  for (int i = 0; i < kHolders; ++i) holders.push_back(std::make_unique<SharedPointer>(dir.file("data"), 7, 0));
  std::vector<std::vector<std::uint64_t>> got(kHolders * kThreadsEach);
  std::vector<std::thread> threads;
  for (int t = 0; t < kHolders * kThreadsEach; ++t) {
    threads.emplace_back([&, t] {
      SharedPointer& mine = *holders[static_cast<std::size_t>(t % kHolders)];
      for (int step = 0; step < kSteps; ++step) got[static_cast<std::size_t>(t)].push_back(mine.fetchAdd(3));
    });
  }
  for (auto& thread : threads) thread.join();
  std::vector<std::uint64_t> all;
  for (const auto& some : got) all.insert(all.end(), some.begin(), some.end());
  std::sort(all.begin(), all.end());
  REQUIRE(all.size() == static_cast<std::size_t>(kHolders * kThreadsEach * kSteps));
  for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i] == 3 * i);
  CHECK(holders[0]->get() == 3 * all.size());
}

TEST_CASE("an absent side file reads as the initial position; reset and remove") {
  TempDir dir;
  SharedPointer pointer(dir.file("log"), 1, 40);
  SharedPointer other(dir.file("log"), 1, 40);
  CHECK_FALSE(std::filesystem::exists(pointer.path()));
  pointer.reset();  // nothing to reset yet: no file appears
  CHECK_FALSE(std::filesystem::exists(pointer.path()));
  SharedPointer appending(dir.file("log"), 2, 40);
  CHECK(appending.fetchAdd(8) == 40);
  CHECK(appending.get() == 48);
  other.set(100);
  CHECK(pointer.get() == 100);
  pointer.reset();
  CHECK(other.get() == 0);
  pointer.remove();
  CHECK_FALSE(std::filesystem::exists(pointer.path()));
  CHECK_NOTHROW(other.remove());
}
