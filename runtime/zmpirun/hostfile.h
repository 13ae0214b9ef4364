#pragma once
// Host lists as users write them for Open MPI: a hostfile ("node1 slots=4 # comment") or
// -H's "node1:4,node2". Parsing only: which hosts are local, and the default slot counts,
// are decided later (hosts.h), so the same entries can feed a remote launcher.
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zmpi::runtime {

struct HostEntry {
  std::string name;
  std::optional<int> slots;      // unset: the default for that kind of host
  std::optional<int> maxSlots;   // unset: no hard limit
  std::optional<int> agentPort;  // hostfile "agent_port=N": where this host's zmpid listens
  std::string origin;            // "hostfile F line L" or "--host", for messages
};

// A hostfile line that does not parse; what() reads "hostfile 'F', line L: ...".
class HostfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses Open MPI's hostfile format: one host per line, optionally followed by slots=N
// (aliases cpu=N, count=N), max_slots=N and agent_port=N (zmpi's own: the port of that
// host's zmpid when it is not the default); '#' starts a comment; blank lines are skipped.
// "host:N" (MPICH's hostfile format) gives the slots too.
std::vector<HostEntry> parseHostfile(std::istream& in, const std::string& fileName);
// Opens and parses `fileName`; an unreadable file is a HostfileError too.
std::vector<HostEntry> readHostfile(const std::string& fileName);

// Parses one -H value: comma-separated host[:slots]. A host without ":slots" counts one
// slot per mention, as with Open MPI.
std::vector<HostEntry> parseHostList(const std::string& list);

}  // namespace zmpi::runtime
