/* Generalized requests: query_fn fills the status at completion by Wait/Test (and
 * Request_get_status), free_fn runs when the request goes (or at MPI_Grequest_complete
 * after an early MPI_Request_free), cancel_fn on MPI_Cancel with the completion state;
 * they mix with point-to-point requests in Waitall/Waitany/Testsome, and a completion on
 * another thread wakes a waiter. An error from query_fn comes back from MPI_Wait.
 */
// zmpi-test-ranks: 1 2
#include <pthread.h>
#include <string.h>

#include "check.h"

typedef struct {
  int queries, frees, cancels, lastCancelComplete;
  int source, tag, bytes, error;
} State;

static int query(void* extra, MPI_Status* status) {
  State* s = (State*)extra;
  ++s->queries;
  status->MPI_SOURCE = s->source;
  status->MPI_TAG = s->tag;
  MPI_Status_set_elements(status, MPI_BYTE, s->bytes);
  MPI_Status_set_cancelled(status, s->cancels > 0);
  return s->error;
}

static int release(void* extra) {
  ++((State*)extra)->frees;
  return MPI_SUCCESS;
}

static int cancel(void* extra, int complete) {
  State* s = (State*)extra;
  ++s->cancels;
  s->lastCancelComplete = complete;
  return MPI_SUCCESS;
}

static void init(State* s, int source, int tag, int bytes) {
  memset(s, 0, sizeof *s);
  s->source = source;
  s->tag = tag;
  s->bytes = bytes;
}

static void* completeLater(void* request) {
  MPI_Grequest_complete(*(MPI_Request*)request);
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Status status;
  int flag, count;

  /* Test before and after completion; query once done, free with the request. */
  State s;
  init(&s, 7, 11, 24);
  MPI_Request g;
  MPI_Grequest_start(query, release, cancel, &s, &g);
  MPI_Test(&g, &flag, &status);
  CHECK_EQ_INT(flag, 0);
  CHECK_EQ_INT(s.queries, 0);
  MPI_Grequest_complete(g);
  MPI_Request_get_status(g, &flag, &status); /* completes nothing: the request stays */
  CHECK_EQ_INT(flag, 1);
  CHECK_EQ_INT(status.MPI_TAG, 11);
  CHECK_EQ_INT(s.frees, 0);
  MPI_Test(&g, &flag, &status);
  CHECK_EQ_INT(flag, 1);
  CHECK(g == MPI_REQUEST_NULL);
  CHECK_EQ_INT(status.MPI_SOURCE, 7);
  CHECK_EQ_INT(status.MPI_TAG, 11);
  MPI_Get_count(&status, MPI_INT, &count);
  CHECK_EQ_INT(count, 6);
  CHECK_EQ_INT(s.frees, 1);

  /* Waitall over a generalized request and a message to self. */
  init(&s, 1, 2, 0);
  MPI_Request requests[3];
  int out = 42, in = 0;
  MPI_Grequest_start(query, release, cancel, &s, &requests[0]);
  MPI_Irecv(&in, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(&out, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &requests[2]);
  MPI_Grequest_complete(requests[0]);
  MPI_Status statuses[3];
  MPI_Waitall(3, requests, statuses);
  CHECK_EQ_INT(in, 42);
  CHECK_EQ_INT(statuses[0].MPI_TAG, 2);
  CHECK_EQ_INT(statuses[1].MPI_TAG, 3);
  CHECK_EQ_INT(s.frees, 1);

  /* Waitany and Testsome pick the completed generalized request. */
  State a, b;
  init(&a, 0, 20, 0);
  init(&b, 0, 21, 0);
  MPI_Grequest_start(query, release, cancel, &a, &requests[0]);
  MPI_Grequest_start(query, release, cancel, &b, &requests[1]);
  int outcount, indices[2], index;
  MPI_Testsome(2, requests, &outcount, indices, statuses);
  CHECK_EQ_INT(outcount, 0);
  MPI_Grequest_complete(requests[1]);
  MPI_Waitany(2, requests, &index, &status);
  CHECK_EQ_INT(index, 1);
  CHECK_EQ_INT(status.MPI_TAG, 21);
  MPI_Grequest_complete(requests[0]);
  MPI_Testsome(2, requests, &outcount, indices, statuses);
  CHECK_EQ_INT(outcount, 1);
  CHECK_EQ_INT(indices[0], 0);
  CHECK_EQ_INT(statuses[0].MPI_TAG, 20);
  CHECK_EQ_INT(a.frees + b.frees, 2);

  /* Completed on another thread while this one waits. */
  init(&s, 0, 30, 0);
  MPI_Grequest_start(query, release, cancel, &s, &g);
  pthread_t worker;
  MPI_Request shared = g;
  pthread_create(&worker, NULL, completeLater, &shared);
  MPI_Wait(&g, &status);
  pthread_join(worker, NULL);
  CHECK_EQ_INT(status.MPI_TAG, 30);
  CHECK_EQ_INT(s.frees, 1);

  /* Cancel: cancel_fn learns whether the request was complete; the status says cancelled. */
  init(&s, 0, 40, 0);
  MPI_Grequest_start(query, release, cancel, &s, &g);
  MPI_Cancel(&g);
  CHECK_EQ_INT(s.cancels, 1);
  CHECK_EQ_INT(s.lastCancelComplete, 0);
  MPI_Grequest_complete(g);
  MPI_Wait(&g, &status);
  MPI_Test_cancelled(&status, &flag);
  CHECK_EQ_INT(flag, 1);

  /* Freed before completion: free_fn runs at MPI_Grequest_complete, query_fn never. */
  init(&s, 0, 50, 0);
  MPI_Grequest_start(query, release, cancel, &s, &g);
  MPI_Request keep = g;
  MPI_Request_free(&g);
  CHECK(g == MPI_REQUEST_NULL);
  CHECK_EQ_INT(s.frees, 0);
  MPI_Grequest_complete(keep);
  CHECK_EQ_INT(s.frees, 1);
  CHECK_EQ_INT(s.queries, 0);

  /* Freed after completion: free_fn at once. */
  init(&s, 0, 60, 0);
  MPI_Grequest_start(query, release, NULL, &s, &g);
  MPI_Grequest_complete(g);
  MPI_Request_free(&g);
  CHECK_EQ_INT(s.frees, 1);

  /* query_fn's error is MPI_Wait's; completing twice is MPI_ERR_REQUEST. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  init(&s, 0, 70, 0);
  s.error = MPI_ERR_OTHER;
  MPI_Grequest_start(query, release, cancel, &s, &g);
  keep = g;
  MPI_Grequest_complete(g);
  int rc = MPI_Grequest_complete(keep);
  int cls;
  MPI_Error_class(rc, &cls);
  CHECK_EQ_INT(cls, MPI_ERR_REQUEST);
  rc = MPI_Wait(&g, &status);
  MPI_Error_class(rc, &cls);
  CHECK_EQ_INT(cls, MPI_ERR_OTHER);
  CHECK_EQ_INT(s.frees, 1);

  MPI_Finalize();
  return 0;
}
