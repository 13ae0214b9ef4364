// MPI_T performance variables: counters the engine and the fabric already keep (the
// unexpected queue, rendezvous sends, messages and bytes sent per path), read through
// sessions and handles as MPI-3.1 section 14.3.7 describes.
//
// Levels (the unexpected queue's length and bytes) are continuous and read-only: always
// running, no start/stop, no reset. Counters start stopped in each handle; a handle counts
// what happened while it was started, from its own base, so reset and write touch the
// handle, never the engine's counter. Before MPI_Init and after MPI_Finalize every value is 0.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/runtime.h"
#include "mpi/capi/tools_state.h"
#include "mpi/core/engine.h"
#include "mpi/core/traffic_counters.h"
#include "mpi/core/world.h"

using namespace zmpi;
using namespace zmpi::mpi;
using namespace zmpi::mpi::tools;

struct mca_base_pvar_session_t;

struct mca_base_pvar_handle_t {
  mca_base_pvar_session_t* session;
  int index;
  bool started;
  uint64_t base;         // the counter's value when last started or reset
  uint64_t accumulated;  // counted while started before the last stop
};

struct mca_base_pvar_session_t {
  std::vector<mca_base_pvar_handle_t*> handles;
};

namespace {

struct Pvar {
  const char* name;
  int varClass;
  const char* desc;
  std::function<uint64_t(World&)> value;
  bool continuous() const { return varClass != MPI_T_PVAR_CLASS_COUNTER; }
};

uint64_t sent(World&, TrafficCounters::Path path, bool bytes) {
  const auto& counters = bytes ? processTraffic.bytes : processTraffic.messages;
  return counters[static_cast<int>(path)].load(std::memory_order_relaxed);
}

const std::vector<Pvar>& pvars() {
  using P = TrafficCounters::Path;
  static const std::vector<Pvar> table = {
      {"zmpi_unexpected_count", MPI_T_PVAR_CLASS_LEVEL, "messages in this rank's unexpected queue",
       [](World& w) { return static_cast<uint64_t>(w.engine().unexpectedCount()); }},
      {"zmpi_unexpected_bytes", MPI_T_PVAR_CLASS_SIZE, "eager payload bytes in this rank's unexpected queue",
       [](World& w) { return w.engine().unexpectedBytes(); }},
      {"zmpi_rendezvous_sends", MPI_T_PVAR_CLASS_COUNTER, "messages this rank sent by rendezvous (Rts)",
       [](World&) { return processRendezvousSends.load(std::memory_order_relaxed); }},
      {"zmpi_messages_sent_self", MPI_T_PVAR_CLASS_COUNTER, "messages this rank sent to itself",
       [](World& w) { return sent(w, P::Self, false); }},
      {"zmpi_messages_sent_shm", MPI_T_PVAR_CLASS_COUNTER, "messages sent through shared-memory rings",
       [](World& w) { return sent(w, P::Shm, false); }},
      {"zmpi_messages_sent_ipc", MPI_T_PVAR_CLASS_COUNTER, "messages sent over ipc",
       [](World& w) { return sent(w, P::Ipc, false); }},
      {"zmpi_messages_sent_tcp", MPI_T_PVAR_CLASS_COUNTER, "messages sent over tcp (zmq or bulk connections)",
       [](World& w) { return sent(w, P::Tcp, false); }},
      {"zmpi_bytes_sent_self", MPI_T_PVAR_CLASS_COUNTER, "payload bytes this rank sent to itself",
       [](World& w) { return sent(w, P::Self, true); }},
      {"zmpi_bytes_sent_shm", MPI_T_PVAR_CLASS_COUNTER, "payload bytes sent through shared-memory rings",
       [](World& w) { return sent(w, P::Shm, true); }},
      {"zmpi_bytes_sent_ipc", MPI_T_PVAR_CLASS_COUNTER, "payload bytes sent over ipc",
       [](World& w) { return sent(w, P::Ipc, true); }},
      {"zmpi_bytes_sent_tcp", MPI_T_PVAR_CLASS_COUNTER, "payload bytes sent over tcp",
       [](World& w) { return sent(w, P::Tcp, true); }},
  };
  return table;
}

std::set<mca_base_pvar_session_t*> liveSessions;  // guarded by toolsMutex()

uint64_t current(int index) {
  World* world = capi::liveWorld.load(std::memory_order_acquire);
  return world != nullptr ? pvars()[static_cast<std::size_t>(index)].value(*world) : 0;
}

// What a counter gained since `base` (0 if the world it counted in is gone).
uint64_t since(int index, uint64_t base) {
  const uint64_t now = current(index);
  return now >= base ? now - base : 0;
}

uint64_t valueOf(const mca_base_pvar_handle_t& handle) {
  if (pvars()[static_cast<std::size_t>(handle.index)].continuous()) return current(handle.index);
  return handle.accumulated + (handle.started ? since(handle.index, handle.base) : 0);
}

bool validSession(mca_base_pvar_session_t* session) { return liveSessions.count(session) != 0; }

// Open MPI's MPI_T_PVAR_ALL_HANDLES is the handle (MPI_T_pvar_handle)-1: an integer made a
// pointer by the ABI, compared here alone.
bool allHandles(const mca_base_pvar_handle_t* handle) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the ABI's sentinel
  return handle == MPI_T_PVAR_ALL_HANDLES;
}

