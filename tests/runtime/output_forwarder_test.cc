// Output forwarding: two ranks' bytes never share a line, whatever the interleaving; a
// reader that does not read holds output back without ever blocking the writer.
#include "runtime/common/output_forwarder.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>

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

namespace {
// Reads what is in the pipe now, without waiting.
std::string readAvailable(int fd) {
  std::string text;
  char buffer[65536];
  for (;;) {
    pollfd item{fd, POLLIN, 0};
    if (::poll(&item, 1, 0) <= 0 || (item.revents & POLLIN) == 0) break;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) break;
    text.append(buffer, static_cast<size_t>(got));
  }
  return text;
}

// Reads the pipe while the forwarder writes what it holds, as zmpirun's loop would, until
// it holds nothing (bounded: 10 s).
std::string drain(OutputForwarder& forwarder, int readFd) {
  std::string text = readAvailable(readFd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (forwarder.pending() > 0 && std::chrono::steady_clock::now() < deadline) {
    PollSet set;
    forwarder.prepare(set);
    set.wait(std::chrono::milliseconds(100));
    forwarder.handle(set);
    text += readAvailable(readFd);
  }
  return text + readAvailable(readFd);
}

std::string numberedLine(const char* who, int i) {
  return std::string(who) + " " + std::to_string(i) + " " + std::string(static_cast<size_t>(i % 97), '.');
}
}  // namespace

TEST_CASE("forwarder: a reader that does not read never blocks it; the high-water mark stops taking more") {
  Capture capture;
  const int before = ::fcntl(capture.out.write.get(), F_GETFL);
  OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), false, 256 * 1024);
  CHECK(forwarder.accepting());
  std::string expected;
  int lines = 0;
  // The pipe holds 64 KiB: the rest waits in the forwarder. A blocking write would hang here.
  while (forwarder.accepting()) {
    std::string chunk;
    for (int i = 0; i < 100; ++i, ++lines) chunk += numberedLine("line", lines) + "\n";
    expected += chunk;
    forwarder.write(0, Stream::Stdout, chunk);
  }
  CHECK(forwarder.pending() >= 256 * 1024);
  CHECK(forwarder.pending() < expected.size());
  // zmpirun's stdout description is the caller's, shared with others: its flags are untouched.
  CHECK(::fcntl(capture.out.write.get(), F_GETFL) == before);
  const uint64_t writtenBefore = forwarder.written();
  const std::string got = drain(forwarder, capture.out.read.get());
  CHECK(forwarder.pending() == 0);
  CHECK(forwarder.accepting());
  CHECK(forwarder.written() == expected.size());
  CHECK(forwarder.written() > writtenBefore);
  CHECK(got == expected);
}

TEST_CASE("forwarder: stdout and stderr on one pipe share a queue, so lines stay whole") {
  Pipe pipe = makePipe();
  UniqueFd second(::dup(pipe.write.get()));
  OutputForwarder forwarder(pipe.write.get(), second.get(), false, 128 * 1024);
  std::string expectedOut;
  std::string expectedErr;
  for (int i = 0; forwarder.accepting(); ++i) {
    const std::string out = numberedLine("out", i) + "\n";
    const std::string err = numberedLine("err", i) + "\n";
    forwarder.write(0, Stream::Stdout, out);
    forwarder.write(1, Stream::Stderr, err);
    expectedOut += out;
    expectedErr += err;
  }
  const std::string got = drain(forwarder, pipe.read.get());
  std::string gotOut;
  std::string gotErr;
  size_t start = 0;
  for (size_t end; (end = got.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = got.substr(start, end - start + 1);
    (line.starts_with("out ") ? gotOut : gotErr) += line;
  }
  CHECK(start == got.size());
  CHECK(gotOut == expectedOut);
  CHECK(gotErr == expectedErr);
}

TEST_CASE("forwarder: a reader that went away drops the rest (EPIPE), without blocking or failing") {
  ::signal(SIGPIPE, SIG_IGN);  // as zmpirun does (signals.h): the write fails with EPIPE instead
  Capture capture;
  OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), false, 64 * 1024);
  capture.out.read.reset();
  const std::string line(1000, 'z');
  for (int i = 0; i < 1000; ++i) forwarder.write(0, Stream::Stdout, line + "\n");
  CHECK(forwarder.pending() == 0);
  CHECK(forwarder.accepting());
  forwarder.write(0, Stream::Stderr, "still here\n");
  CHECK(readAvailable(capture.err.read.get()) == "still here\n");
}

TEST_CASE("forwarder: abandon() drops what waits and what comes later") {
  Capture capture;
  OutputForwarder forwarder(capture.out.write.get(), capture.err.write.get(), false, 64 * 1024);
  const std::string line(1000, 'q');
  while (forwarder.accepting()) forwarder.write(0, Stream::Stdout, line + "\n");
  forwarder.abandon();
  CHECK(forwarder.pending() == 0);
  CHECK(forwarder.accepting());
  forwarder.write(0, Stream::Stdout, line + "\n");
  CHECK(forwarder.pending() == 0);
}
