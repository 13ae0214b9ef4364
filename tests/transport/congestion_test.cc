#include "transport/congestion.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "transport/errors.h"

namespace zmpi::transport::test {
namespace {

// A TCP socket of its own for each check (congestion control can be set before connecting).
struct TcpSocket {
  TcpSocket() : fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) { REQUIRE(fd >= 0); }
  ~TcpSocket() { ::close(fd); }
  TcpSocket(const TcpSocket&) = delete;
  TcpSocket& operator=(const TcpSocket&) = delete;
  int fd;
};

// Sets ZMPI_BULK_CONGESTION for the length of a scope.
struct Setting {
  explicit Setting(const char* value) { ::setenv("ZMPI_BULK_CONGESTION", value, 1); }
  ~Setting() { ::unsetenv("ZMPI_BULK_CONGESTION"); }
};

}  // namespace

TEST_CASE("bulk congestion control: reno by default, the kernel's with system, a named one, a bad name refused") {
  SECTION("unset and auto: reno") {
    for (const char* value : {"", "auto"}) {
      Setting setting(value);
      TcpSocket socket;
      applyCongestion(socket.fd, congestionFromEnvironment());
      CHECK(congestionOf(socket.fd) == "reno");
    }
  }
  SECTION("system: whatever the kernel gave the socket") {
    Setting setting("system");
    TcpSocket untouched;
    TcpSocket socket;
    applyCongestion(socket.fd, congestionFromEnvironment());
    CHECK(!congestionOf(socket.fd).empty());
    CHECK(congestionOf(socket.fd) == congestionOf(untouched.fd));
  }
  SECTION("a name: that algorithm") {
    Setting setting("reno");
    TcpSocket socket;
    applyCongestion(socket.fd, congestionFromEnvironment());
    CHECK(congestionOf(socket.fd) == "reno");
  }
  SECTION("a name the kernel does not know fails, naming the setting") {
    Setting setting("no-such-algorithm");
    try {
      congestionFromEnvironment();
      FAIL("accepted an unknown congestion control");
    } catch (const TransportError& error) {
      const std::string what = error.what();
      CHECK(what.find("ZMPI_BULK_CONGESTION=no-such-algorithm") != std::string::npos);
      CHECK(what.find("no such TCP congestion control") != std::string::npos);
    }
  }
}

}  // namespace zmpi::transport::test
