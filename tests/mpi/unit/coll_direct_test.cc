// Direct collectives (coll/direct.h) against their plans, in mock mode: on 1-6 ranks, for
// every root, in place or not, with a commutative and a non-commutative op, each rank must
// send the same messages (peer, tag, bytes; the order may differ only where the algorithm
// leaves it free) and end with the same results. That identity is what lets one rank run
// the plan while another goes direct.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "coll_harness.h"
#include "mpi/coll/direct.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::coll;
using namespace zmpi::mpi::testing;

namespace {

struct Message {
  int to;
  int tag;
  uint64_t bytes;
  bool operator==(const Message&) const = default;
  bool operator<(const Message& other) const {
    return std::tie(to, tag, bytes) < std::tie(other.to, other.tag, other.bytes);
  }
};

// What each rank sent (sorted) and the bytes it ended with.
struct Outcome {
  std::vector<std::vector<Message>> sent;
  std::vector<std::vector<char>> results;
  bool operator==(const Outcome&) const = default;
};

// Runs `call` on p mock ranks. `call` returns this rank's result bytes, and false in
// `direct` if a direct function declined (which would make the comparison vacuous).
Outcome outcomeOf(int p, const std::function<std::vector<char>(Communicator&, bool&)>& call, bool& allDirect) {
  PerRank<std::vector<char>> results(p);
  PerRank<int> direct(p);
  auto network = runRanks(p, [&](World& world) {
    bool went = true;
    results.set(world.rank(), call(world.commWorld(), went));
    direct.set(world.rank(), went ? 1 : 0);
  });
  Outcome outcome;
  for (int r = 0; r < p; ++r) {
    std::vector<Message> sent;
    for (const SentRecord& record : network->sentBy(r))
      sent.push_back({record.to, record.envelope.tag, record.payloadBytes});
    std::sort(sent.begin(), sent.end());
    outcome.sent.push_back(sent);
    outcome.results.push_back(results[r]);
    allDirect = allDirect && direct[r] == 1;
  }
  return outcome;
}

// Runs the direct form (returns whether it served the call) and the plan, compares.
void compare(const std::string& what, int p,
             const std::function<std::vector<char>(Communicator&, bool direct, bool& served)>& call) {
  bool served = true, unused = true;
  const Outcome direct = outcomeOf(
      p, [&](Communicator& comm, bool& went) { return call(comm, true, went); }, served);
  const Outcome plan = outcomeOf(
      p, [&](Communicator& comm, bool& went) { return call(comm, false, went); }, unused);
  INFO(what << " on " << p << " ranks");
  CHECK(served);
  CHECK(direct.sent == plan.sent);
  CHECK(direct.results == plan.results);
}

// Non-commutative on ints one extent apart: inout = 31 in + inout (wrapping).
class TestLeftWeighted : public Op {
 public:
  void apply(const void* in, void* inout, std::size_t count, const Datatype& type) const override {
    for (std::size_t i = 0; i < count; ++i) {
      const auto offset = static_cast<std::ptrdiff_t>(i) * type.extent();
      unsigned a, b;
      std::memcpy(&a, static_cast<const char*>(in) + offset, sizeof a);
      std::memcpy(&b, static_cast<char*>(inout) + offset, sizeof b);
      b += 31 * a;
      std::memcpy(static_cast<char*>(inout) + offset, &b, sizeof b);
    }
  }
  bool commutative() const override { return false; }
};
const TestLeftWeighted kWeighted;

}  // namespace

TEST_CASE("direct barrier sends the dissemination plan's messages", "[coll][direct]") {
  for (int p : ranksUpTo(6)) {
    compare("barrier", p, [](Communicator& comm, bool direct, bool& served) {
      if (direct) {
        served = barrierDirect(comm);
      } else {
        run(*planBarrier(comm));
      }
      return std::vector<char>();
    });
  }
}

TEST_CASE("direct bcast and reduce match the binomial plans for every root", "[coll][direct]") {
  for (int p : ranksUpTo(6)) {
    for (int root = 0; root < p; ++root) {
      for (int count : {0, 1, 33}) {
        compare("bcast root " + std::to_string(root) + " count " + std::to_string(count), p,
                [&](Communicator& comm, bool direct, bool& served) {
                  std::vector<int> data = comm.rank() == root ? numbers(root, count) : std::vector<int>(count, -1);
                  if (direct) {
                    served = bcastDirect(comm, data.data(), count, intType(), root);
                  } else {
                    run(*planBcast(comm, data.data(), count, intType(), root));
                  }
                  return bytesOf(data);
                });
        for (bool inPlace : {false, true}) {
          compare("reduce root " + std::to_string(root) + (inPlace ? " in place" : ""), p,
                  [&](Communicator& comm, bool direct, bool& served) {
                    const bool here = inPlace && comm.rank() == root;
                    std::vector<int> in = numbers(comm.rank(), count), out(static_cast<std::size_t>(count), -1);
                    std::vector<Matrix> min = matrices(comm.rank(), count), mout(static_cast<std::size_t>(count));
                    if (here) {
                      out = in;
                      mout = min;
                    }
                    const void* sendInts = here ? MPI_IN_PLACE : in.data();
                    const void* sendMatrices = here ? MPI_IN_PLACE : min.data();
                    if (direct) {
                      served = reduceDirect(comm, sendInts, out.data(), count, intType(), kSum, root) &&
                               reduceDirect(comm, sendMatrices, mout.data(), count, matrixType(), kProduct, root);
                    } else {
                      run(*planReduce(comm, sendInts, out.data(), count, intType(), kSum, root));
                      run(*planReduce(comm, sendMatrices, mout.data(), count, matrixType(), kProduct, root));
                    }
                    std::vector<char> result = bytesOf(out), more = bytesOf(mout);
                    result.insert(result.end(), more.begin(), more.end());
                    return result;
                  });
        }
      }
    }
  }
}

