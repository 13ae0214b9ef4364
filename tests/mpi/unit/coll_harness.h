#pragma once
// Helpers for the collective tests: N mock-mode worlds run as threads (no sockets; the
// MockNetwork records every message), small test ops, and message-pattern views.
// Catch2 assertions are not thread-safe: rank bodies record what they saw, the test
// thread checks it after the ranks joined.
#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mock_world.h"
#include "mpi/coll/async.h"
#include "mpi/coll/collectives.h"
#include "mpi/coll/schedule.h"
#include "mpi/coll/shm_area.h"
#include "mpi/comm/communicator.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"
#include "mpi/datatype/predefined.h"
#include "mpi/op/op.h"
#include "predefined_handles.h"

namespace zmpi::mpi::testing {

// The most ranks a suite's loops go to: ZMPI_TEST_MAX_RANKS, else no limit. The TSan stage
// of scripts/test.sh sets 4: there every rank is a thread of the one process TSan
// watches, and 5-8 ranks replay the same hand-overs between threads at several times the
// cost. The release and ASan suites run every count.
inline int maxTestRanks() {
  const char* value = std::getenv("ZMPI_TEST_MAX_RANKS");
  return value != nullptr && *value != '\0' ? std::atoi(value) : INT_MAX;
}

// `counts` without those above maxTestRanks().
inline std::vector<int> rankCounts(std::initializer_list<int> counts) {
  std::vector<int> kept;
  for (int p : counts) {
    if (p <= maxTestRanks()) kept.push_back(p);
  }
  return kept;
}

// 1, 2, ..., most, up to maxTestRanks().
inline std::vector<int> ranksUpTo(int most) {
  std::vector<int> all;
  for (int p = 1; p <= std::min(most, maxTestRanks()); ++p) all.push_back(p);
  return all;
}

// Runs body(world) on `size` mock worlds (runWorldThreads); `configure` sets the network up first.
inline std::shared_ptr<MockNetwork> runRanks(int size, const std::function<void(World&)>& body,
                                             const std::function<void(MockNetwork&)>& configure = nullptr) {
  auto network = std::make_shared<MockNetwork>(size);
  if (configure) configure(*network);
  runWorldThreads(
      size,
      [&](WorldConfig& config) {
        config.jobId = "coll-test";
        config.mock = network;
      },
      body);
  return network;
}

// Per-rank results gathered for checking in the test thread.
template <typename T>
class PerRank {
 public:
  explicit PerRank(int size) : values_(static_cast<std::size_t>(size)) {}
  void set(int rank, T value) {
    std::lock_guard lock(mutex_);
    values_[static_cast<std::size_t>(rank)] = std::move(value);
  }
  T operator[](int rank) const { return values_[static_cast<std::size_t>(rank)]; }

 private:
  std::mutex mutex_;
  std::vector<T> values_;
};

// Integer sum over elements of any basic integer-sized type the tests use (int).
class TestSum : public Op {
 public:
  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    for (std::size_t i = 0; i < count; ++i) {
      const auto offset = static_cast<std::ptrdiff_t>(i) * type.extent();
      int a, b;
      std::memcpy(&a, static_cast<const char*>(in) + offset, sizeof a);
      std::memcpy(&b, static_cast<char*>(inout) + offset, sizeof b);
      b += a;
      std::memcpy(static_cast<char*>(inout) + offset, &b, sizeof b);
    }
  }
  bool commutative() const override { return true; }
};

// Floating-point sum: its rounding depends on the order of combination, so it shows
// whether every rank computed the same expression.
class TestDoubleSum : public Op {
 public:
  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    for (std::size_t i = 0; i < count; ++i) {  // memcpy: the buffers need not be aligned for double
      double a, b;
      std::memcpy(&a, static_cast<const char*>(in) + i * sizeof(double), sizeof a);
      std::memcpy(&b, static_cast<char*>(inout) + i * sizeof(double), sizeof b);
      b = a + b;
      std::memcpy(static_cast<char*>(inout) + i * sizeof(double), &b, sizeof b);
    }
  }
  bool commutative() const override { return true; }
};

