/* Two job steps of one allocation at the same time: rank 0 of each marks its step's start
 * in the directory argv[1] (a file named after SLURM_STEP_ID) and waits until some other
 * step has marked its own -- a bounded wait (20 s) on the outside world: steps run one
 * after the other time out and fail. Then every rank of the step checks its world. */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int otherStepStarted(const char* dir, const char* mine) {
  DIR* d = opendir(dir);
  if (d == NULL) return 0;
  int found = 0;
  for (struct dirent* e; !found && (e = readdir(d)) != NULL;) {
    found = strncmp(e->d_name, "step-", 5) == 0 && strcmp(e->d_name + 5, mine) != 0;
  }
  closedir(d);
  return found;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* step = getenv("SLURM_STEP_ID");
  if (rank == 0) {
    if (argc < 2 || step == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
    char path[4096];
    snprintf(path, sizeof path, "%s/step-%s", argv[1], step);
    FILE* mark = fopen(path, "w");
    if (mark == NULL) MPI_Abort(MPI_COMM_WORLD, 3);
    fclose(mark);
    ok = 0;
    for (int tries = 0; tries < 2000 && !ok; ++tries) {
      ok = otherStepStarted(argv[1], step);
      if (!ok) nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ok = ok && sum == size * (size - 1) / 2;
  if (rank == 0) printf("step %s: size=%d %s\n", step, size, ok ? "ok, beside another step" : "FAILED (alone)");
  MPI_Finalize();
  return ok ? 0 : 1;
}