TEST_CASE("direct allreduce matches recursive doubling with its fold", "[coll][direct]") {
  for (int p : ranksUpTo(6)) {
    for (int count : {0, 1, 40}) {
      for (bool inPlace : {false, true}) {
        compare("allreduce count " + std::to_string(count) + (inPlace ? " in place" : ""), p,
                [&](Communicator& comm, bool direct, bool& served) {
                  std::vector<int> in = numbers(comm.rank(), count), out(static_cast<std::size_t>(count), -1);
                  std::vector<Matrix> min = matrices(comm.rank(), count), mout(static_cast<std::size_t>(count));
                  if (inPlace) {
                    out = in;
                    mout = min;
                  }
                  const void* sendInts = inPlace ? MPI_IN_PLACE : in.data();
                  const void* sendMatrices = inPlace ? MPI_IN_PLACE : min.data();
                  if (direct) {
                    served = allreduceDirect(comm, sendInts, out.data(), count, intType(), kSum) &&
                             allreduceDirect(comm, sendMatrices, mout.data(), count, matrixType(), kProduct);
                  } else {
                    run(*planAllreduce(comm, sendInts, out.data(), count, intType(), kSum));
                    run(*planAllreduce(comm, sendMatrices, mout.data(), count, matrixType(), kProduct));
                  }
                  std::vector<char> result = bytesOf(out), more = bytesOf(mout);
                  result.insert(result.end(), more.begin(), more.end());
                  return result;
                });
      }
    }
  }
}

TEST_CASE("direct reductions on a type with gaps: spans travel, gaps stay untouched", "[coll][direct]") {
  for (int p : ranksUpTo(5)) {
    for (int count : {1, 5}) {
      for (bool inPlace : {false, true}) {
        compare("allreduce with gaps" + std::string(inPlace ? " in place" : ""), p,
                [&](Communicator& comm, bool direct, bool& served) {
                  // Element i is the int at 2 i; the ints between are gaps.
                  std::vector<int> in = numbers(comm.rank(), 2 * count), out(static_cast<std::size_t>(2 * count), -9);
                  if (inPlace) out = in;
                  const void* send = inPlace ? MPI_IN_PLACE : in.data();
                  if (direct) {
                    served = allreduceDirect(comm, send, out.data(), count, paddedIntType(), kSum) &&
                             allreduceDirect(comm, send, out.data(), count, paddedIntType(), kWeighted);
                  } else {
                    run(*planAllreduce(comm, send, out.data(), count, paddedIntType(), kSum));
                    run(*planAllreduce(comm, send, out.data(), count, paddedIntType(), kWeighted));
                  }
                  return bytesOf(out);
                });
        for (int root = 0; root < p; ++root) {
          compare("reduce with gaps, root " + std::to_string(root) + (inPlace ? " in place" : ""), p,
                  [&](Communicator& comm, bool direct, bool& served) {
                    const bool here = inPlace && comm.rank() == root;
                    std::vector<int> in = numbers(comm.rank(), 2 * count), out(static_cast<std::size_t>(2 * count), -9);
                    if (here) out = in;
                    const void* send = here ? MPI_IN_PLACE : in.data();
                    if (direct) {
                      served = reduceDirect(comm, send, out.data(), count, paddedIntType(), kWeighted, root) &&
                               reduceDirect(comm, send, out.data(), count, paddedIntType(), kSum, root);
                    } else {
                      run(*planReduce(comm, send, out.data(), count, paddedIntType(), kWeighted, root));
                      run(*planReduce(comm, send, out.data(), count, paddedIntType(), kSum, root));
                    }
                    return bytesOf(out);
                  });
        }
      }
    }
  }
}

