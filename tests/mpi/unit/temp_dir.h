#pragma once
// A directory of its own under $TMPDIR (or /tmp), removed with everything in it.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace zmpi::mpi::testing {

class TempDir {
 public:
  // `tag` names the suite in the directory's name (zmpi-io-TAG-PID-N).
  explicit TempDir(const std::string& tag = "unit") {
    const char* base = std::getenv("TMPDIR");
    static int counter = 0;
    path_ = std::filesystem::path(base && *base ? base : "/tmp") /
            ("zmpi-io-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace zmpi::mpi::testing
