#include "mpi/core/job_secret.h"

#include <fcntl.h>
#include <mpi.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mpi/core/error.h"
#include "mpi/init/launch_contract.h"
#include "transport/errors.h"

namespace zmpi::mpi {
namespace {

constexpr size_t kMaxSecretBytes = 4096;

std::string readSecretFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) fail(MPI_ERR_OTHER, "ZMPI_JOB_SECRET_FILE " + path + ": " + std::strerror(errno));
  struct stat info {};
  std::string secret;
  const bool usable = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && (info.st_mode & 077) == 0 &&
                      info.st_uid == ::getuid() && static_cast<size_t>(info.st_size) <= kMaxSecretBytes;
  if (usable) {
    secret.resize(static_cast<size_t>(info.st_size));
    const ssize_t got = ::read(fd, secret.data(), secret.size());
    secret.resize(got > 0 ? static_cast<size_t>(got) : 0);
  }
  ::close(fd);
  if (!usable) {
    fail(MPI_ERR_OTHER, "ZMPI_JOB_SECRET_FILE " + path +
                            " must be a regular file of at most 4096 bytes, owned by this user and readable by "
                            "nobody else (chmod 600)");
  }
  while (!secret.empty() && std::isspace(static_cast<unsigned char>(secret.back()))) secret.pop_back();
  return secret;
}

}  // namespace

std::shared_ptr<const transport::LinkKeys> takeJobKeys() {
  std::string secret = contract::kJobSecret.take();
  const std::string file = contract::kJobSecretFile.take();
  if (secret.empty() && !file.empty()) secret = readSecretFile(file);
  return jobKeysFromSecret(std::move(secret));
}

std::shared_ptr<const transport::LinkKeys> jobKeysFromSecret(std::string secret) {
  bool encrypt = false;
  try {
    encrypt = contract::kEncrypt.read();
  } catch (const transport::TransportError& error) {
    sodium_memzero(secret.data(), secret.size());
    fail(MPI_ERR_OTHER, error.what());
  }
  if (secret.empty()) {
    // Asked for, but impossible: failing beats running in the clear unnoticed.
    if (encrypt) {
      fail(MPI_ERR_OTHER,
           "ZMPI_ENCRYPT is set but there is no job secret to derive keys from (ZMPI_JOB_SECRET or "
           "ZMPI_JOB_SECRET_FILE; zmpirun sets one)");
    }
    return nullptr;
  }
  std::shared_ptr<const transport::LinkKeys> keys;
  try {
    keys = transport::deriveLinkKeys(secret, encrypt);
  } catch (const transport::TransportError& error) {
    sodium_memzero(secret.data(), secret.size());
    fail(MPI_ERR_OTHER, std::string("ZMPI_JOB_SECRET: ") + error.what());
  }
  sodium_memzero(secret.data(), secret.size());
  return keys;
}

std::string freshJobSecret() {
  if (sodium_init() < 0) fail(MPI_ERR_OTHER, "libsodium cannot be initialised: no job secret");
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  std::string hex(sizeof bytes * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), bytes, sizeof bytes);
  sodium_memzero(bytes, sizeof bytes);
  hex.pop_back();
  return hex;
}

}  // namespace zmpi::mpi
