/* Unique file names for the MPI-IO test programs: $TMPDIR (or /tmp) plus rank 0's pid,
 * broadcast so every rank names the same file, and the test's own name. */
#ifndef ZMPI_TEST_IO_TMPNAME_H
#define ZMPI_TEST_IO_TMPNAME_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void io_tmpname(MPI_Comm comm, const char* name, char* out, int size) {
  long pid = (long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG, 0, comm);
  const char* dir = getenv("TMPDIR");
  if (dir == NULL || *dir == '\0') dir = "/tmp";
  snprintf(out, (size_t)size, "%s/zmpi-io-%ld-%s", dir, pid, name);
}

#endif
