/* Rendezvous payloads, which over tcp take the bulk data connections (transport/bulk_link.h)
 * when the job has a secret (zmpirun) and zmq otherwise (by hand): sizes around the eager
 * limit and the zmq piece size up to 16 MiB, every rank to both neighbours at once, many
 * in flight both ways with eager messages between them (MPI's order must hold), derived
 * datatypes on either side, and a truncated receive followed by more traffic.
 * zmpi-test-ranks: 2 3 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static unsigned char expected(int source, long size, long i) { return (unsigned char)(source * 31 + size * 7 + i); }

static void fill(unsigned char* buf, int source, long size) {
  for (long i = 0; i < size; ++i) buf[i] = expected(source, size, i);
}

static void verify(const unsigned char* buf, int source, long size) {
  for (long i = 0; i < size; ++i) {
    if (buf[i] != expected(source, size, i)) {
      int rank;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      fprintf(stderr, "rank %d: byte %ld of %ld from %d is %d, not %d\n", rank, i, size, source, buf[i],
              expected(source, size, i));
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* 1. Sizes around the boundaries, to both neighbours at once. */
  const long sizes[] = {0, 524287, 524288, 524289, 1048575, 1048576, 1048577, 3145733, 16777216};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  unsigned char* out = malloc(16777216);
  unsigned char* fromLeft = malloc(16777216);
  unsigned char* fromRight = malloc(16777216);
  for (int s = 0; s < nsizes; ++s) {
    const long n = sizes[s];
    fill(out, rank, n);
    MPI_Request requests[4];
    MPI_Status statuses[4];
    MPI_Irecv(fromLeft, (int)n, MPI_BYTE, left, s, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(fromRight, (int)n, MPI_BYTE, right, s, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(out, (int)n, MPI_BYTE, right, s, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(out, (int)n, MPI_BYTE, left, s, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, statuses);
    int count;
    MPI_Get_count(&statuses[0], MPI_BYTE, &count);
    CHECK_EQ_INT(count, n);
    verify(fromLeft, left, n);
    verify(fromRight, right, n);
  }

  /* 2. Many in flight both ways, large and eager alternating on one tag: the receives,
   * posted in order, must match the sends in order (each message starts with its index). */
  enum { kMessages = 24 };
  const long kLarge = 700001, kSmall = 100;
  unsigned char* inbox[kMessages];
  unsigned char* outbox[kMessages];
  MPI_Request requests[2 * kMessages];
  MPI_Status statuses[2 * kMessages];
  for (int i = 0; i < kMessages; ++i) {
    inbox[i] = malloc(kLarge);
    outbox[i] = malloc(kLarge);
    const long n = i % 2 == 0 ? kLarge : kSmall;
    fill(outbox[i], rank, n);
    memcpy(outbox[i], &i, sizeof i);
    MPI_Irecv(inbox[i], (int)kLarge, MPI_BYTE, left, 77, MPI_COMM_WORLD, &requests[i]);
  }
  for (int i = 0; i < kMessages; ++i) {
    MPI_Isend(outbox[i], (int)(i % 2 == 0 ? kLarge : kSmall), MPI_BYTE, right, 77, MPI_COMM_WORLD,
              &requests[kMessages + i]);
  }
  MPI_Waitall(2 * kMessages, requests, statuses);
  for (int i = 0; i < kMessages; ++i) {
    const long n = i % 2 == 0 ? kLarge : kSmall;
    int index, count;
    memcpy(&index, inbox[i], sizeof index);
    CHECK_EQ_INT(index, i);
    MPI_Get_count(&statuses[i], MPI_BYTE, &count);
    CHECK_EQ_INT(count, n);
    for (long b = (long)sizeof index; b < n; ++b) CHECK(inbox[i][b] == expected(left, n, b));
  }

  /* 3. Derived datatypes: every other double, on the receiving side and on the sending side. */
  const int ndoubles = 262144; /* 2 MiB of payload */
  double* dense = malloc(sizeof(double) * ndoubles);
  double* sparse = malloc(sizeof(double) * 2 * ndoubles);
  MPI_Datatype strided;
  MPI_Type_vector(ndoubles, 1, 2, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  for (int i = 0; i < ndoubles; ++i) dense[i] = rank * 1e6 + i;
  for (int i = 0; i < 2 * ndoubles; ++i) sparse[i] = -1;
  MPI_Sendrecv(dense, ndoubles, MPI_DOUBLE, right, 88, sparse, 1, strided, left, 88, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < ndoubles; ++i) {
    CHECK(sparse[2 * i] == left * 1e6 + i);
    CHECK(sparse[2 * i + 1] == -1);
  }
  for (int i = 0; i < ndoubles; ++i) sparse[2 * i] = rank * 1e6 + i;
  MPI_Sendrecv(sparse, 1, strided, right, 89, dense, ndoubles, MPI_DOUBLE, left, 89, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < ndoubles; ++i) CHECK(dense[i] == left * 1e6 + i);
  MPI_Type_free(&strided);

  /* 4. A receive too small for the message: the error says so, and traffic goes on. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  fill(out, rank, 2000000);
  MPI_Request send;
  MPI_Isend(out, 2000000, MPI_BYTE, right, 99, MPI_COMM_WORLD, &send);
  MPI_Status status;
  const int rc = MPI_Recv(fromLeft, 1000000, MPI_BYTE, left, 99, MPI_COMM_WORLD, &status);
  int errorClass;
  MPI_Error_class(rc, &errorClass);
  CHECK_EQ_INT(errorClass, MPI_ERR_TRUNCATE);
  for (long i = 0; i < 1000000; ++i) CHECK(fromLeft[i] == expected(left, 2000000, i));
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Sendrecv(out, 2000000, MPI_BYTE, right, 100, fromLeft, 2000000, MPI_BYTE, left, 100, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  verify(fromLeft, left, 2000000);

  for (int i = 0; i < kMessages; ++i) {
    free(inbox[i]);
    free(outbox[i]);
  }
  free(dense);
  free(sparse);
  free(out);
  free(fromLeft);
  free(fromRight);
  MPI_Finalize();
  return 0;
}
