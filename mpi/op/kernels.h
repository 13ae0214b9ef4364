#pragma once
// The reduction kernels: one template per op, instantiated per basic C type. Each is a
// plain loop over `n` elements that the compiler vectorises; the (op, type) dispatch
// happens once per call, outside (op/predefined.cc). inout[i] = in[i] (op) inout[i].
#include <mpi.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "mpi/datatype/loc_pair.h"
#include "mpi/datatype/primitive.h"

namespace zmpi::mpi::kernels {

// The build's -O2 (RelWithDebInfo) runs GCC's vectoriser with its "very cheap" cost model,
// which skips loops of unknown trip count, i.e. every kernel here. The kernels ask for
// full vectorisation themselves; clang vectorises them at -O2 as they are.
#if defined(__GNUC__) && !defined(__clang__)
#define ZMPI_VECTORIZE [[gnu::optimize("tree-vectorize")]]
#else
#define ZMPI_VECTORIZE
#endif

// Reduces `n` consecutive elements (one basic kind, in its memory or packed layout).
using Kernel = void (*)(const void* in, void* inout, std::size_t n);

__extension__ typedef __int128 Int128;

// The C type behind each basic kind that ops reduce.
template <Primitive P>
struct CType;
#define ZMPI_CTYPE(kind, ...)     \
  template <>                     \
  struct CType<Primitive::kind> { \
    using type = __VA_ARGS__;     \
  }
ZMPI_CTYPE(Char, char);
ZMPI_CTYPE(SignedChar, signed char);
ZMPI_CTYPE(UnsignedChar, unsigned char);
ZMPI_CTYPE(Byte, unsigned char);
ZMPI_CTYPE(Short, short);
ZMPI_CTYPE(UnsignedShort, unsigned short);
ZMPI_CTYPE(Int, int);
ZMPI_CTYPE(Unsigned, unsigned);
ZMPI_CTYPE(Long, long);
ZMPI_CTYPE(UnsignedLong, unsigned long);
ZMPI_CTYPE(LongLong, long long);
ZMPI_CTYPE(UnsignedLongLong, unsigned long long);
ZMPI_CTYPE(Float, float);
ZMPI_CTYPE(Double, double);
ZMPI_CTYPE(LongDouble, long double);
ZMPI_CTYPE(WChar, wchar_t);
ZMPI_CTYPE(Bool, bool);
ZMPI_CTYPE(Int8, int8_t);
ZMPI_CTYPE(Int16, int16_t);
ZMPI_CTYPE(Int32, int32_t);
ZMPI_CTYPE(Int64, int64_t);
ZMPI_CTYPE(Uint8, uint8_t);
ZMPI_CTYPE(Uint16, uint16_t);
ZMPI_CTYPE(Uint32, uint32_t);
ZMPI_CTYPE(Uint64, uint64_t);
ZMPI_CTYPE(Aint, MPI_Aint);
ZMPI_CTYPE(Offset, MPI_Offset);
ZMPI_CTYPE(Count, MPI_Count);
ZMPI_CTYPE(Int128, Int128);
ZMPI_CTYPE(FloatComplex, std::complex<float>);
ZMPI_CTYPE(DoubleComplex, std::complex<double>);
ZMPI_CTYPE(LongDoubleComplex, std::complex<long double>);
#undef ZMPI_CTYPE

struct Max {
  template <typename T>
  T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};
struct Min {
  template <typename T>
  T operator()(T a, T b) const {
    return a < b ? a : b;
  }
};
// Arithmetic on small integers promotes to int; the result wraps back into T, as in C.
struct Sum {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a + b);
  }
};
struct Prod {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a * b);
  }
};
struct LogicalAnd {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a != T{} && b != T{});
  }
};
struct LogicalOr {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a != T{} || b != T{});
  }
};
struct LogicalXor {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>((a != T{}) != (b != T{}));
  }
};
struct BitAnd {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
struct BitOr {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};
struct BitXor {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

template <typename T, typename F>
ZMPI_VECTORIZE void elementwise(const void* in, void* inout, std::size_t n) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (std::size_t i = 0; i < n; ++i) b[i] = F{}(a[i], b[i]);
}

// MAXLOC / MINLOC: the better value wins; on a tie, the lower index (MPI 3.1 section 5.9.4).
template <typename V, typename I, bool IsMax>
inline void locCombine(V x, I xi, V& y, I& yi) {
  const bool take = IsMax ? x > y : x < y;
  const bool tie = x == y;
  yi = take ? xi : (tie && xi < yi ? xi : yi);
  y = take ? x : y;
}

// Pairs as C lays them out in user memory, padding included.
template <typename V, typename I, bool IsMax>
ZMPI_VECTORIZE void locMemory(const void* in, void* inout, std::size_t n) {
  using Pair = LocPair<V, I>;
  const Pair* __restrict a = static_cast<const Pair*>(in);
  Pair* __restrict b = static_cast<Pair*>(inout);
  for (std::size_t i = 0; i < n; ++i) locCombine<V, I, IsMax>(a[i].value, a[i].index, b[i].value, b[i].index);
}

// Pairs packed back to back (value then index, no padding, possibly unaligned).
template <typename V, typename I, bool IsMax>
void locPacked(const void* in, void* inout, std::size_t n) {
  constexpr std::size_t stride = sizeof(V) + sizeof(I);
  const char* a = static_cast<const char*>(in);
  char* b = static_cast<char*>(inout);
  for (std::size_t i = 0; i < n; ++i, a += stride, b += stride) {
    V x, y;
    I xi, yi;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&xi, a + sizeof x, sizeof xi);
    std::memcpy(&y, b, sizeof y);
    std::memcpy(&yi, b + sizeof y, sizeof yi);
    locCombine<V, I, IsMax>(x, xi, y, yi);
    std::memcpy(b, &y, sizeof y);
    std::memcpy(b + sizeof y, &yi, sizeof yi);
  }
}

}  // namespace zmpi::mpi::kernels
