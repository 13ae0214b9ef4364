/* MPI_Comm_free while operations on the communicator are still pending: they complete
 * normally (MPI-3.1 6.4.3) -- small and large (rendezvous) messages, a persistent
 * request, and a nonblocking collective -- and the communicator goes away afterwards.
 */
// zmpi-test-ranks: 2 3 4
#include <stdlib.h>

#include "check.h"

enum { kLarge = 1 << 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  for (int round = 0; round < 3; ++round) {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int small = -1, out = 100 * round + rank;
    char* big = malloc(kLarge);
    char* bigOut = malloc(kLarge);
    for (int i = 0; i < kLarge; ++i) bigOut[i] = (char)(rank + i);
    int sum = 0, one = 1;
    MPI_Request requests[5];
    MPI_Irecv(&small, 1, MPI_INT, left, 1, comm, &requests[0]);
    MPI_Irecv(big, kLarge, MPI_CHAR, left, 2, comm, &requests[1]);
    MPI_Isend(&out, 1, MPI_INT, right, 1, comm, &requests[2]);
    MPI_Isend(bigOut, kLarge, MPI_CHAR, right, 2, comm, &requests[3]);
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm, &requests[4]);
    MPI_Request persistent[2];
    int echo = -1;
    MPI_Recv_init(&echo, 1, MPI_INT, left, 3, comm, &persistent[0]);
    MPI_Send_init(&out, 1, MPI_INT, right, 3, comm, &persistent[1]);

    CHECK_EQ_INT(MPI_Comm_free(&comm), MPI_SUCCESS);
    CHECK(comm == MPI_COMM_NULL);

    CHECK_EQ_INT(MPI_Waitall(5, requests, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ_INT(small, 100 * round + left);
    CHECK_EQ_INT(sum, size);
    for (int i = 0; i < kLarge; i += 4099) CHECK_EQ_INT(big[i], (char)(left + i));
    /* Persistent requests still work on the freed communicator until they are freed. */
    MPI_Startall(2, persistent);
    CHECK_EQ_INT(MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ_INT(echo, 100 * round + left);
    MPI_Request_free(&persistent[0]);
    MPI_Request_free(&persistent[1]);
    free(big);
    free(bigOut);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("comm_free_pending: ok\n");
  MPI_Finalize();
  return 0;
}
