/* MPI-IO errors: files and MPI_FILE_NULL default to MPI_ERRORS_RETURN; illegal access
 * modes, missing files, EXCL on an existing file, permissions, writing a read-only file
 * (MPI_ERR_READ_ONLY, as Open MPI) and reading a write-only one (MPI_ERR_ACCESS), bad
 * arguments, unsupported data representations and sequential-mode limits come back as
 * their classes; file error handlers are called with the file, the code and the call.
 * zmpi-test-ranks: 1 2
 */
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "io_tmpname.h"

static int errorClassOf(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

#define CHECK_CLASS(call, cls) CHECK_EQ_INT(errorClassOf(call), cls)

static int calls = 0;
static int lastCode = MPI_SUCCESS;
static MPI_File lastFile = MPI_FILE_NULL;
static char lastCall[64];

static void recordFileError(MPI_File* file, int* code, ...) {
  va_list args;
  va_start(args, code);
  const char* call = va_arg(args, const char*);
  va_end(args);
  ++calls;
  lastCode = *code;
  lastFile = *file;
  strncpy(lastCall, call ? call : "", sizeof lastCall - 1);
}

static void ignoreCommError(MPI_Comm* comm, int* code, ...) {}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char path[512], missing[512];
  io_tmpname(MPI_COMM_WORLD, "errors", path, sizeof path);
  io_tmpname(MPI_COMM_WORLD, "missing", missing, sizeof missing);

  /* MPI_FILE_NULL's handler, which files start with, is MPI_ERRORS_RETURN. */
  MPI_Errhandler handler;
  CHECK_EQ_INT(MPI_File_get_errhandler(MPI_FILE_NULL, &handler), MPI_SUCCESS);
  CHECK(handler == MPI_ERRORS_RETURN);

  /* Illegal access modes. */
  MPI_File fh = MPI_FILE_NULL;
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh),
              MPI_ERR_AMODE);
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
              MPI_ERR_AMODE);
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE, MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh),
              MPI_ERR_AMODE);
  CHECK(fh == MPI_FILE_NULL);

  /* A missing file; deleting one. */
  CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE);
  CHECK(fh == MPI_FILE_NULL);
  CHECK_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);

  /* Create it, then EXCL on the existing file. */
  CHECK_EQ_INT(
      MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL, MPI_INFO_NULL, &fh),
      MPI_SUCCESS);
  int value = 7;
  CHECK_EQ_INT(MPI_File_write_at_all(fh, rank * (MPI_Offset)sizeof(int), &value, 1, MPI_INT, MPI_STATUS_IGNORE),
               MPI_SUCCESS);
  /* Reading a write-only file. */
  CHECK_CLASS(MPI_File_read_at(fh, 0, &value, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
  MPI_File other = MPI_FILE_NULL;
  CHECK_CLASS(
      MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL, MPI_INFO_NULL, &other),
      MPI_ERR_FILE_EXISTS);
  CHECK(other == MPI_FILE_NULL);

  /* Writing a read-only file, and other bad arguments, all through MPI_ERRORS_RETURN. */
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_errhandler(fh, &handler), MPI_SUCCESS);
  CHECK(handler == MPI_ERRORS_RETURN);
  CHECK_CLASS(MPI_File_write_at(fh, 0, &value, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY);
  CHECK_CLASS(MPI_File_write_all(fh, &value, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY);
  CHECK_CLASS(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY);
  CHECK_CLASS(MPI_File_read_at(fh, 0, &value, -1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
  CHECK_CLASS(MPI_File_read_at(fh, -4, &value, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ARG);
  CHECK_CLASS(MPI_File_read_at(fh, 0, &value, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
  CHECK_CLASS(MPI_File_seek(fh, 0, 12345), MPI_ERR_ARG);
  CHECK_CLASS(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG);
  CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP);
  CHECK_CLASS(MPI_File_set_view(fh, -8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL), MPI_ERR_ARG);
  CHECK_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_CHAR, "native", MPI_INFO_NULL), MPI_ERR_TYPE);
  CHECK_EQ_INT(MPI_File_read_at_all(fh, 0, &value, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_SUCCESS);
  CHECK_EQ_INT(value, 7);

  /* A program's handler on the file: called with the file, the code and the call. */
  MPI_Errhandler mine;
  CHECK_EQ_INT(MPI_File_create_errhandler(recordFileError, &mine), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_set_errhandler(fh, mine), MPI_SUCCESS);
  int rc = MPI_File_write(fh, &value, 1, MPI_INT, MPI_STATUS_IGNORE);
  CHECK_CLASS(rc, MPI_ERR_READ_ONLY);
  CHECK_EQ_INT(calls, 1);
  CHECK(lastFile == fh);
  CHECK_CLASS(lastCode, MPI_ERR_READ_ONLY);
  CHECK(strcmp(lastCall, "MPI_File_write") == 0);
  CHECK_EQ_INT(MPI_File_call_errhandler(fh, MPI_ERR_IO), MPI_SUCCESS);
  CHECK_EQ_INT(calls, 2);
  CHECK_EQ_INT(lastCode, MPI_ERR_IO);
  CHECK_EQ_INT(MPI_File_get_errhandler(fh, &handler), MPI_SUCCESS);
  CHECK(handler == mine);
  CHECK_EQ_INT(MPI_Errhandler_free(&handler), MPI_SUCCESS); /* get returned a reference */
  /* A communicator's handler does not fit a file. */
  MPI_Errhandler commHandler;
  MPI_Comm_create_errhandler(ignoreCommError, &commHandler);
  CHECK_CLASS(MPI_File_set_errhandler(fh, commHandler), MPI_ERR_ARG);
  CHECK_EQ_INT(calls, 3);
  MPI_Errhandler_free(&commHandler);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);

  /* On MPI_FILE_NULL it catches errors of calls with no file, and new files inherit it. */
  CHECK_EQ_INT(MPI_File_set_errhandler(MPI_FILE_NULL, mine), MPI_SUCCESS);
  rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  CHECK_CLASS(rc, MPI_ERR_NO_SUCH_FILE);
  CHECK_EQ_INT(calls, 4);
  CHECK(lastFile == MPI_FILE_NULL);
  CHECK(strcmp(lastCall, "MPI_File_open") == 0);
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_get_errhandler(fh, &handler), MPI_SUCCESS);
  CHECK(handler == mine);
  CHECK_EQ_INT(MPI_Errhandler_free(&handler), MPI_SUCCESS); /* get returned a reference */
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Errhandler_free(&mine), MPI_SUCCESS);

  /* Calls on MPI_FILE_NULL are MPI_ERR_FILE. */
  MPI_Offset size;
  CHECK_CLASS(MPI_File_get_size(MPI_FILE_NULL, &size), MPI_ERR_FILE);
  CHECK_CLASS(MPI_File_close(&fh), MPI_ERR_FILE);

  /* Sequential files allow no explicit offsets nor individual pointers. */
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh),
               MPI_SUCCESS);
  CHECK_CLASS(MPI_File_read_at(fh, 0, &value, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_OPERATION);
  CHECK_CLASS(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION);
  CHECK_EQ_INT(MPI_File_close(&fh), MPI_SUCCESS);

  /* No permission to read (root reads anything, so only checked for others). */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) chmod(path, 0200);
  MPI_Barrier(MPI_COMM_WORLD);
  if (geteuid() != 0) {
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_ACCESS);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK_EQ_INT(MPI_File_delete(path, MPI_INFO_NULL), MPI_SUCCESS);

  MPI_Finalize();
  return 0;
}
