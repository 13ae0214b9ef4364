/* Argument errors of the collectives come back with the right error class (under
 * MPI_ERRORS_RETURN), are detected before any message moves, and leave the communicator
 * usable. */
// zmpi-test-ranks: 1 3
#include "check.h"

static int class_of(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int a[4] = {0}, b[4] = {0};
  double d = 1.0, e = 0.0;
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK_EQ_INT(class_of(MPI_Bcast(a, 1, MPI_INT, size, MPI_COMM_WORLD)), MPI_ERR_ROOT);
  CHECK_EQ_INT(class_of(MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD)), MPI_ERR_ROOT);
  CHECK_EQ_INT(class_of(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD)), MPI_ERR_COUNT);
  CHECK_EQ_INT(class_of(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD)), MPI_ERR_TYPE);
  CHECK_EQ_INT(class_of(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD)), MPI_ERR_BUFFER);
  CHECK_EQ_INT(class_of(MPI_Barrier(MPI_COMM_NULL)), MPI_ERR_COMM);
  CHECK_EQ_INT(class_of(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD)), MPI_ERR_OP);
  CHECK_EQ_INT(class_of(MPI_Allreduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD)), MPI_ERR_OP);
  CHECK_EQ_INT(class_of(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)), MPI_ERR_BUFFER);
  CHECK_EQ_INT(class_of(MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)), MPI_ERR_BUFFER);
  CHECK_EQ_INT(class_of(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD)), MPI_ERR_ROOT);
  CHECK_EQ_INT(class_of(MPI_Gather(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD)),
               rank == 0 ? MPI_ERR_BUFFER : MPI_SUCCESS);
  CHECK_EQ_INT(class_of(MPI_Ibcast(a, 1, MPI_INT, size, MPI_COMM_WORLD, &request)), MPI_ERR_ROOT);
  CHECK(request == MPI_REQUEST_NULL);
  CHECK_EQ_INT(class_of(MPI_Iallreduce(a, b, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request)), MPI_ERR_COUNT);
  /* The gather above failed only at the root; the others were not erroneous in themselves
   * but did start a gather: complete it so every rank's collective sequence agrees. */
  if (rank == 0) MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD);
  /* Still usable. */
  a[0] = rank + 1;
  CHECK_EQ_INT(MPI_Allreduce(MPI_IN_PLACE, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
  CHECK_EQ_INT(a[0], size * (size + 1) / 2);
  MPI_Finalize();
  return 0;
}
