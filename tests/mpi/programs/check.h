/* Tiny self-checking helpers for the test programs: a failed CHECK prints where and what,
 * then aborts the job with a non-zero code, so the launcher reports it. */
#ifndef ZMPI_TEST_CHECK_H
#define ZMPI_TEST_CHECK_H
#include <mpi.h>
#include <stdio.h>

#define CHECK(cond)                                                                        \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      int rank_ = -1;                                                                      \
      MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                                               \
      fprintf(stderr, "rank %d: CHECK failed at %s:%d: %s\n", rank_, __FILE__, __LINE__, #cond); \
      MPI_Abort(MPI_COMM_WORLD, 3);                                                        \
    }                                                                                      \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                 \
  do {                                                                                     \
    long a_ = (long)(a), b_ = (long)(b);                                                   \
    if (a_ != b_) {                                                                        \
      int rank_ = -1;                                                                      \
      MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                                               \
      fprintf(stderr, "rank %d: CHECK failed at %s:%d: %s == %s (%ld vs %ld)\n", rank_, __FILE__, \
              __LINE__, #a, #b, a_, b_);                                                   \
      MPI_Abort(MPI_COMM_WORLD, 3);                                                        \
    }                                                                                      \
  } while (0)

#endif
