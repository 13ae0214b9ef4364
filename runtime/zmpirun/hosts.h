#pragma once
// The hosts a job may use and how many ranks each takes: entries from -H or a hostfile
// (or this machine alone), with this machine's aliases merged into one host, and the
// default slot counts filled in (this machine: its core count, as Open MPI does).
#include <optional>
#include <string>
#include <vector>

#include "runtime/zmpirun/hostfile.h"

namespace zmpi::runtime {

struct Host {
  std::string name;  // logical name: this machine's hostname for every local alias
  int slots = 1;
  int maxSlots = 0;                             // 0: no hard limit
  bool local = false;                           // this machine: zmpirun starts the ranks itself
  std::string origin;                           // where the entry came from, for messages
  std::optional<int> agentPort = std::nullopt;  // from the hostfile; unset: --agent-port's
};

// This machine's hostname (gethostname).
std::string localHostName();

// localhost, 127.0.0.1, ::1 and this machine's name (full or short) all mean this machine.
// Other loopback addresses (127.0.0.2, ...) do not: tests use them as separate "hosts".
bool isLocalHostName(const std::string& name);

// Physical cores among the CPUs this process may run on (its affinity mask), counting
// hyperthreads of one core once; the CPU count if the topology cannot be read.
int localCoreCount();

// Merges entries naming the same host (slots add up, as with Open MPI's "-H a,a") and
// fills in default slots. With no entries at all, the job runs on this machine alone.
std::vector<Host> resolveHosts(const std::vector<HostEntry>& entries);

}  // namespace zmpi::runtime
