#include "runtime/common/job_secret.h"

#include <sodium.h>

#include <string_view>
#include <vector>

namespace zmpi::runtime {
namespace {

constexpr std::string_view kBoxContext = "zmpi job secret box v1";

// A secretbox key for this purpose only: BLAKE2b keyed with a hash of the agents' secret
// (which may be longer than a BLAKE2b key), over a fixed context string.
void boxKey(const Secret& agentSecret, unsigned char key[crypto_secretbox_KEYBYTES]) {
  static_assert(crypto_secretbox_KEYBYTES == crypto_generichash_BYTES);
  unsigned char digest[crypto_generichash_KEYBYTES];
  crypto_generichash(digest, sizeof digest, agentSecret.data(), agentSecret.size(), nullptr, 0);
  crypto_generichash(key, crypto_secretbox_KEYBYTES, reinterpret_cast<const unsigned char*>(kBoxContext.data()),
                     kBoxContext.size(), digest, sizeof digest);
  sodium_memzero(digest, sizeof digest);
}

}  // namespace

std::string newJobSecret() {
  if (sodium_init() < 0) throw SecretError("libsodium could not be initialised");
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  char hex[2 * sizeof bytes + 1];
  sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
  sodium_memzero(bytes, sizeof bytes);
  std::string secret(hex);
  sodium_memzero(hex, sizeof hex);
  return secret;
}

std::string sealJobSecret(const Secret& agentSecret, const std::string& jobSecret) {
  if (sodium_init() < 0) throw SecretError("libsodium could not be initialised");
  unsigned char key[crypto_secretbox_KEYBYTES];
  boxKey(agentSecret, key);
  std::string sealed(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + jobSecret.size(), '\0');
  auto* out = reinterpret_cast<unsigned char*>(sealed.data());
  randombytes_buf(out, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(out + crypto_secretbox_NONCEBYTES, reinterpret_cast<const unsigned char*>(jobSecret.data()),
                        jobSecret.size(), out, key);
  sodium_memzero(key, sizeof key);
  return sealed;
}

std::string openJobSecret(const Secret& agentSecret, const std::string& sealed) {
  if (sealed.size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES || sealed.size() > 4096) {
    throw SecretError("the sealed job secret has a wrong size");
  }
  if (sodium_init() < 0) throw SecretError("libsodium could not be initialised");
  unsigned char key[crypto_secretbox_KEYBYTES];
  boxKey(agentSecret, key);
  const auto* in = reinterpret_cast<const unsigned char*>(sealed.data());
  std::string secret(sealed.size() - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES, '\0');
  const int rc =
      crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(secret.data()), in + crypto_secretbox_NONCEBYTES,
                                 sealed.size() - crypto_secretbox_NONCEBYTES, in, key);
  sodium_memzero(key, sizeof key);
  if (rc != 0) throw SecretError("the sealed job secret does not open with this agent's secret");
  return secret;
}

}  // namespace zmpi::runtime
