// One-sided semantics on mock worlds (ranks as threads): accumulate atomicity with
// concurrent origins, exclusive locks, derived target types, dynamic and shared windows,
// and the errors the origin can detect.
#include <mpi.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "error_code_of.h"
#include "locked_check.h"
#include "mock_world.h"
#include "mpi/core/error.h"
#include "mpi/op/op.h"
#include "mpi/op/predefined.h"
#include "mpi/rma/exchange.h"
#include "mpi/rma/window_create.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

// The paths a window's operations can take (mpi/rma/README.md): every rank on a host of its
// own (lock and operation messages); on one host, the program's memory through messages
// (host locks), the same read and written in the target's process (cross-memory attach:
// all mock ranks are threads of this process), allocated memory in shared memory, and
// memory attached to a dynamic window, reached in the target's process by address.
enum class Path { SeparateHosts, CreateMessages, CreateProcessMemory, Allocate, DynamicProcessMemory };

const char* nameOf(Path path) {
  switch (path) {
    case Path::SeparateHosts:
      return "separate hosts";
    case Path::CreateMessages:
      return "one host, MPI_Win_create, messages";
    case Path::CreateProcessMemory:
      return "one host, MPI_Win_create, process memory";
    case Path::Allocate:
      return "one host, MPI_Win_allocate";
    case Path::DynamicProcessMemory:
      return "one host, dynamic window, process memory";
  }
  return "?";
}

void runOn(Path path, int size, const std::function<void(World&)>& body) {
  runMockWorldsOn(
      size,
      [&](MockNetwork& network) {
        network.setHostPerRank(path == Path::SeparateHosts);
        if (path == Path::CreateProcessMemory || path == Path::DynamicProcessMemory) {
          network.setSingleCopyPid(static_cast<int>(getpid()));
        }
      },
      body);
}

// A window of `bytes` zeroed bytes on the path's memory: `own` (the program's, at least
// `bytes`: created, or attached to a dynamic window), or allocated.
struct PathWindow {
  std::shared_ptr<rma::Window> window;
  void* memory;                     // this rank's part
  int dispUnit;                     // what displacement 1 is, in bytes
  std::vector<MPI_Aint> addresses;  // dynamic windows: every rank's part, by address

  // The displacement of element `index` of `target`'s part.
  MPI_Aint at(int target, int index) const {
    if (addresses.empty()) return index;
    return addresses[static_cast<std::size_t>(target)] + static_cast<MPI_Aint>(index) * dispUnit;
  }
  void free() {
    if (!addresses.empty()) window->detach(memory);
    rma::freeWindow(*window);
  }
};

PathWindow windowOn(Path path, World& world, void* own, std::size_t bytes, int dispUnit) {
  PathWindow w{nullptr, own, dispUnit, {}};
  if (path == Path::DynamicProcessMemory) {
    w.window = rma::createDynamicWindow(world.commWorld());
    w.window->attach(own, static_cast<MPI_Aint>(bytes));
    w.addresses = rma::allgather(world.commWorld(), reinterpret_cast<MPI_Aint>(own));
  } else if (path == Path::Allocate) {
    w.window = rma::allocateWindow(world.commWorld(), static_cast<MPI_Aint>(bytes), dispUnit);
    w.memory = w.window->base();
  } else {
    w.window = rma::createWindow(world.commWorld(), own, static_cast<MPI_Aint>(bytes), dispUnit);
  }
  std::memset(w.memory, 0, bytes);
  rma::barrier(world.commWorld());
  return w;
}

}  // namespace

TEST_CASE("accumulates from concurrent origins under shared locks sum exactly", "[rma][mock]") {
  constexpr int kRanks = 4, kRounds = 200;
  const Path path = GENERATE(Path::SeparateHosts, Path::CreateMessages, Path::CreateProcessMemory, Path::Allocate,
                             Path::DynamicProcessMemory);
  CAPTURE(nameOf(path));
  runOn(path, kRanks, [&](World& world) {
    long own[3];
    PathWindow w = windowOn(path, world, own, sizeof own, sizeof(long));
    auto& window = w.window;
    const long* cells = static_cast<long*>(w.memory);
    const Datatype& longType = basic(MPI_LONG);
    const long add[3] = {1, 2, 3};
    std::vector<long> fetched;
    window->lockAll(0);
    for (int i = 0; i < kRounds; ++i) {
      window->accumulate({add, 3, &longType}, 0, w.at(0, 0), 3, longType, op(MPI_SUM));
      long before = -1;
      window->getAccumulate({add, 1, &longType}, &before, 1, longType, 1 % kRanks, w.at(1 % kRanks, 2), 1, longType,
                            op(MPI_SUM));
      window->flush(1);
      fetched.push_back(before);
    }
    window->unlockAll();
    for (std::size_t i = 1; i < fetched.size(); ++i) LOCKED_CHECK(fetched[i] > fetched[i - 1]);
    rma::barrier(world.commWorld());
    if (world.rank() == 0) {
      LOCKED_CHECK(cells[0] == kRanks * kRounds);
      LOCKED_CHECK(cells[1] == 2 * kRanks * kRounds);
      LOCKED_CHECK(cells[2] == 3 * kRanks * kRounds);
    }
    if (world.rank() == 1) LOCKED_CHECK(cells[2] == kRanks * kRounds);
    w.free();
  });
}

