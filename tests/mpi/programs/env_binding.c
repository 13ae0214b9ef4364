/* CPU binding as Open MPI's mpirun does it: started by zmpirun with up to 2 ranks per host
 * (and no more ranks than cores), each rank is bound to one core of its own; with more
 * ranks than cores nobody is bound; started by hand nobody is bound.
 * zmpi-test-ranks: 1 2 4 8 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* Cores of the machine: distinct (package, core) pairs of the online CPUs. */
static int countCores(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  int seen[1024][2], n = 0;
  for (int cpu = 0; cpu < online && cpu < 1024; ++cpu) {
    char path[128];
    int ids[2] = {0, cpu};
    const char* files[2] = {"physical_package_id", "core_id"};
    for (int f = 0; f < 2; ++f) {
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, files[f]);
      FILE* in = fopen(path, "r");
      if (in) {
        if (fscanf(in, "%d", &ids[f]) != 1) ids[f] = f ? cpu : 0;
        fclose(in);
      }
    }
    int known = 0;
    for (int i = 0; i < n; ++i) known |= seen[i][0] == ids[0] && seen[i][1] == ids[1];
    if (!known) {
      seen[n][0] = ids[0];
      seen[n][1] = ids[1];
      ++n;
    }
  }
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  cpu_set_t mask;
  CPU_ZERO(&mask);
  CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0);
  const int mine = CPU_COUNT(&mask);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const char* launched = getenv("ZMPI_LAUNCHED");
  const char* policy = getenv("ZMPI_BIND_TO");
  const char* localSizeText = getenv("ZMPI_LOCAL_SIZE");
  const int localSize = localSizeText ? atoi(localSizeText) : 1;
  const int cores = countCores();
  /* This test assumes the job may use every online CPU (no cpuset narrower than the
   * machine): then an unbound rank sees all of them. */
  if (launched && !policy && localSize <= 2 && localSize <= cores && cores > 1) {
    CHECK(mine < online);
    /* Ranks of one host hold disjoint CPU sets. */
    uint64_t bits[16] = {0};
    for (int cpu = 0; cpu < 1024; ++cpu)
      if (CPU_ISSET(cpu, &mask)) bits[cpu / 64] |= 1ull << (cpu % 64);
    uint64_t* all = malloc(sizeof bits * size);
    MPI_Allgather(bits, 16, MPI_UINT64_T, all, 16, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int other = 0; other < size; ++other) {
      if (other == rank) continue;
      for (int w = 0; w < 16; ++w) CHECK((all[other * 16 + w] & bits[w]) == 0);
    }
    free(all);
  } else if (!policy && (!launched || localSize > cores)) {
    CHECK_EQ_INT(mine, online);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
