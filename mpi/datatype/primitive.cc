#include "mpi/datatype/primitive.h"

#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>

#include "mpi/datatype/loc_pair.h"

namespace zmpi::mpi {
namespace {

template <typename Value, typename Index = int>
constexpr PrimitiveTraits pairTraits(const char* name) {
  return {sizeof(Value) + sizeof(Index), sizeof(LocPair<Value, Index>), name};
}

template <typename T>
constexpr PrimitiveTraits plain(const char* name) {
  return {sizeof(T), sizeof(T), name};
}

constexpr std::array<PrimitiveTraits, kPrimitiveKinds> kTraits = {{
    {0, 0, "none"},
    plain<char>("char"),
    plain<signed char>("signed char"),
    plain<unsigned char>("unsigned char"),
    plain<unsigned char>("byte"),
    plain<short>("short"),
    plain<unsigned short>("unsigned short"),
    plain<int>("int"),
    plain<unsigned>("unsigned"),
    plain<long>("long"),
    plain<unsigned long>("unsigned long"),
    plain<long long>("long long"),
    plain<unsigned long long>("unsigned long long"),
    plain<float>("float"),
    plain<double>("double"),
    plain<long double>("long double"),
    plain<wchar_t>("wchar_t"),
    plain<bool>("bool"),
    plain<int8_t>("int8_t"),
    plain<int16_t>("int16_t"),
    plain<int32_t>("int32_t"),
    plain<int64_t>("int64_t"),
    plain<uint8_t>("uint8_t"),
    plain<uint16_t>("uint16_t"),
    plain<uint32_t>("uint32_t"),
    plain<uint64_t>("uint64_t"),
    plain<MPI_Aint>("MPI_Aint"),
    plain<MPI_Offset>("MPI_Offset"),
    plain<MPI_Count>("MPI_Count"),
    plain<std::complex<float>>("float complex"),
    plain<std::complex<double>>("double complex"),
    plain<std::complex<long double>>("long double complex"),
    {1, 1, "packed"},
    pairTraits<float>("float-int pair"),
    pairTraits<double>("double-int pair"),
    pairTraits<long>("long-int pair"),
    pairTraits<int>("int-int pair"),
    pairTraits<short>("short-int pair"),
    pairTraits<long double>("long double-int pair"),
    pairTraits<float, float>("real pair"),
    pairTraits<double, double>("double precision pair"),
    {16, 16, "integer16"},
    {2, 2, "real2"},
    {0, 0, "mixed"},
}};

}  // namespace

const PrimitiveTraits& traitsOf(Primitive p) { return kTraits[static_cast<std::size_t>(p)]; }

}  // namespace zmpi::mpi
