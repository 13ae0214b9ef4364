#include "transport/job_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <vector>

#include "transport/shm_segment.h"

namespace zmpi::transport {
namespace {

constexpr char kIpcDirectory[] = "/tmp";

std::string ipcPrefix(uint64_t jobHash) { return "zmpi-" + std::to_string(jobHash) + "-"; }

// "zmpi-" then `digits` characters of `alphabet`, then "-" and at least one more character.
bool namedLikeJob(const char* name, const char* alphabet, std::size_t minDigits, std::size_t maxDigits) {
  if (std::strncmp(name, "zmpi-", 5) != 0) return false;
  const std::size_t digits = std::strspn(name + 5, alphabet);
  return digits >= minDigits && digits <= maxDigits && name[5 + digits] == '-' && name[6 + digits] != '\0';
}

// Every file this user owns in `directory` that is named like a job's, of the wanted type,
// unchanged for `minimumAge`.
std::vector<std::string> oldJobFiles(const char* directory, bool sockets, std::chrono::seconds minimumAge) {
  std::vector<std::string> found;
  DIR* dir = opendir(directory);
  if (dir == nullptr) return found;
  const time_t newest = std::time(nullptr) - static_cast<time_t>(minimumAge.count());
  while (dirent* entry = readdir(dir)) {
    const bool named = sockets ? namedLikeJob(entry->d_name, "0123456789", 1, 20)
                               : namedLikeJob(entry->d_name, "0123456789abcdef", 16, 16);
    struct stat info {};
    if (!named || fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (info.st_uid != geteuid() || S_ISSOCK(info.st_mode) != sockets || info.st_mtime > newest) continue;
    found.push_back(std::string(directory) + "/" + entry->d_name);
  }
  closedir(dir);
  return found;
}

// Whether `path` occurs in any of the files (read whole; unreadable ones are skipped).
bool mentionedIn(const std::vector<std::string>& files, const std::string& path) {
  for (const std::string& file : files) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      if (line.find(path) != std::string::npos) return true;
    }
  }
  return false;
}

// /proc/PID/maps of every process, and one /proc/PID/net/unix per network namespace (a
// rank in another namespace, as the multi-host tests run them, shares /tmp but not ours).
struct ProcessFiles {
  std::vector<std::string> maps;
  std::vector<std::string> unixSockets;
};
ProcessFiles processFiles() {
  ProcessFiles files;
  std::set<std::string> namespaces;
  if (DIR* proc = opendir("/proc")) {
    while (dirent* entry = readdir(proc)) {
      if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
      const std::string dir = std::string("/proc/") + entry->d_name;
      files.maps.push_back(dir + "/maps");
      char target[64] = {};
      if (::readlink((dir + "/ns/net").c_str(), target, sizeof target - 1) > 0 && namespaces.insert(target).second) {
        files.unixSockets.push_back(dir + "/net/unix");
      }
    }
    closedir(proc);
  }
  files.unixSockets.push_back("/proc/net/unix");
  return files;
}

}  // namespace

std::string jobShmPrefix(uint64_t jobHash) {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "/zmpi-%016llx-", static_cast<unsigned long long>(jobHash));
  return prefix;
}

std::string jobIpcPath(uint64_t jobHash, int rank) {
  return std::string(kIpcDirectory) + "/" + ipcPrefix(jobHash) + std::to_string(rank);
}

int removeJobFiles(uint64_t jobHash) {
  int removed = SharedSegment::removeAll(jobShmPrefix(jobHash));
  const std::string prefix = ipcPrefix(jobHash);
  if (DIR* dir = opendir(kIpcDirectory)) {
    while (dirent* entry = readdir(dir)) {
      if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) == 0) {
        removed += ::unlink((std::string(kIpcDirectory) + "/" + entry->d_name).c_str()) == 0;
      }
    }
    closedir(dir);
  }
  return removed;
}

int removeStaleJobFiles(std::chrono::seconds minimumAge) {
  int removed = 0;
  const std::vector<std::string> objects = oldJobFiles("/dev/shm", false, minimumAge);
  const std::vector<std::string> sockets = oldJobFiles(kIpcDirectory, true, minimumAge);
  if (objects.empty() && sockets.empty()) return 0;  // the usual case: /proc is not read
  const ProcessFiles inUse = processFiles();
  for (const std::string& object : objects) {
    if (!mentionedIn(inUse.maps, object)) removed += ::unlink(object.c_str()) == 0;
  }
  for (const std::string& socket : sockets) {
    if (!mentionedIn(inUse.unixSockets, socket)) removed += ::unlink(socket.c_str()) == 0;
  }
  return removed;
}

}  // namespace zmpi::transport
