#include "mpi/coll/shm_large.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace zmpi::mpi::coll {
namespace {

// Rounds of `per` bytes (or elements) that cover `total`.
uint64_t roundsFor(std::size_t total, std::size_t per) { return (total + per - 1) / per; }

// Starts a call: its number, and its ready flag (this rank has finished every earlier call,
// so later slot calls never wait for this one to end; large calls write no slot).
void beginCall(ShmArea& area) { area.publishReady(area.begin()); }

// The other ranks, from the next one round, so that readers spread over the writers.
template <typename F>
void forOthers(const ShmArea& area, F&& f) {
  const int p = area.size();
  for (int i = 1; i < p; ++i) f((area.rank() + i) % p);
}

void bcastBytes(ShmArea& area, void* buffer, std::size_t bytes, int root) {
  beginCall(area);
  const std::size_t c = ShmArea::chunkBytes();
  const uint64_t rounds = roundsFor(bytes, c);
  const uint64_t first = area.beginRounds(rounds);
  char* data = static_cast<char*>(buffer);
  for (uint64_t i = 0; i < rounds; ++i) {
    const uint64_t g = first + i;
    const std::size_t offset = i * c;
    const std::size_t len = std::min(c, bytes - offset);
    if (area.rank() == root) {
      area.waitChunkWritable(g);
      std::memcpy(area.chunk(root, g), data + offset, len);
      area.publishWrote(g);
    } else {
      area.waitWrote(root, g);
      std::memcpy(data + offset, area.chunk(root, g), len);
      area.publishRead(g);
    }
  }
  // The root has read nothing: later writers need not wait for it.
  if (area.rank() == root) area.publishRead(first + rounds - 1);
}

void allgatherBytes(ShmArea& area, const void* sendbuf, void* recvbuf, std::size_t bytes) {
  beginCall(area);
  const int r = area.rank();
  char* out = static_cast<char*>(recvbuf);
  const char* mine = sendbuf == nullptr ? out + static_cast<std::size_t>(r) * bytes : static_cast<const char*>(sendbuf);
  const std::size_t c = ShmArea::chunkBytes();
  const uint64_t rounds = roundsFor(bytes, c);
  const uint64_t first = area.beginRounds(rounds);
  for (uint64_t i = 0; i < rounds; ++i) {
    const uint64_t g = first + i;
    const std::size_t offset = i * c;
    const std::size_t len = std::min(c, bytes - offset);
    area.waitChunkWritable(g);
    std::memcpy(area.chunk(r, g), mine + offset, len);
    area.publishWrote(g);
    // This rank's own piece while its source is still in cache, and while the others write.
    if (sendbuf != nullptr) std::memcpy(out + static_cast<std::size_t>(r) * bytes + offset, mine + offset, len);
    forOthers(area, [&](int q) {
      area.waitWrote(q, g);
      std::memcpy(out + static_cast<std::size_t>(q) * bytes + offset, area.chunk(q, g), len);
    });
    area.publishRead(g);
  }
}

// Through the pair regions (shm_area.h): every rank stages pieces of the blocks it sends
// for whichever reader has room, and takes pieces of the blocks it receives from whichever
// writer has staged them, so no step needs two given ranks running at once (4 ranks on 2
// cores: pairwise exchange waits for each partner in turn). It sleeps only when nothing can
// move. In place, piece i of block q is taken from q only after this rank has staged its
// own piece i of block q (the same bytes of the buffer).
void alltoallBytes(ShmArea& area, const void* sendbuf, void* recvbuf, std::size_t bytes) {
  beginCall(area);
  const uint64_t last = area.beginPairs();
  const int r = area.rank();
  const int p = area.size();
  const bool inPlace = sendbuf == nullptr;
  char* out = static_cast<char*>(recvbuf);
  const char* in = inPlace ? out : static_cast<const char*>(sendbuf);
  const std::size_t piece = area.pairPiece();
  const uint64_t pieces = roundsFor(bytes, piece);  // per block
  // This call's pieces per peer: staged and taken so far, and the counts before the call.
  uint64_t sent[ShmArea::kMaxRanks] = {};
  uint64_t taken[ShmArea::kMaxRanks] = {};
  uint64_t sentBase[ShmArea::kMaxRanks] = {};
  uint64_t takenBase[ShmArea::kMaxRanks] = {};
  for (int q = 0; q < p; ++q) {
    sentBase[q] = area.sentTo(q);
    takenBase[q] = area.takenFrom(q);
  }
  const auto canSend = [&](int q) {
    return sent[q] < pieces && area.takenBy(q) + ShmArea::kPairSlots > sentBase[q] + sent[q];
  };
  const auto canTake = [&](int q) {
    return taken[q] < pieces && (!inPlace || taken[q] < sent[q]) && area.sentBy(q) > takenBase[q] + taken[q];
  };
  const auto span = [&](int q, uint64_t i) {
    return std::pair{static_cast<std::size_t>(q) * bytes + i * piece, std::min(piece, bytes - i * piece)};
  };
  bool selfCopied = inPlace;
  int open = 2 * (p - 1);  // streams (to and from each peer) not finished
  while (open > 0) {
    bool moved = false;
    forOthers(area, [&](int q) {
      for (; canSend(q); moved = true) {
        const auto [at, len] = span(q, sent[q]);
        std::memcpy(area.pairSlot(r, q, area.sentTo(q)), in + at, len);
        ++area.sentTo(q);
        open -= ++sent[q] == pieces;
        area.publishSent(q);
      }
      for (; canTake(q); moved = true) {
        const auto [at, len] = span(q, taken[q]);
        std::memcpy(out + at, area.pairSlot(q, r, area.takenFrom(q)), len);
        ++area.takenFrom(q);
        open -= ++taken[q] == pieces;
        area.publishTaken(q);
      }
    });
    if (moved || open == 0) continue;
    // Nothing can move: copy this rank's own block meanwhile, else wait for a peer.
    if (!selfCopied) {
      const std::size_t self = static_cast<std::size_t>(r) * bytes;
      std::memcpy(out + self, in + self, bytes);
      selfCopied = true;
      continue;
    }
    area.waitInbox([&] {
      for (int q = 0; q < p; ++q) {
        if (q != r && (canSend(q) || canTake(q))) return true;
      }
      return false;
    });
  }
  if (!selfCopied) {
    const std::size_t self = static_cast<std::size_t>(r) * bytes;
    std::memcpy(out + self, in + self, bytes);
  }
  area.publishRead(last);
}

void allreducePacked(ShmArea& area, const void* sendbuf, void* recvbuf, std::size_t count, const Datatype& type,
                     const Op& op) {
  beginCall(area);
  const int r = area.rank();
  const int p = area.size();
  const std::size_t s = type.size();
  char* out = static_cast<char*>(recvbuf);
  const char* in = sendbuf == nullptr ? out : static_cast<const char*>(sendbuf);
  const std::size_t perRound = ShmArea::chunkBytes() / s;  // elements; the caller checks >= 1
  const uint64_t rounds = roundsFor(count, perRound);
  const uint64_t first = area.beginRounds(rounds);
  // Rank q's part of a round of m elements: [m q / p, m (q + 1) / p).
  const auto partStart = [p](std::size_t m, int q) {
    return m * static_cast<std::size_t>(q) / static_cast<std::size_t>(p);
  };
  for (uint64_t i = 0; i < rounds; ++i) {
    const uint64_t g = first + i;
    const std::size_t base = i * perRound;
    const std::size_t m = std::min(perRound, count - base);
    char* result = out + base * s;
    area.waitChunkWritable(g);
    char* staged = area.chunk(r, g);
    std::memcpy(staged, in + base * s, m * s);
    area.publishWrote(g);
    // Reduce this rank's part over every rank's chunk, right to left, into the program's
    // buffer (this round's operand is staged already), then stage it for the others.
    const std::size_t lo = partStart(m, r);
    const std::size_t n = partStart(m, r + 1) - lo;
    forOthers(area, [&](int q) { area.waitWrote(q, g); });
    if (n > 0) {
      char* part = result + lo * s;
      std::memcpy(part, area.chunk(p - 1, g) + lo * s, n * s);
      for (int q = p - 2; q >= 0; --q) op.applyPacked(area.chunk(q, g) + lo * s, part, n, type);
      std::memcpy(staged + lo * s, part, n * s);
    }
    area.publishReduced(g);
    forOthers(area, [&](int q) {
      const std::size_t qlo = partStart(m, q);
      const std::size_t qn = partStart(m, q + 1) - qlo;
      area.waitReduced(q, g);
      std::memcpy(result + qlo * s, area.chunk(q, g) + qlo * s, qn * s);
    });
    area.publishRead(g);
  }
}

// Derived datatypes: the byte paths above on packed copies (packed once per call, as the
// plans do), so the choice of path never depends on a rank's own type layout (MPI
// requires only matching type signatures).
std::vector<char> packed(const Datatype& type, const void* buffer, std::size_t count) {
  std::vector<char> out(count * type.size());
  type.pack(buffer, count, out.data());
  return out;
}

char* blockOf(void* buffer, std::size_t count, const Datatype& type, std::size_t index) {
  return static_cast<char*>(buffer) + static_cast<std::ptrdiff_t>(index * count) * type.extent();
}

// The packed send blocks of an allgather (1 block) or alltoall (p blocks): the program's
// buffer when contiguous, else `scratch`; null when in place.
const void* sendBytes(const void* sendbuf, std::size_t count, const Datatype* type, std::size_t blocks,
                      std::vector<char>& scratch) {
  if (sendbuf == nullptr || type->contiguous()) return sendbuf;
  scratch = packed(*type, sendbuf, count * blocks);
  return scratch.data();
}

}  // namespace