// A non-commutative, associative op: 2x2 matrices of uint32 (wrapping), inout = in * inout.
// Elements are 16-byte units (kMatrixType); results show the order of combination.
class TestMatrixProduct : public Op {
 public:
  explicit TestMatrixProduct(bool commutative = false) : commutative_(commutative) {}
  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    for (std::size_t i = 0; i < count; ++i) {
      uint32_t a[4], b[4], c[4];
      const auto offset = static_cast<std::ptrdiff_t>(i) * type.extent();
      std::memcpy(a, static_cast<const char*>(in) + offset, sizeof a);
      std::memcpy(b, static_cast<char*>(inout) + offset, sizeof b);
      c[0] = a[0] * b[0] + a[1] * b[2];
      c[1] = a[0] * b[1] + a[1] * b[3];
      c[2] = a[2] * b[0] + a[3] * b[2];
      c[3] = a[2] * b[1] + a[3] * b[3];
      std::memcpy(static_cast<char*>(inout) + offset, c, sizeof c);
    }
  }
  bool commutative() const override { return commutative_; }

 private:
  bool commutative_;
};

// The rank counts of the shared-memory suites, and a slot of their area in ints.
inline const std::vector<int> kShmRankCounts = rankCounts({2, 3, 4, 8});
inline constexpr int kSlotInts = static_cast<int>(coll::ShmArea::kSlotBytes / sizeof(int));

inline const TestSum kSum;
inline const TestMatrixProduct kProduct;

