// The origin side of Put, Get, Accumulate, Get_accumulate and Compare_and_swap: checks,
// packing, and either a direct copy (target memory mapped here) or one active message.
#include <cerrno>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "mpi/core/envelope.h"
#include "mpi/core/error.h"
#include "mpi/core/scratch_bytes.h"
#include "mpi/core/world.h"
#include "mpi/op/op.h"
#include "mpi/rma/attach_table.h"
#include "mpi/rma/host_locks.h"
#include "mpi/rma/target_layout.h"
#include "mpi/rma/window.h"
#include "transport/log.h"
#include "transport/process_memory.h"

namespace zmpi::mpi::rma {
namespace {

std::size_t bytesOf(const Buffer& buffer) { return static_cast<std::size_t>(buffer.count) * buffer.type->size(); }

void requireSameBytes(std::size_t origin, const TargetLayout& layout, const char* what) {
  if (origin != layout.bytes) {
    fail(MPI_ERR_TYPE, std::string(what) + ": the origin buffer holds " + std::to_string(origin) +
                           " bytes but the target datatype and count describe " + std::to_string(layout.bytes));
  }
}

// The basic element type an accumulate combines. MPI 3.1 section 11.3.4: origin and
// target are built from one predefined type (MPI_REPLACE and MPI_NO_OP take any type).
Primitive accumulatePrimitive(const Datatype* origin, const Datatype& target, const Op& op) {
  if (isReplaceOrNoOp(op)) return Primitive::Byte;
  const Primitive p = target.primitive();
  if (p == Primitive::Mixed || p == Primitive::None) {
    fail(MPI_ERR_TYPE, "accumulate needs a target datatype built from a single predefined type");
  }
  if (origin != nullptr && origin->size() > 0 && origin->primitive() != p) {
    fail(MPI_ERR_TYPE, std::string("accumulate: the origin datatype's elements (") +
                           primitiveName(origin->primitive()) + ") differ from the target's (" + primitiveName(p) +
                           ")");
  }
  return p;
}

void copyIn(const Buffer& origin, const TargetLayout& layout, char* address) {
  if (origin.type->contiguous() && layout.blocks().size() == 1) {
    std::memcpy(address + layout.blocks()[0].offset, origin.data, layout.bytes);
    return;
  }
  ScratchBytes<256> packed(layout.bytes);
  origin.type->pack(origin.data, static_cast<std::size_t>(origin.count), packed.data());
  scatterPacked(layout.blocks(), packed.data(), address);
}

void copyOut(const char* address, const TargetLayout& layout, void* origin, const Datatype& type) {
  if (type.contiguous() && layout.blocks().size() == 1) {
    std::memcpy(origin, address + layout.blocks()[0].offset, layout.bytes);
    return;
  }
  ScratchBytes<256> packed(layout.bytes);
  gatherPacked(layout.blocks(), address, packed.data());
  type.unpack(packed.data(), layout.bytes, origin);
}

}  // namespace

void Window::requireAccess(int target, const char* what) {
  if (target < 0 || target >= size()) {
    fail(MPI_ERR_RANK, std::string(what) + ": target rank " + std::to_string(target) + " is not in the window (size " +
                           std::to_string(size()) + ")");
  }
  if (openToAll_.load(std::memory_order_acquire)) return;  // a fence or lock_all epoch
  std::lock_guard guard(mutex_);
  const auto t = static_cast<std::size_t>(target);
  if (fenceEpoch_ || lockAll_ || locks_[t] != LockState::None || inAccessGroup_[t]) return;
  fail(MPI_ERR_RMA_SYNC, std::string(what) + " to rank " + std::to_string(target) +
                             " outside an access epoch (no MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or "
                             "MPI_Win_start covers it)");
}

int64_t Window::targetOffset(int target, MPI_Aint disp, const TargetLayout& layout, const char* what) {
  if (flavor_ == Flavor::Dynamic) return static_cast<int64_t>(disp);  // an address; the target checks it
  const PeerWindow& p = peer(target);
  const int64_t offset = static_cast<int64_t>(disp) * p.dispUnit;
  if (layout.bytes > 0 && (offset + layout.lowest < 0 || offset + layout.highest > static_cast<int64_t>(p.size))) {
    fail(MPI_ERR_RMA_RANGE, std::string(what) + ": target displacement " + std::to_string(disp) + " (bytes " +
                                std::to_string(offset + layout.lowest) + ".." +
                                std::to_string(offset + layout.highest) + ") is beyond rank " + std::to_string(target) +
                                "'s window of " + std::to_string(p.size) + " bytes");
  }
  return offset;
}

char* Window::directAddress(int target, int64_t offset) const {
  char* memory = direct_[static_cast<std::size_t>(target)];
  return memory == nullptr ? nullptr : memory + offset;
}

uint64_t Window::expectReply(int target, void* buffer, std::size_t count, const Datatype* type) {
  if (type != nullptr) const_cast<Datatype*>(type)->retain();
  std::lock_guard guard(mutex_);
  const uint64_t id = nextRequestId_++;
  pending_[id] = PendingReply{target, buffer, count, type};
  ++pendingPerTarget_[static_cast<std::size_t>(target)];
  return id;
}

void Window::sendTo(RmaKind kind, int target, uint32_t windowId, uint64_t requestId, int tag, uint64_t offset,
                    zmq::message_t&& payload) {
  Envelope envelope;
  envelope.context = static_cast<int32_t>(windowId);
  envelope.source = rank();
  envelope.tag = tag;
  envelope.senderWorld = world_.rank();
  envelope.sendId = requestId;
  envelope.recvId = id_;  // where the receiver's replies go
  envelope.totalBytes = offset;
  world_.engine().sendActiveMessage(comm_->worldRankOf(target), kindValue(kind), envelope, std::move(payload));
}

void Window::send(RmaKind kind, int target, uint64_t requestId, int tag, uint64_t offset, zmq::message_t&& payload) {
  sendTo(kind, target, peer(target).id, requestId, tag, offset, std::move(payload));
}

void Window::sendData(RmaKind kind, int target, int64_t offset, uint64_t requestId, const TargetLayout& layout,
                      uint8_t op, uint8_t primitive, std::span<const Buffer> parts) {
  OpHeader header;
  header.blockCount = static_cast<uint32_t>(layout.blocks().size());
  header.op = op;
  header.primitive = primitive;
  for (const Buffer& part : parts) header.dataBytes += bytesOf(part);
  const std::size_t blockBytes = layout.blocks().size() * sizeof(WireBlock);
  zmq::message_t payload(sizeof header + blockBytes + header.dataBytes);
  char* out = payload.data<char>();
  std::memcpy(out, &header, sizeof header);
  out += sizeof header;
  for (const TypeBlock& block : layout.blocks()) {
    const WireBlock wire{static_cast<int64_t>(block.offset), static_cast<uint64_t>(block.length)};
    std::memcpy(out, &wire, sizeof wire);
    out += sizeof wire;
  }
  for (const Buffer& part : parts) {
    part.type->pack(part.data, static_cast<std::size_t>(part.count), out);
    out += bytesOf(part);
  }
  if (requestId == 0) {
    std::lock_guard guard(mutex_);
    dirty_[static_cast<std::size_t>(target)] = 1;
  }
  send(kind, target, requestId, 0, static_cast<uint64_t>(offset), std::move(payload));
}

void Window::put(Buffer origin, int target, MPI_Aint disp, int targetCount, const Datatype& targetType) {
  if (target == MPI_PROC_NULL) return;
  requireAccess(target, "MPI_Put");
  const TargetLayout layout = layoutOf(targetType, static_cast<std::size_t>(targetCount));
  requireSameBytes(bytesOf(origin), layout, "MPI_Put");
  const int64_t offset = targetOffset(target, disp, layout, "MPI_Put");
  if (layout.bytes == 0) return;
  if (char* address = directAddress(target, offset)) return copyIn(origin, layout, address);
  if (inProcessMemory(target, offset, layout, "MPI_Put")) {
    if (origin.type->contiguous()) return writeProcess(target, offset, layout, static_cast<const char*>(origin.data));
    ScratchBytes<256> packed(layout.bytes);
    origin.type->pack(origin.data, static_cast<std::size_t>(origin.count), packed.data());
    return writeProcess(target, offset, layout, packed.data());
  }
  const Buffer parts[] = {origin};
  sendData(RmaKind::Put, target, offset, 0, layout, 0, 0, parts);
}

void Window::get(void* origin, int originCount, const Datatype& originType, int target, MPI_Aint disp, int targetCount,
                 const Datatype& targetType) {
  if (target == MPI_PROC_NULL) return;
  requireAccess(target, "MPI_Get");
  const TargetLayout layout = layoutOf(targetType, static_cast<std::size_t>(targetCount));
  requireSameBytes(static_cast<std::size_t>(originCount) * originType.size(), layout, "MPI_Get");
  const int64_t offset = targetOffset(target, disp, layout, "MPI_Get");
  if (layout.bytes == 0) return;
  if (char* address = directAddress(target, offset)) return copyOut(address, layout, origin, originType);
  if (inProcessMemory(target, offset, layout, "MPI_Get")) {
    if (originType.contiguous()) return readProcess(target, offset, layout, static_cast<char*>(origin));
    ScratchBytes<256> packed(layout.bytes);
    readProcess(target, offset, layout, packed.data());
    originType.unpack(packed.data(), layout.bytes, origin);
    return;
  }
  const uint64_t id = expectReply(target, origin, static_cast<std::size_t>(originCount), &originType);
  sendData(RmaKind::Get, target, offset, id, layout, 0, 0, {});
}

void Window::accumulate(Buffer origin, int target, MPI_Aint disp, int targetCount, const Datatype& targetType,
                        const Op& op) {
  if (target == MPI_PROC_NULL) return;
  requireAccess(target, "MPI_Accumulate");
  const uint8_t code = opCode(op);
  const Primitive primitive = accumulatePrimitive(origin.type, targetType, op);
  const TargetLayout layout = layoutOf(targetType, static_cast<std::size_t>(targetCount));
  requireSameBytes(bytesOf(origin), layout, "MPI_Accumulate");
  const int64_t offset = targetOffset(target, disp, layout, "MPI_Accumulate");
  if (layout.bytes == 0 || op.handle() == MPI_NO_OP) return;
  const Buffer parts[] = {origin};
  if (appliesHere(target, offset, layout, "MPI_Accumulate")) {
    return applyDirect(RmaKind::Accumulate, target, offset, layout, code, static_cast<uint8_t>(primitive), parts,
                       nullptr, nullptr);
  }
  // Even on mapped memory, unless every origin applies them under the target's accumulate
  // mutex: the target applies them one at a time, which makes them atomic with respect to
  // each other.
  sendData(RmaKind::Accumulate, target, offset, 0, layout, code, static_cast<uint8_t>(primitive), parts);
}

void Window::getAccumulate(Buffer origin, void* result, int resultCount, const Datatype& resultType, int target,
                           MPI_Aint disp, int targetCount, const Datatype& targetType, const Op& op) {
  if (target == MPI_PROC_NULL) return;
  requireAccess(target, "MPI_Get_accumulate");
  const uint8_t code = opCode(op);
  const bool noOp = op.handle() == MPI_NO_OP;
  const Primitive primitive = accumulatePrimitive(noOp ? nullptr : origin.type, targetType, op);
  const TargetLayout layout = layoutOf(targetType, static_cast<std::size_t>(targetCount));
  if (!noOp) requireSameBytes(bytesOf(origin), layout, "MPI_Get_accumulate");
  requireSameBytes(static_cast<std::size_t>(resultCount) * resultType.size(), layout, "MPI_Get_accumulate (result)");
  const int64_t offset = targetOffset(target, disp, layout, "MPI_Get_accumulate");
  if (layout.bytes == 0) return;
  const Buffer parts[] = {origin};
  const std::span<const Buffer> data = noOp ? std::span<const Buffer>() : std::span<const Buffer>(parts);
  if (appliesHere(target, offset, layout, "MPI_Get_accumulate")) {
    return applyDirect(RmaKind::GetAccumulate, target, offset, layout, code, static_cast<uint8_t>(primitive), data,
                       result, &resultType);
  }
  const uint64_t id = expectReply(target, result, static_cast<std::size_t>(resultCount), &resultType);
  sendData(RmaKind::GetAccumulate, target, offset, id, layout, code, static_cast<uint8_t>(primitive), data);
}

void Window::compareAndSwap(const void* origin, const void* compare, void* result, const Datatype& type, int target,
                            MPI_Aint disp) {
  if (target == MPI_PROC_NULL) return;
  requireAccess(target, "MPI_Compare_and_swap");
  if (!type.predefined() || type.primitive() == Primitive::Mixed || type.primitive() == Primitive::None) {
    fail(MPI_ERR_TYPE, "MPI_Compare_and_swap needs a predefined datatype");
  }
  const TargetLayout layout = layoutOf(type, 1);
  const int64_t offset = targetOffset(target, disp, layout, "MPI_Compare_and_swap");
  const Buffer parts[] = {{origin, 1, &type}, {compare, 1, &type}};
  if (appliesHere(target, offset, layout, "MPI_Compare_and_swap")) {
    return applyDirect(RmaKind::CompareAndSwap, target, offset, layout, 0, static_cast<uint8_t>(type.primitive()),
                       parts, result, &type);
  }
  const uint64_t id = expectReply(target, result, 1, &type);
  sendData(RmaKind::CompareAndSwap, target, offset, id, layout, 0, static_cast<uint8_t>(type.primitive()), parts);
}

void Window::applyDirect(RmaKind kind, int target, int64_t offset, const TargetLayout& layout, uint8_t op,
                         uint8_t primitive, std::span<const Buffer> parts, void* result, const Datatype* resultType) {
  OpHeader header;
  header.op = op;
  header.primitive = primitive;
  for (const Buffer& part : parts) header.dataBytes += bytesOf(part);
  // Packed before the mutex is taken, so that it is held for the combine alone.
  ScratchBytes<256> data(header.dataBytes);
  char* out = data.data();
  for (const Buffer& part : parts) {
    part.type->pack(part.data, static_cast<std::size_t>(part.count), out);
    out += bytesOf(part);
  }
  ScratchBytes<256> old(result != nullptr ? layout.bytes : 0);
  char* address = directAddress(target, offset);
  {
    HostLocks::AccumulateGuard serial(*hostLocks_, target);
    if (address != nullptr) {
      if (result != nullptr) gatherPacked(layout.blocks(), address, old.data());
      if (kind == RmaKind::CompareAndSwap) {
        if (std::memcmp(old.data(), data.data() + layout.bytes, layout.bytes) == 0) {
          scatterPacked(layout.blocks(), data.data(), address);
        }
      } else if (header.dataBytes > 0) {
        accumulateAt(header, layout.blocks(), layout.bytes, data.data(), address);
      }
    } else {
      // In the target's process: read, combine here, write back (under the same mutex).
      ScratchBytes<256> current(layout.bytes);
      readProcess(target, offset, layout, current.data());
      if (result != nullptr) std::memcpy(old.data(), current.data(), layout.bytes);
      if (kind == RmaKind::CompareAndSwap) {
        if (std::memcmp(current.data(), data.data() + layout.bytes, layout.bytes) == 0) {
          writeProcess(target, offset, layout, data.data());
        }
      } else if (header.dataBytes > 0 && opOfCode(op).handle() != MPI_NO_OP) {
        const TypeBlock whole[] = {{0, layout.bytes}};
        accumulateAt(header, whole, layout.bytes, data.data(), current.data());
        writeProcess(target, offset, layout, current.data());
      }
    }
  }
  if (result != nullptr) resultType->unpack(old.data(), layout.bytes, result);
}

bool Window::appliesHere(int target, int64_t offset, const TargetLayout& layout, const char* what) {
  return directAccumulate_ &&
         (directAddress(target, offset) != nullptr || inProcessMemory(target, offset, layout, what));
}

bool Window::inProcessMemory(int target, int64_t offset, const TargetLayout& layout, const char* what) {
  if (processOf(target) == 0) return false;
  if (!attachTables_) return true;
  const auto low = static_cast<uint64_t>(offset + layout.lowest);
  const auto high = static_cast<uint64_t>(offset + layout.highest);
  switch (attachTables_->find(target, low, high)) {
    case AttachTables::Lookup::Inside:
      return true;
    case AttachTables::Lookup::Unknown:
      return false;  // the target checks it
    case AttachTables::Lookup::Outside:
      break;
  }
  fail(MPI_ERR_RMA_RANGE, std::string(what) + ": target addresses " + std::to_string(low) + ".." +
                              std::to_string(high) + " are not inside memory attached to rank " +
                              std::to_string(target) + "'s dynamic window");
}

namespace {

std::vector<transport::RemotePiece> piecesOf(uint64_t base, int64_t offset, const TargetLayout& layout) {
  std::vector<transport::RemotePiece> pieces;
  pieces.reserve(layout.blocks().size());
  for (const TypeBlock& block : layout.blocks()) {
    pieces.push_back({base + static_cast<uint64_t>(offset + block.offset), block.length});
  }
  return pieces;
}

[[noreturn]] void failProcessAccess(const char* what, int target, int pid) {
  fail(MPI_ERR_RMA_RANGE, std::string(what) + " rank " + std::to_string(target) + "'s window memory in process " +
                              std::to_string(pid) + " failed: " + std::strerror(errno));
}

}  // namespace

void Window::readProcess(int target, int64_t offset, const TargetLayout& layout, char* packed) {
  const int pid = processOf(target);
  const auto pieces = piecesOf(peer(target).base, offset, layout);
  if (!transport::readProcessPieces(pid, pieces.data(), pieces.size(), packed)) {
    failProcessAccess("reading", target, pid);
  }
}

void Window::writeProcess(int target, int64_t offset, const TargetLayout& layout, const char* packed) {
  const int pid = processOf(target);
  const auto pieces = piecesOf(peer(target).base, offset, layout);
  if (!transport::writeProcessPieces(pid, pieces.data(), pieces.size(), packed)) {
    failProcessAccess("writing", target, pid);
  }
}

void Window::onReply(const Envelope& envelope, zmq::message_t& payload) {
  PendingReply entry;
  {
    std::lock_guard guard(mutex_);
    auto it = pending_.find(envelope.sendId);
    if (it == pending_.end()) {
      log::get("mpi")->warn("one-sided reply for unknown request {} from rank {}", envelope.sendId, envelope.source);
      return;
    }
    entry = it->second;
    pending_.erase(it);
  }
  const int error = envelope.tag;
  if (error == MPI_SUCCESS && entry.buffer != nullptr) {
    const std::size_t expected = entry.count * entry.type->size();
    entry.type->unpack(payload.data(), std::min(expected, payload.size()), entry.buffer);
  }
  if (entry.type != nullptr) const_cast<Datatype*>(entry.type)->release();
  {
    std::lock_guard guard(mutex_);
    --pendingPerTarget_[static_cast<std::size_t>(entry.target)];
    if (error != MPI_SUCCESS && deferredError_ == MPI_SUCCESS) {
      deferredError_ = error;
      deferredMessage_.assign(payload.data<char>(), payload.size());
    }
  }
  changed_.notify_all();
}

}  // namespace zmpi::mpi::rma
