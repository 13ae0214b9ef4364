// Packing and unpacking derived types: matrix columns, negative strides, resized types,
// subarrays in both orders, absolute addresses (MPI_BOTTOM), short messages that end
// mid-element, and the external32 representation.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "mpi/datatype/constructors.h"
#include "mpi/datatype/external32.h"
#include "mpi/datatype/predefined.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

template <typename T>
std::vector<T> packed(const Datatype& type, const void* base, std::size_t count) {
  std::vector<T> out(count * type.size() / sizeof(T));
  type.pack(base, count, out.data());
  return out;
}

std::vector<int> matrix(int rows, int cols) {
  std::vector<int> m(static_cast<std::size_t>(rows * cols));
  std::iota(m.begin(), m.end(), 0);
  return m;
}

}  // namespace

TEST_CASE("a vector type packs a matrix column and unpacks it back") {
  const std::vector<int> m = matrix(4, 4);
  Owned column(types::vector(4, 1, 4, basic(MPI_INT)));
  CHECK(packed<int>(*column, &m[1], 1) == std::vector<int>{1, 5, 9, 13});

  std::vector<int> target(16, -1);
  const std::vector<int> values{100, 101, 102, 103};
  column->unpack(values.data(), values.size() * sizeof(int), &target[2]);
  CHECK(target == std::vector<int>{-1, -1, 100, -1, -1, -1, 101, -1, -1, -1, 102, -1, -1, -1, 103, -1});
}

TEST_CASE("a column resized to one int packs several columns") {
  const std::vector<int> m = matrix(3, 3);
  Owned column(types::vector(3, 1, 3, basic(MPI_INT)));
  Owned narrow(types::resized(*column, 0, sizeof(int)));
  CHECK(packed<int>(*narrow, m.data(), 2) == std::vector<int>{0, 3, 6, 1, 4, 7});
}

TEST_CASE("negative strides pack in type-map order") {
  const std::vector<int> values{0, 1, 2, 3, 4, 5, 6};
  Owned down(types::vector(3, 1, -3, basic(MPI_INT)));
  CHECK(packed<int>(*down, &values[6], 1) == std::vector<int>{6, 3, 0});
}

TEST_CASE("a short message unpacks only the bytes that arrived, ending mid-element") {
  Owned pairs(types::vector(3, 2, 3, basic(MPI_INT)));
  std::vector<int> target(9, 0);
  const std::vector<int> values{1, 2, 3, 4, 5};
  pairs->unpack(values.data(), values.size() * sizeof(int), target.data());
  CHECK(target == std::vector<int>{1, 2, 0, 3, 4, 0, 5, 0, 0});

  SECTION("and across elements of a count > 1") {
    Owned one(types::vector(2, 1, 2, basic(MPI_INT)));  // extent 12
    std::vector<int> into(8, 0);
    const std::vector<int> three{7, 8, 9};
    one->unpack(three.data(), three.size() * sizeof(int), into.data());
    CHECK(into == std::vector<int>{7, 0, 8, 9, 0, 0, 0, 0});
  }
}

TEST_CASE("subarrays pack the same elements in C and Fortran order") {
  // A 3x4 array of ints, row-major as C sees it; Fortran order sees the same memory as a
  // 4x3 array, so the Fortran subarray with reversed dimensions picks the same elements.
  const std::vector<int> a = matrix(3, 4);
  const int sizes[] = {3, 4}, subsizes[] = {2, 2}, starts[] = {1, 1};
  Owned c(types::subarray(2, sizes, subsizes, starts, MPI_ORDER_C, basic(MPI_INT)));
  CHECK(packed<int>(*c, a.data(), 1) == std::vector<int>{5, 6, 9, 10});

  const int fsizes[] = {4, 3}, fsubsizes[] = {2, 2}, fstarts[] = {1, 1};
  Owned f(types::subarray(2, fsizes, fsubsizes, fstarts, MPI_ORDER_FORTRAN, basic(MPI_INT)));
  CHECK(packed<int>(*f, a.data(), 1) == std::vector<int>{5, 6, 9, 10});

  std::vector<int> back(12, 0);
  const std::vector<int> values{1, 2, 3, 4};
  f->unpack(values.data(), 16, back.data());
  CHECK(back == std::vector<int>{0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0});
}