void bcastShmLarge(ShmArea& area, void* buffer, std::size_t count, const Datatype& type, int root) {
  if (type.contiguous()) return bcastBytes(area, buffer, count * type.size(), root);
  std::vector<char> scratch =
      area.rank() == root ? packed(type, buffer, count) : std::vector<char>(count * type.size());
  bcastBytes(area, scratch.data(), scratch.size(), root);
  if (area.rank() != root) type.unpack(scratch.data(), scratch.size(), buffer);
}

void allgatherShmLarge(ShmArea& area, const void* sendbuf, std::size_t sendcount, const Datatype* sendtype,
                       void* recvbuf, std::size_t recvcount, const Datatype& recvtype) {
  const std::size_t bytes = recvcount * recvtype.size();
  const auto p = static_cast<std::size_t>(area.size());
  const auto r = static_cast<std::size_t>(area.rank());
  std::vector<char> sendScratch;
  const void* send = sendBytes(sendbuf, sendcount, sendtype, 1, sendScratch);
  if (recvtype.contiguous()) return allgatherBytes(area, send, recvbuf, bytes);
  std::vector<char> recvScratch(bytes * p);
  if (send == nullptr)
    recvtype.pack(blockOf(recvbuf, recvcount, recvtype, r), recvcount, recvScratch.data() + r * bytes);
  allgatherBytes(area, send, recvScratch.data(), bytes);
  for (std::size_t q = 0; q < p; ++q) {
    if (send != nullptr || q != r)
      recvtype.unpack(recvScratch.data() + q * bytes, bytes, blockOf(recvbuf, recvcount, recvtype, q));
  }
}

