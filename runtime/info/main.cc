// zmpi_info: every setting zmpi reads (like `ompi_info --param all all`), its type, default,
// current value (from this environment), level and doc. Linked with every layer's code, so
// every setting declared anywhere is registered (runtime/CMakeLists.txt: whole archives).
#include <cstdio>
#include <iostream>
#include <string>

#include "runtime/info/settings_table.h"

namespace {

constexpr const char* kUsage =
    "Usage: zmpi_info [--all | --level user|tuning|internal | --markdown | --names]\n"
    "  (none)       user and tuning settings, then the experiments\n"
    "  --all        every setting, internal ones too (set by zmpirun for its ranks, deprecated aliases)\n"
    "  --level L    the settings of one level\n"
    "  --markdown   as a Markdown table (with --level user: the README's; without: docs/settings.md's)\n"
    "  --names      every setting's name, one a line\n";

}  // namespace

int main(int argc, char** argv) {
  using zmpi::runtime::TableChoice;
  TableChoice choice;
  bool markdown = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--all") {
      choice.internal = true;
    } else if (arg == "--level" && i + 1 < argc) {
      choice.level = zmpi::transport::levelNamed(argv[++i]);
      if (!choice.level) {
        std::fprintf(stderr, "zmpi_info: '%s' is not a level (user, tuning, internal)\n", argv[i]);
        return 1;
      }
    } else if (arg == "--markdown") {
      markdown = true;
    } else if (arg == "--names") {
      zmpi::runtime::printNames(std::cout);
      return 0;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "zmpi_info: unknown option '%s'\n%s", arg.c_str(), kUsage);
      return 1;
    }
  }
  if (markdown) {
    zmpi::runtime::printMarkdown(std::cout, choice);
  } else {
    zmpi::runtime::printSettings(std::cout, choice);
  }
  return 0;
}
