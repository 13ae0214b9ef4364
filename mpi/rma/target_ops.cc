// The target side, where the engine delivers (the progress thread, or a thread draining
// the same-host rings while it waits): applying puts, gets, accumulates and
// compare-and-swaps to this process's window memory, answering flushes and lock requests,
// and taking in the replies, grants, posts and completes addressed to this window as an
// origin. Target-side work is serialized by `targetMutex_`, whichever thread delivers:
// that is what makes accumulates atomic and keeps the lock manager single-threaded.
// Nothing here waits for other ranks; a failing operation is answered with its error (or
// kept for the origin's next flush), never thrown into the engine.
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "mpi/core/envelope.h"
#include "mpi/core/error.h"
#include "mpi/op/op.h"
#include "mpi/rma/host_locks.h"
#include "mpi/rma/target_layout.h"
#include "mpi/rma/window.h"
#include "transport/log.h"

namespace zmpi::mpi::rma {
namespace {

// A datatype of one element of `p`, as the ops' packed kernels want it (process-lifetime).
const Datatype& elementType(Primitive p) {
  static std::mutex mutex;
  static std::array<std::atomic<Datatype*>, kPrimitiveKinds> types{};
  if (p == Primitive::None || p == Primitive::Mixed || static_cast<std::size_t>(p) >= kPrimitiveKinds) {
    fail(MPI_ERR_TYPE, "accumulate on elements of no single basic type");
  }
  std::atomic<Datatype*>& slot = types[static_cast<std::size_t>(p)];
  // Made once per kind; every accumulate after that only loads it (no lock on the hot path).
  if (Datatype* made = slot.load(std::memory_order_acquire)) return *made;
  std::lock_guard lock(mutex);
  if (slot.load(std::memory_order_relaxed) == nullptr) {
    slot.store(Datatype::makeBasic(p, primitiveSize(p), primitiveName(p)), std::memory_order_release);
  }
  return *slot.load(std::memory_order_relaxed);
}

zmq::message_t text(const std::string& message) { return zmq::message_t(message.data(), message.size()); }

}  // namespace

void Window::onMessage(transport::WireMessage&& message) {
  const Envelope envelope = envelopeOf(message.header);
  const auto kind = static_cast<RmaKind>(message.header.kind);
  const auto source = static_cast<std::size_t>(envelope.source);
  if (envelope.source < 0 || envelope.source >= size()) {
    log::get("mpi")->warn("one-sided message (kind {}) from rank {}, outside window {}", message.header.kind,
                          envelope.source, id_);
    return;
  }
  switch (kind) {
    case RmaKind::Put:
    case RmaKind::Get: {
      std::lock_guard serial(targetMutex_);
      return applyData(kind, envelope, message.payload);
    }
    case RmaKind::Accumulate:
    case RmaKind::GetAccumulate:
    case RmaKind::CompareAndSwap: {
      std::lock_guard serial(targetMutex_);
      // Origins apply accumulates here themselves, under this rank's accumulate mutex; one
      // that came as a message (a dynamic window whose table did not list the memory)
      // takes it too, or the two could interleave.
      std::optional<HostLocks::AccumulateGuard> atomic;
      if (hostLocks_ && directAccumulate_)
        atomic.emplace(*hostLocks_, rank(), HostLocks::AccumulateGuard::Wait::Quietly);
      return applyData(kind, envelope, message.payload);
    }
    case RmaKind::Flush: {
      std::lock_guard serial(targetMutex_);
      auto [code, what] = std::exchange(originErrors_[source], {MPI_SUCCESS, std::string()});
      return reply(envelope, code, text(what));
    }
    case RmaKind::LockRequest:
    case RmaKind::Unlock: {
      std::lock_guard serial(targetMutex_);
      return onLockMessage(kind, envelope);
    }
    case RmaKind::Reply:
      return onReply(envelope, message.payload);
    case RmaKind::LockGranted:
    case RmaKind::Post:
    case RmaKind::Complete: {
      {
        std::lock_guard guard(mutex_);
        if (kind == RmaKind::LockGranted) ++grants_[source];
        if (kind == RmaKind::Post) ++posts_[source];
        if (kind == RmaKind::Complete) ++completes_;
      }
      changed_.notify_all();
      return;
    }
  }
  log::get("mpi")->warn("dropped a one-sided message of unknown kind {}", message.header.kind);
}

void Window::reply(const Envelope& request, int error, zmq::message_t&& payload) {
  sendTo(RmaKind::Reply, request.source, static_cast<uint32_t>(request.recvId), request.sendId, error, 0,
         std::move(payload));
}

void Window::noteOriginError(int origin, int code, const std::string& message) {
  auto& slot = originErrors_[static_cast<std::size_t>(origin)];
  if (slot.first == MPI_SUCCESS) slot = {code, message};
}

char* Window::targetAddress(int64_t offset, const TargetLayout& span) {
  if (flavor_ == Flavor::Dynamic) {
    const auto low = static_cast<uintptr_t>(offset + span.lowest);
    const auto high = static_cast<uintptr_t>(offset + span.highest);
    std::lock_guard guard(mutex_);
    for (const auto& [start, length] : attached_) {
      // A dynamic window's displacement is the absolute address (MPI_Get_address).
      // NOLINTNEXTLINE(performance-no-int-to-ptr)
      if (low >= start && high <= start + length) return reinterpret_cast<char*>(offset);
    }
    fail(MPI_ERR_RMA_RANGE,
         "target address range is not inside memory attached to the dynamic window of rank " + std::to_string(rank()));
  }
  if (offset + span.lowest < 0 || offset + span.highest > static_cast<int64_t>(size_)) {
    fail(MPI_ERR_RMA_RANGE, "target bytes " + std::to_string(offset + span.lowest) + ".." +
                                std::to_string(offset + span.highest) + " are beyond rank " + std::to_string(rank()) +
                                "'s window of " + std::to_string(size_) + " bytes");
  }
  return static_cast<char*>(base_) + offset;
}

void Window::accumulateAt(const OpHeader& header, std::span<const TypeBlock> blocks, std::size_t bytes,
                          const char* data, char* address) {
  const Op& op = opOfCode(header.op);
  if (op.handle() == MPI_NO_OP) return;
  if (op.handle() == MPI_REPLACE) return scatterPacked(blocks, data, address);
  const Datatype& element = elementType(static_cast<Primitive>(header.primitive));
  const std::size_t count = bytes / element.size();
  // Kernels load whole elements: give them the origin data at an aligned address.
  std::vector<char> aligned;
  if (reinterpret_cast<uintptr_t>(data) % alignof(std::max_align_t) != 0) {
    aligned.assign(data, data + bytes);
    data = aligned.data();
  }
  if (blocks.size() == 1) return op.applyPacked(data, address + blocks[0].offset, count, element);
  std::vector<char> scratch(bytes);
  gatherPacked(blocks, address, scratch.data());
  op.applyPacked(data, scratch.data(), count, element);
  scatterPacked(blocks, scratch.data(), address);
}

void Window::applyData(RmaKind kind, const Envelope& envelope, const zmq::message_t& payload) {
  const bool replies = kind == RmaKind::Get || kind == RmaKind::GetAccumulate || kind == RmaKind::CompareAndSwap;
  try {
    OpHeader header;
    if (payload.size() < sizeof header) fail(MPI_ERR_INTERN, "truncated one-sided operation");
    std::memcpy(&header, payload.data(), sizeof header);
    const std::size_t blockBytes = std::size_t{header.blockCount} * sizeof(WireBlock);
    if (payload.size() != sizeof header + blockBytes + header.dataBytes) {
      fail(MPI_ERR_INTERN, "one-sided operation of inconsistent size");
    }
    const char* in = payload.data<char>() + sizeof header;
    std::vector<TypeBlock> blocks(header.blockCount);
    for (TypeBlock& block : blocks) {
      WireBlock wire;
      std::memcpy(&wire, in, sizeof wire);
      in += sizeof wire;
      block = {static_cast<std::ptrdiff_t>(wire.offset), static_cast<std::size_t>(wire.length)};
    }
    const TargetLayout span(std::move(blocks));
    const std::size_t expectedData = kind == RmaKind::Get                                  ? 0
                                     : kind == RmaKind::CompareAndSwap                     ? 2 * span.bytes
                                     : kind == RmaKind::GetAccumulate && !header.dataBytes ? 0
                                                                                           : span.bytes;
    if (header.dataBytes != expectedData) fail(MPI_ERR_INTERN, "one-sided operation data and layout disagree");
    char* address = targetAddress(static_cast<int64_t>(envelope.totalBytes), span);
    zmq::message_t old;
    if (replies) {
      old.rebuild(span.bytes);
      gatherPacked(span.blocks(), address, old.data<char>());
    }
    switch (kind) {
      case RmaKind::Put:
        scatterPacked(span.blocks(), in, address);
        break;
      case RmaKind::Accumulate:
      case RmaKind::GetAccumulate:
        if (header.dataBytes > 0) accumulateAt(header, span.blocks(), span.bytes, in, address);
        break;
      case RmaKind::CompareAndSwap:
        if (std::memcmp(old.data(), in + span.bytes, span.bytes) == 0) scatterPacked(span.blocks(), in, address);
        break;
      default:
        break;
    }
    if (replies) reply(envelope, MPI_SUCCESS, std::move(old));
  } catch (const MpiError& error) {
    if (replies) return reply(envelope, error.code(), text(error.what()));
    noteOriginError(envelope.source, error.code(), error.what());
  } catch (const std::exception& error) {
    if (replies) return reply(envelope, MPI_ERR_INTERN, text(error.what()));
    noteOriginError(envelope.source, MPI_ERR_INTERN, error.what());
  }
}

void Window::onLockMessage(RmaKind kind, const Envelope& envelope) {
  const auto type = envelope.tag == MPI_LOCK_EXCLUSIVE ? LockManager::Type::Exclusive : LockManager::Type::Shared;
  std::vector<int> granted;
  if (kind == RmaKind::LockRequest) {
    lockReplyIds_[static_cast<std::size_t>(envelope.source)] = static_cast<uint32_t>(envelope.recvId);
    granted = lockManager_.request(envelope.source, type);
  } else {
    // Unlock doubles as a flush: every earlier operation from this origin has been applied.
    auto [code, what] =
        std::exchange(originErrors_[static_cast<std::size_t>(envelope.source)], {MPI_SUCCESS, std::string()});
    try {
      granted = lockManager_.release(envelope.source, type);
    } catch (const MpiError& error) {
      if (code == MPI_SUCCESS) std::tie(code, what) = std::pair<int, std::string>(error.code(), error.what());
    }
    reply(envelope, code, text(what));
  }
  for (int origin : granted) {
    // Addressed by the id the origin's request named: a request may arrive before this
    // rank has finished creating the window and learnt the peers' ids.
    sendTo(RmaKind::LockGranted, origin, lockReplyIds_[static_cast<std::size_t>(origin)], 0, 0, 0, zmq::message_t());
  }
}

}  // namespace zmpi::mpi::rma
