// The shared secret: files others can read are refused, short secrets too, and
// ZMPI_SECRET leaves the environment once read.
#include "runtime/common/secret.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace zmpi::runtime;

namespace {

struct TempFile {
  std::string path;
  TempFile(const std::string& content, mode_t mode) {
    char name[] = "/tmp/zmpi-secret-test-XXXXXX";
    const int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    ::close(fd);
    path = name;
    std::ofstream(path) << content;
    ::chmod(path.c_str(), mode);
  }
  ~TempFile() { ::unlink(path.c_str()); }
};

std::string errorOf(const std::string& path) {
  try {
    readSecretFile(path);
  } catch (const SecretError& error) {
    return error.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("secret file: owner-only files are read without their trailing newline") {
  TempFile file("0123456789abcdef0123\n", 0600);
  const Secret secret = readSecretFile(file.path);
  CHECK(std::string(reinterpret_cast<const char*>(secret.data()), secret.size()) == "0123456789abcdef0123");
  TempFile readOnly("0123456789abcdef0123", 0400);
  CHECK(readSecretFile(readOnly.path).size() == 20);
}

TEST_CASE("secret file: group or other access, short secrets and missing files are refused") {
  TempFile groupReadable("0123456789abcdef0123", 0640);
  CHECK_THAT(errorOf(groupReadable.path), Catch::Contains("mode 0640") && Catch::Contains("chmod 600"));
  TempFile worldReadable("0123456789abcdef0123", 0604);
  CHECK_THAT(errorOf(worldReadable.path), Catch::Contains("group or others"));
  TempFile shortSecret("tooshort\n", 0600);
  CHECK_THAT(errorOf(shortSecret.path), Catch::Contains("at least 16"));
  CHECK_THAT(errorOf("/nonexistent/zmpi-secret"), Catch::Contains("cannot open"));
  CHECK_THAT(errorOf("/tmp"), Catch::Contains("cannot") || Catch::Contains("not a regular file"));
}

TEST_CASE("secret: ZMPI_SECRET is used when no file is named, then removed from the environment") {
  ::unsetenv("ZMPI_SECRET_FILE");
  ::setenv("ZMPI_SECRET", "an environment secret", 1);
  auto secret = loadSecret();
  REQUIRE(secret.has_value());
  CHECK(secret->size() == std::string("an environment secret").size());
  CHECK(std::getenv("ZMPI_SECRET") == nullptr);
  CHECK_FALSE(loadSecret().has_value());
  CHECK(isSecretVariable("ZMPI_SECRET"));
  CHECK_FALSE(isSecretVariable("ZMPI_SECRET_FILE"));
}
