#include "runtime/zmpirun/rank_environment.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "transport/log.h"

extern char** environ;

namespace zmpi::runtime {

std::map<std::string, std::string> resolveExports(const std::vector<std::string>& exports,
                                                  const std::map<std::string, std::string>& environment) {
  std::map<std::string, std::string> resolved;
  for (const std::string& item : exports) {
    const size_t equals = item.find('=');
    if (equals != std::string::npos) {
      resolved[item.substr(0, equals)] = item.substr(equals + 1);
      continue;
    }
    if (auto it = environment.find(item); it != environment.end()) {
      resolved[item] = it->second;
    } else {
      log::get("runtime")->warn("-x {}: no such variable in zmpirun's environment; not exported", item);
    }
  }
  return resolved;
}

std::map<std::string, std::string> currentEnvironment() {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const size_t equals = text.find('=');
    if (equals != std::string::npos) environment.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return environment;
}

std::vector<std::string> rankEnvironment(std::map<std::string, std::string> base,
                                         const std::map<std::string, std::string>& exports, const JobEnvironment& job,
                                         const RankEnvironment& rank) {
  for (const auto& [name, value] : exports) base[name] = value;
  // The bootstrap contract comes last: neither zmpirun's environment (a zmpirun started
  // from inside a rank) nor -x may override it.
  base["ZMPI_JOB_ID"] = job.jobId;
  base["ZMPI_RANK"] = std::to_string(rank.rank);
  base["ZMPI_SIZE"] = std::to_string(job.size);
  base["ZMPI_RENDEZVOUS"] = job.rendezvous;
  base["ZMPI_HOST"] = rank.host;
  base["ZMPI_BIND_ADDRESS"] = rank.bindAddress;
  base["ZMPI_LOCAL_RANK"] = std::to_string(rank.localRank);
  base["ZMPI_LOCAL_SIZE"] = std::to_string(rank.localSize);
  base["ZMPI_UNIVERSE_SIZE"] = std::to_string(job.universeSize);
  base["ZMPI_APPNUM"] = "0";
  base["ZMPI_LAUNCHED"] = "1";
  if (!job.libDir.empty()) {
    auto& path = base["LD_LIBRARY_PATH"];
    path = path.empty() ? job.libDir : job.libDir + ":" + path;
  }
  std::vector<std::string> entries;
  entries.reserve(base.size());
  for (const auto& [name, value] : base) entries.push_back(name + "=" + value);
  return entries;
}

std::string findZmpiLibDir() {
  namespace fs = std::filesystem;
  auto hasLibrary = [](const fs::path& dir) {
    std::error_code ignored;
    return fs::exists(dir / "libmpi.so.40", ignored);
  };
  if (const char* override = std::getenv("ZMPI_LIBDIR"); override != nullptr && *override != '\0') return override;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  // ZMPI_RELATIVE_LIBDIR is bin -> lib of the install layout (e.g. "../lib" or
  // "../lib/x86_64-linux-gnu"); the build tree always has bin/../lib.
  for (const char* relative : {ZMPI_RELATIVE_LIBDIR, "../lib"}) {
    const fs::path dir = (self.parent_path() / relative).lexically_normal();
    if (hasLibrary(dir)) return dir.string();
  }
  return {};
}

std::string newJobId() {
  std::random_device random;
  std::uniform_int_distribution<uint64_t> digits;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digits(random)));
  return text;
}

}  // namespace zmpi::runtime
