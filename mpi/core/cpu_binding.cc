#include "mpi/core/cpu_binding.h"

#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/init/launch_contract.h"
#include "transport/log.h"

namespace zmpi::mpi {
namespace {

// Reads one integer from a sysfs topology file; -1 when it is not there.
int readTopology(int cpu, const char* file) {
  std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/" + file);
  int value = -1;
  if (!(in >> value)) return -1;
  return value;
}

std::string describe(const std::vector<int>& cpus) {
  std::string text;
  for (int cpu : cpus) text += (text.empty() ? "" : ",") + std::to_string(cpu);
  return text;
}

}  // namespace

std::vector<CpuCore> allowedCores() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return {};
  // (package, core id) -> core, ordered by the first CPU seen, i.e. CPU order.
  std::vector<CpuCore> cores;
  std::map<std::pair<int, int>, size_t> index;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask)) continue;
    const int package = std::max(0, readTopology(cpu, "physical_package_id"));
    const int core = readTopology(cpu, "core_id");
    const auto key = std::make_pair(package, core < 0 ? 100000 + cpu : core);
    auto [it, fresh] = index.emplace(key, cores.size());
    if (fresh) cores.push_back({package, {}});
    cores[it->second].cpus.push_back(cpu);
  }
  return cores;
}

std::vector<int> cpusToBind(const std::string& requested, int localRank, int localSize,
                            const std::vector<CpuCore>& cores) {
  // Open MPI's qualifier: bind even when there are more ranks than cores (or hardware
  // threads), rank i on core i modulo their number.
  constexpr std::string_view kOverload = ":overload-allowed";
  const bool overload = requested.size() > kOverload.size() && requested.ends_with(kOverload);
  const std::string policy = overload ? requested.substr(0, requested.size() - kOverload.size()) : requested;
  if (policy != "core" && policy != "hwthread" && policy != "package" && policy != "socket" &&
      (policy != "none" || overload)) {
    throw std::invalid_argument("unknown binding policy '" + requested +
                                "' (core, hwthread, package, socket, none; the first four may end in "
                                ":overload-allowed)");
  }
  if (policy == "none" || localRank < 0 || localRank >= localSize || cores.empty()) return {};
  if (policy == "hwthread") {
    std::vector<int> all;
    for (const auto& core : cores) all.insert(all.end(), core.cpus.begin(), core.cpus.end());
    if (localSize > static_cast<int>(all.size()) && !overload) return {};
    return {all[static_cast<size_t>(localRank) % all.size()]};
  }
  // Like Open MPI: ranks are mapped by core (rank i on core i); an oversubscribed host
  // is not bound at all unless overload is allowed.
  if (localSize > static_cast<int>(cores.size()) && !overload) return {};
  const CpuCore& mine = cores[static_cast<size_t>(localRank) % cores.size()];
  if (policy == "core") return mine.cpus;
  std::vector<int> package;
  for (const auto& core : cores) {
    if (core.package == mine.package) package.insert(package.end(), core.cpus.begin(), core.cpus.end());
  }
  std::sort(package.begin(), package.end());
  return package;
}

std::string bindingPolicy(const std::string& requested, bool launched, int localSize) {
  if (!requested.empty()) return requested;
  if (!launched) return "none";
  return localSize <= 2 ? "core" : "package";
}

namespace {
std::atomic<bool> boundAtInit{false};

// The affinity mask the process started with, read once (before any binding narrows it).
const cpu_set_t& maskAtStart() {
  static const cpu_set_t mask = [] {
    cpu_set_t start;
    CPU_ZERO(&start);
    if (sched_getaffinity(0, sizeof start, &start) != 0) CPU_ZERO(&start);
    return start;
  }();
  return mask;
}

// Sets `mask` on every thread of the process that exists now (a program may start some
// before MPI_Init, zmpi's own run after it); threads started later inherit the caller's.
bool applyToEveryThread(const cpu_set_t& mask) {
  bool applied = true;
  std::error_code ignored;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ignored)) {
    // NOLINTNEXTLINE(cert-err34-c): the kernel's /proc/self/task/<tid> names; tid > 0 is checked
    const pid_t tid = static_cast<pid_t>(std::atoi(task.path().filename().c_str()));
    if (tid > 0 && sched_setaffinity(tid, sizeof mask, &mask) != 0) applied = false;
  }
  return sched_setaffinity(0, sizeof mask, &mask) == 0 && applied;
}
}  // namespace

bool boundToCpus() { return boundAtInit.load(std::memory_order_relaxed); }

int cpusAllowedAtStart() {
  static const int count = std::max(1, CPU_COUNT(&maskAtStart()));
  return count;
}

bool bindToCpus(const std::vector<int>& cpus) {
  (void)maskAtStart();
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (int cpu : cpus) CPU_SET(cpu, &mask);
  if (cpus.empty() || !applyToEveryThread(mask)) return false;
  boundAtInit.store(true, std::memory_order_relaxed);
  return true;
}

bool unbindFromCpus() {
  if (!boundAtInit.exchange(false, std::memory_order_relaxed)) return false;
  if (CPU_COUNT(&maskAtStart()) == 0) return false;
  return applyToEveryThread(maskAtStart());
}

void bindFromEnvironment() {
  (void)maskAtStart();  // remembered before the binding narrows the mask
  const int localSize = static_cast<int>(setting(contract::kLocalSize));
  const int localRank = static_cast<int>(settingIfSet(contract::kLocalRank).value_or(-1));
  const std::string policy = bindingPolicy(setting(contract::kBindTo), setting(contract::kLaunched), localSize);
  std::vector<int> cpus;
  try {
    cpus = cpusToBind(policy, localRank, localSize, allowedCores());
  } catch (const std::invalid_argument& error) {
    fail(MPI_ERR_OTHER, std::string("ZMPI_BIND_TO: ") + error.what());
  }
  auto logger = log::get("mpi");
  if (cpus.empty()) {
    logger->debug("not bound to CPUs (policy {}, local rank {} of {})", policy, localRank, localSize);
    return;
  }
  if (!bindToCpus(cpus)) {
    // A container may forbid it; running unbound is slower, not wrong.
    logger->info("could not bind to CPUs {} (policy {}); running unbound", describe(cpus), policy);
    return;
  }
  logger->debug("bound to CPUs {} (policy {}, local rank {} of {})", describe(cpus), policy, localRank, localSize);
}

}  // namespace zmpi::mpi
