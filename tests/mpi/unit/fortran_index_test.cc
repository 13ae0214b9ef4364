// The Fortran handle tables (core/fortran_index.h behind MPI_*_c2f / f2c): a handle gets an
// index on its first conversion and keeps it, the predefined ones sit at Open MPI's
// mpif.h values, and destroying a handle's object gives its index back for reuse -- the
// table of a program that creates and frees handles in a loop does not grow.
#include "mpi/core/fortran_index.h"

#include <catch2/catch.hpp>

#include "mpi/datatype/datatype.h"
#include "predefined_handles.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::testing;

namespace {

MPI_Fint indexOf(Datatype& type) { return PMPI_Type_c2f(type.handle()); }

}  // namespace

TEST_CASE("a handle keeps its Fortran index, and the index names it") {
  Owned type(new Datatype());
  const MPI_Fint index = indexOf(*type);
  REQUIRE(index > 72);  // past the predefined datatypes
  CHECK(indexOf(*type) == index);
  CHECK(PMPI_Type_f2c(index) == type->handle());
}

TEST_CASE("predefined handles sit at Open MPI's Fortran indices") {
  CHECK(PMPI_Type_c2f(basic(MPI_INT).handle()) == 39);
  CHECK(PMPI_Type_f2c(7) == MPI_INTEGER);
  CHECK(PMPI_Op_f2c(3) == MPI_SUM);
  CHECK(PMPI_Comm_f2c(0) == MPI_COMM_WORLD);
  CHECK(PMPI_Comm_f2c(2) == MPI_COMM_NULL);
}

TEST_CASE("an index that names nothing converts to the NULL handle") {
  CHECK(PMPI_Comm_f2c(12345) == MPI_COMM_NULL);
  CHECK(PMPI_Comm_f2c(-1) == MPI_COMM_NULL);
  CHECK(PMPI_Type_f2c(1 << 30) == MPI_DATATYPE_NULL);
}

TEST_CASE("destroying a handle's object gives its index back") {
  MPI_Fint index = -1;
  {
    Owned type(new Datatype());
    index = indexOf(*type);
  }
  CHECK(PMPI_Type_f2c(index) == MPI_DATATYPE_NULL);
  const int32_t inUse = fortranIndicesInUse(HandleKind::Datatype);
  for (int i = 0; i < 1000; ++i) {
    Owned type(new Datatype());
    CHECK(indexOf(*type) == index);  // the freed index, again
  }
  CHECK(fortranIndicesInUse(HandleKind::Datatype) == inUse);
}

TEST_CASE("a handle never converted has no index to give back") {
  const int32_t inUse = fortranIndicesInUse(HandleKind::Datatype);
  { Owned type(new Datatype()); }
  CHECK(fortranIndicesInUse(HandleKind::Datatype) == inUse);
}
