// Replays fuzz inputs without libFuzzer: every file named on the command line (or every
// file in each directory named) goes through LLVMFuzzerTestOneInput once. A crash or a
// sanitizer report fails the test; otherwise it prints how many inputs it ran.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
int runFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  int count = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (entry.is_regular_file()) count += runFile(entry.path());
      }
    } else {
      count += runFile(path);
    }
  }
  std::printf("replayed %d input(s)\n", count);
  return count > 0 ? 0 : 1;
}