TEST_CASE("a struct of absolute addresses packs from MPI_BOTTOM") {
  int i = 42;
  double d = 2.5;
  char c = 'z';
  const int lengths[] = {1, 1, 1};
  const MPI_Aint addresses[] = {reinterpret_cast<MPI_Aint>(&i), reinterpret_cast<MPI_Aint>(&d),
                                reinterpret_cast<MPI_Aint>(&c)};
  Datatype* kinds[] = {&basic(MPI_INT), &basic(MPI_DOUBLE), &basic(MPI_CHAR)};
  Owned type(types::structType(3, lengths, addresses, kinds));
  REQUIRE(type->size() == 13);
  std::vector<char> bytes(13);
  type->pack(MPI_BOTTOM, 1, bytes.data());
  int pi;
  double pd;
  std::memcpy(&pi, bytes.data(), 4);
  std::memcpy(&pd, bytes.data() + 4, 8);
  CHECK(pi == 42);
  CHECK(pd == 2.5);
  CHECK(bytes[12] == 'z');

  i = 0;
  d = 0;
  c = 0;
  type->unpack(bytes.data(), bytes.size(), MPI_BOTTOM);
  CHECK(i == 42);
  CHECK(d == 2.5);
  CHECK(c == 'z');
}

TEST_CASE("pair types pack without their padding") {
  struct {
    double value;
    int index;
  } pairs[2] = {{1.5, 7}, {2.5, 9}};
  const Datatype& type = basic(MPI_DOUBLE_INT);
  std::vector<char> bytes(2 * type.size());
  type.pack(pairs, 2, bytes.data());
  double v;
  int k;
  std::memcpy(&v, bytes.data() + 12, 8);
  std::memcpy(&k, bytes.data() + 20, 4);
  CHECK(v == 2.5);
  CHECK(k == 9);
}

TEST_CASE("external32 is big-endian with the standard's sizes") {
  SECTION("int") {
    const int value = 0x01020304;
    std::vector<unsigned char> out(4);
    packExternal32(basic(MPI_INT), &value, 1, out.data());
    CHECK(out == std::vector<unsigned char>{1, 2, 3, 4});
  }
  SECTION("double") {
    const double value = 1.0;
    std::vector<unsigned char> out(8);
    packExternal32(basic(MPI_DOUBLE), &value, 1, out.data());
    CHECK(out == std::vector<unsigned char>{0x3f, 0xf0, 0, 0, 0, 0, 0, 0});
  }
  SECTION("long is 4 bytes, sign kept") {
    const long values[] = {-2, 70000};
    CHECK(external32Size(basic(MPI_LONG), 2) == 8);
    std::vector<unsigned char> out(8);
    packExternal32(basic(MPI_LONG), values, 2, out.data());
    CHECK(out == std::vector<unsigned char>{0xff, 0xff, 0xff, 0xfe, 0x00, 0x01, 0x11, 0x70});
    long back[2] = {0, 0};
    unpackExternal32(basic(MPI_LONG), out.data(), 2, back);
    CHECK(back[0] == -2);
    CHECK(back[1] == 70000);
  }
  SECTION("long double is an IEEE quad") {
    const long double value = 1.5L;
    std::vector<unsigned char> out(16);
    packExternal32(basic(MPI_LONG_DOUBLE), &value, 1, out.data());
    CHECK(out[0] == 0x3f);
    CHECK(out[1] == 0xff);
    CHECK(out[2] == 0x80);
    long double back = 0;
    unpackExternal32(basic(MPI_LONG_DOUBLE), out.data(), 1, &back);
    CHECK(back == 1.5L);
  }
  SECTION("a vector of a struct round-trips") {
    struct S {
      short s;
      double d;
    };
    const int lengths[] = {1, 1};
    const MPI_Aint at[] = {offsetof(S, s), offsetof(S, d)};
    Datatype* kinds[] = {&basic(MPI_SHORT), &basic(MPI_DOUBLE)};
    Owned s(types::structType(2, lengths, at, kinds));
    Owned sized(types::resized(*s, 0, sizeof(S)));
    Owned every2nd(types::vector(2, 1, 2, *sized));
    CHECK(external32Size(*every2nd, 1) == 20);
    const S in[3] = {{-3, 0.25}, {0, 0}, {12, -8.5}};
    std::vector<unsigned char> out(20);
    packExternal32(*every2nd, in, 1, out.data());
    CHECK(out[0] == 0xff);
    CHECK(out[1] == 0xfd);
    S back[3] = {};
    unpackExternal32(*every2nd, out.data(), 1, back);
    CHECK(back[0].s == -3);
    CHECK(back[0].d == 0.25);
    CHECK(back[2].s == 12);
    CHECK(back[2].d == -8.5);
  }
  SECTION("pairs: value then index") {
    CHECK(external32Size(basic(MPI_DOUBLE_INT), 1) == 12);
    CHECK(external32Size(basic(MPI_LONG_INT), 1) == 8);
  }
}
