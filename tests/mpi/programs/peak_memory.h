/* This process's peak resident set (VmHWM), for the test programs that bound memory. */
#ifndef ZMPI_TEST_PEAK_MEMORY_H
#define ZMPI_TEST_PEAK_MEMORY_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* KiB, or -1 if /proc/self/status cannot be read. */
static inline long peakResidentKiB(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmHWM:", 6) == 0) kib = strtol(line + 6, NULL, 10);
  }
  if (f) fclose(f);
  return kib;
}
#endif
