// Every predefined op on every type it applies to, against a reference computed element by
// element here; and the combinations the standard rules out fail with MPI_ERR_OP.
#include <algorithm>
#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "mpi/abi/predefined_objects.h"
#include "mpi/core/error.h"
#include "mpi/datatype/predefined.h"
#include "mpi/op/op.h"
#include "mpi/op/predefined.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

__extension__ typedef __int128 Int128;

// Not a multiple of any vector width, so the loops' scalar tails run too.
constexpr std::size_t kElements = 37;

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

// Small values (no overflow in SUM/PROD even for int8), with zeros for the logical ops
// and repeats for MAX/MIN ties.
template <typename T>
T sample(std::size_t i, int salt) {
  const long v = static_cast<long>((i * static_cast<std::size_t>(2 * salt + 3)) % 9);
  if constexpr (IsComplex<T>::value) {
    using Part = typename T::value_type;
    return T(static_cast<Part>(v - 4), static_cast<Part>(static_cast<long>(i % 3) - 1));
  } else if constexpr (std::is_same_v<T, bool>) {
    return v % 3 == 0;
  } else if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T> || std::is_same_v<T, Int128>) {
    return static_cast<T>(v - 4);
  } else {
    return static_cast<T>(v);
  }
}

template <typename T, typename F>
void expectOp(MPI_Op opHandle, MPI_Datatype typeHandle, F reference) {
  T in[kElements], inout[kElements], expected[kElements];
  for (std::size_t i = 0; i < kElements; ++i) {
    in[i] = sample<T>(i, 1);
    inout[i] = sample<T>(i, 2);
    expected[i] = reference(in[i], inout[i]);
  }
  op(opHandle).apply(in, inout, kElements, basic(typeHandle));
  // The argument check's shortcut (capi opArg) must know what apply accepts.
  if (opHandle != MPI_REPLACE && opHandle != MPI_NO_OP) CHECK(op(opHandle).knownToAccept(basic(typeHandle)));
  int wrong = 0;
  for (std::size_t i = 0; i < kElements; ++i) wrong += !(inout[i] == expected[i]);
  INFO(op(opHandle).name << " on " << basic(typeHandle).name);
  CHECK(wrong == 0);
}

int errorOf(MPI_Op opHandle, MPI_Datatype typeHandle, std::string* text = nullptr) {
  char in[64] = {}, inout[64] = {};
  try {
    op(opHandle).apply(in, inout, 1, basic(typeHandle));
  } catch (const MpiError& error) {
    if (text) *text = error.what();
    CHECK_FALSE(op(opHandle).knownToAccept(basic(typeHandle)));  // opArg then tries apply
    return error.code();
  }
  return MPI_SUCCESS;
}

template <typename T>
void minMaxOps(MPI_Datatype t) {
  expectOp<T>(MPI_MAX, t, [](T a, T b) { return a > b ? a : b; });
  expectOp<T>(MPI_MIN, t, [](T a, T b) { return a < b ? a : b; });
}

template <typename T>
void arithmeticOps(MPI_Datatype t) {
  expectOp<T>(MPI_SUM, t, [](T a, T b) { return static_cast<T>(a + b); });
  expectOp<T>(MPI_PROD, t, [](T a, T b) { return static_cast<T>(a * b); });
}

template <typename T>
void logicalOps(MPI_Datatype t) {
  expectOp<T>(MPI_LAND, t, [](T a, T b) { return static_cast<T>(a != T{} && b != T{}); });
  expectOp<T>(MPI_LOR, t, [](T a, T b) { return static_cast<T>(a != T{} || b != T{}); });
  expectOp<T>(MPI_LXOR, t, [](T a, T b) { return static_cast<T>((a != T{}) != (b != T{})); });
}

template <typename T>
void bitOps(MPI_Datatype t) {
  expectOp<T>(MPI_BAND, t, [](T a, T b) { return static_cast<T>(a & b); });
  expectOp<T>(MPI_BOR, t, [](T a, T b) { return static_cast<T>(a | b); });
  expectOp<T>(MPI_BXOR, t, [](T a, T b) { return static_cast<T>(a ^ b); });
}

template <typename T>
void replaceOps(MPI_Datatype t) {
  expectOp<T>(MPI_REPLACE, t, [](T a, T) { return a; });
  expectOp<T>(MPI_NO_OP, t, [](T, T b) { return b; });
}

template <typename T>
void integerOps(MPI_Datatype t) {
  minMaxOps<T>(t);
  arithmeticOps<T>(t);
  logicalOps<T>(t);
  bitOps<T>(t);
  replaceOps<T>(t);
}

template <typename T>
void floatingOps(MPI_Datatype t) {
  minMaxOps<T>(t);
  arithmeticOps<T>(t);
  replaceOps<T>(t);
  for (MPI_Op wrong : {MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC}) {
    CHECK(errorOf(wrong, t) == MPI_ERR_OP);
  }
}

template <typename T>
void complexOps(MPI_Datatype t) {
  arithmeticOps<T>(t);
  replaceOps<T>(t);
  for (MPI_Op wrong : {MPI_MAX, MPI_MIN, MPI_LAND, MPI_BAND, MPI_MAXLOC}) CHECK(errorOf(wrong, t) == MPI_ERR_OP);
}

}  // namespace

