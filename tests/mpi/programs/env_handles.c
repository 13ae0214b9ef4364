/* C <-> Fortran handle conversion at Open MPI's Fortran indices, MPI_Status_c2f/f2c,
 * MPI_Pcontrol and MPI_Alloc_mem/MPI_Free_mem.
 * zmpi-test-ranks: 1 2
 */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  /* Predefined handles at Open MPI's indices (mpif-handles.h). */
  CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_WORLD), 0);
  CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_SELF), 1);
  CHECK_EQ_INT(MPI_Comm_c2f(MPI_COMM_NULL), 2);
  CHECK(MPI_Comm_f2c(0) == MPI_COMM_WORLD);
  CHECK(MPI_Comm_f2c(2) == MPI_COMM_NULL);
  CHECK_EQ_INT(MPI_Type_c2f(MPI_INT), 39);
  CHECK_EQ_INT(MPI_Type_c2f(MPI_DOUBLE), 46);
  CHECK_EQ_INT(MPI_Type_c2f(MPI_BYTE), 1);
  CHECK_EQ_INT(MPI_Type_c2f(MPI_DATATYPE_NULL), 0);
  CHECK(MPI_Type_f2c(45) == MPI_FLOAT);
  CHECK(MPI_Type_f2c(72) == MPI_COUNT);
  CHECK_EQ_INT(MPI_Op_c2f(MPI_SUM), 3);
  CHECK_EQ_INT(MPI_Op_c2f(MPI_NO_OP), 14);
  CHECK(MPI_Op_f2c(1) == MPI_MAX);
  CHECK_EQ_INT(MPI_Group_c2f(MPI_GROUP_EMPTY), 1);
  CHECK(MPI_Group_f2c(0) == MPI_GROUP_NULL);
  CHECK_EQ_INT(MPI_Errhandler_c2f(MPI_ERRORS_RETURN), 2);
  CHECK(MPI_Errhandler_f2c(1) == MPI_ERRORS_ARE_FATAL);
  CHECK_EQ_INT(MPI_Info_c2f(MPI_INFO_ENV), 1);
  CHECK(MPI_Info_f2c(0) == MPI_INFO_NULL);
  CHECK_EQ_INT(MPI_Request_c2f(MPI_REQUEST_NULL), 0);
  CHECK_EQ_INT(MPI_Message_c2f(MPI_MESSAGE_NO_PROC), 1);
  CHECK(MPI_Message_f2c(0) == MPI_MESSAGE_NULL);
  CHECK_EQ_INT(MPI_Win_c2f(MPI_WIN_NULL), 0);
  CHECK_EQ_INT(MPI_File_c2f(MPI_FILE_NULL), 0);

  /* Indices never handed out give the NULL handle. */
  CHECK(MPI_Comm_f2c(12345) == MPI_COMM_NULL);
  CHECK(MPI_Comm_f2c(-1) == MPI_COMM_NULL);
  CHECK(MPI_Type_f2c(100000) == MPI_DATATYPE_NULL);
  CHECK(MPI_Request_f2c(777) == MPI_REQUEST_NULL);
  CHECK(MPI_Info_f2c(99) == MPI_INFO_NULL);
  CHECK(MPI_Win_f2c(5) == MPI_WIN_NULL);
  CHECK(MPI_File_f2c(5) == MPI_FILE_NULL);

  /* Objects the program creates get new, stable indices that convert back. */
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Fint infoIndex = MPI_Info_c2f(info);
  CHECK(infoIndex > 1);
  CHECK_EQ_INT(MPI_Info_c2f(info), infoIndex);
  CHECK(MPI_Info_f2c(infoIndex) == info);
  MPI_Info_free(&info);
  int value = rank;
  MPI_Request request;
  CHECK_EQ_INT(MPI_Irecv(&value, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &request), MPI_SUCCESS);
  MPI_Fint requestIndex = MPI_Request_c2f(request);
  CHECK(requestIndex > 0);
  MPI_Request back = MPI_Request_f2c(requestIndex);
  CHECK(back == request);
  MPI_Send(&value, 1, MPI_INT, rank, 3, MPI_COMM_WORLD);
  CHECK_EQ_INT(MPI_Wait(&back, MPI_STATUS_IGNORE), MPI_SUCCESS);
  /* Something that is no handle at all converts to -1, as in Open MPI. */
  static long notAHandle[16];
  CHECK_EQ_INT(MPI_Comm_c2f((MPI_Comm)notAHandle), -1);

  /* MPI_Status <-> Fortran status: the same ints, both ways. */
  MPI_Status status;
  memset(&status, 0, sizeof status);
  status.MPI_SOURCE = 3;
  status.MPI_TAG = 77;
  status.MPI_ERROR = MPI_ERR_TRUNCATE;
  MPI_Fint fstatus[sizeof(MPI_Status) / sizeof(int)];
  CHECK_EQ_INT(MPI_Status_c2f(&status, fstatus), MPI_SUCCESS);
  CHECK_EQ_INT(fstatus[0], 3);
  CHECK_EQ_INT(fstatus[1], 77);
  CHECK_EQ_INT(fstatus[2], MPI_ERR_TRUNCATE);
  MPI_Status back2;
  memset(&back2, 0xff, sizeof back2);
  CHECK_EQ_INT(MPI_Status_f2c(fstatus, &back2), MPI_SUCCESS);
  CHECK(memcmp(&status, &back2, sizeof status) == 0);
  CHECK_EQ_INT(MPI_Status_c2f(MPI_STATUS_IGNORE, fstatus), MPI_ERR_IN_STATUS);
  CHECK_EQ_INT(MPI_Status_f2c(NULL, &back2), MPI_ERR_IN_STATUS);

  /* MPI_Pcontrol is accepted at any level. */
  CHECK_EQ_INT(MPI_Pcontrol(0), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Pcontrol(2, "extra", 3), MPI_SUCCESS);

  /* MPI_Alloc_mem / MPI_Free_mem. */
  double* memory = NULL;
  CHECK_EQ_INT(MPI_Alloc_mem(1024 * sizeof(double), MPI_INFO_NULL, &memory), MPI_SUCCESS);
  CHECK(memory != NULL);
  for (int i = 0; i < 1024; ++i) memory[i] = i;
  CHECK(memory[1023] == 1023.0);
  CHECK_EQ_INT(MPI_Free_mem(memory), MPI_SUCCESS);
  void* empty = NULL;
  CHECK_EQ_INT(MPI_Alloc_mem(0, MPI_INFO_NULL, &empty), MPI_SUCCESS);
  CHECK(empty != NULL);
  CHECK_EQ_INT(MPI_Free_mem(empty), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Alloc_mem(-8, MPI_INFO_NULL, &empty), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Alloc_mem(8, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Alloc_mem(8, (MPI_Info)notAHandle, &empty), MPI_ERR_INFO);

  MPI_Finalize();
  return 0;
}
