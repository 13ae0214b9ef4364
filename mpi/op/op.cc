#include "mpi/op/op.h"

#include <algorithm>
#include <climits>
#include <memory>

#include "mpi/core/error.h"

namespace zmpi::mpi {

Op::Op() { bindHandle(&handle_, HandleKind::Op, this); }

Op::~Op() { retireHandle(handle_.header); }

void Op::release() {
  if (refs_.fetch_sub(1) == 1 && !predefined_) delete this;
}

void Op::applyPacked(const void* in, void* inout, std::size_t count, const Datatype& type) const {
  if (count == 0 || type.size() == 0) return;
  if (type.contiguous()) return apply(in, inout, count, type);
  // Scratch memory spanning the data of `count` elements in user layout.
  const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(count - 1) * type.extent();
  const std::ptrdiff_t low = std::min<std::ptrdiff_t>(0, last) + type.trueLb();
  const std::ptrdiff_t high = std::max<std::ptrdiff_t>(0, last) + type.trueLb() + type.trueExtent();
  const auto span = static_cast<std::size_t>(high - low);
  std::unique_ptr<char[]> left(new char[span]);
  std::unique_ptr<char[]> right(new char[span]);
  const std::size_t bytes = count * type.size();
  type.unpack(in, bytes, left.get() - low);
  type.unpack(inout, bytes, right.get() - low);
  apply(left.get() - low, right.get() - low, count, type);
  type.pack(right.get() - low, count, inout);
}

Op* opOf(MPI_Op handle) {
  if (handle == MPI_OP_NULL) fail(MPI_ERR_OP, "op is MPI_OP_NULL");
  if (!isHandleOf(handle, HandleKind::Op) || implOf<Op>(handle) == nullptr) fail(MPI_ERR_OP, "invalid op");
  return implOf<Op>(handle);
}

UserOp::UserOp(MPI_User_function* function, bool commutative) : function_(function), commutative_(commutative) {
  name = "user-defined op";
}

void UserOp::apply(const void* in, void* inout, std::size_t count, const Datatype& type) const {
  MPI_Datatype handle = type.handle();
  const std::ptrdiff_t extent = type.extent();
  for (std::size_t done = 0; done < count;) {
    const int chunk = static_cast<int>(std::min<std::size_t>(count - done, INT_MAX));
    int length = chunk;  // the function may not change it, but it is the program's pointer
    const std::ptrdiff_t offset = static_cast<std::ptrdiff_t>(done) * extent;
    function_(const_cast<char*>(static_cast<const char*>(in)) + offset, static_cast<char*>(inout) + offset, &length,
              &handle);
    done += static_cast<std::size_t>(chunk);
  }
}

}  // namespace zmpi::mpi
