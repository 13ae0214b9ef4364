/* The predefined attribute callbacks as real functions: MPI_COMM_DUP_FN copies an
 * attribute to a dup, MPI_COMM_NULL_COPY_FN does not, the delete ones do nothing; the
 * TYPE_ and WIN_ ones and MPI-1's MPI_DUP_FN alike; and the Fortran symbols Open MPI's
 * libmpi.so.40 exports for them (MPI_COMM_DUP_FN, mpi_comm_dup_fn_, ...), called the way
 * Fortran calls them. MPI_Register_datarep and views naming data representations.
 */
// zmpi-test-ranks: 1 2
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "io_tmpname.h"

/* The Fortran callbacks (mpi.h makes the upper-case names macros for C). */
void mpi_comm_dup_fn_(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Aint*, int*, MPI_Fint*);
void mpi_comm_null_copy_fn_(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Aint*, int*, MPI_Fint*);
void mpi_comm_null_delete_fn_(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Fint*);
void mpi_dup_fn_(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, int*, MPI_Fint*);
void mpi_type_dup_fn(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Aint*, int*, MPI_Fint*);
void mpi_win_null_copy_fn__(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Aint*, int*, MPI_Fint*);
void mpi_conversion_fn_null_(char*, MPI_Fint*, MPI_Fint*, char*, MPI_Offset*, MPI_Aint*, MPI_Fint*);

static int errorClass(int rc) {
  int cls;
  MPI_Error_class(rc, &cls);
  return cls;
}

static void checkCommCallbacks(void) {
  int dupKey, nullKey, oldKey;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupKey, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &nullKey, NULL);
  MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &oldKey, NULL);
  static int a = 1, b = 2, c = 3;
  MPI_Comm_set_attr(MPI_COMM_WORLD, dupKey, &a);
  MPI_Comm_set_attr(MPI_COMM_WORLD, nullKey, &b);
  MPI_Comm_set_attr(MPI_COMM_WORLD, oldKey, &c);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int* value = NULL;
  int flag = 0;
  MPI_Comm_get_attr(dup, dupKey, &value, &flag);
  CHECK(flag && value == &a);
  MPI_Comm_get_attr(dup, nullKey, &value, &flag);
  CHECK_EQ_INT(flag, 0);
  MPI_Comm_get_attr(dup, oldKey, &value, &flag);
  CHECK(flag && value == &c);
  MPI_Comm_free(&dup);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, dupKey);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, nullKey);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, oldKey);
  MPI_Comm_free_keyval(&dupKey);
  MPI_Comm_free_keyval(&nullKey);
  MPI_Keyval_free(&oldKey);
}

static void checkTypeAndWinCallbacks(void) {
  int typeKey, winKey;
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &typeKey, NULL);
  static int v = 5;
  MPI_Datatype type, copy;
  MPI_Type_contiguous(2, MPI_INT, &type);
  MPI_Type_set_attr(type, typeKey, &v);
  MPI_Type_dup(type, &copy);
  int* value = NULL;
  int flag = 0;
  MPI_Type_get_attr(copy, typeKey, &value, &flag);
  CHECK(flag && value == &v);
  MPI_Type_free(&copy);
  MPI_Type_free(&type);
  MPI_Type_free_keyval(&typeKey);

  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &winKey, NULL);
  MPI_Win win;
  MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_attr(win, winKey, &v);
  MPI_Win_get_attr(win, winKey, &value, &flag);
  CHECK(flag && value == &v);
  MPI_Win_free(&win); /* runs MPI_WIN_NULL_DELETE_FN */
  MPI_Win_free_keyval(&winKey);
  /* MPI_WIN_DUP_FN is a real function too (no window is ever duplicated). */
  int out = 0;
  CHECK_EQ_INT(MPI_WIN_DUP_FN(MPI_WIN_NULL, 0, NULL, &v, &value, &out), MPI_SUCCESS);
  CHECK(out == 1 && value == &v);
}

