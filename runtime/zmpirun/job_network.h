#pragma once
// Where a multi-host job listens and what it advertises. Each remote host's name is
// resolved here, once: its address is where zmpirun reaches the host's zmpid, and what
// the host's ranks bind (ZMPI_BIND_ADDRESS), so peers reach them at the address the user
// gave. zmpirun's own side (the rendezvous, and ranks on this machine) uses the local
// address the kernel routes toward the hosts, unless ZMPI_LAUNCHER_ADDRESS names one.
// When different hosts are reached through different local interfaces, the rendezvous
// binds 0.0.0.0 and each host is told the address that faces it.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/zmpirun/hosts.h"

namespace zmpi::runtime {

class NetworkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct AgentTarget {
  std::string host;     // as the user named it (the ranks' ZMPI_HOST)
  std::string address;  // IPv4 it resolved to
  int port = 0;
  std::string describe() const;  // "host 'h' (10.0.0.2:7117)"
};

struct JobNetwork {
  std::string rendezvousBind;                     // tcp://ADDR:* for the rendezvous server
  std::string localRankAddress;                   // ZMPI_BIND_ADDRESS of ranks on this machine
  std::map<std::string, AgentTarget> agents;      // remote host name -> its agent
  std::map<std::string, std::string> advertised;  // remote host name -> zmpirun's address for it
};

// `hosts`: the hosts that run ranks. `launcherAddress`: ZMPI_LAUNCHER_ADDRESS or empty.
// `knownAddresses`: hosts whose agent said itself where it listens (agents zmpirun
// started in a Slurm allocation), taken as they are instead of resolving the name.
// Throws NetworkError naming the host when a name does not resolve, no route leads to
// it, or loopback and real addresses are mixed (a loopback address means "this machine"
// to every host, so it only works when every "host" is this machine).
JobNetwork planJobNetwork(const std::vector<Host>& hosts, int defaultAgentPort, const std::string& launcherAddress,
                          const std::map<std::string, std::string>& knownAddresses = {});

// The rendezvous endpoint a host should connect to: `bound` (tcp://A:P as bound) with
// its address replaced by `address`.
std::string advertisedEndpoint(const std::string& bound, const std::string& address);

}  // namespace zmpi::runtime
