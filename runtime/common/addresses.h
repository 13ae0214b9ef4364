#pragma once
// IPv4 addresses as the multi-host launch needs them: which address a host name means,
// which local address faces a given peer (the kernel's routing decides, as it will for the
// real connection), and whether an address belongs to this machine. IPv4 only for now.
#include <optional>
#include <string>
#include <vector>

namespace zmpi::runtime {

// The first IPv4 address `host` resolves to (a literal address is returned as is);
// nullopt with `error` set if it does not resolve.
std::optional<std::string> resolveIPv4(const std::string& host, std::string* error);

// 127.0.0.0/8.
bool isLoopbackAddress(const std::string& address);

// The local address the kernel would use as source to reach `address` (a connected UDP
// socket's name: no packet is sent). nullopt if there is no route.
std::optional<std::string> sourceAddressFor(const std::string& address);

// The IPv4 addresses of this machine's interfaces (getifaddrs).
std::vector<std::string> localAddresses();

// Whether a socket on this machine can bind `address`: any loopback address (all of
// 127/8 is local on Linux), 0.0.0.0, or an interface's address.
bool isLocalAddress(const std::string& address);

}  // namespace zmpi::runtime
