#include "transport/node_address.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>

#include <optional>

namespace zmpi::transport {
namespace {

std::optional<std::string> resolved(const std::string& name) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* result = nullptr;
  if (name.empty() || getaddrinfo(name.c_str(), nullptr, &hints, &result) != 0 || result == nullptr) {
    return std::nullopt;
  }
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(result->ai_addr)->sin_addr, text, sizeof text);
  freeaddrinfo(result);
  return std::string(text);
}

std::optional<std::string> firstInterfaceAddress() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return std::nullopt;
  std::optional<std::string> found;
  for (ifaddrs* entry = list; entry != nullptr && !found; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
    if ((entry->ifa_flags & IFF_UP) == 0 || (entry->ifa_flags & IFF_LOOPBACK) != 0) continue;
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(entry->ifa_addr)->sin_addr, text, sizeof text);
    found = text;
  }
  freeifaddrs(list);
  return found;
}

}  // namespace

std::string nodeAddress(const std::string& nodeName, bool jobOnThisNodeOnly) {
  if (jobOnThisNodeOnly) return "127.0.0.1";
  const auto byName = resolved(nodeName);
  if (byName && *byName != "127.0.0.1" && *byName != "127.0.1.1") return *byName;
  if (auto byInterface = firstInterfaceAddress()) return *byInterface;
  return byName.value_or("127.0.0.1");
}

}  // namespace zmpi::transport
