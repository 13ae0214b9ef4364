#include "mpi/core/info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>

#include "mpi/core/error.h"
#include "mpi/init/launch_contract.h"

namespace zmpi::mpi {
namespace {

// argv[0] and the rest, space-separated, from /proc (MPI_Init may have been given null argv).
std::pair<std::string, std::string> commandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  size_t start = 0;
  while (start < raw.size()) {
    size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    words.push_back(raw.substr(start, end - start));
    start = end + 1;
  }
  std::string args;
  for (size_t i = 1; i < words.size(); ++i) args += (i > 1 ? " " : "") + words[i];
  return {words.empty() ? std::string() : words[0], args};
}

void fillEnvironment(Info& info) {
  auto [command, args] = commandLine();
  info.set("command", command);
  info.set("argv", args);
  info.set("maxprocs", contract::kSize.text().value_or("1"));
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  info.set("host", host);
  utsname names{};
  if (uname(&names) == 0) info.set("arch", names.machine);
  char cwd[4096] = {};
  if (getcwd(cwd, sizeof cwd - 1) != nullptr) info.set("wdir", cwd);
}

}  // namespace

Info::Info() { bindHandle(&handle_, HandleKind::Info, this); }

Info::~Info() { retireHandle(handle_.header); }

void Info::set(const std::string& key, const std::string& value) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& entry) { return entry.first == key; });
  if (it != entries_.end()) {
    it->second = value;
  } else {
    entries_.emplace_back(key, value);
  }
}

std::optional<std::string> Info::get(const std::string& key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return v;
  }
  return std::nullopt;
}

bool Info::erase(const std::string& key) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& entry) { return entry.first == key; });
  if (it == entries_.end()) return false;
  entries_.erase(it);
  return true;
}

Info& Info::environment() {
  // Never destroyed: the predefined handle outlives every static destructor.
  static Info* info = [] {
    auto* env = new Info();
    env->predefined_ = true;
    fillEnvironment(*env);
    env->publicHandle_ = MPI_INFO_ENV;
    bindHandle(MPI_INFO_ENV, HandleKind::Info, env);
    return env;
  }();
  return *info;
}

Info* infoOrNull(MPI_Info handle) {
  if (handle == MPI_INFO_NULL) return nullptr;
  if (handle == MPI_INFO_ENV) return &Info::environment();
  if (!isHandleOf(handle, HandleKind::Info) || implOf<Info>(handle) == nullptr) {
    fail(MPI_ERR_INFO, "invalid info object");
  }
  return implOf<Info>(handle);
}

Info* infoOf(MPI_Info handle) {
  if (handle == MPI_INFO_NULL) fail(MPI_ERR_INFO, "info is MPI_INFO_NULL");
  return infoOrNull(handle);
}

}  // namespace zmpi::mpi