TEST_CASE("exclusive locks make a read-modify-write by get and put safe", "[rma][mock]") {
  constexpr int kRanks = 3, kRounds = 30;
  const Path path = GENERATE(Path::SeparateHosts, Path::CreateMessages, Path::CreateProcessMemory, Path::Allocate,
                             Path::DynamicProcessMemory);
  CAPTURE(nameOf(path));
  runOn(path, kRanks, [&](World& world) {
    int own = 0;
    PathWindow w = windowOn(path, world, &own, sizeof own, sizeof own);
    auto& window = w.window;
    const int& counter = *static_cast<int*>(w.memory);
    const Datatype& intType = basic(MPI_INT);
    for (int i = 0; i < kRounds; ++i) {
      int value = 0;
      window->lock(MPI_LOCK_EXCLUSIVE, 2, 0);
      window->get(&value, 1, intType, 2, w.at(2, 0), 1, intType);
      window->flush(2);
      ++value;
      window->put({&value, 1, &intType}, 2, w.at(2, 0), 1, intType);
      window->unlock(2);
    }
    rma::barrier(world.commWorld());
    if (world.rank() == 2) LOCKED_CHECK(counter == kRanks * kRounds);
    w.free();
  });
}

TEST_CASE("compare-and-swap succeeds for exactly one of several contenders", "[rma][mock]") {
  constexpr int kRanks = 4;
  const Path path = GENERATE(Path::SeparateHosts, Path::CreateMessages, Path::CreateProcessMemory, Path::Allocate,
                             Path::DynamicProcessMemory);
  CAPTURE(nameOf(path));
  std::vector<int> won(kRanks, 0);
  runOn(path, kRanks, [&](World& world) {
    int own = 0;
    PathWindow w = windowOn(path, world, &own, sizeof own, sizeof own);
    auto& window = w.window;
    const int& word = *static_cast<int*>(w.memory);
    const Datatype& intType = basic(MPI_INT);
    const int mine = world.rank() + 1, expected = 0;
    int previous = -1;
    window->lockAll(0);
    window->compareAndSwap(&mine, &expected, &previous, intType, 0, w.at(0, 0));
    window->unlockAll();
    won[static_cast<std::size_t>(world.rank())] = previous == 0 ? 1 : 0;
    rma::barrier(world.commWorld());
    if (world.rank() == 0) LOCKED_CHECK(word >= 1);
    w.free();
  });
  int winners = 0;
  for (int w : won) winners += w;
  CHECK(winners == 1);
}

TEST_CASE("a strided target datatype scatters the packed origin data", "[rma][mock]") {
  runMockWorlds(2, [](World& world) {
    int memory[8];
    std::fill(std::begin(memory), std::end(memory), -1);
    auto window = rma::createWindow(world.commWorld(), memory, sizeof memory, sizeof(int));
    // Target type: two blocks of 2 ints, stride 4 ints -> slots 1,2 and 5,6 from disp 1.
    Datatype strided;
    strided.mutableBlocks() = {{0, 8}, {16, 8}};
    strided.setSize(16);
    strided.setBounds(0, 24);
    strided.setTrueBounds(0, 24);
    strided.mutableRuns() = {{0, Primitive::Int, 2}, {16, Primitive::Int, 2}};
    strided.finalize();
    strided.markCommitted();
    window->fence(0);
    if (world.rank() == 0) {
      const int values[4] = {10, 11, 12, 13};
      window->put({values, 4, &basic(MPI_INT)}, 1, 1, 1, strided);
      const int ones[4] = {1, 1, 1, 1};
      // Ordered after the put: one origin, one FIFO channel to the target.
      window->accumulate({ones, 4, &basic(MPI_INT)}, 1, 1, 1, strided, op(MPI_SUM));
    }
    window->fence(0);
    if (world.rank() == 1) {
      const int expected[8] = {-1, 11, 12, -1, -1, 13, 14, -1};
      for (int i = 0; i < 8; ++i) LOCKED_CHECK(memory[i] == expected[i]);
    }
    rma::freeWindow(*window);
  });
}

