/* Send modes and requests: Ssend/Issend, Rsend, Bsend with an attached buffer, Isend/
 * Irecv with Waitall/Waitany/Waitsome/Testall, persistent requests with Startall,
 * Sendrecv_replace, cancel of a pending receive, truncation under MPI_ERRORS_RETURN.
 * zmpi-test-ranks: 2 4 */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  CHECK(provided >= MPI_THREAD_SERIALIZED);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = rank ^ 1;
  if (peer >= size) peer = MPI_PROC_NULL;

  /* Synchronous sends in both directions via Issend + Recv. */
  int out = rank, in = -1;
  MPI_Request request;
  MPI_Issend(&out, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &request);
  MPI_Recv(&in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  if (peer != MPI_PROC_NULL) CHECK_EQ_INT(in, peer);
  /* Blocking Ssend head-to-head would deadlock (correctly): order the pair. */
  if (rank % 2 == 0) {
    MPI_Ssend(&out, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&in, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(&out, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
  }

  /* Buffered sends. */
  int bufsize = 4 * (1000 * sizeof(int) + MPI_BSEND_OVERHEAD);
  void* attach = malloc(bufsize);
  MPI_Buffer_attach(attach, bufsize);
  int* data = malloc(1000 * sizeof(int));
  for (int i = 0; i < 1000; ++i) data[i] = rank + i;
  MPI_Bsend(data, 1000, MPI_INT, peer, 3, MPI_COMM_WORLD);
  for (int i = 0; i < 1000; ++i) data[i] = -1; /* the buffered copy must be unaffected */
  MPI_Recv(data, 1000, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (peer != MPI_PROC_NULL) CHECK_EQ_INT(data[999], peer + 999);
  void* detached;
  int detachedSize;
  MPI_Buffer_detach(&detached, &detachedSize);
  CHECK(detached == attach);
  CHECK_EQ_INT(detachedSize, bufsize);
  free(attach);

  /* Nonblocking: several outstanding, completed by Waitany / Waitsome / Testall. */
  int sends[4], recvs[4];
  MPI_Request reqs[8];
  for (int i = 0; i < 4; ++i) {
    sends[i] = rank * 10 + i;
    MPI_Irecv(&recvs[i], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &reqs[i]);
  }
  for (int i = 0; i < 4; ++i) MPI_Isend(&sends[i], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &reqs[4 + i]);
  int done = 0;
  while (done < 4) {
    int index;
    MPI_Waitany(4, reqs, &index, MPI_STATUS_IGNORE);
    CHECK(index != MPI_UNDEFINED);
    CHECK(reqs[index] == MPI_REQUEST_NULL);
    done++;
  }
  int outcount, indices[8];
  MPI_Waitsome(8, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
  int flag = 0;
  while (!flag) MPI_Testall(8, reqs, &flag, MPI_STATUSES_IGNORE);
  if (peer != MPI_PROC_NULL)
    for (int i = 0; i < 4; ++i) CHECK_EQ_INT(recvs[i], peer * 10 + i);

  /* Persistent requests, started three times. */
  MPI_Request persistent[2];
  int pout, pin;
  MPI_Recv_init(&pin, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &persistent[0]);
  MPI_Send_init(&pout, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &persistent[1]);
  for (int iter = 0; iter < 3; ++iter) {
    pout = rank * 100 + iter;
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    CHECK(persistent[0] != MPI_REQUEST_NULL);
    if (peer != MPI_PROC_NULL) CHECK_EQ_INT(pin, peer * 100 + iter);
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);

  /* Sendrecv_replace. */
  int value = rank;
  MPI_Sendrecv_replace(&value, 1, MPI_INT, peer, 30, peer, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (peer != MPI_PROC_NULL) CHECK_EQ_INT(value, peer);

  /* Cancel a receive nobody will match. */
  MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &request);
  MPI_Cancel(&request);
  MPI_Status status;
  MPI_Wait(&request, &status);
  MPI_Test_cancelled(&status, &flag);
  CHECK_EQ_INT(flag, 1);

  /* Truncation is reported, not fatal, under MPI_ERRORS_RETURN. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (peer != MPI_PROC_NULL) {
    int three[3] = {1, 2, 3}, one;
    MPI_Send(three, 3, MPI_INT, peer, 40, MPI_COMM_WORLD);
    int rc = MPI_Recv(&one, 1, MPI_INT, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int cls;
    MPI_Error_class(rc, &cls);
    CHECK_EQ_INT(cls, MPI_ERR_TRUNCATE);
  }
  free(data);
  MPI_Finalize();
  return 0;
}
