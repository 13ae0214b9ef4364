#include "mpi/core/eager_flow.h"

#include <algorithm>

namespace zmpi::mpi {

EagerFlow::EagerFlow(int worldRank, int worldSize, Fabric& fabric, long long window, std::size_t eagerLimit)
    : worldSize_(worldSize),
      fabric_(fabric),
      send_(std::make_unique<SendSide[]>(static_cast<std::size_t>(worldSize))),
      recv_(std::make_unique<RecvSide[]>(static_cast<std::size_t>(worldSize))) {
  for (int r = 0; r < worldSize; ++r) {
    SendSide& send = send_[static_cast<std::size_t>(r)];
    // Messages to self stay unlimited: a program that sends to itself before receiving
    // holds them itself, and a blocking send turned rendezvous would wait for itself.
    uint64_t pairWindow = kUnlimited;
    if (r != worldRank) {
      pairWindow =
          window >= 0 ? static_cast<uint64_t>(window) : kWindowPerEagerLimit * fabric.eagerLimit(r, eagerLimit);
      if (pairWindow == 0) pairWindow = kUnlimited;
    }
    send.window = pairWindow;
    send.limit.store(pairWindow, std::memory_order_relaxed);
    recv_[static_cast<std::size_t>(r)].publishAt = stepFor(r);
  }
}

uint64_t EagerFlow::stepFor(int sender) const {
  // Both ends of a pair take the same path, so the receiver knows the sender's window.
  const uint64_t window = send_[static_cast<std::size_t>(sender)].window;
  return window == kUnlimited ? kUnlimited : std::max<uint64_t>(window / 4, 1);
}

void EagerFlow::raise(std::atomic<uint64_t>& limit, uint64_t value) {
  uint64_t seen = limit.load(std::memory_order_relaxed);
  while (seen < value && !limit.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

namespace {
uint64_t saturatingAdd(uint64_t a, uint64_t b) { return a > EagerFlow::kUnlimited - b ? EagerFlow::kUnlimited : a + b; }
}  // namespace

void EagerFlow::refresh(int peer, SendSide& side) {
  uint64_t total = 0;
  if (fabric_.peerConsumed(peer, total)) raise(side.limit, saturatingAdd(total, side.window));
}

bool EagerFlow::reserveSlow(int peer, SendSide& side, uint64_t bytes) {
  // Over the cached limit: a same-host peer's published total may have moved on since.
  refresh(peer, side);
  const uint64_t used = side.sentShared.load(std::memory_order_relaxed) + side.claimed.load(std::memory_order_relaxed);
  if (used <= side.limit.load(std::memory_order_relaxed)) return true;  // ours is in sentShared
  side.sentShared.fetch_sub(bytes, std::memory_order_relaxed);
  return false;
}

bool EagerFlow::reserveOwnSlow(int peer, SendSide& side, uint64_t bytes) {
  if (!serialized_) return reserve(peer, bytes);
  // The room is spent: claim the shortfall and up to a chunk more, as far as the window
  // has it (a chunk left unspent is at most an eighth of the window others cannot use).
  const uint64_t shortfall = bytes - side.room;
  auto available = [&side] {
    const uint64_t used =
        side.claimed.load(std::memory_order_relaxed) + side.sentShared.load(std::memory_order_relaxed);
    const uint64_t limit = side.limit.load(std::memory_order_relaxed);
    return limit > used ? limit - used : 0;
  };
  uint64_t free = available();
  if (free < shortfall) {
    refresh(peer, side);
    free = available();
    if (free < shortfall) return false;
  }
  const uint64_t chunk = side.window == kUnlimited ? kUnlimited / 8 : std::max<uint64_t>(side.window / 8, 1);
  const uint64_t claim = std::min(free, std::max(shortfall, chunk));
  side.claimed.store(side.claimed.load(std::memory_order_relaxed) + claim, std::memory_order_relaxed);
  side.room = side.room + claim - bytes;
  return true;
}

void EagerFlow::granted(int peer, uint64_t total) {
  if (peer < 0 || peer >= worldSize_) return;
  SendSide& side = send_[static_cast<std::size_t>(peer)];
  if (side.window == kUnlimited) return;
  // Saturating: a peer claiming more than it could have consumed only lifts its own bound.
  raise(side.limit, saturatingAdd(total, side.window));
}

uint64_t EagerFlow::publishPending(int sender) {
  RecvSide& side = recv_[static_cast<std::size_t>(sender)];
  const uint64_t step = stepFor(sender);
  if (step == kUnlimited || side.consumed == side.publishAt - step) return 0;  // nothing new
  return publish(sender, side);
}

uint64_t EagerFlow::publish(int sender, RecvSide& side) {
  side.publishAt = side.consumed + stepFor(sender);
  return fabric_.publishConsumed(sender, side.consumed) ? 0 : side.consumed;
}

}  // namespace zmpi::mpi
