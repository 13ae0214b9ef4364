/* Where the ranks of a job run, and that they can talk: every rank sends its node's name
 * to rank 0, which prints "size=N nodes=K ok library=L" (K distinct MPI_Get_processor_name
 * values; L the first word of MPI_Get_library_version: which MPI the program loaded) and
 * MPI_UNIVERSE_SIZE;
 * then a ring of messages and an allreduce check every path between them. Exit 0 only if
 * every check holds. zmpi-test-ranks: 4 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int length = 0;
  MPI_Get_processor_name(name, &length);

  static char names[1024][MPI_MAX_PROCESSOR_NAME];
  if (size > 1024) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);

  int token = rank, from = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 7, &from, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  int ok = from == (rank + size - 1) % size;
  long sum = 0, mine = rank + 1;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  ok = ok && sum == (long)size * (size + 1) / 2;
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);

  if (rank == 0) {
    int nodes = 0;
    for (int r = 0; r < size; ++r) {
      int seen = 0;
      for (int q = 0; q < r && !seen; ++q) seen = strcmp(names[q], names[r]) == 0;
      nodes += !seen;
    }
    char library[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int libraryLength = 0;
    MPI_Get_library_version(library, &libraryLength);
    library[strcspn(library, " ,\n")] = '\0';
    int* universe = NULL;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &found);
    printf("size=%d nodes=%d %s library=%s universe=%d\n", size, nodes, all ? "ok" : "FAILED", library,
           found ? *universe : -1);
  }
  MPI_Finalize();
  return all ? 0 : 1;
}
