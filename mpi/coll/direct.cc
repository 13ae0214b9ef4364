#include "mpi/coll/direct.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "mpi/coll/allreduce_recursive_doubling.h"
#include "mpi/coll/bcast_binomial.h"
#include "mpi/coll/channel.h"
#include "mpi/coll/coll_settings.h"
#include "mpi/coll/reduction.h"
#include "mpi/coll/select.h"
#include "mpi/core/engine.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/request.h"
#include "mpi/core/world.h"
#include "mpi/datatype/predefined.h"

namespace zmpi::mpi::coll {
namespace {

// What the environment says, read once (it is the same for every call of the job).
struct Settings {
  bool enabled;  // ZMPI_EXPERIMENT=no-coll-direct turns direct collectives off (comparisons, tests)
  std::optional<std::size_t> forcedSegmentBytes;
  bool forcedBcast;
  bool forcedAllreduce;
  bool forcedAllgather;
};

const Settings& settings() {
  static const Settings value = [] {
    return Settings{
        experiment(kCollDirectExperiment), forcedSegmentBytes(), settingIfSet(kBcastAlgorithmSetting).has_value(),
        settingIfSet(kAllreduceAlgorithmSetting).has_value(), settingIfSet(kAllgatherAlgorithmSetting).has_value()};
  }();
  return value;
}

// The largest message a direct collective sends: small enough for scratch on the stack
// (mostly), sent eagerly (so a send completes as it starts), and never cut into pieces by
// the plan (pieces.h), so the plan would send the very same message.
bool fits(Communicator& comm, std::size_t bytes) {
  static_assert(kDirectMaxBytes <= kSegmentBytes, "a direct message is never cut into pieces");
  const std::optional<std::size_t> segment = settings().forcedSegmentBytes;
  return settings().enabled && bytes <= kDirectMaxBytes && bytes <= comm.world().engine().eagerLimit() &&
         (!segment || *segment == 0 || bytes <= *segment);
}

// Scratch memory for one operand: on the stack when small, else on the heap.
class Scratch {
 public:
  char* get(std::size_t bytes) {
    if (bytes <= sizeof(inline_)) return inline_;
    heap_ = std::make_unique_for_overwrite<char[]>(bytes);
    return heap_.get();
  }

 private:
  alignas(64) char inline_[2048];
  std::unique_ptr<char[]> heap_;
};

// One direct collective call: its sequence number (so its tags are the plan's, see
// Channel) and blocking byte transfers with requests on the stack.
class Call {
 public:
  explicit Call(Communicator& comm)
      : comm_(comm), engine_(comm.world().engine()), tagBase_(Channel::tagBase(comm.nextCollectiveSequence())) {}

  // Complete on return: every direct message is within the eager limit (fits()), and a
  // plain eager message needs no request -- unless the pair's eager window is used up
  // (EagerFlow, a rank running ahead of a peer): then it goes by rendezvous, and returns
  // once the peer's receive has taken it.
  void send(int peer, int step, const void* data, std::size_t bytes) {
    if (bytes == 0) return;  // the plan drops zero-byte transfers (schedule.h)
    if (engine_.sendEagerNow(comm_.worldRankOf(peer), comm_.collectiveContext(), comm_.rank(), tagBase_ | step, data,
                             bytes)) {
      return;
    }
    Request request(Request::Kind::Send);
    prepare(request, peer, step, const_cast<void*>(data), bytes);
    engine_.startSend(request);
    engine_.wait(request);
  }

  void recv(int peer, int step, void* data, std::size_t bytes) {
    if (bytes == 0) return;
    Request request(Request::Kind::Recv);
    prepare(request, peer, step, data, bytes);
    engine_.startRecv(request);
    await(request);
  }

  // Receives from `from` while sending to `to`, both with `step`.
  void exchange(int to, const void* out, std::size_t outBytes, int from, void* in, std::size_t inBytes, int step) {
    if (inBytes == 0) return send(to, step, out, outBytes);
    if (outBytes == 0) return recv(from, step, in, inBytes);
    Request incoming(Request::Kind::Recv);
    prepare(incoming, from, step, in, inBytes);
    engine_.startRecv(incoming);
    try {
      send(to, step, out, outBytes);
    } catch (...) {
      withdraw(incoming);
      throw;
    }
    await(incoming);
  }

