#pragma once
// The basic element kinds a datatype is made of, and what zmpi needs to know about each:
// its packed size, its stride in user memory (the MAXLOC/MINLOC pair types carry the C
// compiler's padding, so the two differ), and a name for error messages.
#include <cstddef>
#include <cstdint>

namespace zmpi::mpi {

// The basic element kinds reduction kernels know. Pair kinds are the MAXLOC/MINLOC types.
// Fortran types map to the C kind of the same representation (MPI_INTEGER -> Int32, ...).
// clang-format off
enum class Primitive : uint8_t {
  None,  // MPI_DATATYPE_NULL, LB/UB markers
  Char, SignedChar, UnsignedChar, Byte, Short, UnsignedShort, Int, Unsigned, Long, UnsignedLong,
  LongLong, UnsignedLongLong, Float, Double, LongDouble, WChar, Bool, Int8, Int16, Int32, Int64,
  Uint8, Uint16, Uint32, Uint64, Aint, Offset, Count, FloatComplex, DoubleComplex, LongDoubleComplex,
  Packed,
  FloatInt, DoubleInt, LongInt, TwoInt, ShortInt, LongDoubleInt,
  TwoFloat, TwoDouble,  // MPI_2REAL, MPI_2DOUBLE_PRECISION: Fortran's MAXLOC/MINLOC pairs
  Int128,               // MPI_INTEGER16
  Half,                 // MPI_REAL2: moved and packed, not reduced
  Mixed,
};
// clang-format on

inline constexpr std::size_t kPrimitiveKinds = static_cast<std::size_t>(Primitive::Mixed) + 1;

struct PrimitiveTraits {
  std::size_t size;    // packed bytes of one element
  std::size_t extent;  // bytes from one element to the next in user memory
  const char* name;
};

// Traits of `p`; None and Mixed have size and extent 0.
const PrimitiveTraits& traitsOf(Primitive p);
inline std::size_t primitiveSize(Primitive p) { return traitsOf(p).size; }
inline std::size_t primitiveExtent(Primitive p) { return traitsOf(p).extent; }
inline const char* primitiveName(Primitive p) { return traitsOf(p).name; }

}  // namespace zmpi::mpi
