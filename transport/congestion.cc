#include "transport/congestion.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "transport/errors.h"
#include "transport/settings.h"

namespace zmpi::transport {
namespace {

bool setCongestion(int fd, const std::string& name) {
  return ::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name.data(), static_cast<socklen_t>(name.size())) == 0;
}

}  // namespace

std::string congestionOf(int fd) {
  char name[32] = {};
  socklen_t length = sizeof name;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &length) != 0) return "";
  return std::string(name, strnlen(name, sizeof name));
}

namespace {

const StringSetting kCongestionSetting{
    "ZMPI_BULK_CONGESTION",
    "reno",
    {},
    Level::Tuning,
    "TCP congestion control of the bulk connections: reno (faster here than bbr), system (the kernel's default) "
    "or a name from /proc/sys/net/ipv4/tcp_allowed_congestion_control"};

}  // namespace

CongestionChoice congestionFromEnvironment() {
  const std::string chosen = kCongestionSetting.read();
  const char* value = chosen.c_str();
  // reno needs no check: every kernel has it, and every process may set it.
  if (chosen == "reno" || chosen == "auto") return {"reno"};
  if (chosen == "system") return {""};
  // Checked once, on a socket of our own, so that a typo fails the start, not each connection.
  const int probe = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (probe < 0) throw TransportError(std::string("socket for checking ZMPI_BULK_CONGESTION: ") + std::strerror(errno));
  const bool ok = setCongestion(probe, value);
  const int error = errno;
  ::close(probe);
  if (!ok) {
    throw TransportError(std::string("ZMPI_BULK_CONGESTION=") + value + ": " +
                         (error == ENOENT ? "no such TCP congestion control in this kernel"
                          : error == EPERM
                              ? "not allowed to this process (see /proc/sys/net/ipv4/tcp_allowed_congestion_control)"
                              : std::strerror(error)) +
                         "; or auto, system");
  }
  return {value};
}

void applyCongestion(int fd, const CongestionChoice& choice) {
  if (!choice.name.empty()) setCongestion(fd, choice.name);
}

}  // namespace zmpi::transport
