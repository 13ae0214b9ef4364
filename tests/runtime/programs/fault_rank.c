/* A real MPI program that gets into the situations the failure tests need, and says so
 * on stdout ("ready RANK PID") so a test can kill a rank while it is blocked inside MPI.
 *
 *   fault_rank recv        every rank blocks in MPI_Recv (nothing is ever sent)
 *   fault_rank coll        rank 0 blocks in MPI_Recv; the others block in MPI_Allreduce
 *   fault_rank finalize    rank 0 blocks in MPI_Recv; the others block in MPI_Finalize
 *   fault_rank barrier     barriers on every rank (same-host: shared-memory ones), then
 *                          rank 0 blocks in MPI_Recv; the others wait in MPI_Barrier
 *   fault_rank shm         a shared window (MPI_Win_allocate_shared) per host, then recv
 *   fault_rank traffic [HOLD]  point-to-point (eager and rendezvous sizes) and
 *                          collectives, checked; finalize; every rank checks that it has
 *                          as many descriptors open and no /dev/shm mapping left as before
 *                          MPI_Init; rank 0 prints "traffic ok SIZE". With HOLD, each rank
 *                          prints "ready" after MPI_Init and rank 0 waits (up to 30 s) for
 *                          the file HOLD to exist before the traffic starts.
 *   fault_rank late SECS   rank 0 waits in MPI_Recv(source 1, tag 42) while rank 1 sleeps
 *                          SECS seconds before sending (the sleep is the subject: rank 0
 *                          is blocked in one call for that long)
 *   fault_rank latebarrier SECS  as late, in a shared-memory MPI_Barrier (after three that
 *                          set it up) that rank 1 enters SECS seconds after rank 0
 *   fault_rank stream      rank 1 sends 32 MiB messages to rank 0 without end (over tcp:
 *                          the bulk data connection); both say "ready" after the first
 *                          one, so a rank killed after that dies mid-transfer
 *   fault_rank never R,..  the listed ranks (ZMPI_RANK) never call MPI_Init (they wait
 *                          to be killed); the others' MPI_Init must fail after the
 *                          start-up timeout
 */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void ready(int rank) {
  printf("ready %d %d\n", rank, (int)getpid());
  fflush(stdout);
}

/* Whether `rank` is in the comma-separated list `ranks`. */
static int listed(const char* ranks, int rank) {
  for (const char* p = ranks; *p != '\0'; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p)) {
    if (atoi(p) == rank) return 1;
  }
  return 0;
}

static void blockInRecv(void) {
  int value;
  MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  fprintf(stderr, "fault_rank: a receive that nobody sends to completed\n");
  exit(5);
}

static int fail(const char* what) {
  fprintf(stderr, "fault_rank: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 3);
  return 3;
}

/* Descriptors open in this process, and its mappings of /dev/shm objects. */
static int openDescriptors(void) {
  int count = 0;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == NULL) return -1;
  while (readdir(dir) != NULL) ++count;
  closedir(dir);
  return count;
}
static int shmMappings(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return -1;
  char line[4096];
  int count = 0;
  while (fgets(line, sizeof line, maps) != NULL) count += strstr(line, "/dev/shm/") != NULL;
  fclose(maps);
  return count;
}

static void waitForFile(const char* path) {
  const struct timespec step = {0, 10 * 1000 * 1000};
  for (int i = 0; i < 3000 && access(path, F_OK) != 0; ++i) nanosleep(&step, NULL);
}

