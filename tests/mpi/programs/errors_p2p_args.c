/* Bad arguments to MPI_Send, MPI_Recv, MPI_Isend and MPI_Wait under MPI_ERRORS_RETURN:
 * each comes back as the error class MPI names, nothing is sent, and the library keeps
 * working afterwards. Handles that are not MPI objects at all (zeroed memory) are
 * rejected too, not dereferenced as objects.
 * zmpi-test-ranks: 1 2
 */
#include <stdint.h>
#include <string.h>

#include "check.h"

/* Zeroed memory that looks like no MPI object. */
static uint64_t garbage[64];

#define EXPECT_CLASS(call, expected)                                                                                   \
  do {                                                                                                                 \
    int rc_ = (call);                                                                                                  \
    int class_ = -1;                                                                                                   \
    MPI_Error_class(rc_, &class_);                                                                                     \
    if (class_ != (expected)) {                                                                                        \
      fprintf(stderr, "%s:%d: %s returned class %d, expected %s (%d)\n", __FILE__, __LINE__, #call, class_, #expected, \
              (expected));                                                                                             \
      MPI_Abort(MPI_COMM_WORLD, 3);                                                                                    \
    }                                                                                                                  \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm badComm = (MPI_Comm)garbage;
  MPI_Datatype badType = (MPI_Datatype)garbage;
  int buffer[4] = {1, 2, 3, 4};
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Status status;

  /* MPI_Send */
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Send(buffer, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Send(buffer, 1, badType, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Send(buffer, 1, MPI_INT, 0, 0, badComm), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Send(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);

  /* MPI_Recv */
  EXPECT_CLASS(MPI_Recv(buffer, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &status), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Recv(buffer, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &status), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Recv(buffer, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &status), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Recv(buffer, -4, MPI_INT, 0, 0, MPI_COMM_WORLD, &status), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Recv(buffer, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &status), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Recv(buffer, 1, badType, 0, 0, MPI_COMM_WORLD, &status), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Recv(buffer, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &status), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Recv(buffer, 1, MPI_INT, 0, 0, badComm, &status), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Recv(NULL, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &status), MPI_ERR_BUFFER);

  /* MPI_Isend: the same checks, and no request is handed out on failure. */
  EXPECT_CLASS(MPI_Isend(buffer, 1, MPI_INT, size + 1, 0, MPI_COMM_WORLD, &request), MPI_ERR_RANK);
  CHECK(request == MPI_REQUEST_NULL);
  EXPECT_CLASS(MPI_Isend(buffer, 1, MPI_INT, 0, -9, MPI_COMM_WORLD, &request), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Isend(buffer, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request), MPI_ERR_COUNT);
  EXPECT_CLASS(MPI_Isend(buffer, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &request), MPI_ERR_TYPE);
  EXPECT_CLASS(MPI_Isend(buffer, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &request), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Isend(buffer, 1, MPI_INT, 0, 0, badComm, &request), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Isend(NULL, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request), MPI_ERR_BUFFER);
  CHECK(request == MPI_REQUEST_NULL);

  /* MPI_Wait: a handle that is no request; MPI_REQUEST_NULL is fine (empty status). */
  MPI_Request badRequest = (MPI_Request)garbage;
  EXPECT_CLASS(MPI_Wait(&badRequest, &status), MPI_ERR_REQUEST);
  request = MPI_REQUEST_NULL;
  CHECK_EQ_INT(MPI_Wait(&request, &status), MPI_SUCCESS);
  CHECK_EQ_INT(status.MPI_SOURCE, MPI_ANY_SOURCE);

  /* Legal edge cases stay legal: null buffer with count 0, MPI_PROC_NULL, MPI_ANY_TAG on a
   * receive, the largest tag. */
  CHECK_EQ_INT(MPI_Send(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Recv(NULL, 0, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &status), MPI_SUCCESS);
  int* tagUb = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagUb, &flag);
  CHECK(flag);
  CHECK_EQ_INT(MPI_Isend(NULL, 0, MPI_INT, rank, *tagUb, MPI_COMM_WORLD, &request), MPI_SUCCESS);
  CHECK_EQ_INT(MPI_Recv(NULL, 0, MPI_INT, rank, *tagUb, MPI_COMM_WORLD, &status), MPI_SUCCESS);
  CHECK_EQ_INT(status.MPI_TAG, *tagUb);
  CHECK_EQ_INT(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);

  /* Nothing was sent by the failed calls: a ring exchange still matches exactly. */
  if (size > 1) {
    int token = rank, got = -1;
    CHECK_EQ_INT(MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT, (rank + size - 1) % size, 5,
                              MPI_COMM_WORLD, &status),
                 MPI_SUCCESS);
    CHECK_EQ_INT(got, (rank + size - 1) % size);
  }
  int pending = 0;
  CHECK_EQ_INT(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, &status), MPI_SUCCESS);
  CHECK_EQ_INT(pending, 0);

  MPI_Finalize();
  return 0;
}
