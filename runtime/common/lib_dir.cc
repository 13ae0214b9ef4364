#include "runtime/common/lib_dir.h"

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "transport/settings.h"

namespace zmpi::runtime {
namespace {

const transport::StringSetting kLibDirSetting{
    "ZMPI_LIBDIR",
    "",
    {},
    transport::Level::User,
    "the directory holding zmpi's libmpi.so.40, put first on the ranks' loader path (default: found beside "
    "zmpirun)"};

}  // namespace

std::string findZmpiLibDir() {
  namespace fs = std::filesystem;
  auto hasLibrary = [](const fs::path& dir) {
    std::error_code ignored;
    return fs::exists(dir / "libmpi.so.40", ignored);
  };
  if (const std::optional<std::string> override = kLibDirSetting.readIfSet()) return *override;
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

}  // namespace zmpi::runtime