static int traffic(int rank, int size, int descriptorsBefore, const char* hold) {
  enum { kLarge = 200 * 1024 / sizeof(int) }; /* above the eager limit: rendezvous */
  static int out[kLarge], in[kLarge];
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  if (hold != NULL) {
    ready(rank);
    if (rank == 0) waitForFile(hold);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int i = 0; i < kLarge; ++i) out[i] = rank * 7 + i;
  for (int round = 0; round < 3; ++round) {
    int small = rank * 100 + round, got = -1;
    MPI_Sendrecv(&small, 1, MPI_INT, next, round, &got, 1, MPI_INT, previous, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got != previous * 100 + round) return fail("small ring message wrong");
    MPI_Sendrecv(out, kLarge, MPI_INT, next, 10 + round, in, kLarge, MPI_INT, previous, 10 + round, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (in[0] != previous * 7 || in[kLarge - 1] != previous * 7 + kLarge - 1) return fail("large message wrong");
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2) return fail("allreduce wrong");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  const int descriptorsAfter = openDescriptors(), mappings = shmMappings();
  if (descriptorsAfter != descriptorsBefore || mappings != 0) {
    fprintf(stderr,
            "fault_rank: rank %d: %d descriptors before MPI_Init, %d after MPI_Finalize; %d /dev/shm mappings\n", rank,
            descriptorsBefore, descriptorsAfter, mappings);
    return 4;
  }
  if (rank == 0) printf("traffic ok %d\n", size);
  return 0;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const char* envRank = getenv("ZMPI_RANK");
  if (strcmp(mode, "never") == 0 && envRank != NULL && argc > 2 && listed(argv[2], atoi(envRank))) {
    printf("never %d\n", (int)getpid());
    fflush(stdout);
    for (;;) pause(); /* a peer that never comes up */
  }
  const int descriptorsBefore = openDescriptors();
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (strcmp(mode, "recv") == 0) {
    ready(rank);
    blockInRecv();
  } else if (strcmp(mode, "coll") == 0) {
    ready(rank);
    if (rank == 0) blockInRecv();
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return fail("an allreduce without rank 0 completed");
  } else if (strcmp(mode, "barrier") == 0) {
    /* The first barriers set up the communicator's shared-memory collectives: the last
     * one waits on a flag in shared memory (spin, then a futex), not on a message. */
    for (int i = 0; i < 3; ++i) MPI_Barrier(MPI_COMM_WORLD);
    ready(rank);
    if (rank == 0) blockInRecv();
    MPI_Barrier(MPI_COMM_WORLD);
    return fail("a barrier without rank 0 completed");
  } else if (strcmp(mode, "finalize") == 0) {
    ready(rank);
    if (rank == 0) blockInRecv();
    MPI_Finalize();
    return fail("MPI_Finalize completed without rank 0");
  } else if (strcmp(mode, "shm") == 0) {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int* base;
    MPI_Win win;
    MPI_Win_allocate_shared(4096, 1, MPI_INFO_NULL, node, &base, &win);
    ready(rank);
    blockInRecv();
  } else if (strcmp(mode, "traffic") == 0) {
    return traffic(rank, size, descriptorsBefore, argc > 2 ? argv[2] : NULL);
  } else if (strcmp(mode, "late") == 0) {
    const int seconds = argc > 2 ? atoi(argv[2]) : 3;
    int value = 0;
    if (rank == 0) {
      MPI_Recv(&value, 1, MPI_INT, 1, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (value != 7) return fail("late message wrong");
    } else if (rank == 1) {
      sleep((unsigned)seconds);
      value = 7;
      MPI_Send(&value, 1, MPI_INT, 0, 42, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    if (rank == 0) printf("late ok\n");
    return 0;
  } else if (strcmp(mode, "latebarrier") == 0) {
    const int seconds = argc > 2 ? atoi(argv[2]) : 3;
    for (int i = 0; i < 3; ++i) MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) sleep((unsigned)seconds);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0) printf("late ok\n");
    return 0;
  } else if (strcmp(mode, "stream") == 0) {
    enum { kBytes = 32 << 20 };
    char* buffer = calloc(kBytes, 1);
    if (buffer == NULL) return fail("no memory for the stream");
    for (long n = 0;; ++n) {
      if (rank == 0) MPI_Recv(buffer, kBytes, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (rank == 1) MPI_Send(buffer, kBytes, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
      if (n == 0) ready(rank);
      if (rank > 1) blockInRecv();
    }
  } else if (strcmp(mode, "never") == 0) {
    MPI_Finalize();
    return fail("MPI_Init completed without every rank");
  }
  fprintf(stderr, "fault_rank: unknown mode '%s'\n", mode);
  MPI_Finalize();
  return 2;
}
