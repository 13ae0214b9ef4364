// Info objects: MPI_Info_create/set/get/get_valuelen/delete/dup/free/get_nkeys/get_nthkey.
// Errors go to MPI_COMM_WORLD's handler (these calls have no communicator).
#include "mpi/core/info.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/runtime.h"

using namespace zmpi::mpi;
using namespace zmpi::mpi::capi;

namespace {

// MPI_INFO_ENV's thread level is only known once MPI is initialized: the first of these
// calls after MPI_Init adds it (concurrent callers wait in call_once, so none sees it half-set).
Info& infoArg(MPI_Info info) {
  Info* object = infoOf(info);
  if (object->predefined() && Runtime::instance().state() == State::Initialized) {
    static std::once_flag once;
    std::call_once(once, [object] {
      static const char* const kLevels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                            "MPI_THREAD_MULTIPLE"};
      const int level = Runtime::instance().threadLevel();
      if (level >= 0 && level < 4) object->set("thread_level", kLevels[level]);
    });
  }
  return *object;
}

std::string keyArg(const char* key) {
  if (key == nullptr) fail(MPI_ERR_INFO_KEY, "key is a null pointer");
  const size_t length = std::strlen(key);
  if (length == 0) fail(MPI_ERR_INFO_KEY, "key is empty");
  if (length > MPI_MAX_INFO_KEY) {
    fail(MPI_ERR_INFO_KEY, "key of " + std::to_string(length) + " characters is longer than MPI_MAX_INFO_KEY (" +
                               std::to_string(MPI_MAX_INFO_KEY) + ")");
  }
  return key;
}

std::string valueArg(const char* value) {
  if (value == nullptr) fail(MPI_ERR_INFO_VALUE, "value is a null pointer");
  const size_t length = std::strlen(value);
  if (length > MPI_MAX_INFO_VAL) {
    fail(MPI_ERR_INFO_VALUE, "value of " + std::to_string(length) + " characters is longer than MPI_MAX_INFO_VAL (" +
                                 std::to_string(MPI_MAX_INFO_VAL) + ")");
  }
  return value;
}

void outArg(const void* pointer, const char* name) {
  if (pointer == nullptr) fail(MPI_ERR_ARG, std::string(name) + " is a null pointer");
}

}  // namespace

extern "C" {

int PMPI_Info_create(MPI_Info* info) {
  return guarded("MPI_Info_create", [&] {
    outArg(info, "info");
    *info = (new Info())->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_create)

int PMPI_Info_set(MPI_Info info, const char* key, const char* value) {
  return guarded("MPI_Info_set", [&] {
    Info& object = infoArg(info);
    object.set(keyArg(key), valueArg(value));
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_set)

// Copies at most `valuelen` characters and always terminates: `value` holds valuelen + 1.
int PMPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  return guarded("MPI_Info_get", [&] {
    Info& object = infoArg(info);
    const std::string k = keyArg(key);
    if (valuelen < 0) fail(MPI_ERR_ARG, "valuelen is negative (" + std::to_string(valuelen) + ")");
    outArg(value, "value");
    outArg(flag, "flag");
    auto found = object.get(k);
    *flag = found.has_value();
    if (found) {
      const size_t n = std::min(found->size(), static_cast<size_t>(valuelen));
      std::memcpy(value, found->data(), n);
      value[n] = '\0';
    }
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_get)

int PMPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  return guarded("MPI_Info_get_valuelen", [&] {
    Info& object = infoArg(info);
    const std::string k = keyArg(key);
    outArg(valuelen, "valuelen");
    outArg(flag, "flag");
    auto found = object.get(k);
    *flag = found.has_value();
    if (found) *valuelen = static_cast<int>(found->size());
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_get_valuelen)

int PMPI_Info_delete(MPI_Info info, const char* key) {
  return guarded("MPI_Info_delete", [&] {
    Info& object = infoArg(info);
    const std::string k = keyArg(key);
    if (!object.erase(k)) fail(MPI_ERR_INFO_NOKEY, "key \"" + k + "\" is not in the info object");
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_delete)

int PMPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  return guarded("MPI_Info_dup", [&] {
    Info& object = infoArg(info);
    outArg(newinfo, "newinfo");
    auto copy = std::make_unique<Info>();
    for (const auto& [key, value] : object.entries()) copy->set(key, value);
    *newinfo = copy.release()->handle();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_dup)

int PMPI_Info_free(MPI_Info* info) {
  return guarded("MPI_Info_free", [&] {
    outArg(info, "info");
    Info& object = infoArg(*info);
    if (object.predefined()) fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed");
    delete &object;
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_free)

int PMPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  return guarded("MPI_Info_get_nkeys", [&] {
    Info& object = infoArg(info);
    outArg(nkeys, "nkeys");
    *nkeys = object.size();
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_get_nkeys)

// `key` holds MPI_MAX_INFO_KEY + 1 characters.
int PMPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  return guarded("MPI_Info_get_nthkey", [&] {
    Info& object = infoArg(info);
    outArg(key, "key");
    if (n < 0 || n >= object.size()) {
      fail(MPI_ERR_ARG,
           "n = " + std::to_string(n) + " is not below the number of keys (" + std::to_string(object.size()) + ")");
    }
    const std::string& k = object.keyAt(n);
    std::memcpy(key, k.c_str(), k.size() + 1);
    return MPI_SUCCESS;
  });
}
ZMPI_ALIAS(MPI_Info_get_nthkey)

}  // extern "C"
