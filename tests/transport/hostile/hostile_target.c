/* The job under attack in hostile_rank.sh. Every rank prints its pid, rank 0 the job id and
 * the rendezvous address; then each rank records its resident memory and waits (a
 * barrier behind rank 0, which waits for GO_FILE to appear) while hostile_peer sends its
 * bytes. Afterwards: the resident memory of every rank grew by less than LIMIT_KIB, real
 * traffic (ring, a large rendezvous-protocol message, allreduce) is correct, and nothing
 * the stranger sent was matched (no message is pending). Prints "hostile_target: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long residentKib(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmRSS:", 6) == 0) kib = atol(line + 6);
  }
  if (f) fclose(f);
  return kib;
}

/* Waiting on the outside world (the test driver): a bounded poll for a file. */
static int waitForFile(const char* path, int seconds) {
  const time_t deadline = time(NULL) + seconds;
  while (access(path, F_OK) != 0) {
    if (time(NULL) > deadline) return 0;
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  return 1;
}

#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      fprintf(stderr, "hostile_target: " __VA_ARGS__); \
      fprintf(stderr, "\n");                      \
      MPI_Abort(MPI_COMM_WORLD, 1);               \
    }                                             \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(argc >= 3, "usage: hostile_target GO_FILE LIMIT_KIB");
  const long limit = atol(argv[2]);
  /* MPI_Init took the job secret out of the environment, and wiped it from the initial
   * environment block that /proc/PID/environ shows. */
  CHECK(getenv("ZMPI_JOB_SECRET") == NULL, "ZMPI_JOB_SECRET is still in the environment");
  FILE* environ_file = fopen("/proc/self/environ", "r");
  char environ_text[65536];
  const size_t environ_bytes = environ_file ? fread(environ_text, 1, sizeof environ_text, environ_file) : 0;
  if (environ_file) fclose(environ_file);
  for (size_t i = 0; i + 17 < environ_bytes; ++i) {
    CHECK(memcmp(environ_text + i, "ZMPI_JOB_SECRET=", 16) != 0 || environ_text[i + 16] == '\0',
          "the job secret is still readable in /proc/self/environ");
  }
  printf("hostile_target: rank %d pid %d\n", rank, (int)getpid());
  if (rank == 0) {
    const char* job = getenv("ZMPI_JOB_ID");
    const char* rendezvous = getenv("ZMPI_RENDEZVOUS");
    printf("hostile_target: job %s rendezvous %s\n", job ? job : "", rendezvous ? rendezvous : "");
  }
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  const long before = residentKib();
  if (rank == 0) CHECK(waitForFile(argv[1], 90), "no go file %s within 90 s", argv[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  const long grown = residentKib() - before;
  long maxGrown = 0;
  MPI_Allreduce(&grown, &maxGrown, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("hostile_target: resident memory grew by at most %ld KiB (limit %ld)\n", maxGrown, limit);
  CHECK(maxGrown < limit, "resident memory grew by %ld KiB during the attack", maxGrown);

  int token = rank, got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  CHECK(got == (rank + size - 1) % size, "ring: got %d", got);
  enum { kLarge = 1 << 20 };
  char* large = malloc(kLarge);
  if (rank == 0) {
    for (int i = 0; i < kLarge; ++i) large[i] = (char)(i * 13);
    MPI_Send(large, kLarge, MPI_CHAR, 1, 6, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(large, 0, kLarge);
    MPI_Recv(large, kLarge, MPI_CHAR, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < kLarge; ++i) CHECK(large[i] == (char)(i * 13), "large message differs at %d", i);
  }
  free(large);
  long sum = 0, one = rank + 1;
  MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == (long)size * (size + 1) / 2, "allreduce gave %ld", sum);
  MPI_Barrier(MPI_COMM_WORLD);
  int pending = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
  CHECK(!pending, "a message nobody of this job sent is waiting to be received");
  MPI_Finalize();
  if (rank == 0) printf("hostile_target: ok\n");
  return 0;
}
