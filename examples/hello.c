/* hello: the smallest MPI program. Every rank reports who it is and where it runs;
 * rank 0 also names the MPI library it was linked with.
 *
 *   zmpicc examples/hello.c -o hello && zmpirun -np 4 ./hello
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);

  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* my number, 0..size-1 */
  MPI_Comm_size(MPI_COMM_WORLD, &size); /* how many ranks the job has */

  char host[MPI_MAX_PROCESSOR_NAME];
  int hostLength;
  MPI_Get_processor_name(host, &hostLength);

  if (rank == 0) {
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int libraryLength;
    MPI_Get_library_version(library, &libraryLength);
    printf("Library: %s\n", library);
  }
  printf("Hello from rank %d of %d on %s\n", rank, size, host);

  MPI_Finalize();
  return 0;
}