// The bytes of `values`, to compare buffers of any element type.
template <typename T>
std::vector<char> bytesOf(const std::vector<T>& values) {
  std::vector<char> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// Operands of the large-transfer suites: rank `rank`'s int at `i`, and the sum of those
// over `ranks` ranks.
inline int largeValueOf(int rank, int i) { return rank * 7 + i % 1000; }
inline int largeSumOf(int ranks, int i) { return 7 * ranks * (ranks - 1) / 2 + ranks * (i % 1000); }

using Matrix = std::array<uint32_t, 4>;
inline Matrix multiply(const Matrix& a, const Matrix& b) {
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
}
// A distinct, invertible-looking matrix per (rank, element).
inline Matrix matrixOf(int rank, std::size_t element) {
  const auto r = static_cast<uint32_t>(rank), e = static_cast<uint32_t>(element);
  return {1 + r, 2 + e, 3 * r + e, 1 + 5 * r};
}

// Distinct operands per (rank, element): ints, and matrices for the non-commutative op.
inline std::vector<int> numbers(int rank, int count, int salt = 0) {
  std::vector<int> v(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = rank * 1000 + i * 7 + salt;
  return v;
}
inline std::vector<Matrix> matrices(int rank, int count) {
  std::vector<Matrix> v;
  for (int i = 0; i < count; ++i) v.push_back(matrixOf(rank, static_cast<std::size_t>(i)));
  return v;
}

// An opaque 16-byte element for the matrix op.
inline Datatype& matrixType() {
  static Datatype* type = Datatype::makeBasic(Primitive::Byte, 16, "test-matrix");
  return *type;
}

// The messages one rank sent, as (to, bytes) in order; handy for pattern assertions.
struct Sent {
  int to;
  uint64_t bytes;
  bool operator==(const Sent&) const = default;
};
inline std::vector<Sent> sentBy(const MockNetwork& network, int rank) {
  std::vector<Sent> out;
  for (const SentRecord& record : network.sentBy(rank)) out.push_back({record.to, record.payloadBytes});
  return out;
}

inline std::string describe(const std::vector<Sent>& sent) {
  std::string text;
  for (const Sent& s : sent) text += "(" + std::to_string(s.to) + "," + std::to_string(s.bytes) + ")";
  return text;
}

}  // namespace zmpi::mpi::testing

namespace zmpi::mpi::testing {

// Runs a plan as the blocking call does, or as the nonblocking one followed by a wait.
enum class Mode { Blocking, Nonblocking };
inline constexpr Mode kModes[] = {Mode::Blocking, Mode::Nonblocking};
inline void execute(coll::Plan plan, Mode mode) {
  if (mode == Mode::Blocking) {
    coll::run(*plan);
    return;
  }
  std::unique_ptr<coll::CollectiveRequest> request(coll::start(std::move(plan)));
  coll::wait(*request);
  if (request->status.MPI_ERROR != MPI_SUCCESS) throw MpiError(request->status.MPI_ERROR, "collective failed");
}

// Forces an algorithm (ZMPI_COLL_<collective>) for the scope; set while no rank runs.
class ForceAlgorithm {
 public:
  ForceAlgorithm(const char* collective, const std::string& name) : variable_(std::string("ZMPI_COLL_") + collective) {
    if (name.empty()) {
      unsetenv(variable_.c_str());
    } else {
      setenv(variable_.c_str(), name.c_str(), 1);
    }
  }
  ~ForceAlgorithm() { unsetenv(variable_.c_str()); }
  ForceAlgorithm(const ForceAlgorithm&) = delete;
  ForceAlgorithm& operator=(const ForceAlgorithm&) = delete;

 private:
  std::string variable_;
};

// An int with 4 bytes of padding after it (MPI_Type_create_resized(MPI_INT, 0, 8)): data
// of this type has gaps the collectives must neither read into results nor overwrite.
inline Datatype& paddedIntType() {
  static Datatype* type = [] {
    auto* t = new Datatype();
    t->name = "padded-int";
    t->mutableBlocks() = {{0, sizeof(int)}};
    t->setSize(sizeof(int));
    t->setBounds(0, 2 * sizeof(int));
    t->setTrueBounds(0, sizeof(int));
    t->setPrimitive(Primitive::Int, 1);
    t->finalize();
    t->markCommitted();
    return t;
  }();
  return *type;
}

// Runs `call` on p mock ranks with the shm form of a collective on or off (`shm`): its
// results per rank, and whether every rank's shm form served the call (`served`).
struct ShmOutcome {
  std::vector<std::vector<char>> results;
  bool served = true;
};
using ShmCall = std::function<std::vector<char>(Communicator&, bool shm, bool& served)>;
// Every communicator here is fresh: its first call must set its area up (not the third).
// ZMPI_COLL_SHM_AFTER=0 comes from ctest's environment (tests/mpi/CMakeLists.txt), not from
// the suites: the files share one program, and a variable one set would apply to all.
inline ShmOutcome shmOutcomeOf(int p, bool shm, const ShmCall& call) {
  INFO("the shared-memory suites run with ZMPI_COLL_SHM_AFTER=0");
  REQUIRE(coll::callsBeforeSetUp() == 0);
  PerRank<std::vector<char>> results(p);
  PerRank<int> served(p);
  runRanks(p, [&](World& world) {
    bool went = true;
    results.set(world.rank(), call(world.commWorld(), shm, went));
    served.set(world.rank(), went ? 1 : 0);
  });
  ShmOutcome outcome;
  for (int r = 0; r < p; ++r) {
    outcome.results.push_back(results[r]);
    outcome.served = outcome.served && served[r] == 1;
  }
  return outcome;
}

// Runs `body` on p mock ranks, for each p of `rankCounts`, and checks that every rank
// counted no wrong value (body returns its count for the rank of `comm`).
inline void expectNothingWrong(const std::vector<int>& rankCounts, const std::function<int(Communicator& comm)>& body) {
  for (int p : rankCounts) {
    PerRank<int> wrong(p);
    runRanks(p, [&](World& world) { wrong.set(world.rank(), body(world.commWorld())); });
    for (int r = 0; r < p; ++r) {
      INFO("rank " << r << " of " << p);
      CHECK(wrong[r] == 0);
    }
  }
}

}  // namespace zmpi::mpi::testing