static void checkFortranCallbacks(void) {
  MPI_Fint comm = MPI_Comm_c2f(MPI_COMM_WORLD), key = 0, ierr = -1, small = 9, smallOut = 0;
  MPI_Aint extra = 0, in = 1234, out = 0;
  int flag = -1;
  mpi_comm_dup_fn_(&comm, &key, &extra, &in, &out, &flag, &ierr);
  CHECK(out == 1234 && flag == 1 && ierr == MPI_SUCCESS);
  out = 0;
  mpi_comm_null_copy_fn_(&comm, &key, &extra, &in, &out, &flag, &ierr);
  CHECK(out == 0 && flag == 0 && ierr == MPI_SUCCESS);
  ierr = -1;
  mpi_comm_null_delete_fn_(&comm, &key, &in, &extra, &ierr);
  CHECK_EQ_INT(ierr, MPI_SUCCESS);
  MPI_Fint smallExtra = 0;
  mpi_dup_fn_(&comm, &key, &smallExtra, &small, &smallOut, &flag, &ierr);
  CHECK(smallOut == 9 && flag == 1);
  out = 0;
  mpi_type_dup_fn(&comm, &key, &extra, &in, &out, &flag, &ierr);
  CHECK(out == 1234 && flag == 1);
  mpi_win_null_copy_fn__(&comm, &key, &extra, &in, &out, &flag, &ierr);
  CHECK_EQ_INT(flag, 0);
  ierr = -1;
  mpi_conversion_fn_null_(NULL, &key, &key, NULL, NULL, &extra, &ierr);
  CHECK_EQ_INT(ierr, MPI_SUCCESS);
}

static int convert(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position, void* extra) {
  (void)userbuf, (void)type, (void)count, (void)filebuf, (void)position, (void)extra;
  return MPI_SUCCESS;
}

static int extent(MPI_Datatype type, MPI_Aint* file_extent, void* extra) {
  (void)extra;
  MPI_Aint lb;
  return MPI_Type_get_extent(type, &lb, file_extent);
}

static void checkDatareps(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK_EQ_INT(MPI_Register_datarep("zmpi-plain", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, NULL),
               MPI_SUCCESS);
  CHECK_EQ_INT(
      errorClass(MPI_Register_datarep("zmpi-plain", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, NULL)),
      MPI_ERR_DUP_DATAREP);
  CHECK_EQ_INT(errorClass(MPI_Register_datarep("native", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent, NULL)),
               MPI_ERR_DUP_DATAREP);
  CHECK_EQ_INT(MPI_Register_datarep("zmpi-converting", convert, convert, extent, NULL), MPI_SUCCESS);

  char path[256];
  io_tmpname(MPI_COMM_WORLD, "datarep", path, sizeof path);
  MPI_File fh;
  CHECK_EQ_INT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                             MPI_INFO_NULL, &fh),
               MPI_SUCCESS);
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  /* A registered representation without conversion functions reads and writes native data. */
  CHECK_EQ_INT(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "zmpi-plain", MPI_INFO_NULL), MPI_SUCCESS);
  char name[MPI_MAX_DATAREP_STRING];
  MPI_Offset disp;
  MPI_Datatype etype, filetype;
  MPI_File_get_view(fh, &disp, &etype, &filetype, name);
  CHECK(strcmp(name, "zmpi-plain") == 0);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = 100 + rank, back = 0;
  MPI_Status status;
  CHECK_EQ_INT(MPI_File_write_at(fh, rank, &value, 1, MPI_INT, &status), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_File_read_at(fh, rank, &back, 1, MPI_INT, &status), MPI_SUCCESS);
  CHECK_EQ_INT(back, value);
  /* Unknown names, and ones whose conversion zmpi would have to call, fail naming it. */
  CHECK_EQ_INT(errorClass(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL)),
               MPI_ERR_UNSUPPORTED_DATAREP);
  CHECK_EQ_INT(errorClass(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "zmpi-converting", MPI_INFO_NULL)),
               MPI_ERR_UNSUPPORTED_DATAREP);
  MPI_File_close(&fh);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  checkCommCallbacks();
  checkTypeAndWinCallbacks();
  checkFortranCallbacks();
  checkDatareps();
  MPI_Finalize();
  return 0;
}
