#include "mpi/datatype/external32.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "mpi/core/error.h"
#include "mpi/datatype/loc_pair.h"

namespace zmpi::mpi {
namespace {

__extension__ typedef __float128 Quad;

enum class Kind : uint8_t { Signed, Unsigned, Swap, LongDouble };

// One scalar inside a basic element: where it is in user memory, its native and
// external32 sizes, and how it converts.
struct Component {
  std::size_t offset;
  std::size_t native;
  std::size_t external;
  Kind kind;
};

struct Layout {
  std::array<Component, 2> parts;
  int count;  // 0: the kind has no external32 form
};

constexpr Layout one(std::size_t native, std::size_t external, Kind kind) {
  return {{{{0, native, external, kind}, {}}}, 1};
}

// Real and imaginary parts, each `half` bytes natively.
constexpr Layout complexOf(std::size_t half, std::size_t external, Kind kind) {
  return {{{{0, half, external, kind}, {half, half, external, kind}}}, 2};
}

template <typename Value, typename Index = int>
constexpr Layout pairOf(std::size_t external, Kind kind, std::size_t indexExternal = 4, Kind indexKind = Kind::Signed) {
  using Both = LocPair<Value, Index>;
  return {{{{0, sizeof(Value), external, kind}, {offsetof(Both, index), sizeof(Index), indexExternal, indexKind}}}, 2};
}

Layout layoutOf(Primitive p) {
  using P = Primitive;
  switch (p) {
    case P::Char:
    case P::SignedChar:
    case P::Int8:
      return one(1, 1, Kind::Signed);
    case P::UnsignedChar:
    case P::Byte:
    case P::Packed:
    case P::Bool:
    case P::Uint8:
      return one(1, 1, Kind::Unsigned);
    case P::Short:
    case P::Int16:
      return one(2, 2, Kind::Signed);
    case P::UnsignedShort:
    case P::Uint16:
      return one(2, 2, Kind::Unsigned);
    case P::Int:
    case P::Int32:
      return one(4, 4, Kind::Signed);
    case P::Unsigned:
    case P::Uint32:
      return one(4, 4, Kind::Unsigned);
    case P::Long:
      return one(sizeof(long), 4, Kind::Signed);
    case P::UnsignedLong:
      return one(sizeof(long), 4, Kind::Unsigned);
    case P::WChar:
      return one(sizeof(wchar_t), 2, Kind::Unsigned);
    case P::LongLong:
    case P::Int64:
    case P::Aint:
    case P::Offset:
    case P::Count:
      return one(8, 8, Kind::Signed);
    case P::UnsignedLongLong:
    case P::Uint64:
      return one(8, 8, Kind::Unsigned);
    case P::Float:
      return one(4, 4, Kind::Swap);
    case P::Double:
      return one(8, 8, Kind::Swap);
    case P::LongDouble:
      return one(sizeof(long double), 16, Kind::LongDouble);
    case P::FloatComplex:
      return complexOf(4, 4, Kind::Swap);
    case P::DoubleComplex:
      return complexOf(8, 8, Kind::Swap);
    case P::LongDoubleComplex:
      return complexOf(sizeof(long double), 16, Kind::LongDouble);
    case P::FloatInt:
      return pairOf<float>(4, Kind::Swap);
    case P::DoubleInt:
      return pairOf<double>(8, Kind::Swap);
    case P::LongInt:
      return pairOf<long>(4, Kind::Signed);
    case P::TwoInt:
      return pairOf<int>(4, Kind::Signed);
    case P::ShortInt:
      return pairOf<short>(2, Kind::Signed);
    case P::LongDoubleInt:
      return pairOf<long double>(16, Kind::LongDouble);
    case P::TwoFloat:
      return pairOf<float, float>(4, Kind::Swap, 4, Kind::Swap);
    case P::TwoDouble:
      return pairOf<double, double>(8, Kind::Swap, 8, Kind::Swap);
    case P::Int128:
      return one(16, 16, Kind::Swap);
    case P::Half:
      return one(2, 2, Kind::Swap);
    default:
      return {{}, 0};
  }
}

void reverseCopy(const unsigned char* from, unsigned char* to, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) to[i] = from[n - 1 - i];
}

// Native scalar -> big-endian external bytes.
void encode(const unsigned char* native, const Component& c, unsigned char* out) {
  if (c.kind == Kind::Swap) return reverseCopy(native, out, c.native);
  if (c.kind == Kind::LongDouble) {
    long double value;
    std::memcpy(&value, native, sizeof value);
    const Quad quad = static_cast<Quad>(value);
    return reverseCopy(reinterpret_cast<const unsigned char*>(&quad), out, sizeof quad);
  }
  uint64_t value = 0;  // little-endian host: the low bytes come first
  std::memcpy(&value, native, c.native);
  if (c.kind == Kind::Signed && c.native < 8 && (native[c.native - 1] & 0x80)) value |= ~uint64_t{0} << (8 * c.native);
  for (std::size_t i = 0; i < c.external; ++i) out[i] = static_cast<unsigned char>(value >> (8 * (c.external - 1 - i)));
}

// Big-endian external bytes -> native scalar.
void decode(const unsigned char* in, const Component& c, unsigned char* native) {
  if (c.kind == Kind::Swap) return reverseCopy(in, native, c.native);
  if (c.kind == Kind::LongDouble) {
    Quad quad;
    reverseCopy(in, reinterpret_cast<unsigned char*>(&quad), sizeof quad);
    const long double value = static_cast<long double>(quad);
    std::memcpy(native, &value, sizeof value);
    return;
  }
  uint64_t value = 0;
  for (std::size_t i = 0; i < c.external; ++i) value = (value << 8) | in[i];
  if (c.kind == Kind::Signed && c.external < 8 && (in[0] & 0x80)) value |= ~uint64_t{0} << (8 * c.external);
  std::memcpy(native, &value, c.native);
}

const Layout& requireLayout(Primitive p) {
  static const auto layouts = [] {
    std::array<Layout, kPrimitiveKinds> all{};
    for (std::size_t i = 0; i < kPrimitiveKinds; ++i) all[i] = layoutOf(static_cast<Primitive>(i));
    return all;
  }();
  const Layout& layout = layouts[static_cast<std::size_t>(p)];
  if (layout.count == 0)
    fail(MPI_ERR_TYPE, std::string("type has no external32 representation (") + primitiveName(p) + ")");
  return layout;
}

std::size_t externalSize(const Layout& layout) {
  std::size_t bytes = 0;
  for (int i = 0; i < layout.count; ++i) bytes += layout.parts[i].external;
  return bytes;
}

// Calls `visit(element address, layout)` for every basic element, in type-map order.
template <typename Visit>
void forEachElement(const Datatype& type, char* base, std::size_t count, Visit&& visit) {
  for (std::size_t i = 0; i < count; ++i) {
    char* element = base + static_cast<std::ptrdiff_t>(i) * type.extent();
    for (const PrimitiveRun& run : type.runs()) {
      const Layout& layout = requireLayout(run.primitive);
      const std::size_t stride = primitiveExtent(run.primitive);
      for (std::size_t k = 0; k < run.count; ++k) visit(element + run.offset + k * stride, layout);
    }
  }
}

}  // namespace

std::size_t external32Size(const Datatype& type, std::size_t count) {
  std::size_t perElement = 0;
  for (const PrimitiveRun& run : type.runs()) perElement += run.count * externalSize(requireLayout(run.primitive));
  return perElement * count;
}

void packExternal32(const Datatype& type, const void* base, std::size_t count, void* out) {
  auto* cursor = static_cast<unsigned char*>(out);
  forEachElement(type, const_cast<char*>(static_cast<const char*>(base)), count, [&](char* element, const Layout& l) {
    for (int i = 0; i < l.count; ++i) {
      encode(reinterpret_cast<unsigned char*>(element) + l.parts[i].offset, l.parts[i], cursor);
      cursor += l.parts[i].external;
    }
  });
}

void unpackExternal32(const Datatype& type, const void* in, std::size_t count, void* base) {
  const auto* cursor = static_cast<const unsigned char*>(in);
  forEachElement(type, static_cast<char*>(base), count, [&](char* element, const Layout& l) {
    for (int i = 0; i < l.count; ++i) {
      decode(cursor, l.parts[i], reinterpret_cast<unsigned char*>(element) + l.parts[i].offset);
      cursor += l.parts[i].external;
    }
  });
}

}  // namespace zmpi::mpi
