#include "mpi/coll/shm_collectives.h"

#include <mpi.h>

#include <cstring>
#include <string>

#include "mpi/coll/select.h"
#include "mpi/coll/shm_area.h"
#include "mpi/coll/shm_large.h"
#include "mpi/core/error.h"

namespace zmpi::mpi::coll {
namespace {

// `count` elements of `type` at `buffer` to or from the packed bytes a slot holds.
void pack(const Datatype& type, const void* buffer, std::size_t count, char* out) {
  if (type.contiguous()) {
    std::memcpy(out, buffer, count * type.size());
  } else {
    type.pack(buffer, count, out);
  }
}

void unpack(const Datatype& type, const char* in, std::size_t count, void* buffer) {
  if (type.contiguous()) {
    std::memcpy(buffer, in, count * type.size());
  } else {
    type.unpack(in, count * type.size(), buffer);
  }
}

// The `index`th block of `count` elements in a program's buffer.
char* block(void* buffer, std::size_t count, const Datatype& type, int index) {
  return static_cast<char*>(buffer) +
         static_cast<std::ptrdiff_t>(index) * static_cast<std::ptrdiff_t>(count) * type.extent();
}
const char* block(const void* buffer, std::size_t count, const Datatype& type, int index) {
  return block(const_cast<void*>(buffer), count, type, index);
}

// A send side that does not match the receive side's bytes (an erroneous program: MPI
// requires equal type signatures) must not write past a slot. Checked before the call
// takes its number, so that with MPI_ERRORS_RETURN this rank's count stays in step.
void checkSendBytes(std::size_t sendBytes, std::size_t recvBytes) {
  if (sendBytes != recvBytes) {
    fail(MPI_ERR_TRUNCATE, "collective send of " + std::to_string(sendBytes) + " bytes where " +
                               std::to_string(recvBytes) + " are received");
  }
}

// The area for a call moving `bytes` per slot, or null (see the header).
ShmArea* areaFor(Communicator& comm, std::size_t bytes) {
  if (bytes == 0 || bytes > ShmArea::kSlotBytes) return nullptr;
  return shmAreaOf(comm);
}

// The area for a call above a slot through the staging rings (shm_large.h), or null
// (ZMPI_COLL_SHM_LARGE=0; select.h has the measurements).
ShmArea* largeAreaFor(Communicator& comm) { return shmLargeEnabled() ? shmAreaOf(comm) : nullptr; }

// slot(0) op slot(1) op ... op slot(p-1) of call `seq`, packed, into `result` (which may
// be the program's buffer: every operand is already in a slot). Right to left, so that
// each step is Op::apply's inout = in op inout with the lower rank on the left.
void reduceSlots(const ShmArea& area, ShmArea::Buffer buffer, const Op& op, const Datatype& type, std::size_t count,
                 char* result) {
  const int p = area.size();
  std::memcpy(result, area.slot(p - 1, buffer), count * type.size());
  for (int q = p - 2; q >= 0; --q) op.applyPacked(area.slot(q, buffer), result, count, type);
}

// A rooted call's writer: a unit is stamped, and the done flag then says the writer has
// finished the call (for writers that wait on its progress); a large slot is announced by
// the ready flag.
void publish(ShmArea& area, ShmArea::Buffer buffer, uint64_t seq) {
  if (buffer.stamped) {
    area.publishStamp(buffer, seq);
    area.publishDone(seq);
  } else {
    area.publishReady(seq);
  }
}

void waitFor(ShmArea& area, int writer, ShmArea::Buffer buffer, uint64_t seq) {
  if (buffer.stamped) {
    area.waitStamp(writer, buffer, seq);
  } else {
    area.waitReady(writer, seq);
  }
}

// Reduces into the program's buffer: in place when the type is contiguous, else in
// scratch, then unpacked (only the elements' bytes are written).
void reduceInto(const ShmArea& area, ShmArea::Buffer buffer, const Op& op, const Datatype& type, std::size_t count,
                void* recvbuf) {
  if (type.contiguous()) return reduceSlots(area, buffer, op, type, count, static_cast<char*>(recvbuf));
  alignas(64) char scratch[ShmArea::kSlotBytes];
  reduceSlots(area, buffer, op, type, count, scratch);
  type.unpack(scratch, count * type.size(), recvbuf);
}

}  // namespace

// Everyone raises its flag and waits for all others'.
bool barrierShm(Communicator& comm) {
  ShmArea* area = shmAreaOf(comm);
  if (area == nullptr) return false;
  const uint64_t seq = area->begin();
  area->publishReady(seq);
  area->waitAllReady(seq);
  return true;
}

// The root fills its buffer and says so; the others copy out of it and say so (the root
// may run ahead, see ShmArea).
bool bcastShm(Communicator& comm, void* buffer, int count, const Datatype& type, int root) {
  const auto n = static_cast<std::size_t>(count);
  if (n * type.size() > ShmArea::kSlotBytes) {
    ShmArea* large = largeAreaFor(comm);
    if (large != nullptr) bcastShmLarge(*large, buffer, n, type, root);
    return large != nullptr;
  }
  ShmArea* area = areaFor(comm, n * type.size());
  if (area == nullptr) return false;
  const uint64_t seq = area->begin();
  const ShmArea::Buffer b = area->rootedBuffer(n * type.size());
  if (area->rank() == root) {
    area->waitWritable(b, seq);
    pack(type, buffer, n, area->slot(root, b));
    publish(*area, b, seq);
  } else {
    waitFor(*area, root, b, seq);
    unpack(type, area->slot(root, b), n, buffer);
    area->publishDone(seq);
  }
  return true;
}

// Every rank fills its buffer and says so; the root reduces them all and says it has.
bool reduceShm(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type, const Op& op,
               int root) {
  const auto n = static_cast<std::size_t>(count);
  ShmArea* area = areaFor(comm, n * type.size());
  if (area == nullptr) return false;
  const uint64_t seq = area->begin();
  const ShmArea::Buffer b = area->rootedBuffer(n * type.size());
  const int r = area->rank();
  area->waitWritable(b, seq);
  pack(type, r == root && sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, n, area->slot(r, b));
  if (r != root) {
    publish(*area, b, seq);
    return true;
  }
  if (b.stamped) {
    area->waitAllStamps(b, seq);
  } else {
    area->waitAllReady(seq);
  }
  reduceInto(*area, b, op, type, n, recvbuf);
  area->publishDone(seq);
  return true;
}

// Every rank fills its slot, waits for all, and reduces all slots itself. Two buffers
// suffice without further waiting: to write its slot again in call seq + 2, a rank must
// have seen every flag of call seq + 1, raised only after its owner had read call seq
// (ShmArea::waitWritable then returns without looking).
bool allreduceShm(Communicator& comm, const void* sendbuf, void* recvbuf, int count, const Datatype& type,
                  const Op& op) {
  const auto n = static_cast<std::size_t>(count);
  if (n * type.size() > ShmArea::kSlotBytes) {
    ShmArea* large = type.size() <= ShmArea::chunkBytes() ? largeAreaFor(comm) : nullptr;
    if (large != nullptr) allreduceShmLarge(*large, sendbuf == MPI_IN_PLACE ? nullptr : sendbuf, recvbuf, n, type, op);
    return large != nullptr;
  }
  ShmArea* area = areaFor(comm, n * type.size());
  if (area == nullptr) return false;
  const uint64_t seq = area->begin();
  const ShmArea::Buffer b = ShmArea::syncBuffer(seq, n * type.size());
  area->waitWritable(b, seq);
  pack(type, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, n, area->slot(area->rank(), b));
  area->publishSync(b, seq);
  area->waitSync(b, seq);
  reduceInto(*area, b, op, type, n, recvbuf);
  return true;
}

// Every rank puts its block in its slot and copies everyone's out.
bool allgatherShm(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                  int recvcount, const Datatype& recvtype) {
  const auto n = static_cast<std::size_t>(recvcount);
  const bool inPlace = sendbuf == MPI_IN_PLACE;
  if (n * recvtype.size() > ShmArea::kSlotBytes) {
    ShmArea* large = largeAreaFor(comm);
    if (large == nullptr) return false;
    if (!inPlace) checkSendBytes(static_cast<std::size_t>(sendcount) * sendtype->size(), n * recvtype.size());
    allgatherShmLarge(*large, inPlace ? nullptr : sendbuf, static_cast<std::size_t>(sendcount), sendtype, recvbuf, n,
                      recvtype);
    return true;
  }
  ShmArea* area = areaFor(comm, n * recvtype.size());
  if (area == nullptr) return false;
  if (!inPlace) checkSendBytes(static_cast<std::size_t>(sendcount) * sendtype->size(), n * recvtype.size());
  const uint64_t seq = area->begin();
  const int r = area->rank();
  const ShmArea::Buffer b = ShmArea::syncBuffer(seq, n * recvtype.size());
  area->waitWritable(b, seq);
  if (inPlace) {
    pack(recvtype, block(recvbuf, n, recvtype, r), n, area->slot(r, b));
  } else {
    pack(*sendtype, sendbuf, static_cast<std::size_t>(sendcount), area->slot(r, b));
  }
  area->publishSync(b, seq);
  area->waitSync(b, seq);
  for (int q = 0; q < area->size(); ++q) {
    if (!(inPlace && q == r)) unpack(recvtype, area->slot(q, b), n, block(recvbuf, n, recvtype, q));
  }
  return true;
}

// Every rank puts all its blocks in its slot, block q for rank q, and copies its own block
// out of every slot. In place, the blocks are taken from the receive buffer before any
// is overwritten.
bool alltoallShm(Communicator& comm, const void* sendbuf, int sendcount, const Datatype* sendtype, void* recvbuf,
                 int recvcount, const Datatype& recvtype) {
  const auto n = static_cast<std::size_t>(recvcount);
  const std::size_t bytes = n * recvtype.size();
  if (bytes * static_cast<std::size_t>(comm.size()) > ShmArea::kSlotBytes) {
    const bool inPlace = sendbuf == MPI_IN_PLACE;
    ShmArea* large = largeAreaFor(comm);
    if (large == nullptr) return false;
    if (!inPlace) checkSendBytes(static_cast<std::size_t>(sendcount) * sendtype->size(), bytes);
    alltoallShmLarge(*large, inPlace ? nullptr : sendbuf, static_cast<std::size_t>(sendcount), sendtype, recvbuf, n,
                     recvtype);
    return true;
  }
  ShmArea* area = areaFor(comm, bytes * static_cast<std::size_t>(comm.size()));
  if (area == nullptr) return false;
  if (sendbuf != MPI_IN_PLACE) checkSendBytes(static_cast<std::size_t>(sendcount) * sendtype->size(), bytes);
  const uint64_t seq = area->begin();
  const int r = area->rank();
  const int p = area->size();
  const ShmArea::Buffer b = ShmArea::syncBuffer(seq, bytes * static_cast<std::size_t>(p));
  area->waitWritable(b, seq);
  char* mine = area->slot(r, b);
  for (int q = 0; q < p; ++q) {
    char* out = mine + static_cast<std::size_t>(q) * bytes;
    if (sendbuf == MPI_IN_PLACE) {
      pack(recvtype, block(recvbuf, n, recvtype, q), n, out);
    } else {
      const auto m = static_cast<std::size_t>(sendcount);
      pack(*sendtype, block(sendbuf, m, *sendtype, q), m, out);
    }
  }
  area->publishSync(b, seq);
  area->waitSync(b, seq);
  for (int q = 0; q < p; ++q) {
    unpack(recvtype, area->slot(q, b) + static_cast<std::size_t>(r) * bytes, n, block(recvbuf, n, recvtype, q));
  }
  return true;
}

}  // namespace zmpi::mpi::coll
