#include "runtime/common/secret.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "mpi/init/launch_contract.h"
#include "runtime/common/unique_fd.h"
#include "transport/settings.h"

namespace zmpi::runtime {
namespace {

const transport::StringSetting kSecretFileSetting{
    "ZMPI_SECRET_FILE",
    "",
    {},
    transport::Level::User,
    "the agents' secret file (mode 0600, the same on every host) zmpirun signs its requests to zmpid with"};
const transport::StringSetting kSecretSetting{"ZMPI_SECRET",
                                              "",
                                              {},
                                              transport::Level::User,
                                              "the agents' secret itself (prefer ZMPI_SECRET_FILE)",
                                              transport::StringSetting::Shown::Hidden};

void initSodium() {
  if (::sodium_init() < 0) throw SecretError("libsodium failed to initialise");
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

Secret checkedSecret(std::string_view bytes, const std::string& origin) {
  bytes = trimmed(bytes);
  if (bytes.size() < Secret::kMinBytes) {
    throw SecretError(origin + " holds " + std::to_string(bytes.size()) + " bytes; a secret needs at least " +
                      std::to_string(Secret::kMinBytes) + " (e.g. head -c 32 /dev/urandom | base64 > FILE)");
  }
  return Secret(bytes);
}

}  // namespace

Secret::Secret(std::string_view bytes) : size_(bytes.size()) {
  initSodium();
  if (size_ > kMaxBytes) throw SecretError("a secret may hold at most " + std::to_string(kMaxBytes) + " bytes");
  data_ = static_cast<unsigned char*>(::sodium_malloc(size_ == 0 ? 1 : size_));
  if (data_ == nullptr) throw SecretError("cannot allocate locked memory for the secret");
  std::memcpy(data_, bytes.data(), size_);
}

Secret::~Secret() {
  if (data_ != nullptr) ::sodium_free(data_);  // wipes the memory before releasing it
}

Secret::Secret(Secret&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

Secret& Secret::operator=(Secret&& other) noexcept {
  std::swap(data_, other.data_);  // the other's destructor frees and wipes what was ours
  std::swap(size_, other.size_);
  return *this;
}

Secret readSecretFile(const std::string& path) {
  const std::string origin = "secret file '" + path + "'";
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd) throw SecretError("cannot open " + origin + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw SecretError("cannot stat " + origin + ": " + std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw SecretError(origin + " is not a regular file");
  if ((info.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    throw SecretError(origin + " is accessible by group or others (mode " + mode +
                      "); refusing to use it. Run: chmod 600 '" + path + "'");
  }
  if (static_cast<size_t>(info.st_size) > Secret::kMaxBytes + 2) {
    throw SecretError(origin + " is larger than " + std::to_string(Secret::kMaxBytes) + " bytes");
  }
  std::string bytes(static_cast<size_t>(info.st_size), '\0');
  size_t have = 0;
  while (have < bytes.size()) {
    const ssize_t got = ::read(fd.get(), bytes.data() + have, bytes.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw SecretError("cannot read " + origin + ": " + std::strerror(errno));
    if (got == 0) break;
    have += static_cast<size_t>(got);
  }
  bytes.resize(have);
  Secret secret = checkedSecret(bytes, origin);
  ::sodium_memzero(bytes.data(), bytes.size());
  return secret;
}

std::optional<Secret> loadSecret(const std::string& file) {
  if (!file.empty()) return readSecretFile(file);
  if (const std::optional<std::string> path = kSecretFileSetting.readIfSet()) return readSecretFile(*path);
  std::optional<std::string> value = kSecretSetting.readIfSet();
  if (!value) return std::nullopt;
  Secret secret = checkedSecret(*value, kSecretSetting.name());
  ::sodium_memzero(value->data(), value->size());
  ::unsetenv(kSecretSetting.name());
  return secret;
}

// The agents' secret, and any job secret zmpirun or an agent did not set itself (a rank's
// job secret is set last, by whoever starts it, never inherited or forwarded).
bool isSecretVariable(std::string_view name) {
  return name == kSecretSetting.name() || name == contract::kJobSecret.name() ||
         name == contract::kJobSecretFile.name();
}

}  // namespace zmpi::runtime
