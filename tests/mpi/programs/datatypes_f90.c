// MPI_Type_create_f90_integer / _real / _complex: the predefined type of the Fortran kind
// SELECTED_INT_KIND / SELECTED_REAL_KIND would pick (its size), MPI_UNDEFINED for a free
// bound, MPI_ERR_ARG where no kind fits; the type carries data between ranks. And the
// helpers `use mpi` calls in libmpi itself (MPI_WTIME_F90, MPI_AINT_ADD_F90, ...).
// zmpi-test-ranks: 2
#include <mpi.h>

#include "check.h"

// Not in mpi.h: Open MPI's libmpi exports them for its Fortran module.
void MPI_WTIME_F90(double* result);
void mpi_wtick_f90_(double* result);
void MPI_AINT_ADD_F90(const MPI_Aint* a, const MPI_Aint* b, MPI_Aint* result);
void mpi_aint_diff_f90__(const MPI_Aint* a, const MPI_Aint* b, MPI_Aint* result);

static int sizeOf(MPI_Datatype type) {
  int size = -1;
  MPI_Type_size(type, &size);
  return size;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const int integerDigits[][2] = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 4}, {9, 4}, {10, 8}, {18, 8}, {19, 16}};
  for (unsigned i = 0; i < sizeof integerDigits / sizeof integerDigits[0]; ++i) {
    CHECK_EQ_INT(MPI_Type_create_f90_integer(integerDigits[i][0], &type), MPI_SUCCESS);
    CHECK_EQ_INT(sizeOf(type), integerDigits[i][1]);
  }
  int errorClass = MPI_SUCCESS;
  MPI_Error_class(MPI_Type_create_f90_integer(39, &type), &errorClass);
  CHECK_EQ_INT(errorClass, MPI_ERR_ARG);

  CHECK_EQ_INT(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &type), MPI_SUCCESS);
  CHECK(type == MPI_REAL4);
  CHECK_EQ_INT(MPI_Type_create_f90_real(7, MPI_UNDEFINED, &type), MPI_SUCCESS);
  CHECK(type == MPI_REAL8);
  CHECK_EQ_INT(MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &type), MPI_SUCCESS);
  CHECK(type == MPI_REAL8);
  CHECK_EQ_INT(MPI_Type_create_f90_real(15, 308, &type), MPI_SUCCESS);
  CHECK(type == MPI_REAL16);
  CHECK_EQ_INT(MPI_Type_create_f90_complex(6, 37, &type), MPI_SUCCESS);
  CHECK(type == MPI_COMPLEX8 && sizeOf(type) == 8);
  CHECK_EQ_INT(MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &type), MPI_SUCCESS);
  CHECK(type == MPI_COMPLEX16);
  MPI_Error_class(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &type), &errorClass);
  CHECK_EQ_INT(errorClass, MPI_ERR_ARG);
  MPI_Error_class(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &type), &errorClass);
  CHECK_EQ_INT(errorClass, MPI_ERR_ARG);

  // A type it returns moves data like the named one.
  MPI_Type_create_f90_real(15, MPI_UNDEFINED, &type);
  double values[3] = {1.5, -2.25, 3.125};
  if (rank == 0) {
    MPI_Send(values, 3, type, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    double got[3] = {0};
    MPI_Recv(got, 3, type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got[0] == 1.5 && got[1] == -2.25 && got[2] == 3.125);
  }
  double now = 0, tick = 0;
  MPI_WTIME_F90(&now);
  mpi_wtick_f90_(&tick);
  CHECK(now > 0 && tick > 0 && tick == MPI_Wtick());
  MPI_Aint a = 1000, b = 24, sum = 0, difference = 0;
  MPI_AINT_ADD_F90(&a, &b, &sum);
  mpi_aint_diff_f90__(&a, &b, &difference);
  CHECK(sum == 1024 && difference == 976);
  MPI_Finalize();
  return 0;
}
