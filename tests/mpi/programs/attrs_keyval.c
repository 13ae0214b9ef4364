/* Attribute caching: the predefined attributes of MPI_COMM_WORLD, keyvals with copy and
 * delete callbacks on communicators and datatypes, MPI_Comm_dup copying them, and the
 * MPI-1 names.
 * zmpi-test-ranks: 1 2
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The MPI-1 names are deprecated (mpi.h says so); this test calls them on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int deletes = 0, copies = 0;
static void* lastDeleted = NULL;
static int extraSeen = 0;

static int countingDelete(MPI_Comm comm, int keyval, void* value, void* extra) {
  ++deletes;
  lastDeleted = value;
  extraSeen = *(int*)extra;
  return MPI_SUCCESS;
}

/* Copies a heap int, so each communicator owns its own value. */
static int deepCopy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  ++copies;
  int* copy = malloc(sizeof *copy);
  *copy = *(int*)in + 1;
  *(void**)out = copy;
  *flag = 1;
  return MPI_SUCCESS;
}

static int freeingDelete(MPI_Comm comm, int keyval, void* value, void* extra) {
  ++deletes;
  free(value);
  return MPI_SUCCESS;
}

static int failNow = 1;
static int failingDelete(MPI_Comm comm, int keyval, void* value, void* extra) {
  return failNow ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int typeDeletes = 0;
static int typeDelete(MPI_Datatype type, int keyval, void* value, void* extra) {
  ++typeDeletes;
  return MPI_SUCCESS;
}

static void checkPredefined(int size) {
  int* value = NULL;
  int flag = 0;
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(*value, INT_MAX);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(*value, MPI_PROC_NULL);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(*value, MPI_ANY_SOURCE);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(*value, 0);
  const char* universe = getenv("ZMPI_UNIVERSE_SIZE");
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(*value, universe ? atoi(universe) : size);
  const char* appnum = getenv("ZMPI_APPNUM");
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag), MPI_SUCCESS);
  CHECK(flag);
  CHECK_EQ_INT(*value, appnum ? atoi(appnum) : 0);
  /* Only MPI_COMM_WORLD carries them. */
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &value, &flag), MPI_SUCCESS);
  CHECK(!flag);
  /* The program may not change or remove them. */
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_HOST), MPI_ERR_KEYVAL);
  int predefined = MPI_TAG_UB;
  CHECK_EQ_INT(MPI_Comm_free_keyval(&predefined), MPI_ERR_KEYVAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  checkPredefined(size);

  /* set / get / replace / delete, with the delete callback seeing value and extra state. */
  int extra = 42, keyval = MPI_KEYVAL_INVALID;
  CHECK_EQ_INT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, countingDelete, &keyval, &extra), MPI_SUCCESS);
  CHECK(keyval != MPI_KEYVAL_INVALID);
  int a = 1, b = 2;
  void* got = NULL;
  int flag = -1;
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag), MPI_SUCCESS);
  CHECK_EQ_INT(flag, 0);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &a), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag), MPI_SUCCESS);
  CHECK(flag && got == &a);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &b), MPI_SUCCESS); /* deletes &a first */
  CHECK_EQ_INT(deletes, 1);
  CHECK(lastDeleted == &a);
  CHECK_EQ_INT(extraSeen, 42);
  CHECK_EQ_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval), MPI_SUCCESS);
  CHECK_EQ_INT(deletes, 2);
  CHECK(lastDeleted == &b);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag), MPI_SUCCESS);
  CHECK_EQ_INT(flag, 0);

  /* A freed keyval is unusable at once, but a value still attached is deleted later
   * through its callback. */
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &a), MPI_SUCCESS);
  int saved = keyval;
  CHECK_EQ_INT(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS);
  CHECK_EQ_INT(keyval, MPI_KEYVAL_INVALID);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_SELF, saved, &got, &flag), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, saved, &a), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Comm_free_keyval(&keyval), MPI_ERR_KEYVAL);
  /* MPI_Finalize deletes MPI_COMM_SELF's attributes (checked by the count at the end
   * only when the library does so; MPI requires it). */

  /* Bad arguments. */
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, 999999, &got, &flag), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &got, &flag), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_NULL, MPI_TAG_UB, &got, &flag), MPI_ERR_COMM);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &flag), MPI_ERR_ARG);
  CHECK_EQ_INT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG);
  /* A failing delete callback makes the call fail and keeps the value. */
  int failing;
  CHECK_EQ_INT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failingDelete, &failing, NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, failing, &a), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, failing), MPI_ERR_OTHER);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, failing, &got, &flag), MPI_SUCCESS);
  CHECK(flag && got == &a);

  /* Datatype attributes, and keyvals of one kind are not valid for another. */
  int typeKeyval;
  CHECK_EQ_INT(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, typeDelete, &typeKeyval, NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Type_set_attr(MPI_DOUBLE, typeKeyval, &b), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Type_get_attr(MPI_DOUBLE, typeKeyval, &got, &flag), MPI_SUCCESS);
  CHECK(flag && got == &b);
  CHECK_EQ_INT(MPI_Type_get_attr(MPI_INT, typeKeyval, &got, &flag), MPI_SUCCESS);
  CHECK(!flag);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, typeKeyval, &b), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Type_set_attr(MPI_DATATYPE_NULL, typeKeyval, &b), MPI_ERR_TYPE);
  CHECK_EQ_INT(MPI_Type_delete_attr(MPI_DOUBLE, typeKeyval), MPI_SUCCESS);
  CHECK_EQ_INT(typeDeletes, 1);
  CHECK_EQ_INT(MPI_Type_free_keyval(&typeKeyval), MPI_SUCCESS);
  int winKeyval;
  CHECK_EQ_INT(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &winKeyval, NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_get_attr(MPI_COMM_WORLD, winKeyval, &got, &flag), MPI_ERR_KEYVAL);
  CHECK_EQ_INT(MPI_Win_free_keyval(&winKeyval), MPI_SUCCESS);

  /* MPI_Comm_dup copies through the callbacks; MPI_Comm_free deletes. Skipped while
   * MPI_Comm_dup is not implemented. */
  int dupKeyval, nullKeyval, dupFnKeyval;
  CHECK_EQ_INT(MPI_Comm_create_keyval(deepCopy, freeingDelete, &dupKeyval, NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &nullKeyval, NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupFnKeyval, NULL), MPI_SUCCESS);
  int* original = malloc(sizeof *original);
  *original = 10;
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, dupKeyval, original), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, nullKeyval, &a), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Comm_set_attr(MPI_COMM_WORLD, dupFnKeyval, &b), MPI_SUCCESS);
  MPI_Comm dup;
  int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rc == MPI_ERR_UNSUPPORTED_OPERATION) {
    printf("attrs_keyval: MPI_Comm_dup not implemented yet; copy callbacks not exercised\n");
  } else {
    CHECK_EQ_INT(rc, MPI_SUCCESS);
    CHECK_EQ_INT(copies, 1);
    int* copied = NULL;
    CHECK_EQ_INT(MPI_Comm_get_attr(dup, dupKeyval, &copied, &flag), MPI_SUCCESS);
    CHECK(flag && copied != original && *copied == 11);
    CHECK_EQ_INT(MPI_Comm_get_attr(dup, nullKeyval, &got, &flag), MPI_SUCCESS);
    CHECK(!flag);
    CHECK_EQ_INT(MPI_Comm_get_attr(dup, dupFnKeyval, &got, &flag), MPI_SUCCESS);
    CHECK(flag && got == &b);
    int* tagUb = NULL; /* inherited, as in Open MPI */
    CHECK_EQ_INT(MPI_Comm_get_attr(dup, MPI_TAG_UB, &tagUb, &flag), MPI_SUCCESS);
    CHECK(flag && *tagUb == INT_MAX);
    const int before = deletes;
    CHECK_EQ_INT(MPI_Comm_free(&dup), MPI_SUCCESS);
    CHECK_EQ_INT(deletes, before + 1);
  }
  const int before = deletes;
  CHECK_EQ_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, dupKeyval), MPI_SUCCESS);
  CHECK_EQ_INT(deletes, before + 1);

  /* The MPI-1 names behave like the MPI-2 ones. */
  int oldKeyval;
  CHECK_EQ_INT(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &oldKeyval, NULL), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Attr_put(MPI_COMM_WORLD, oldKeyval, &a), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Attr_get(MPI_COMM_WORLD, oldKeyval, &got, &flag), MPI_SUCCESS);
  CHECK(flag && got == &a);
  CHECK_EQ_INT(MPI_Attr_delete(MPI_COMM_WORLD, oldKeyval), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Keyval_free(&oldKeyval), MPI_SUCCESS);
  int* tagUb = NULL;
  CHECK_EQ_INT(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tagUb, &flag), MPI_SUCCESS);
  CHECK(flag && *tagUb == INT_MAX);

  failNow = 0;
  CHECK_EQ_INT(MPI_Comm_delete_attr(MPI_COMM_WORLD, failing), MPI_SUCCESS);
  MPI_Finalize();
  return 0;
}