bool validHandle(mca_base_pvar_session_t* session, mca_base_pvar_handle_t* handle) {
  const auto& handles = session->handles;
  return std::find(handles.begin(), handles.end(), handle) != handles.end();
}

// Checks common to the calls on (session, handle); ALL_HANDLES only where `all` allows it.
int checkHandle(mca_base_pvar_session_t* session, mca_base_pvar_handle_t* handle, bool all) {
  if (initCount() == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!validSession(session)) return MPI_T_ERR_INVALID_SESSION;
  if (allHandles(handle)) return all ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
  if (!validHandle(session, handle)) return MPI_T_ERR_INVALID_HANDLE;
  return MPI_SUCCESS;
}

int startOne(mca_base_pvar_handle_t& handle) {
  if (pvars()[static_cast<std::size_t>(handle.index)].continuous()) return MPI_T_ERR_PVAR_NO_STARTSTOP;
  if (!handle.started) {
    handle.base = current(handle.index);
    handle.started = true;
  }
  return MPI_SUCCESS;
}

int stopOne(mca_base_pvar_handle_t& handle) {
  if (pvars()[static_cast<std::size_t>(handle.index)].continuous()) return MPI_T_ERR_PVAR_NO_STARTSTOP;
  if (handle.started) {
    handle.accumulated += since(handle.index, handle.base);
    handle.started = false;
  }
  return MPI_SUCCESS;
}

int resetOne(mca_base_pvar_handle_t& handle) {
  if (pvars()[static_cast<std::size_t>(handle.index)].continuous()) return MPI_T_ERR_PVAR_NO_WRITE;
  handle.accumulated = 0;
  handle.base = current(handle.index);
  return MPI_SUCCESS;
}

// Runs `one` on the handle, or on every handle of the session that is not continuous.
template <typename One>
int eachHandle(mca_base_pvar_session_t* session, mca_base_pvar_handle_t* handle, One&& one) {
  if (!allHandles(handle)) return one(*handle);
  for (mca_base_pvar_handle_t* each : session->handles) {
    if (!pvars()[static_cast<std::size_t>(each->index)].continuous()) one(*each);
  }
  return MPI_SUCCESS;
}

}  // namespace

namespace zmpi::mpi::tools {
int pvarCount() { return static_cast<int>(pvars().size()); }
}  // namespace zmpi::mpi::tools

extern "C" {

int PMPI_T_pvar_get_num(int* num_pvar) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_pvar == nullptr) return MPI_T_ERR_INVALID;
  *num_pvar = static_cast<int>(pvars().size());
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_get_num)

int PMPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                         MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind,
                         int* readonly, int* continuous, int* atomic) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (pvar_index < 0 || pvar_index >= static_cast<int>(pvars().size())) return MPI_T_ERR_INVALID_INDEX;
  const Pvar& pvar = pvars()[static_cast<std::size_t>(pvar_index)];
  copyOut(pvar.name, name, name_len);
  if (verbosity != nullptr) *verbosity = MPI_T_VERBOSITY_TUNER_BASIC;
  if (var_class != nullptr) *var_class = pvar.varClass;
  if (datatype != nullptr) *datatype = MPI_UNSIGNED_LONG_LONG;
  if (enumtype != nullptr) *enumtype = MPI_T_ENUM_NULL;
  copyOut(pvar.desc, desc, desc_len);
  if (bind != nullptr) *bind = MPI_T_BIND_NO_OBJECT;
  if (readonly != nullptr) *readonly = pvar.continuous() ? 1 : 0;
  if (continuous != nullptr) *continuous = pvar.continuous() ? 1 : 0;
  if (atomic != nullptr) *atomic = 0;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_get_info)

int PMPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || pvar_index == nullptr) return MPI_T_ERR_INVALID;
  for (std::size_t i = 0; i < pvars().size(); ++i) {
    if (std::strcmp(pvars()[i].name, name) == 0 && pvars()[i].varClass == var_class) {
      *pvar_index = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  }
  return MPI_T_ERR_INVALID_NAME;
}
ZMPI_ALIAS(MPI_T_pvar_get_index)

int PMPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  const std::lock_guard lock(toolsMutex());
  if (initCount() == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (session == nullptr) return MPI_T_ERR_INVALID;
  *session = new (std::nothrow) mca_base_pvar_session_t;
  if (*session == nullptr) return MPI_T_ERR_MEMORY;
  liveSessions.insert(*session);
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_session_create)

int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  const std::lock_guard lock(toolsMutex());
  if (initCount() == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (session == nullptr || !validSession(*session)) return MPI_T_ERR_INVALID_SESSION;
  for (mca_base_pvar_handle_t* handle : (*session)->handles) delete handle;
  liveSessions.erase(*session);
  delete *session;
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_session_free)

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void* obj_handle, MPI_T_pvar_handle* handle,
                             int* count) {
  const std::lock_guard lock(toolsMutex());
  if (initCount() == 0) return MPI_T_ERR_NOT_INITIALIZED;
  if (!validSession(session)) return MPI_T_ERR_INVALID_SESSION;
  if (pvar_index < 0 || pvar_index >= static_cast<int>(pvars().size())) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  (void)obj_handle;  // MPI_T_BIND_NO_OBJECT
  const bool continuous = pvars()[static_cast<std::size_t>(pvar_index)].continuous();
  auto* made = new (std::nothrow) mca_base_pvar_handle_t{session, pvar_index, continuous, 0, 0};
  if (made == nullptr) return MPI_T_ERR_MEMORY;
  session->handles.push_back(made);
  *handle = made;
  *count = 1;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_handle_alloc)

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  const std::lock_guard lock(toolsMutex());
  if (handle == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (const int error = checkHandle(session, *handle, false); error != MPI_SUCCESS) return error;
  std::erase(session->handles, *handle);
  delete *handle;
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_handle_free)

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  const std::lock_guard lock(toolsMutex());
  if (const int error = checkHandle(session, handle, true); error != MPI_SUCCESS) return error;
  return eachHandle(session, handle, startOne);
}
ZMPI_ALIAS(MPI_T_pvar_start)

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  const std::lock_guard lock(toolsMutex());
  if (const int error = checkHandle(session, handle, true); error != MPI_SUCCESS) return error;
  return eachHandle(session, handle, stopOne);
}
ZMPI_ALIAS(MPI_T_pvar_stop)

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  const std::lock_guard lock(toolsMutex());
  if (const int error = checkHandle(session, handle, false); error != MPI_SUCCESS) return error;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const unsigned long long value = valueOf(*handle);
  std::memcpy(buf, &value, sizeof value);
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_read)

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf) {
  const std::lock_guard lock(toolsMutex());
  if (const int error = checkHandle(session, handle, false); error != MPI_SUCCESS) return error;
  if (pvars()[static_cast<std::size_t>(handle->index)].continuous()) return MPI_T_ERR_PVAR_NO_WRITE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  unsigned long long value = 0;
  std::memcpy(&value, buf, sizeof value);
  handle->accumulated = value;  // the handle's count from now on
  handle->base = current(handle->index);
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_pvar_write)

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  const std::lock_guard lock(toolsMutex());
  if (const int error = checkHandle(session, handle, true); error != MPI_SUCCESS) return error;
  return eachHandle(session, handle, resetOne);
}
ZMPI_ALIAS(MPI_T_pvar_reset)

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  const std::lock_guard lock(toolsMutex());
  if (const int error = checkHandle(session, handle, false); error != MPI_SUCCESS) return error;
  if (pvars()[static_cast<std::size_t>(handle->index)].continuous()) return MPI_T_ERR_PVAR_NO_WRITE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const unsigned long long value = valueOf(*handle);
  std::memcpy(buf, &value, sizeof value);
  return resetOne(*handle);
}
ZMPI_ALIAS(MPI_T_pvar_readreset)

}  // extern "C"
