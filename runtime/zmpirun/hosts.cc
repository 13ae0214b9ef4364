#include "runtime/zmpirun/hosts.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <set>
#include <utility>

namespace zmpi::runtime {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

int readInt(const std::string& path) {
  std::ifstream in(path);
  int value = -1;
  in >> value;
  return in ? value : -1;
}

}  // namespace

std::string localHostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

bool isLocalHostName(const std::string& name) {
  const std::string host = lower(name);
  if (host == "localhost" || host == "localhost.localdomain" || host == "127.0.0.1" || host == "::1") return true;
  const std::string self = lower(localHostName());
  return host == self || host == self.substr(0, self.find('.'));
}

int localCoreCount() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (::sched_getaffinity(0, sizeof mask, &mask) != 0) return std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  std::set<std::pair<int, int>> cores;  // (package, core)
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask)) continue;
    const std::string topology = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    const int package = readInt(topology + "physical_package_id");
    const int core = readInt(topology + "core_id");
    if (package < 0 || core < 0) return std::max(1, CPU_COUNT(&mask));  // no topology: count CPUs
    cores.insert({package, core});
  }
  return std::max<int>(1, static_cast<int>(cores.size()));
}

std::vector<Host> resolveHosts(const std::vector<HostEntry>& entries) {
  std::vector<Host> hosts;
  if (entries.empty()) {
    hosts.push_back(Host{localHostName(), localCoreCount(), 0, true, "this machine's cores", std::nullopt});
    return hosts;
  }
  for (const HostEntry& entry : entries) {
    const bool local = isLocalHostName(entry.name);
    const std::string name = local ? localHostName() : entry.name;
    // A hostfile line without slots= means all of a local machine's cores; a remote
    // machine's core count is unknown here, so it gets one slot until an agent reports.
    const int slots = entry.slots.value_or(local ? localCoreCount() : 1);
    auto same = std::find_if(hosts.begin(), hosts.end(), [&](const Host& h) { return lower(h.name) == lower(name); });
    if (same == hosts.end()) {
      hosts.push_back(Host{name, slots, entry.maxSlots.value_or(0), local, entry.origin, entry.agentPort});
    } else {
      same->slots += slots;
      if (entry.maxSlots) same->maxSlots += *entry.maxSlots;
      if (entry.agentPort) same->agentPort = entry.agentPort;
    }
  }
  return hosts;
}

}  // namespace zmpi::runtime
