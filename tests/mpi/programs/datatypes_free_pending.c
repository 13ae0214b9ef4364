/* MPI_Type_free while operations still use the type (MPI 3.1 section 4.1.9: freeing marks
 * the type for deallocation; pending operations complete normally). Rank 1 posts a
 * receive with a vector type and frees it at once, and a persistent send uses a type
 * freed before MPI_Start; new types are created in between so freed memory is reused.
 */
// zmpi-test-ranks: 2
#include <string.h>

#include "check.h"

#define N 6

/* Allocates a few types of other shapes, so a freed type's memory is likely reused. */
static void churn(MPI_Datatype keep[4]) {
  int lengths[3] = {1, 2, 3}, displacements[3] = {9, 4, 0};
  MPI_Type_contiguous(17, MPI_CHAR, &keep[0]);
  MPI_Type_indexed(3, lengths, displacements, MPI_SHORT, &keep[1]);
  MPI_Type_vector(5, 2, 7, MPI_DOUBLE, &keep[2]);
  MPI_Type_create_resized(MPI_INT, 8, 64, &keep[3]);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank < 2 && size >= 2) {
    MPI_Datatype column, keep[4];
    MPI_Type_vector(N, 1, N, MPI_INT, &column);
    MPI_Type_commit(&column);
    int m[N][N];
    if (rank == 1) {
      memset(m, 0, sizeof m);
      MPI_Request request;
      MPI_Irecv(&m[0][3], 1, column, 0, 0, MPI_COMM_WORLD, &request);
      MPI_Type_free(&column);
      churn(keep);
      MPI_Send(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD); /* now send */
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) CHECK_EQ_INT(m[i][j], j == 3 ? 10 * i + 3 : 0);
      /* The persistent send's data. */
      int flat[N];
      MPI_Recv(flat, N, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < N; ++i) CHECK_EQ_INT(flat[i], 10 * i + 1);
    } else {
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) m[i][j] = 10 * i + j;
      MPI_Request persistent;
      MPI_Send_init(&m[0][1], 1, column, 1, 2, MPI_COMM_WORLD, &persistent);
      MPI_Recv(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int flat[N];
      for (int i = 0; i < N; ++i) flat[i] = 10 * i + 3;
      MPI_Send(flat, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Type_free(&column);
      churn(keep);
      MPI_Start(&persistent);
      MPI_Wait(&persistent, MPI_STATUS_IGNORE);
      MPI_Request_free(&persistent);
    }
    for (int i = 0; i < 4; ++i) MPI_Type_free(&keep[i]);
  }
  MPI_Finalize();
  return 0;
}