  // Transfers in flight together: every receive is posted, then every send starts, then
  // all are awaited (at most kBatch of each; zero-byte ones are dropped).
  static constexpr int kBatch = 8;
  struct Transfer {
    int peer;
    void* data;
    std::size_t bytes;
  };
  void exchangeAll(int step, const Transfer* sends, int sendCount, const Transfer* recvs, int recvCount) {
    std::optional<Request> incoming[kBatch];
    int posted = 0;
    try {
      for (int i = 0; i < recvCount; ++i) {
        if (recvs[i].bytes == 0) continue;
        Request& request = incoming[posted].emplace(Request::Kind::Recv);
        prepare(request, recvs[i].peer, step, recvs[i].data, recvs[i].bytes);
        engine_.startRecv(request);
        ++posted;
      }
      for (int i = 0; i < sendCount; ++i) send(sends[i].peer, step, sends[i].data, sends[i].bytes);
      for (int i = 0; i < posted; ++i) await(*incoming[i]);
    } catch (...) {
      for (int i = 0; i < posted; ++i) withdraw(*incoming[i]);
      throw;
    }
  }

 private:
  void prepare(Request& request, int peer, int step, void* data, std::size_t bytes) {
    request.comm = &comm_;  // alive for the whole blocking call: no reference needed
    request.buffer = data;
    request.count = static_cast<int>(bytes);
    static Datatype* const byte = byteType();  // once: byteType() checks its initialisation
    request.type = byte;
    request.peer = peer;
    request.commRank = comm_.rank();
    request.tag = tagBase_ | step;
    request.context = comm_.collectiveContext();
    request.peerWorld = comm_.worldRankOf(peer);
    request.transient = true;  // on our stack, no handle: completes without the engine's lock
  }

  // A receive must not outlive its stack frame inside the engine.
  void withdraw(Request& request) {
    if (!request.done.load(std::memory_order_acquire)) engine_.cancel(request);
  }

  void await(Request& request) {  // a receive
    if (!request.done.load(std::memory_order_acquire)) {
      try {
        engine_.wait(request);
      } catch (...) {
        withdraw(request);
        throw;
      }
    }
    if (request.status.MPI_ERROR != MPI_SUCCESS) {
      fail(request.status.MPI_ERROR, "collective message of unexpected size");
    }
  }

  Communicator& comm_;
  Engine& engine_;
  int tagBase_;
};

void copy(const void* from, void* to, std::size_t bytes) {
  if (from != to && bytes > 0) std::memcpy(to, from, bytes);
}

// `parts` parts of `count` elements of `type` each, back to back in a program's buffer,
// as the contiguous bytes the plans move (layout.h): the buffer itself when the type is
// contiguous, else scratch that pack() fills and unpack() empties.
class Packed {
 public:
  // cppcheck-suppress uninitMemberVar ; scratch_ is uninitialised memory by design
  Packed(const Datatype& type, std::size_t count, int parts, const void* base)
      : type_(type),
        count_(count),
        block_(count * type.size()),
        base_(static_cast<char*>(const_cast<void*>(base))),
        direct_(type.contiguous()),
        data_(direct_ ? base_ : scratch_.get(block_ * static_cast<std::size_t>(parts))) {}

  static std::size_t scratchBytes(const Datatype& type, std::size_t count, int parts) {
    return type.contiguous() ? 0 : count * type.size() * static_cast<std::size_t>(parts);
  }
  std::size_t block() const { return block_; }
  char* at(int part) const { return data_ + static_cast<std::size_t>(part) * block_; }
  void pack(int part) const {
    if (!direct_ && block_ > 0) type_.pack(element(part), count_, at(part));
  }
  void unpack(int part) const {
    if (!direct_ && block_ > 0) type_.unpack(at(part), block_, element(part));
  }

 private:
  char* element(int part) const {
    return base_ + static_cast<std::ptrdiff_t>(part) * static_cast<std::ptrdiff_t>(count_) * type_.extent();
  }

