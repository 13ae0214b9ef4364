#include "runtime/common/addresses.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {
namespace {

std::string text(const in_addr& address) {
  char buffer[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &address, buffer, sizeof buffer);
  return buffer;
}

}  // namespace

std::optional<std::string> resolveIPv4(const std::string& host, std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int status = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (status != 0 || found == nullptr) {
    if (error != nullptr) *error = status == EAI_SYSTEM ? "system error" : ::gai_strerror(status);
    return std::nullopt;
  }
  std::string address = text(reinterpret_cast<const sockaddr_in*>(found->ai_addr)->sin_addr);
  ::freeaddrinfo(found);
  return address;
}

bool isLoopbackAddress(const std::string& address) {
  in_addr parsed{};
  return ::inet_pton(AF_INET, address.c_str(), &parsed) == 1 && (ntohl(parsed.s_addr) >> 24) == 127;
}

std::optional<std::string> sourceAddressFor(const std::string& address) {
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(9);  // any port: connect() on UDP only picks a route
  if (::inet_pton(AF_INET, address.c_str(), &peer.sin_addr) != 1) return std::nullopt;
  UniqueFd socket(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!socket || ::connect(socket.get(), reinterpret_cast<sockaddr*>(&peer), sizeof peer) != 0) return std::nullopt;
  sockaddr_in local{};
  socklen_t length = sizeof local;
  if (::getsockname(socket.get(), reinterpret_cast<sockaddr*>(&local), &length) != 0) return std::nullopt;
  return text(local.sin_addr);
}

std::vector<std::string> localAddresses() {
  std::vector<std::string> addresses;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return addresses;
  for (ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
    addresses.push_back(text(reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr));
  }
  ::freeifaddrs(list);
  return addresses;
}

bool isLocalAddress(const std::string& address) {
  if (address == "0.0.0.0" || isLoopbackAddress(address)) return true;
  const auto local = localAddresses();
  return std::find(local.begin(), local.end(), address) != local.end();
}

}  // namespace zmpi::runtime
