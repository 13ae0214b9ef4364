/* Eager messages are flow-controlled: a sender running ahead of its receivers cannot make
 * them queue what it sent without bound (mpi/README.md, "Eager flow control").
 *  1. Rank 0 starts MESSAGES nonblocking 32 KiB sends (64 MiB) to every other rank, all
 *     within the eager limit, before anyone receives. Each receiver waits until the last
 *     one is visible to MPI_Probe (so all have arrived): its peak resident memory must have
 *     grown far less than 64 MiB (by the pair's window, the envelopes of the rest, and the
 *     library's own buffers). Then it receives them in order -- eager and rendezvous mixed,
 *     by wildcard and by tag -- and checks each one's index and bytes.
 *  2. The same for a root broadcasting 32 KiB BCASTS times in a loop.
 * zmpi-test-ranks: 2 4 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "peak_memory.h"

#define MESSAGES 2048
#define BYTES (32 * 1024)
#define BCASTS 3000
#define GROWTH_LIMIT_KIB (24 * 1024) /* the flood is 64 MiB */

/* Under a sanitizer the peak resident set says nothing about the bound: TSan keeps shadow
 * memory several times the size of what a rank touches, ASan keeps freed blocks in its
 * quarantine. There only the results are checked. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define CHECK_GROWTH(kib) ((void)(kib))
#else
#define CHECK_GROWTH(kib) CHECK((kib) < GROWTH_LIMIT_KIB)
#endif
#define TAG 7
#define LAST_TAG 8

static unsigned char pattern(long message, long i) { return (unsigned char)(message * 131 + i * 7 + 1); }

/* Message m: its index in the first 8 bytes, then pattern(m, i). */
static void fill(unsigned char* slice, long m) {
  memcpy(slice, &m, sizeof m);
  for (long i = (long)sizeof m; i < BYTES; ++i) slice[i] = pattern(m, i);
}

static int intact(const unsigned char* slice, long m) {
  long index;
  memcpy(&index, slice, sizeof index);
  if (index != m) return 0;
  for (long i = (long)sizeof m; i < BYTES; ++i) {
    if (slice[i] != pattern(m, i)) return 0;
  }
  return 1;
}

static void flood(int rank, int size) {
  if (rank == 0) {
    /* One buffer for every receiver (several pending sends may read one buffer). */
    unsigned char* all = malloc((size_t)MESSAGES * BYTES);
    for (long m = 0; m < MESSAGES; ++m) fill(all + m * BYTES, m);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request* requests = malloc(sizeof(MPI_Request) * (size_t)MESSAGES * (size_t)(size - 1));
    int n = 0;
    for (long m = 0; m < MESSAGES; ++m) {
      for (int to = 1; to < size; ++to) {
        MPI_Isend(all + m * BYTES, BYTES, MPI_BYTE, to, m == MESSAGES - 1 ? LAST_TAG : TAG, MPI_COMM_WORLD,
                  &requests[n++]);
      }
    }
    MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
    free(requests);
    free(all);
    return;
  }
  unsigned char* buffer = malloc(BYTES);
  memset(buffer, 0, BYTES);
  const long before = peakResidentKiB();
  MPI_Barrier(MPI_COMM_WORLD);                               /* nothing sent before our measure */
  MPI_Probe(0, LAST_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* everything before it is here too */
  const long after = peakResidentKiB();
  printf("rank %d: peak RSS %ld KiB before, %ld KiB with %d x %d KiB sent ahead\n", rank, before, after, MESSAGES,
         BYTES / 1024);
  CHECK_GROWTH(after - before);
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(flag);
  for (long m = 0; m < MESSAGES; ++m) {
    MPI_Status status;
    /* Every other one by wildcard: the order holds across eager and rendezvous either way. */
    if (m % 2) {
      MPI_Recv(buffer, BYTES, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    } else {
      MPI_Recv(buffer, BYTES, MPI_BYTE, 0, m == MESSAGES - 1 ? LAST_TAG : TAG, MPI_COMM_WORLD, &status);
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    CHECK_EQ_INT(count, BYTES);
    CHECK_EQ_INT(status.MPI_SOURCE, 0);
    CHECK_EQ_INT(status.MPI_TAG, m == MESSAGES - 1 ? LAST_TAG : TAG);
    if (!intact(buffer, m)) {
      long index;
      memcpy(&index, buffer, sizeof index);
      fprintf(stderr, "rank %d: message %ld arrived as %ld or damaged\n", rank, m, index);
      CHECK(0);
    }
  }
  free(buffer);
}

static void bcastLoop(int rank) {
  unsigned char* buffer = malloc(BYTES);
  const long before = peakResidentKiB();
  for (long b = 0; b < BCASTS; ++b) {
    if (rank == 0) {
      fill(buffer, b);
    } else {
      memset(buffer, 0, sizeof(long));
    }
    MPI_Bcast(buffer, BYTES, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank != 0 && !intact(buffer, b)) {
      fprintf(stderr, "rank %d: broadcast %ld arrived damaged\n", rank, b);
      CHECK(0);
    }
  }
  const long after = peakResidentKiB();
  printf("rank %d: peak RSS %ld KiB before, %ld KiB after %d broadcasts of %d KiB\n", rank, before, after, BCASTS,
         BYTES / 1024);
  CHECK_GROWTH(after - before);
  free(buffer);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  flood(rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  bcastLoop(rank);
  MPI_Finalize();
  return 0;
}
