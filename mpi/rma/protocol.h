#pragma once
// The wire protocol of one-sided communication, carried as engine active messages (kinds
// 16..31, handled wherever the receiving engine delivers, normally its progress thread, so
// a target never has to call MPI for its window to be read or written).
//
// Completion rests on one property of the fabric: messages between a pair of ranks arrive
// in the order they were sent, whatever their kind. So puts and accumulates need no reply
// of their own: a Flush (or Unlock) sent after them is answered only once they have been
// applied, and a PSCW Complete reaches the target after every operation of the epoch.
//
// Envelope fields, for every kind:
//   context     the window's id in the *receiver's* registry (ids are exchanged at creation)
//   source      the sender's rank in the window's communicator
//   senderWorld the sender's world rank (where replies go)
//   sendId      the origin's request id, echoed by the Reply (Get, GetAccumulate,
//               CompareAndSwap, Flush, Unlock)
//   tag         lock type (LockRequest, Unlock); MPI error code (Reply)
//   totalBytes  target offset in bytes from the window base (absolute address for dynamic
//               windows) for the data kinds
// Data kinds start their payload with an OpHeader, then `blockCount` WireBlocks (the target
// layout, byte offsets from the target address), then the packed origin data.
#include <mpi.h>

#include <cstdint>

namespace zmpi::mpi {
class Op;
}

namespace zmpi::mpi::rma {

enum class RmaKind : uint16_t {
  Put = 16,             // data -> target memory; no reply
  Get = 17,             // Reply carries the target's bytes
  Accumulate = 18,      // target = data (op) target, element-wise; no reply
  GetAccumulate = 19,   // as Accumulate; Reply carries the target's bytes from before the op
  CompareAndSwap = 20,  // data = new value, then compare value; Reply carries the old value
  Flush = 21,           // Reply once every earlier operation from this origin was applied
  LockRequest = 22,     // answered by LockGranted, at once or when the lock frees
  LockGranted = 23,
  Unlock = 24,    // releases the lock; Reply as for Flush
  Post = 25,      // PSCW: the target's window is exposed to this origin
  Complete = 26,  // PSCW: this origin's access epoch on the target is over
  Reply = 27,
};
inline constexpr uint16_t kFirstRmaKind = 16;
inline constexpr uint16_t kLastRmaKind = 31;  // 28..31: reserved for one-sided use

inline constexpr uint16_t kindValue(RmaKind kind) { return static_cast<uint16_t>(kind); }

struct OpHeader {
  uint32_t blockCount = 0;
  uint8_t op = 0;         // opCode() of the accumulate op
  uint8_t primitive = 0;  // Primitive of the elements (accumulate kinds)
  uint16_t reserved = 0;
  uint64_t dataBytes = 0;  // packed bytes after the blocks (0 for Get)
};

struct WireBlock {
  int64_t offset;  // from the target address
  uint64_t length;
};

// Accumulate ops travel as an index into the predefined ops (the standard allows no user
// ops there), since handle addresses differ between processes.
uint8_t opCode(const Op& op);  // MPI_ERR_OP for user ops
const Op& opOfCode(uint8_t code);
bool isReplaceOrNoOp(const Op& op);

}  // namespace zmpi::mpi::rma
