#include "mpi/coll/inter_buffers.h"

namespace zmpi::mpi::coll {

Outgoing outgoing(Schedule& s, const void* buffer, std::size_t count, const Datatype& type) {
  const std::size_t bytes = count * type.size();
  if (bytes == 0) return {nullptr, 0};
  if (type.contiguous()) return {static_cast<const char*>(buffer) + type.trueLb(), bytes};
  char* packed = s.scratch(bytes);
  type.pack(buffer, count, packed);
  return {packed, bytes};
}

Incoming incoming(Schedule& s, void* buffer, std::size_t count, const Datatype& type) {
  const std::size_t bytes = count * type.size();
  if (bytes == 0) return {nullptr, 0};
  if (type.contiguous()) return {static_cast<char*>(buffer) + type.trueLb(), bytes};
  s.hold(const_cast<Datatype*>(&type));  // the unpack may run after the program's Type_free
  return {s.scratch(bytes), bytes, buffer, &type};
}

void settle(Schedule& s, const std::vector<Incoming>& received) {
  std::vector<Incoming> staged;
  for (const Incoming& in : received) {
    if (in.buffer != nullptr) staged.push_back(in);
  }
  if (staged.empty()) return;
  s.local([staged = std::move(staged)] {
    for (const Incoming& in : staged) in.type->unpack(in.data, in.bytes, in.buffer);
  });
}

}  // namespace zmpi::mpi::coll
