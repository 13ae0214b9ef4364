#include "runtime/zmpirun/job_network.h"

#include <set>

#include "runtime/common/addresses.h"

namespace zmpi::runtime {
namespace {
constexpr const char* kLoopback = "127.0.0.1";
}

std::string AgentTarget::describe() const {
  return "host '" + host + "' (" + address + ":" + std::to_string(port) + ")";
}

JobNetwork planJobNetwork(const std::vector<Host>& hosts, int defaultAgentPort, const std::string& launcherAddress,
                          const std::map<std::string, std::string>& knownAddresses) {
  JobNetwork network;
  network.rendezvousBind = std::string("tcp://") + kLoopback + ":*";
  network.localRankAddress = kLoopback;
  bool anyLoopback = false;
  bool anyReal = false;
  for (const Host& host : hosts) {
    if (host.local) continue;
    std::string error;
    const auto known = knownAddresses.find(host.name);
    const auto address =
        known != knownAddresses.end() ? std::optional<std::string>(known->second) : resolveIPv4(host.name, &error);
    if (!address) throw NetworkError("host '" + host.name + "' (from " + host.origin + ") does not resolve: " + error);
    (isLoopbackAddress(*address) ? anyLoopback : anyReal) = true;
    network.agents[host.name] = AgentTarget{host.name, *address, host.agentPort.value_or(defaultAgentPort)};
  }
  if (network.agents.empty()) return network;
  if (anyLoopback && anyReal) {
    for (const auto& [name, agent] : network.agents) {
      if (isLoopbackAddress(agent.address)) {
        throw NetworkError("host '" + name + "' resolves to the loopback address " + agent.address +
                           ", which other hosts cannot reach; name it by an address of a real interface");
      }
    }
  }
  if (!launcherAddress.empty() && !isLocalAddress(launcherAddress)) {
    throw NetworkError("ZMPI_LAUNCHER_ADDRESS=" + launcherAddress + " is not an address of this machine");
  }
  std::set<std::string> facing;
  for (const auto& [name, agent] : network.agents) {
    std::string address = launcherAddress;
    if (address.empty()) {
      const auto source = sourceAddressFor(agent.address);
      if (!source) throw NetworkError("no route from this machine to " + agent.describe());
      address = *source;
    }
    network.advertised[name] = address;
    facing.insert(address);
  }
  // One interface faces every host: listen there only. Several: listen on all, and tell
  // each host the address on its side.
  network.rendezvousBind = "tcp://" + (facing.size() == 1 ? *facing.begin() : std::string("0.0.0.0")) + ":*";
  network.localRankAddress = network.advertised.begin()->second;
  return network;
}

std::string advertisedEndpoint(const std::string& bound, const std::string& address) {
  const size_t scheme = bound.find("://");
  const size_t colon = bound.rfind(':');
  if (scheme == std::string::npos || colon == std::string::npos || colon <= scheme) return bound;
  return bound.substr(0, scheme + 3) + address + bound.substr(colon);
}

}  // namespace zmpi::runtime
