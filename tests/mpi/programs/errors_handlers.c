/* Error handlers: MPI_ERRORS_RETURN hands codes back, a program's own handler is called
 * with the communicator, the code and (zmpi, like Open MPI, passes it) the call's name;
 * get/set/free/call behave as MPI-3.1 section 8.3 says.
 * zmpi-test-ranks: 1 2
 */
#include <stdarg.h>
#include <string.h>

#include "check.h"

static int calls = 0;
static int lastCode = MPI_SUCCESS;
static MPI_Comm lastComm = MPI_COMM_NULL;
static char lastCall[64];

static void recordError(MPI_Comm* comm, int* code, ...) {
  va_list args;
  va_start(args, code);
  const char* call = va_arg(args, const char*);
  va_end(args);
  ++calls;
  lastCode = *code;
  lastComm = *comm;
  strncpy(lastCall, call ? call : "", sizeof lastCall - 1);
}

static void ignoreFileError(MPI_File* file, int* code, ...) {}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* The default is MPI_ERRORS_ARE_FATAL. */
  MPI_Errhandler current = MPI_ERRHANDLER_NULL;
  CHECK_EQ_INT(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &current), MPI_SUCCESS);
  CHECK(current == MPI_ERRORS_ARE_FATAL);
  CHECK_EQ_INT(MPI_Errhandler_free(&current), MPI_SUCCESS);
  CHECK(current == MPI_ERRHANDLER_NULL);

  /* MPI_ERRORS_RETURN: the code comes back. */
  CHECK_EQ_INT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
  int value = 1;
  CHECK_EQ_INT(MPI_Send(&value, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  CHECK_EQ_INT(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER), MPI_SUCCESS);

  /* A program's handler. */
  MPI_Errhandler mine;
  CHECK_EQ_INT(MPI_Comm_create_errhandler(recordError, &mine), MPI_SUCCESS);
  CHECK(mine != MPI_ERRHANDLER_NULL);
  CHECK_EQ_INT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &current), MPI_SUCCESS);
  CHECK(current == mine);
  CHECK_EQ_INT(MPI_Errhandler_free(&current), MPI_SUCCESS);

  int rc = MPI_Send(&value, 1, MPI_INT, -5, 0, MPI_COMM_WORLD);
  CHECK_EQ_INT(rc, MPI_ERR_RANK);
  CHECK_EQ_INT(calls, 1);
  CHECK_EQ_INT(lastCode, MPI_ERR_RANK);
  CHECK(lastComm == MPI_COMM_WORLD);
  CHECK(strcmp(lastCall, "MPI_Send") == 0);

  /* MPI_Comm_call_errhandler runs it with the given code and returns MPI_SUCCESS. */
  CHECK_EQ_INT(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG), MPI_SUCCESS);
  CHECK_EQ_INT(calls, 2);
  CHECK_EQ_INT(lastCode, MPI_ERR_TAG);

  /* Freeing the program's handle leaves it in force on the communicator. */
  CHECK_EQ_INT(MPI_Errhandler_free(&mine), MPI_SUCCESS);
  CHECK(mine == MPI_ERRHANDLER_NULL);
  CHECK_EQ_INT(MPI_Send(&value, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  CHECK_EQ_INT(calls, 3);
  CHECK_EQ_INT(lastCode, MPI_ERR_COUNT);

  /* Bad arguments: errors reported through MPI_COMM_WORLD's handler (still ours). */
  CHECK_EQ_INT(MPI_Errhandler_free(&mine), MPI_ERR_ARG); /* already MPI_ERRHANDLER_NULL */
  CHECK_EQ_INT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Comm_create_errhandler(NULL, &mine), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
  MPI_Errhandler fileHandler;
  CHECK_EQ_INT(MPI_File_create_errhandler(ignoreFileError, &fileHandler), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, fileHandler), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Errhandler_free(&fileHandler), MPI_SUCCESS);
  CHECK_EQ_INT(calls, 9);

  /* Each communicator has its own handler: MPI_COMM_SELF still has the default. */
  CHECK_EQ_INT(MPI_Comm_get_errhandler(MPI_COMM_SELF, &current), MPI_SUCCESS);
  CHECK(current == MPI_ERRORS_ARE_FATAL);
  CHECK_EQ_INT(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Send(&value, 1, MPI_INT, 0, -3, MPI_COMM_SELF), MPI_ERR_TAG);
  CHECK_EQ_INT(calls, 9);

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  return 0;
}