TEST_CASE("dynamic windows reach attached memory by address, and only that", "[rma][mock]") {
  runMockWorlds(2, [](World& world) {
    auto window = rma::createDynamicWindow(world.commWorld());
    std::vector<int> region(4, world.rank());
    window->attach(region.data(), static_cast<MPI_Aint>(region.size() * sizeof(int)));
    const auto mine = reinterpret_cast<MPI_Aint>(region.data());
    std::vector<MPI_Aint> addresses = rma::allgather(world.commWorld(), mine);
    const Datatype& intType = basic(MPI_INT);
    const int peer = 1 - world.rank();
    window->lock(MPI_LOCK_SHARED, peer, 0);
    int got = -1;
    window->get(&got, 1, intType, peer, addresses[static_cast<std::size_t>(peer)] + 3 * sizeof(int), 1, intType);
    window->flush(peer);
    LOCKED_CHECK(got == peer);
    const int value = 42;
    window->put({&value, 1, &intType}, peer, addresses[static_cast<std::size_t>(peer)] + 4 * sizeof(int), 1, intType);
    const int unlockCode = errorCodeOf([&] { window->unlock(peer); });  // not under the check lock: it waits
    LOCKED_CHECK(unlockCode == MPI_ERR_RMA_RANGE);
    rma::barrier(world.commWorld());
    window->detach(region.data());
    LOCKED_CHECK(errorCodeOf([&] { window->detach(region.data()); }) == MPI_ERR_BASE);
    rma::freeWindow(*window);
  });
}

TEST_CASE("shared windows: contiguous parts, direct stores visible to every rank", "[rma][mock]") {
  runMockWorlds(3, [](World& world) {
    const MPI_Aint bytes = world.rank() == 1 ? 0 : 4 * sizeof(int);
    auto window = rma::allocateSharedWindow(world.commWorld(), bytes, sizeof(int));
    auto* mine = static_cast<int*>(window->base());
    for (int i = 0; i < bytes / static_cast<MPI_Aint>(sizeof(int)); ++i) mine[i] = world.rank() * 10 + i;
    rma::barrier(world.commWorld());
    MPI_Aint size0 = 0, size2 = 0;
    int unit = 0;
    auto* part0 = static_cast<int*>(window->sharedQuery(0, &size0, &unit));
    auto* part2 = static_cast<int*>(window->sharedQuery(2, &size2, &unit));
    LOCKED_CHECK(part2 == part0 + 4);  // rank 1's part is empty
    LOCKED_CHECK(size0 == 16);
    LOCKED_CHECK(unit == 4);
    LOCKED_CHECK(part2[3] == 23);
    // A put to a same-host rank is a store: no message.
    window->lockAll(0);
    const int value = -1;
    window->put({&value, 1, &basic(MPI_INT)}, 2, world.rank(), 1, basic(MPI_INT));
    window->unlockAll();
    rma::barrier(world.commWorld());
    if (world.rank() == 2) LOCKED_CHECK((mine[0] == -1 && mine[1] == -1 && mine[2] == -1 && mine[3] == 23));
    rma::freeWindow(*window);
  });
}

TEST_CASE("the origin rejects misuse with the standard's error classes", "[rma][mock]") {
  runMockWorlds(2, [](World& world) {
    int memory[2] = {0, 0};
    auto window = rma::createWindow(world.commWorld(), memory, sizeof memory, sizeof(int));
    const Datatype& intType = basic(MPI_INT);
    const int value = 1;
    LOCKED_CHECK(errorCodeOf([&] { window->put({&value, 1, &intType}, 1, 0, 1, intType); }) == MPI_ERR_RMA_SYNC);
    LOCKED_CHECK(errorCodeOf([&] { window->lock(7, 1, 0); }) == MPI_ERR_LOCKTYPE);
    LOCKED_CHECK(errorCodeOf([&] { window->unlock(1); }) == MPI_ERR_RMA_SYNC);
    window->fence(0);
    LOCKED_CHECK(errorCodeOf([&] { window->put({&value, 1, &intType}, 1, 2, 1, intType); }) == MPI_ERR_RMA_RANGE);
    LOCKED_CHECK(errorCodeOf([&] { window->put({&value, 1, &intType}, 5, 0, 1, intType); }) == MPI_ERR_RANK);
    LOCKED_CHECK(errorCodeOf([&] { window->sharedQuery(0, nullptr, nullptr); }) == MPI_ERR_RMA_FLAVOR);
    window->fence(MPI_MODE_NOSUCCEED);
    // The epochs that open every target closed again: operations and flushes are refused.
    LOCKED_CHECK(errorCodeOf([&] { window->put({&value, 1, &intType}, 1, 0, 1, intType); }) == MPI_ERR_RMA_SYNC);
    window->lockAll(0);
    window->unlockAll();
    LOCKED_CHECK(errorCodeOf([&] { window->put({&value, 1, &intType}, 1, 0, 1, intType); }) == MPI_ERR_RMA_SYNC);
    LOCKED_CHECK(errorCodeOf([&] { window->flush(1); }) == MPI_ERR_RMA_SYNC);
    window->lock(MPI_LOCK_SHARED, 1, 0);
    window->unlock(1);
    LOCKED_CHECK(errorCodeOf([&] { window->put({&value, 1, &intType}, 1, 0, 1, intType); }) == MPI_ERR_RMA_SYNC);
    rma::freeWindow(*window);
  });
}
