#include "mpi/datatype/predefined.h"

#include <complex>
#include <cstddef>
#include <mutex>

#include "mpi/abi/predefined_objects.h"
#include "mpi/datatype/loc_pair.h"

namespace zmpi::mpi {
namespace {

Datatype* basic(MPI_Datatype handle, Primitive primitive, std::size_t bytes, const char* name) {
  Datatype* type = Datatype::makeBasic(primitive, bytes, name);
  type->setPublicHandle(handle);
  bindHandle(handle, HandleKind::Datatype, type);
  return type;
}

// A MAXLOC/MINLOC pair type {Value v; int i;} with the C compiler's padding.
template <typename Value>
Datatype* pair(MPI_Datatype handle, Primitive primitive, const char* name) {
  using Pair = LocPair<Value>;
  auto* type = new Datatype();
  type->name = name;
  type->mutableBlocks() = {{0, sizeof(Value)}, {static_cast<std::ptrdiff_t>(offsetof(Pair, index)), sizeof(int)}};
  type->setSize(sizeof(Value) + sizeof(int));
  type->setBounds(0, sizeof(Pair));
  type->setTrueBounds(0, static_cast<std::ptrdiff_t>(offsetof(Pair, index) + sizeof(int)));
  type->mutableRuns() = {{0, primitive, 1}};
  type->combiner = MPI_COMBINER_NAMED;
  type->markPredefined();
  type->finalize();
  type->setPublicHandle(handle);
  bindHandle(handle, HandleKind::Datatype, type);
  return type;
}

// Fortran's MPI_2COMPLEX / MPI_2DOUBLE_COMPLEX: two complex numbers, reduced element-wise.
Datatype* twoOf(MPI_Datatype handle, Primitive primitive, const char* name) {
  auto* type = new Datatype();
  type->name = name;
  const std::size_t bytes = 2 * primitiveSize(primitive);
  type->mutableBlocks() = {{0, bytes}};
  type->mutableRuns() = {{0, primitive, 2}};
  type->setSize(bytes);
  type->setBounds(0, static_cast<std::ptrdiff_t>(bytes));
  type->setTrueBounds(0, static_cast<std::ptrdiff_t>(bytes));
  type->markPredefined();
  type->finalize();
  type->setPublicHandle(handle);
  bindHandle(handle, HandleKind::Datatype, type);
  return type;
}

Datatype* byteTypeInstance = nullptr;

void bindAll() {
  using P = Primitive;
  bindHandle(MPI_DATATYPE_NULL, HandleKind::Datatype, nullptr);
  basic(MPI_CHAR, P::Char, 1, "MPI_CHAR");
  basic(MPI_SIGNED_CHAR, P::SignedChar, 1, "MPI_SIGNED_CHAR");
  basic(MPI_UNSIGNED_CHAR, P::UnsignedChar, 1, "MPI_UNSIGNED_CHAR");
  byteTypeInstance = basic(MPI_BYTE, P::Byte, 1, "MPI_BYTE");
  basic(MPI_SHORT, P::Short, sizeof(short), "MPI_SHORT");
  basic(MPI_UNSIGNED_SHORT, P::UnsignedShort, sizeof(short), "MPI_UNSIGNED_SHORT");
  basic(MPI_INT, P::Int, sizeof(int), "MPI_INT");
  basic(MPI_UNSIGNED, P::Unsigned, sizeof(unsigned), "MPI_UNSIGNED");
  basic(MPI_LONG, P::Long, sizeof(long), "MPI_LONG");
  basic(MPI_UNSIGNED_LONG, P::UnsignedLong, sizeof(long), "MPI_UNSIGNED_LONG");
  basic(MPI_LONG_LONG_INT, P::LongLong, sizeof(long long), "MPI_LONG_LONG_INT");
  basic(MPI_UNSIGNED_LONG_LONG, P::UnsignedLongLong, sizeof(long long), "MPI_UNSIGNED_LONG_LONG");
  basic(MPI_FLOAT, P::Float, sizeof(float), "MPI_FLOAT");
  basic(MPI_DOUBLE, P::Double, sizeof(double), "MPI_DOUBLE");
  basic(MPI_LONG_DOUBLE, P::LongDouble, sizeof(long double), "MPI_LONG_DOUBLE");
  basic(MPI_WCHAR, P::WChar, sizeof(wchar_t), "MPI_WCHAR");
  basic(MPI_PACKED, P::Packed, 1, "MPI_PACKED");
  basic(MPI_C_BOOL, P::Bool, sizeof(bool), "MPI_C_BOOL");
  basic(MPI_CXX_BOOL, P::Bool, sizeof(bool), "MPI_CXX_BOOL");
  basic(MPI_INT8_T, P::Int8, 1, "MPI_INT8_T");
  basic(MPI_INT16_T, P::Int16, 2, "MPI_INT16_T");
  basic(MPI_INT32_T, P::Int32, 4, "MPI_INT32_T");
  basic(MPI_INT64_T, P::Int64, 8, "MPI_INT64_T");
  basic(MPI_UINT8_T, P::Uint8, 1, "MPI_UINT8_T");
  basic(MPI_UINT16_T, P::Uint16, 2, "MPI_UINT16_T");
  basic(MPI_UINT32_T, P::Uint32, 4, "MPI_UINT32_T");
  basic(MPI_UINT64_T, P::Uint64, 8, "MPI_UINT64_T");
  basic(MPI_AINT, P::Aint, sizeof(MPI_Aint), "MPI_AINT");
  basic(MPI_OFFSET, P::Offset, sizeof(MPI_Offset), "MPI_OFFSET");
  basic(MPI_COUNT, P::Count, sizeof(MPI_Count), "MPI_COUNT");
  basic(MPI_C_FLOAT_COMPLEX, P::FloatComplex, 8, "MPI_C_FLOAT_COMPLEX");
  basic(MPI_C_DOUBLE_COMPLEX, P::DoubleComplex, 16, "MPI_C_DOUBLE_COMPLEX");
  basic(MPI_C_LONG_DOUBLE_COMPLEX, P::LongDoubleComplex, 32, "MPI_C_LONG_DOUBLE_COMPLEX");
  basic(MPI_CXX_FLOAT_COMPLEX, P::FloatComplex, 8, "MPI_CXX_FLOAT_COMPLEX");
  basic(MPI_CXX_DOUBLE_COMPLEX, P::DoubleComplex, 16, "MPI_CXX_DOUBLE_COMPLEX");
  basic(MPI_CXX_LONG_DOUBLE_COMPLEX, P::LongDoubleComplex, 32, "MPI_CXX_LONG_DOUBLE_COMPLEX");
  // Fortran types: sizes as gfortran uses them.
  basic(MPI_CHARACTER, P::Char, 1, "MPI_CHARACTER");
  basic(MPI_LOGICAL, P::Int32, 4, "MPI_LOGICAL");
  basic(MPI_INTEGER, P::Int32, 4, "MPI_INTEGER");
  basic(MPI_REAL, P::Float, 4, "MPI_REAL");
  basic(MPI_DOUBLE_PRECISION, P::Double, 8, "MPI_DOUBLE_PRECISION");
  basic(MPI_COMPLEX, P::FloatComplex, 8, "MPI_COMPLEX");
  basic(MPI_DOUBLE_COMPLEX, P::DoubleComplex, 16, "MPI_DOUBLE_COMPLEX");
  basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_ldblcplex), P::LongDoubleComplex, 32, "MPI_LONG_DOUBLE_COMPLEX");
  basic(MPI_LOGICAL1, P::Int8, 1, "MPI_LOGICAL1");
  basic(MPI_LOGICAL2, P::Int16, 2, "MPI_LOGICAL2");
  basic(MPI_LOGICAL4, P::Int32, 4, "MPI_LOGICAL4");
  basic(MPI_LOGICAL8, P::Int64, 8, "MPI_LOGICAL8");
  basic(MPI_INTEGER1, P::Int8, 1, "MPI_INTEGER1");
  basic(MPI_INTEGER2, P::Int16, 2, "MPI_INTEGER2");
  basic(MPI_INTEGER4, P::Int32, 4, "MPI_INTEGER4");
  basic(MPI_INTEGER8, P::Int64, 8, "MPI_INTEGER8");
  basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_integer16), P::Int128, 16, "MPI_INTEGER16");
  basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_real2), P::Half, 2, "MPI_REAL2");
  basic(MPI_REAL4, P::Float, 4, "MPI_REAL4");
  basic(MPI_REAL8, P::Double, 8, "MPI_REAL8");
  basic(MPI_REAL16, P::LongDouble, 16, "MPI_REAL16");
  basic(MPI_COMPLEX8, P::FloatComplex, 8, "MPI_COMPLEX8");
  basic(MPI_COMPLEX16, P::DoubleComplex, 16, "MPI_COMPLEX16");
  basic(MPI_COMPLEX32, P::LongDoubleComplex, 32, "MPI_COMPLEX32");
  basic(MPI_2INT, P::TwoInt, 2 * sizeof(int), "MPI_2INT");
  basic(MPI_2INTEGER, P::TwoInt, 8, "MPI_2INTEGER");
  basic(MPI_2REAL, P::TwoFloat, 8, "MPI_2REAL");
  basic(MPI_2DOUBLE_PRECISION, P::TwoDouble, 16, "MPI_2DOUBLE_PRECISION");
  twoOf(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_2cplex), P::FloatComplex, "MPI_2COMPLEX");
  twoOf(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_2dblcplex), P::DoubleComplex, "MPI_2DOUBLE_COMPLEX");
  pair<float>(MPI_FLOAT_INT, P::FloatInt, "MPI_FLOAT_INT");
  pair<double>(MPI_DOUBLE_INT, P::DoubleInt, "MPI_DOUBLE_INT");
  pair<long>(MPI_LONG_INT, P::LongInt, "MPI_LONG_INT");
  pair<short>(MPI_SHORT_INT, P::ShortInt, "MPI_SHORT_INT");
  pair<long double>(MPI_LONG_DOUBLE_INT, P::LongDoubleInt, "MPI_LONG_DOUBLE_INT");
  // Deprecated bound markers: no data, zero size; each sets one bound of a struct holding it.
  basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_lb), P::None, 0, "MPI_LB")->setExplicitBounds(true, false);
  basic(OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_ub), P::None, 0, "MPI_UB")->setExplicitBounds(false, true);
}

}  // namespace

void bindPredefinedDatatypes() {
  static std::once_flag once;
  std::call_once(once, bindAll);
}

Datatype* byteType() {
  bindPredefinedDatatypes();
  return byteTypeInstance;
}

}  // namespace zmpi::mpi
