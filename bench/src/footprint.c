/* Per-rank memory of a job that has done little: MPI_Init, one small message from every
 * rank to every other (so every connection a real program would use exists), a barrier;
 * then each rank's peak resident set (VmHWM) as "# mem RANK KIB". */
#include "bench_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* in = malloc(sizeof(int) * size);
  int* out = malloc(sizeof(int) * size);
  for (int r = 0; r < size; ++r) out[r] = rank;
  MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    if (in[r] != r) printf("# wrong alltoall 4 %d\n", rank);
  MPI_Barrier(MPI_COMM_WORLD);
  free(in);
  free(out);
  benchReportMemory();
  MPI_Finalize();
  return 0;
}
