// Output forwarding: two ranks' bytes never share a line, whatever the interleaving.
#include "runtime/common/output_forwarder.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "runtime/common/unique_fd.h"

using namespace zmpi::runtime;

namespace {
// Captures what the forwarder writes (small amounts: the pipe never fills).
struct Capture {
  Pipe out = makePipe();
  Pipe err = makePipe();
  std::string read(Pipe& pipe) {
    pipe.write.reset();
    std::string text;
    char buffer[4096];
    for (ssize_t got; (got = ::read(pipe.read.get(), buffer, sizeof buffer)) > 0;) text.append(buffer, got);
    return text;
  }
};
}  // namespace

TEST_CASE("forwarder: partial lines are held until complete") {
  Capture capture;
  {
    OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), false);
    forwarder.write(0, Stream::Stdout, "hel");
    forwarder.write(1, Stream::Stdout, "wor");
    forwarder.write(0, Stream::Stdout, "lo\nsecond ");
    forwarder.write(1, Stream::Stdout, "ld\n");
    forwarder.write(0, Stream::Stdout, "line\n");
  }
  CHECK(capture.read(capture.out) == "hello\nworld\nsecond line\n");
}

TEST_CASE("forwarder: tags follow Open MPI's format per stream") {
  Capture capture;
  {
    OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), true);
    forwarder.write(3, Stream::Stdout, "a\nb\n");
    forwarder.write(1, Stream::Stderr, "oops\n");
  }
  CHECK(capture.read(capture.out) == "[1,3]<stdout>:a\n[1,3]<stdout>:b\n");
  CHECK(capture.read(capture.err) == "[1,1]<stderr>:oops\n");
}

TEST_CASE("forwarder: a last line without newline is flushed at end of file") {
  Capture capture;
  {
    OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), false);
    forwarder.write(0, Stream::Stdout, "no newline");
    forwarder.close(0, Stream::Stdout);
    forwarder.close(1, Stream::Stdout);  // nothing held: nothing written
  }
  CHECK(capture.read(capture.out) == "no newline");
}

TEST_CASE("forwarder: another rank's line after an unfinished one starts on its own line") {
  Capture capture;
  {
    OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), true);
    forwarder.write(0, Stream::Stdout, "tail");
    forwarder.close(0, Stream::Stdout);
    forwarder.write(1, Stream::Stdout, "next\n");
  }
  CHECK(capture.read(capture.out) == "[1,0]<stdout>:tail\n[1,1]<stdout>:next\n");
}

TEST_CASE("forwarder: a huge line goes out in pieces that stay together") {
  Capture capture;
  // Large output needs a reader running alongside; a file is simpler.
  char path[] = "/tmp/zmpi-forwarder-XXXXXX";
  UniqueFd file(::mkstemp(path));
  ::unlink(path);
  {
    OutputForwarder forwarder(file.get(), capture.err.write.get(), false);
    const std::string big(OutputForwarder::kMaxHeldBytes + 10, 'x');
    forwarder.write(0, Stream::Stdout, big);
    forwarder.write(0, Stream::Stdout, "y\n");
  }
  const off_t size = ::lseek(file.get(), 0, SEEK_END);
  CHECK(size == static_cast<off_t>(OutputForwarder::kMaxHeldBytes + 12));
  char last[2];
  CHECK(::pread(file.get(), last, 2, size - 2) == 2);
  CHECK(std::string(last, 2) == "y\n");
}
