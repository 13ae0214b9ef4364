/* Window errors under MPI_ERRORS_RETURN, and user window error handlers: the classes the
 * standard names for each misuse.
 * zmpi-test-ranks: 1 2 */
#include <string.h>

#include "check.h"

static int handlerCalls = 0;
static int lastCode = MPI_SUCCESS;

static void onWindowError(MPI_Win* win, int* code, ...) {
  (void)win;
  handlerCalls++;
  lastCode = *code;
}

static int classOf(int rc) {
  int cls;
  MPI_Error_class(rc, &cls);
  return cls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int memory[4] = {0, 0, 0, 0};
  MPI_Win win;
  MPI_Win_create(memory, sizeof memory, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  MPI_Errhandler handler;
  MPI_Win_get_errhandler(win, &handler);
  CHECK(handler == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&handler);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);

  int value = 1;
  /* No epoch at all. */
  CHECK_EQ_INT(classOf(MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win)), MPI_ERR_RMA_SYNC);
  CHECK_EQ_INT(classOf(MPI_Win_unlock(0, win)), MPI_ERR_RMA_SYNC);
  CHECK_EQ_INT(classOf(MPI_Win_complete(win)), MPI_ERR_RMA_SYNC);
  CHECK_EQ_INT(classOf(MPI_Win_wait(win)), MPI_ERR_RMA_SYNC);
  CHECK_EQ_INT(classOf(MPI_Win_flush(0, win)), MPI_ERR_RMA_SYNC);
  CHECK_EQ_INT(classOf(MPI_Win_lock(99, 0, 0, win)), MPI_ERR_LOCKTYPE);

  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  CHECK_EQ_INT(classOf(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)), MPI_ERR_RMA_SYNC);
  /* Beyond the window: 4 ints; displacement 3 with 2 ints reaches byte 20. */
  int two[2] = {1, 2};
  CHECK_EQ_INT(classOf(MPI_Put(two, 2, MPI_INT, 0, 3, 2, MPI_INT, win)), MPI_ERR_RMA_RANGE);
  CHECK_EQ_INT(classOf(MPI_Get(two, 1, MPI_INT, 0, -1, 1, MPI_INT, win)), MPI_ERR_RMA_RANGE);
  CHECK_EQ_INT(classOf(MPI_Put(&value, 1, MPI_INT, size, 0, 1, MPI_INT, win)), MPI_ERR_RANK);
  CHECK_EQ_INT(classOf(MPI_Put(&value, 2, MPI_INT, 0, 0, 1, MPI_INT, win)), MPI_ERR_TYPE);
  MPI_Op userOp;
  MPI_Op_create((MPI_User_function*)onWindowError, 1, &userOp);
  CHECK_EQ_INT(classOf(MPI_Accumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, userOp, win)), MPI_ERR_OP);
  MPI_Op_free(&userOp);
  CHECK_EQ_INT(classOf(MPI_Put(&value, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win)), MPI_SUCCESS);
  MPI_Win_unlock(0, win);

  MPI_Aint querySize;
  int unit;
  void* base;
  CHECK_EQ_INT(classOf(MPI_Win_shared_query(win, 0, &querySize, &unit, &base)), MPI_ERR_RMA_FLAVOR);

  /* A user handler sees the code; MPI_Win_call_errhandler goes to it too. */
  MPI_Errhandler mine;
  MPI_Win_create_errhandler(onWindowError, &mine);
  MPI_Win_set_errhandler(win, mine);
  MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
  CHECK_EQ_INT(handlerCalls, 1);
  CHECK_EQ_INT(classOf(lastCode), MPI_ERR_RMA_SYNC);
  CHECK_EQ_INT(MPI_Win_call_errhandler(win, MPI_ERR_OTHER), MPI_SUCCESS);
  CHECK_EQ_INT(handlerCalls, 2);
  CHECK_EQ_INT(lastCode, MPI_ERR_OTHER);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  CHECK_EQ_INT(classOf(MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine)), MPI_ERR_ARG);
  MPI_Errhandler_free(&mine);

  /* Invalid windows go to MPI_COMM_WORLD's handler. */
  CHECK_EQ_INT(classOf(MPI_Win_fence(0, MPI_WIN_NULL)), MPI_ERR_WIN);
  MPI_Win_free(&win);
  CHECK(win == MPI_WIN_NULL);
  MPI_Finalize();
  return 0;
}