TEST_CASE("C integer types: all arithmetic, logical and bit ops") {
  integerOps<char>(MPI_CHAR);
  integerOps<signed char>(MPI_SIGNED_CHAR);
  integerOps<unsigned char>(MPI_UNSIGNED_CHAR);
  integerOps<short>(MPI_SHORT);
  integerOps<unsigned short>(MPI_UNSIGNED_SHORT);
  integerOps<int>(MPI_INT);
  integerOps<unsigned>(MPI_UNSIGNED);
  integerOps<long>(MPI_LONG);
  integerOps<unsigned long>(MPI_UNSIGNED_LONG);
  integerOps<long long>(MPI_LONG_LONG);
  integerOps<long long>(MPI_LONG_LONG_INT);
  integerOps<unsigned long long>(MPI_UNSIGNED_LONG_LONG);
  integerOps<wchar_t>(MPI_WCHAR);
  integerOps<int8_t>(MPI_INT8_T);
  integerOps<int16_t>(MPI_INT16_T);
  integerOps<int32_t>(MPI_INT32_T);
  integerOps<int64_t>(MPI_INT64_T);
  integerOps<uint8_t>(MPI_UINT8_T);
  integerOps<uint16_t>(MPI_UINT16_T);
  integerOps<uint32_t>(MPI_UINT32_T);
  integerOps<uint64_t>(MPI_UINT64_T);
  integerOps<MPI_Aint>(MPI_AINT);
  integerOps<MPI_Offset>(MPI_OFFSET);
  integerOps<MPI_Count>(MPI_COUNT);
}

TEST_CASE("Fortran integer and logical types reduce as their C equivalents") {
  integerOps<int32_t>(MPI_INTEGER);
  integerOps<int8_t>(MPI_INTEGER1);
  integerOps<int16_t>(MPI_INTEGER2);
  integerOps<int32_t>(MPI_INTEGER4);
  integerOps<int64_t>(MPI_INTEGER8);
  integerOps<Int128>(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_integer16));  // no macro in this mpi.h
  logicalOps<int32_t>(MPI_LOGICAL);
  logicalOps<int8_t>(MPI_LOGICAL1);
  logicalOps<int64_t>(MPI_LOGICAL8);
}

TEST_CASE("floating types: MAX, MIN, SUM, PROD only") {
  floatingOps<float>(MPI_FLOAT);
  floatingOps<double>(MPI_DOUBLE);
  floatingOps<long double>(MPI_LONG_DOUBLE);
  floatingOps<float>(MPI_REAL);
  floatingOps<double>(MPI_DOUBLE_PRECISION);
  floatingOps<float>(MPI_REAL4);
  floatingOps<double>(MPI_REAL8);
  floatingOps<long double>(MPI_REAL16);
}

TEST_CASE("complex types: SUM and PROD only") {
  complexOps<std::complex<float>>(MPI_C_FLOAT_COMPLEX);
  complexOps<std::complex<float>>(MPI_C_COMPLEX);
  complexOps<std::complex<double>>(MPI_C_DOUBLE_COMPLEX);
  complexOps<std::complex<long double>>(MPI_C_LONG_DOUBLE_COMPLEX);
  complexOps<std::complex<float>>(MPI_CXX_FLOAT_COMPLEX);
  complexOps<std::complex<double>>(MPI_CXX_DOUBLE_COMPLEX);
  complexOps<std::complex<float>>(MPI_COMPLEX);
  complexOps<std::complex<double>>(MPI_DOUBLE_COMPLEX);
  complexOps<std::complex<long double>>(MPI_COMPLEX32);
}

TEST_CASE("C_BOOL takes the logical ops; MPI_BYTE the bit ops") {
  logicalOps<bool>(MPI_C_BOOL);
  logicalOps<bool>(MPI_CXX_BOOL);
  replaceOps<bool>(MPI_C_BOOL);
  for (MPI_Op wrong : {MPI_SUM, MPI_MAX, MPI_BAND}) CHECK(errorOf(wrong, MPI_C_BOOL) == MPI_ERR_OP);
  bitOps<unsigned char>(MPI_BYTE);
  replaceOps<unsigned char>(MPI_BYTE);
  for (MPI_Op wrong : {MPI_SUM, MPI_MAX, MPI_LAND}) CHECK(errorOf(wrong, MPI_BYTE) == MPI_ERR_OP);
  CHECK(errorOf(MPI_SUM, MPI_PACKED) == MPI_ERR_OP);
}

TEST_CASE("an op that does not apply names itself and the type") {
  std::string text;
  CHECK(errorOf(MPI_BAND, MPI_DOUBLE, &text) == MPI_ERR_OP);
  CHECK(text == "MPI_BAND is not defined for MPI_DOUBLE");
  CHECK(errorOf(MPI_MAXLOC, MPI_INT, &text) == MPI_ERR_OP);
  CHECK(text == "MPI_MAXLOC is not defined for MPI_INT");
}

TEST_CASE("predefined ops are bound to their handle symbols and are commutative") {
  for (MPI_Op h : {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR,
                   MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP}) {
    CHECK(op(h).handle() == h);
    CHECK(op(h).commutative());
    CHECK(op(h).predefined());
  }
  CHECK(op(MPI_SUM).name == "MPI_SUM");
  CHECK_THROWS_AS(opOf(MPI_OP_NULL), MpiError);
}

TEST_CASE("zero counts touch nothing") {
  int in = 5, inout = 7;
  op(MPI_SUM).apply(&in, &inout, 0, basic(MPI_INT));
  op(MPI_SUM).applyPacked(&in, &inout, 0, basic(MPI_INT));
  CHECK(inout == 7);
}
