#pragma once
// A reduction's operands as they sit in memory: `count` elements of a datatype, one
// extent apart. Reductions never pack: they move the native-layout *span* of a range of
// elements (from the first element's true lower bound to the last one's true upper bound)
// and let Op::apply combine elements where they lie. The buffers algorithms see are span
// pointers: the address of the span's first byte (user buffer + true lower bound), so
// scratch memory of spanBytes() holds a full operand. Gap bytes inside a span travel
// along; they are never copied into a program's buffer (copyElements skips them).
#include <cstddef>

#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

namespace zmpi::mpi::coll {

class Reduction {
 public:
  Reduction(const Op& op, const Datatype& type, std::size_t count);

  const Op& op() const { return *op_; }
  const Datatype& type() const { return *type_; }
  std::size_t count() const { return count_; }
  bool commutative() const { return op_->commutative(); }

  // Bytes spanned by `elements` consecutive elements, and by the whole operand.
  std::size_t spanBytes(std::size_t elements) const;
  std::size_t bytes() const { return spanBytes(count_); }
  // The span pointer of a program buffer, and back.
  char* spanOf(void* buffer) const { return static_cast<char*>(buffer) + lo_; }
  const char* spanOf(const void* buffer) const { return static_cast<const char*>(buffer) + lo_; }

  // True when ranges of elements occupy disjoint byte ranges (extent >= true extent > 0),
  // so an operand can be cut into chunks that travel and combine separately.
  bool splittable() const { return splittable_; }
  // Byte offset of element `index` from the span pointer (splittable types only).
  std::size_t offsetOf(std::size_t index) const { return index * extent_; }
  // Elements a reduction receives and combines at a time when transfers travel in pieces
  // of `segmentBytes` (Schedule::segmentBytes): kCombinePieces pieces' worth, one element
  // at least; the whole operand when `segmentBytes` is 0 or the type cannot be split. Each
  // such step is a round of its own (combine, then the next), so a few pieces per step
  // keep the window of pieces (pieces.h) busy while scratch stays small.
  static constexpr std::size_t kCombinePieces = 4;
  std::size_t pieceElements(std::size_t segmentBytes) const;

  // inout = in (op) inout over `elements` elements, `in` the left operand (as
  // MPI_Reduce_local): both are span pointers to the first of those elements.
  void combine(const char* in, char* inout, std::size_t elements) const;
  // Copies `elements` elements' bytes from span `from` to span `to`, leaving the bytes
  // between elements alone (they may be the program's other data).
  void copyElements(const char* from, char* to, std::size_t elements) const;

 private:
  const Op* op_;
  const Datatype* type_;
  std::size_t count_;
  std::ptrdiff_t extent_;
  std::ptrdiff_t lo_;  // true lower bound of the span relative to the buffer address
  bool splittable_;
};

// Splits `count` elements into `parts` nearly equal consecutive chunks: chunk i is
// [chunkStart(i), chunkStart(i + 1)).
inline std::size_t chunkStart(std::size_t count, std::size_t parts, std::size_t i) { return count * i / parts; }

}  // namespace zmpi::mpi::coll
