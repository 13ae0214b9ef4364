// Bad input to the Fortran bindings, called as gfortran calls them (every argument by
// reference, CHARACTER lengths last): each must come back as an MPI error class through
// the error handler, never a crash; so must a call zmpi's C library cannot make.
//   bad_input          under MPI_ERRORS_RETURN: checks the classes, prints "bad input: ok"
//   bad_input fatal    under MPI_ERRORS_ARE_FATAL: a string length no Fortran string has;
//                      the job must end with a message naming MPI_Comm_set_name
//   bad_input fatal-index   the same for a communicator index naming nothing (MPI_Barrier)
#include <mpi.h>
#include <stdio.h>
#include <string.h>

// zmpi's libmpi_mpifh.so.40 (Open MPI's manglings).
void mpi_init_(MPI_Fint* ierr);
void mpi_finalize_(MPI_Fint* ierr);
void mpi_comm_set_errhandler_(MPI_Fint* comm, MPI_Fint* errhandler, MPI_Fint* ierr);
void mpi_comm_set_name_(MPI_Fint* comm, const char* name, MPI_Fint* ierr, size_t name_len);
void mpi_send_(const void* buf, MPI_Fint* count, MPI_Fint* type, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm,
               MPI_Fint* ierr);
void mpi_barrier_(MPI_Fint* comm, MPI_Fint* ierr);
void mpi_type_commit_(MPI_Fint* type, MPI_Fint* ierr);
void mpi_waitall_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr);
void mpi_error_class_(MPI_Fint* code, MPI_Fint* errorclass, MPI_Fint* ierr);
void mpix_barrier_init_(MPI_Fint* comm, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr);
extern MPI_Fint mpi_fortran_statuses_ignore_[];

static int failures = 0;

static void expect(const char* what, MPI_Fint ierr, int expected) {
  MPI_Fint errorClass = -1;
  MPI_Fint rc = 0;
  mpi_error_class_(&ierr, &errorClass, &rc);
  if (ierr == MPI_SUCCESS || errorClass != expected) {
    printf("FAILED: %s: ierr %d, class %d, expected class %d\n", what, (int)ierr, (int)errorClass, expected);
    ++failures;
  }
}

int main(int argc, char** argv) {
  MPI_Fint ierr = 0;
  MPI_Fint world = 0;  // MPI_COMM_WORLD's index in mpif.h
  mpi_init_(&ierr);
  if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
    mpi_comm_set_name_(&world, "name", &ierr, (size_t)-5);  // a negative hidden length
    printf("FAILED: MPI_Comm_set_name returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
  }
  if (argc > 1 && strcmp(argv[1], "fatal-index") == 0) {
    MPI_Fint nothing = 4711;
    mpi_barrier_(&nothing, &ierr);
    printf("FAILED: MPI_Barrier returned under MPI_ERRORS_ARE_FATAL\n");
    return 1;
  }
  MPI_Fint errorsReturn = 2;  // MPI_ERRORS_RETURN's index
  mpi_comm_set_errhandler_(&world, &errorsReturn, &ierr);

  mpi_comm_set_name_(&world, "name", &ierr, (size_t)-5);
  expect("a negative string length", ierr, MPI_ERR_ARG);

  MPI_Fint badComm = 4711;  // an index that names no communicator
  mpi_barrier_(&badComm, &ierr);
  expect("an invalid communicator index", ierr, MPI_ERR_COMM);
  badComm = -3;
  mpi_barrier_(&badComm, &ierr);
  expect("a negative communicator index", ierr, MPI_ERR_COMM);

  int value = 0;
  MPI_Fint count = -1, type = 7 /* MPI_INTEGER */, dest = 0, tag = 0;
  mpi_send_(&value, &count, &type, &dest, &tag, &world, &ierr);
  expect("a negative count", ierr, MPI_ERR_COUNT);

  MPI_Fint badType = 999999;
  count = 1;
  mpi_send_(&value, &count, &badType, &dest, &tag, &world, &ierr);
  expect("an invalid datatype index", ierr, MPI_ERR_TYPE);
  mpi_type_commit_(&badType, &ierr);
  expect("committing an invalid datatype index", ierr, MPI_ERR_TYPE);

  MPI_Fint requests[1] = {0};
  MPI_Fint negative = -2;
  mpi_waitall_(&negative, requests, mpi_fortran_statuses_ignore_, &ierr);
  expect("waitall of a negative count", ierr, MPI_ERR_COUNT);

  MPI_Fint infoNull = 0, request = 0;
  mpix_barrier_init_(&world, &infoNull, &request, &ierr);
  expect("a call zmpi cannot make yet", ierr, MPI_ERR_UNSUPPORTED_OPERATION);

  mpi_finalize_(&ierr);
  if (failures == 0) printf("bad input: ok\n");
  return failures == 0 ? 0 : 1;
}