TEST_CASE("direct allgather and alltoall match their plans", "[coll][direct]") {
  for (int p : ranksUpTo(6)) {
    for (int count : {0, 1, 9}) {
      for (bool inPlace : {false, true}) {
        compare("allgather count " + std::to_string(count) + (inPlace ? " in place" : ""), p,
                [&](Communicator& comm, bool direct, bool& served) {
                  const int r = comm.rank();
                  std::vector<int> mine = numbers(r, count), all(static_cast<std::size_t>(count * p), -1);
                  if (inPlace) std::copy(mine.begin(), mine.end(), all.begin() + r * count);
                  const void* send = inPlace ? MPI_IN_PLACE : mine.data();
                  const Datatype* sendType = inPlace ? nullptr : &intType();
                  if (direct) {
                    served = allgatherDirect(comm, send, count, sendType, all.data(), count, intType());
                  } else {
                    run(*planAllgather(comm, send, count, sendType, all.data(), count, intType()));
                  }
                  return bytesOf(all);
                });
      }
      compare("alltoall count " + std::to_string(count), p, [&](Communicator& comm, bool direct, bool& served) {
        std::vector<int> out = numbers(comm.rank(), count * p), in(static_cast<std::size_t>(count * p), -1);
        if (direct) {
          served = alltoallDirect(comm, out.data(), count, &intType(), in.data(), count, intType());
        } else {
          run(*planAlltoall(comm, out.data(), count, &intType(), in.data(), count, intType()));
        }
        return bytesOf(in);
      });
    }
  }
}

TEST_CASE("direct data movement on a type with gaps packs as the plans do", "[coll][direct]") {
  // paddedIntType: an int then 4 gap bytes; element i is the int at 2 i.
  for (int p : ranksUpTo(5)) {
    for (int count : {1, 3}) {
      for (int root = 0; root < p; ++root) {
        compare("bcast with gaps, root " + std::to_string(root), p, [&](Communicator& comm, bool direct, bool& served) {
          std::vector<int> data = comm.rank() == root ? numbers(root, 2 * count) : std::vector<int>(2 * count, -9);
          if (direct) {
            served = bcastDirect(comm, data.data(), count, paddedIntType(), root);
          } else {
            run(*planBcast(comm, data.data(), count, paddedIntType(), root));
          }
          return bytesOf(data);
        });
      }
      for (int variant = 0; variant < 3; ++variant) {  // padded send, padded receive, in place (padded)
        compare("allgather with gaps, variant " + std::to_string(variant), p,
                [&](Communicator& comm, bool direct, bool& served) {
                  const int r = comm.rank();
                  const bool inPlace = variant == 2;
                  const Datatype& sendType = variant == 0 ? paddedIntType() : intType();
                  const Datatype& recvType = variant == 0 ? intType() : paddedIntType();
                  const int sendInts = variant == 0 ? 2 * count : count;
                  const int recvInts = variant == 0 ? count : 2 * count;
                  std::vector<int> mine = numbers(r, sendInts), all(static_cast<std::size_t>(recvInts * p), -9);
                  if (inPlace) {
                    for (int i = 0; i < count; ++i)
                      all[static_cast<std::size_t>(recvInts * r + 2 * i)] = mine[static_cast<std::size_t>(i)];
                  }
                  const void* send = inPlace ? MPI_IN_PLACE : mine.data();
                  const Datatype* st = inPlace ? nullptr : &sendType;
                  if (direct) {
                    served = allgatherDirect(comm, send, count, st, all.data(), count, recvType);
                  } else {
                    run(*planAllgather(comm, send, count, st, all.data(), count, recvType));
                  }
                  return bytesOf(all);
                });
      }
      compare("alltoall with gaps", p, [&](Communicator& comm, bool direct, bool& served) {
        // Padded on the send side, plain on the receive side.
        std::vector<int> out = numbers(comm.rank(), 2 * count * p), in(static_cast<std::size_t>(count * p), -9);
        if (direct) {
          served = alltoallDirect(comm, out.data(), count, &paddedIntType(), in.data(), count, intType());
        } else {
          run(*planAlltoall(comm, out.data(), count, &paddedIntType(), in.data(), count, intType()));
        }
        return bytesOf(in);
      });
    }
  }
}

TEST_CASE("direct collectives decline what their plans must serve", "[coll][direct]") {
  PerRank<std::string> accepted(2);
  runRanks(2, [&](World& world) {
    Communicator& comm = world.commWorld();
    std::vector<int> big(64 * 1024), out(64 * 1024);
    // Too large for a rooted direct call, an in-place alltoall, an operand for
    // Rabenseifner: nothing sent, no sequence number taken (the barrier's
    // plan that follows still matches).
    std::string wrong;
    if (bcastDirect(comm, big.data(), 1024, intType(), 0)) wrong += "bcast 4 KiB; ";
    if (alltoallDirect(comm, MPI_IN_PLACE, 1, nullptr, out.data(), 1, intType())) wrong += "alltoall in place; ";
    if (allreduceDirect(comm, big.data(), out.data(), 16 * 1024, intType(), kSum)) wrong += "allreduce 64 KiB; ";
    run(*planBarrier(comm));
    accepted.set(world.rank(), wrong);
  });
  CHECK(accepted[0].empty());
  CHECK(accepted[1].empty());
}
