#include "mpi/capi/error_strings.h"

#include <map>
#include <mutex>

#include <mpi.h>

namespace zmpi::mpi::capi {
namespace {

const char* const kPredefined[] = {
    "MPI_SUCCESS: no errors",
    "MPI_ERR_BUFFER: invalid buffer pointer",
    "MPI_ERR_COUNT: invalid count argument",
    "MPI_ERR_TYPE: invalid datatype",
    "MPI_ERR_TAG: invalid tag",
    "MPI_ERR_COMM: invalid communicator",
    "MPI_ERR_RANK: invalid rank",
    "MPI_ERR_REQUEST: invalid request",
    "MPI_ERR_ROOT: invalid root",
    "MPI_ERR_GROUP: invalid group",
    "MPI_ERR_OP: invalid reduce operation",
    "MPI_ERR_TOPOLOGY: invalid communicator topology",
    "MPI_ERR_DIMS: invalid topology dimension",
    "MPI_ERR_ARG: invalid argument of some other kind",
    "MPI_ERR_UNKNOWN: unknown error",
    "MPI_ERR_TRUNCATE: message truncated",
    "MPI_ERR_OTHER: known error not in list",
    "MPI_ERR_INTERN: internal error",
    "MPI_ERR_IN_STATUS: error code is in status",
    "MPI_ERR_PENDING: pending request",
    "MPI_ERR_ACCESS: invalid access mode",
    "MPI_ERR_AMODE: invalid amode argument",
    "MPI_ERR_ASSERT: invalid assert argument",
    "MPI_ERR_BAD_FILE: bad file",
    "MPI_ERR_BASE: invalid base",
    "MPI_ERR_CONVERSION: error in data conversion",
    "MPI_ERR_DISP: invalid displacement",
    "MPI_ERR_DUP_DATAREP: error duplicating data representation",
    "MPI_ERR_FILE_EXISTS: file exists alreay",
    "MPI_ERR_FILE_IN_USE: file already in use",
    "MPI_ERR_FILE: invalid file",
    "MPI_ERR_INFO_KEY: invalid key argument for info object",
    "MPI_ERR_INFO_NOKEY: unknown key for given info object",
    "MPI_ERR_INFO_VALUE: invalid value argument for info object",
    "MPI_ERR_INFO: invalid info object",
    "MPI_ERR_IO: input/output error",
    "MPI_ERR_KEYVAL: invalid key value",
    "MPI_ERR_LOCKTYPE: invalid lock",
    "MPI_ERR_NAME: invalid name argument",
    "MPI_ERR_NO_MEM: out of memory",
    "MPI_ERR_NOT_SAME: objects are not identical",
    "MPI_ERR_NO_SPACE: no space left on device",
    "MPI_ERR_NO_SUCH_FILE: no such file or directory",
    "MPI_ERR_PORT: invalid port",
    "MPI_ERR_QUOTA: out of quota",
    "MPI_ERR_READ_ONLY: file is read only",
    "MPI_ERR_RMA_CONFLICT: rma conflict during operation",
    "MPI_ERR_RMA_SYNC: error executing rma sync",
    "MPI_ERR_SERVICE: unknown service name",
    "MPI_ERR_SIZE: invalid size",
    "MPI_ERR_SPAWN: could not spawn processes",
    "MPI_ERR_UNSUPPORTED_DATAREP: requested data representation not supported",
    "MPI_ERR_UNSUPPORTED_OPERATION: requested operation not suppported",
    "MPI_ERR_WIN: invalid window",
    "MPI_T_ERR_MEMORY: out of memory",
    "MPI_T_ERR_NOT_INITIALIZED: interface not initialized",
    "MPI_T_ERR_CANNOT_INIT: interface not in the state to be initialized",
    "MPI_T_ERR_INVALID_INDEX: invalid index",
    "MPI_T_ERR_INVALID_ITEM: item index queried is out of range",
    "MPI_T_ERR_INVALID_HANDLE: invalid handle",
    "MPI_T_ERR_OUT_OF_HANDLES: no more handles available",
    "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions available",
    "MPI_T_ERR_INVALID_SESSION: invalid session",
    "MPI_T_ERR_CVAR_SET_NOT_NOW: variable cannot be set at this moment",
    "MPI_T_ERR_CVAR_SET_NEVER: variable cannot be set until end of execution",
    "MPI_T_ERR_PVAR_NO_STARTSTOP: variable cannot be started or stopped",
    "MPI_T_ERR_PVAR_NO_WRITE: variable cannot be written or reset",
    "MPI_T_ERR_PVAR_NO_ATOMIC: variable cannot be read and written atomically",
    "MPI_ERR_RMA_RANGE: invalid RMA address range",
    "MPI_ERR_RMA_ATTACH: Could not attach RMA segment",
    "MPI_ERR_RMA_FLAVOR: Invalid type of window",
    "MPI_ERR_RMA_SHARED: Memory cannot be shared",
    "MPI_T_ERR_INVALID: invalid or bad parameter value(s)",
    "MPI_T_ERR_INVALID_NAME: invalid variable or category name",
};
constexpr int kPredefinedCount = sizeof(kPredefined) / sizeof(kPredefined[0]);

struct UserCodes {
  std::mutex mutex;
  int lastUsed = MPI_ERR_LASTCODE;
  std::map<int, int> classOf;          // user code -> class (classes map to themselves)
  std::map<int, std::string> strings;  // user-set strings (also for predefined codes)
};

UserCodes& user() {
  static UserCodes codes;
  return codes;
}

}  // namespace

std::string errorString(int code) {
  {
    std::lock_guard lock(user().mutex);
    if (auto it = user().strings.find(code); it != user().strings.end()) return it->second;
    if (user().classOf.count(code)) return "";
  }
  if (code >= 0 && code < kPredefinedCount) return kPredefined[code];
  return "";
}

int errorClass(int code) {
  if (code >= 0 && code < kPredefinedCount) return code;
  if (code == MPI_ERR_LASTCODE) return MPI_ERR_LASTCODE;
  std::lock_guard lock(user().mutex);
  auto it = user().classOf.find(code);
  return it == user().classOf.end() ? -1 : it->second;
}

int addErrorClass() {
  std::lock_guard lock(user().mutex);
  int code = ++user().lastUsed;
  user().classOf[code] = code;
  return code;
}

int addErrorCode(int errorClassValue) {
  if (errorClass(errorClassValue) != errorClassValue) return -1;
  std::lock_guard lock(user().mutex);
  int code = ++user().lastUsed;
  user().classOf[code] = errorClassValue;
  return code;
}

bool setErrorString(int code, const std::string& text) {
  if (code < kPredefinedCount) return false;  // predefined strings may not be changed
  std::lock_guard lock(user().mutex);
  if (!user().classOf.count(code)) return false;
  user().strings[code] = text;
  return true;
}

int lastUsedErrorCode() {
  std::lock_guard lock(user().mutex);
  return user().lastUsed;
}

}  // namespace zmpi::mpi::capi
