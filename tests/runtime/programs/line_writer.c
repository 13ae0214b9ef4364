/* line_writer N: writes "line 1" .. "line N" to stdout, one write(2) per line, and before
 * each next line waits (bounded) until whoever reads its stdout pipe has taken the last
 * one, so the reader gets every line as a read of its own: the most messages a rank's
 * output can make. Exits 0, or 1 on bad arguments or a failed write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Bytes still in the pipe behind stdout (Linux answers FIONREAD on either end of a
 * pipe); -1 if stdout is no pipe. */
static int unread(void) {
  int count = 0;
  return ioctl(STDOUT_FILENO, FIONREAD, &count) == 0 ? count : -1;
}

/* Until the pipe is empty, or for at most 60 s (a reader that stopped reading for good). */
static void wait_drained(void) {
  const struct timespec pause = {0, 20000}; /* 20 us */
  for (long tries = 0; tries < 3000000 && unread() > 0; ++tries) nanosleep(&pause, NULL);
}

int main(int argc, char** argv) {
  char* end = NULL;
  const long lines = argc == 2 ? strtol(argv[1], &end, 10) : -1;
  if (lines < 0 || end == NULL || *end != '\0') {
    fprintf(stderr, "usage: line_writer LINES\n");
    return 1;
  }
  char line[32];
  for (long i = 1; i <= lines; ++i) {
    const int length = snprintf(line, sizeof line, "line %ld\n", i);
    ssize_t written;
    do {
      written = write(STDOUT_FILENO, line, (size_t)length);
    } while (written < 0 && errno == EINTR);
    if (written != length) {
      fprintf(stderr, "line_writer: write failed at line %ld: %s\n", i, written < 0 ? strerror(errno) : "short");
      return 1;
    }
    wait_drained();
  }
  return 0;
}
