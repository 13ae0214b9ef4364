#include "mpi/coll/layout.h"

#include <cstring>

namespace zmpi::mpi::coll {

std::vector<Part> uniformParts(const Datatype& type, std::size_t count, std::size_t parts) {
  std::vector<Part> out;
  out.reserve(parts);
  for (std::size_t i = 0; i < parts; ++i) {
    out.push_back({&type, count, static_cast<std::ptrdiff_t>(i * count) * type.extent()});
  }
  return out;
}

std::vector<Part> variableParts(const Datatype& type, const int* counts, const int* displacements, int parts) {
  std::vector<Part> out;
  out.reserve(static_cast<std::size_t>(parts));
  for (int i = 0; i < parts; ++i) {
    out.push_back(
        {&type, static_cast<std::size_t>(counts[i]), static_cast<std::ptrdiff_t>(displacements[i]) * type.extent()});
  }
  return out;
}

Area areaFor(Schedule& schedule, const void* base, const std::vector<Part>& parts) {
  Area area;
  area.direct = true;
  for (const Part& part : parts) {
    schedule.hold(const_cast<Datatype*>(part.type));
    if (part.count > 0 && !part.type->contiguous()) area.direct = false;
  }
  area.pieces.reserve(parts.size());
  if (area.direct) {
    area.data = static_cast<char*>(const_cast<void*>(base));
    for (const Part& part : parts) area.pieces.push_back({part.displacement, part.bytes()});
    return area;
  }
  std::size_t total = 0;
  for (const Part& part : parts) {
    area.pieces.push_back({static_cast<std::ptrdiff_t>(total), part.bytes()});
    total += part.bytes();
  }
  area.data = schedule.scratch(total);
  return area;
}

void pack(Schedule& schedule, const Area& area, const void* base, const std::vector<Part>& parts, int only) {
  if (area.direct) return;
  schedule.local([area, base, parts, only] {
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (only >= 0 && static_cast<std::size_t>(only) != i) continue;
      const Part& part = parts[i];
      if (part.count == 0) continue;
      part.type->pack(static_cast<const char*>(base) + part.displacement, part.count, area.at(i));
    }
  });
}

void unpack(Schedule& schedule, const Area& area, void* base, const std::vector<Part>& parts, int skip) {
  if (area.direct) return;
  schedule.local([area, base, parts, skip] {
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (skip >= 0 && static_cast<std::size_t>(skip) == i) continue;
      const Part& part = parts[i];
      if (part.count == 0) continue;
      part.type->unpack(area.at(i), part.bytes(), static_cast<char*>(base) + part.displacement);
    }
  });
}

void copyBytes(Schedule& schedule, const char* from, char* to, std::size_t bytes) {
  if (from == to || from == nullptr || to == nullptr || bytes == 0) return;
  schedule.local([from, to, bytes] { std::memcpy(to, from, bytes); });
}

}  // namespace zmpi::mpi::coll