  const Datatype& type_;
  std::size_t count_;
  std::size_t block_;
  char* base_;
  bool direct_;
  Scratch scratch_;
  char* data_;
};

}  // namespace

// Dissemination (Hensgen, Finkel, Manber 1988), as barrierDissemination: one byte per round.
bool barrierDirect(Communicator& comm) {
  if (!fits(comm, 1)) return false;  // one-byte tokens, eager like every direct message
  Call call(comm);
  const int p = comm.size();
  const int r = comm.rank();
  char token[2] = {0, 0};
  for (int distance = 1, step = 0; distance < p; distance *= 2, ++step) {
    call.exchange((r + distance) % p, token, 1, (r - distance + p) % p, token + 1, 1, step);
  }
  return true;
}

// Binomial tree, as bcastBinomial.
bool bcastDirect(Communicator& comm, void* buffer, int count, const Datatype& type, int root) {
  const std::size_t bytes = static_cast<std::size_t>(count) * type.size();
  if (!fits(comm, bytes) || bytes > kDirectRootedMaxBytes || settings().forcedBcast) return false;
  Call call(comm);
  const int p = comm.size();
  const int v = (comm.rank() - root + p) % p;
  const int span = binomialSubtree(v, p);
  const Packed data(type, static_cast<std::size_t>(count), 1, buffer);
  if (v == 0) data.pack(0);
  if (v != 0) call.recv((v - span + root) % p, 0, data.at(0), bytes);
  for (int mask = span / 2; mask > 0; mask /= 2) {
    if (v + mask < p) call.send((v + mask + root) % p, 0, data.at(0), bytes);
  }
  if (v != 0) data.unpack(0);
  return true;
}

// Binomial tree, rooted at 0 for non-commutative ops, as reduceBinomial. Operands travel
// as native-layout spans (reduction.h), so a type with gaps goes direct too; the root
// then works in scratch and copies only the elements out, as planReduce does.
bool reduceDirect(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
                  int root) {
  const Reduction reduction(op, type, static_cast<std::size_t>(std::max(count, 0)));
  const std::size_t bytes = reduction.bytes();
  if (!fits(comm, bytes) || bytes > kDirectRootedMaxBytes || (count > 0 && type.size() == 0)) return false;
  Call call(comm);
  if (count == 0) return true;
  const int p = comm.size();
  const int r = comm.rank();
  const std::size_t elements = reduction.count();
  const bool isRoot = r == root;
  const char* input = reduction.spanOf(isRoot && sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf);
  char* target = isRoot ? reduction.spanOf(recvbuf) : nullptr;
  Scratch resultScratch;
  char* result = !isRoot || type.contiguous() ? target : resultScratch.get(bytes);
  const int treeRoot = op.commutative() ? root : 0;
  const int v = (r - treeRoot + p) % p;
  const int span = binomialSubtree(v, p);
  // The partial result ping-pongs between two buffers: a child's partial arrives in the
  // free one and becomes acc (op) child there.
  Scratch scratch[2];
  char* buffers[2] = {nullptr, nullptr};
  const char* acc = input;
  int free = 0;
  for (int mask = 1; mask < span && v + mask < p; mask *= 2) {
    if (buffers[free] == nullptr) buffers[free] = scratch[free].get(bytes);
    char* in = buffers[free];
    call.recv((v + mask + treeRoot) % p, 0, in, bytes);
    reduction.combine(acc, in, elements);
    acc = in;
    free ^= 1;
  }
  if (v != 0) {
    call.send((v - span + treeRoot) % p, 0, acc, bytes);
  } else if (treeRoot == root) {
    copy(acc, result, bytes);
  } else {
    call.send(root, 1, acc, bytes);
  }
  if (isRoot && treeRoot != root) call.recv(treeRoot, 1, result, bytes);
  if (isRoot) reduction.copyElements(result, target, elements);
  return true;
}

// Recursive doubling with the fold for non-powers of two (Thakur, Rabenseifner, Gropp
// 2005), as allreduceRecursiveDoubling: both partners compute (lower ranks) op (higher
// ranks) from the same bytes, so every rank ends with identical bits. Spans and scratch
// for types with gaps as in reduceDirect.
bool allreduceDirect(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                     const Op& op) {
  const Reduction reduction(op, type, static_cast<std::size_t>(std::max(count, 0)));
  const std::size_t bytes = reduction.bytes();
  if (!fits(comm, bytes) || bytes >= kAllreduceLargeMinBytes || (count > 0 && type.size() == 0) ||
      settings().forcedAllreduce) {
    return false;
  }
  Call call(comm);
  if (count == 0) return true;
  const int p = comm.size();
  const int r = comm.rank();
  const std::size_t elements = reduction.count();
  char* target = reduction.spanOf(recvbuf);
  Scratch accScratch;
  char* acc = type.contiguous() ? target : accScratch.get(bytes);
  copy(reduction.spanOf(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf), acc, bytes);
  if (p > 1) {
    const Fold fold = foldOf(r, p);
    Scratch scratch;
    char* other = scratch.get(bytes);
    // Fold in: the even rank of each pair below 2 rem hands its operand to the odd one.
    if (r < 2 * fold.rem) {
      if (r % 2 == 0) {
        call.send(r + 1, 0, acc, bytes);
      } else {
        call.recv(r - 1, 0, other, bytes);
        reduction.combine(other, acc, elements);
      }
    }
    int step = 1;
    if (fold.newRank >= 0) {
      char* cur = acc;
      for (int mask = 1; mask < fold.pof2; mask *= 2, ++step) {
        const int partner = fold.newRank ^ mask;
        const int peer = fold.rankOf(partner);
        call.exchange(peer, cur, bytes, peer, other, bytes, step);
        if (partner < fold.newRank) {
          reduction.combine(other, cur, elements);
        } else {
          reduction.combine(cur, other, elements);
          std::swap(cur, other);
        }
      }
      copy(cur, acc, bytes);
    } else {
      for (int mask = 1; mask < fold.pof2; mask *= 2) ++step;
    }
    // Fold out: the odd rank returns the result.
    if (r < 2 * fold.rem) {
      if (r % 2 == 1) {
        call.send(r - 1, step, acc, bytes);
      } else {
        call.recv(r + 1, step, acc, bytes);
      }
    }
  }
  reduction.copyElements(acc, target, elements);
  return true;
}

// Recursive doubling on powers of two, Bruck otherwise, as the plan selects them
// (allgatherRecursiveDoubling, allgatherBruck).
bool allgatherDirect(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                     int recvcount, const Datatype& recvtype) {
  const int p = comm.size();
  const int r = comm.rank();
  const std::size_t block = static_cast<std::size_t>(recvcount) * recvtype.size();
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  if (settings().forcedAllgather || !fits(comm, block * static_cast<std::size_t>(p))) return false;
  Call call(comm);
  const Packed all(recvtype, static_cast<std::size_t>(recvcount), p, recvbuf);
  const auto at = [&](int rank) { return all.at(rank); };
  // This rank's part of the gathered bytes: from the send buffer, or where the receive
  // buffer already holds it.
  if (inPlace) {
    all.pack(r);
  } else if (sendtype->contiguous()) {
    copy(sendbuf, at(r), block);
  } else if (block > 0) {
    sendtype->pack(sendbuf, static_cast<std::size_t>(sendcount), at(r));
  }
  if (block > 0 && p > 1) {
    if ((p & (p - 1)) == 0) {
      for (int mask = 1, step = 0; mask < p; mask *= 2, ++step) {
        const int partner = r ^ mask;
        const std::size_t bytes = static_cast<std::size_t>(mask) * block;
        call.exchange(partner, at(r & ~(mask - 1)), bytes, partner, at(partner & ~(mask - 1)), bytes, step);
      }
    } else {
      Scratch scratch;
      char* held = scratch.get(static_cast<std::size_t>(p) * block);  // held[j]: rank (r + j) mod p's block
      copy(at(r), held, block);
      for (int distance = 1, step = 0; distance < p; distance *= 2, ++step) {
        const std::size_t bytes = static_cast<std::size_t>(std::min(distance, p - distance)) * block;
        call.exchange((r - distance + p) % p, held, bytes, (r + distance) % p,
                      held + static_cast<std::size_t>(distance) * block, bytes, step);
      }
      const std::size_t head = static_cast<std::size_t>(p - r) * block;
      copy(held, at(r), head);
      copy(held + head, at(0), static_cast<std::size_t>(r) * block);
    }
  }
  for (int part = 0; part < p; ++part) {
    if (!(inPlace && part == r)) all.unpack(part);
  }
  return true;
}

// Pairwise exchange, as alltoallPairwise (not in place: that plan differs).
bool alltoallDirect(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                    int recvcount, const Datatype& recvtype) {
  if (sendbuf == MPI_IN_PLACE) return false;
  const int p = comm.size();
  const std::size_t sendBlock = static_cast<std::size_t>(sendcount) * sendtype->size();
  const std::size_t recvBlock = static_cast<std::size_t>(recvcount) * recvtype.size();
  // Derived types are packed into scratch of every block: bounded like one message.
  const std::size_t scratch = Packed::scratchBytes(*sendtype, static_cast<std::size_t>(sendcount), p) +
                              Packed::scratchBytes(recvtype, static_cast<std::size_t>(recvcount), p);
  if (!fits(comm, std::max(sendBlock, recvBlock)) || scratch > kDirectMaxBytes) return false;
  Call call(comm);
  const int r = comm.rank();
  const Packed send(*sendtype, static_cast<std::size_t>(sendcount), p, sendbuf);
  const Packed recv(recvtype, static_cast<std::size_t>(recvcount), p, recvbuf);
  for (int part = 0; part < p; ++part) send.pack(part);
  copy(send.at(r), recv.at(r), recvBlock);
  // The plan's rounds k = 1 .. p-1 in flight a window at a time: every pair exchanges one
  // message, so the order of the rounds is free (it matters when ranks share cores).
  for (int first = 1; first < p; first += Call::kBatch) {
    const int last = std::min(p, first + Call::kBatch);
    Call::Transfer sends[Call::kBatch], recvs[Call::kBatch];
    for (int k = first; k < last; ++k) {
      const int to = (r + k) % p;
      const int from = (r - k + p) % p;
      sends[k - first] = {to, send.at(to), sendBlock};
      recvs[k - first] = {from, recv.at(from), recvBlock};
    }
    call.exchangeAll(0, sends, last - first, recvs, last - first);
  }
  for (int part = 0; part < p; ++part) recv.unpack(part);
  return true;
}

}  // namespace zmpi::mpi::coll
