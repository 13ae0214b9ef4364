#pragma once
// The shared secret that zmpirun and the zmpid agents prove to each other (HMAC, see
// agent_codec.h). It is read from a file or the environment, never from a command line
// (visible to every user in ps), and never logged. A file must be readable by its owner
// alone, as ssh insists for private keys: a secret others can read is no secret.
#include <sodium.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace zmpi::runtime {

class SecretError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The secret's bytes in memory that is locked (never swapped out) and wiped on
// destruction. Movable, not copyable.
class Secret {
 public:
  explicit Secret(std::string_view bytes);
  ~Secret();
  Secret(Secret&& other) noexcept;
  Secret& operator=(Secret&& other) noexcept;
  Secret(const Secret&) = delete;
  Secret& operator=(const Secret&) = delete;

  const unsigned char* data() const { return data_; }
  size_t size() const { return size_; }

  // Shorter secrets are refused: they could be guessed offline from one signed message.
  static constexpr size_t kMinBytes = 16;
  static constexpr size_t kMaxBytes = 4096;

 private:
  unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

// Reads a secret file: a regular file of at most kMaxBytes, no permission for group or
// others (mode & 077 == 0), content without its trailing newline/whitespace, at least
// kMinBytes long. Throws SecretError saying what is wrong and how to fix it.
Secret readSecretFile(const std::string& path);

// Where a secret comes from, in order: `file` (a command-line --secret-file), then the
// file named by ZMPI_SECRET_FILE, then the value of ZMPI_SECRET. nullopt if none is set;
// SecretError if one is set but unusable. ZMPI_SECRET is removed from this process's
// environment once read, so nothing started later inherits it.
std::optional<Secret> loadSecret(const std::string& file = {});

// Variables that must never reach a rank's environment.
bool isSecretVariable(std::string_view name);

}  // namespace zmpi::runtime