void alltoallShmLarge(ShmArea& area, const void* sendbuf, std::size_t sendcount, const Datatype* sendtype,
                      void* recvbuf, std::size_t recvcount, const Datatype& recvtype) {
  const std::size_t bytes = recvcount * recvtype.size();
  const auto p = static_cast<std::size_t>(area.size());
  std::vector<char> sendScratch;
  const void* send = sendBytes(sendbuf, sendcount, sendtype, p, sendScratch);
  if (recvtype.contiguous()) return alltoallBytes(area, send, recvbuf, bytes);
  // In place: the receive buffer's blocks, packed, are the ones sent.
  std::vector<char> recvScratch =
      send == nullptr ? packed(recvtype, recvbuf, recvcount * p) : std::vector<char>(bytes * p);
  alltoallBytes(area, send, recvScratch.data(), bytes);
  recvtype.unpack(recvScratch.data(), recvScratch.size(), recvbuf);
}

void allreduceShmLarge(ShmArea& area, const void* sendbuf, void* recvbuf, std::size_t count, const Datatype& type,
                       const Op& op) {
  if (type.contiguous()) return allreducePacked(area, sendbuf, recvbuf, count, type, op);
  std::vector<char> scratch = packed(type, sendbuf == nullptr ? recvbuf : sendbuf, count);
  allreducePacked(area, nullptr, scratch.data(), count, type, op);
  type.unpack(scratch.data(), scratch.size(), recvbuf);
}

}  // namespace zmpi::mpi::coll
