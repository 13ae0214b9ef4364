#include "mpi/core/keyval.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/environment.h"
#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi {
namespace {

struct Keyval {
  AttributeKind kind;
  void (*copy)() = nullptr;
  void (*del)() = nullptr;
  void* extraState = nullptr;
  bool predefined = false;
  bool userFreed = false;
  int attached = 0;  // values attached under this keyval; a freed keyval lives until 0
};

struct Registry {
  std::mutex mutex;
  std::map<int, Keyval> keyvals;
  int next = kFirstUserKeyval;
  uint64_t sequence = 0;
  // When each value was set, so deleteAll runs delete callbacks in reverse order of setting
  // (what MPI requires for MPI_COMM_SELF at MPI_Finalize, and what Open MPI does always).
  std::map<const AttributeStore*, std::map<int, uint64_t>> setOrder;
  // Datatype and window attributes, keyed by handle (those objects have no slot of their own).
  std::map<const void*, AttributeStore> sideStores;

  Registry() {
    for (int keyval :
         {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM, MPI_LASTUSEDCODE, MPI_UNIVERSE_SIZE}) {
      keyvals[keyval] = Keyval{.kind = AttributeKind::Comm, .predefined = true};
    }
    for (int keyval : {MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL}) {
      keyvals[keyval] = Keyval{.kind = AttributeKind::Win, .predefined = true};
    }
  }
};

// Never destroyed: attributes may be deleted from atexit handlers after main returns.
Registry& registry() {
  static Registry* instance = new Registry();
  return *instance;
}

const char* kindName(AttributeKind kind) {
  switch (kind) {
    case AttributeKind::Comm:
      return "communicator";
    case AttributeKind::Type:
      return "datatype";
    case AttributeKind::Win:
      return "window";
  }
  return "?";
}

// The live keyval `keyval` of `kind`; the caller holds the registry mutex.
Keyval& requireKeyval(Registry& r, AttributeKind kind, int keyval, bool allowPredefined) {
  auto it = r.keyvals.find(keyval);
  if (it == r.keyvals.end() || it->second.userFreed) {
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " is not a valid keyval");
  }
  if (it->second.kind != kind) {
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " is not a " + kindName(kind) + " keyval");
  }
  if (it->second.predefined && !allowPredefined) {
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " is predefined and cannot be changed by the program");
  }
  return it->second;
}

// One fewer value under `keyval`; a keyval the program freed goes away with its last value.
void detach(Registry& r, int keyval) {
  auto it = r.keyvals.find(keyval);
  if (it == r.keyvals.end()) return;
  if (--it->second.attached <= 0 && it->second.userFreed) r.keyvals.erase(it);
}

int callCopy(AttributeKind kind, void (*fn)(), void* handle, int keyval, void* extra, void* in, void* out, int* flag) {
  switch (kind) {
    case AttributeKind::Comm:
      return reinterpret_cast<MPI_Comm_copy_attr_function*>(fn)(static_cast<MPI_Comm>(handle), keyval, extra, in, out,
                                                                flag);
    case AttributeKind::Type:
      return reinterpret_cast<MPI_Type_copy_attr_function*>(fn)(static_cast<MPI_Datatype>(handle), keyval, extra, in,
                                                                out, flag);
    case AttributeKind::Win:
      return reinterpret_cast<MPI_Win_copy_attr_function*>(fn)(static_cast<MPI_Win>(handle), keyval, extra, in, out,
                                                               flag);
  }
  return MPI_ERR_INTERN;
}

int callDelete(AttributeKind kind, void (*fn)(), void* handle, int keyval, void* value, void* extra) {
  if (fn == nullptr) return MPI_SUCCESS;
  switch (kind) {
    case AttributeKind::Comm:
      return reinterpret_cast<MPI_Comm_delete_attr_function*>(fn)(static_cast<MPI_Comm>(handle), keyval, value, extra);
    case AttributeKind::Type:
      return reinterpret_cast<MPI_Type_delete_attr_function*>(fn)(static_cast<MPI_Datatype>(handle), keyval, value,
                                                                  extra);
    case AttributeKind::Win:
      return reinterpret_cast<MPI_Win_delete_attr_function*>(fn)(static_cast<MPI_Win>(handle), keyval, value, extra);
  }
  return MPI_ERR_INTERN;
}

void failCallback(int code, const char* what, int keyval) {
  fail(code, std::string("the ") + what + " callback of keyval " + std::to_string(keyval) + " returned error " +
                 std::to_string(code));
}

// Stores `value` under `keyval`; the caller holds the mutex.
void store(Registry& r, AttributeStore& values, int keyval, void* value) {
  auto [it, inserted] = values.insert_or_assign(keyval, value);
  if (inserted) ++r.keyvals.at(keyval).attached;
  r.setOrder[&values][keyval] = ++r.sequence;
}

void setAttribute(AttributeKind kind, void* handle, AttributeStore& values, int keyval, void* value, bool internal) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  Keyval& kv = requireKeyval(r, kind, keyval, internal);
  auto it = values.find(keyval);
  if (it != values.end()) {
    // Replacing a value deletes the old one first, through the program's callback.
    void* old = it->second;
    auto del = kv.del;
    void* extra = kv.extraState;
    lock.unlock();
    const int rc = callDelete(kind, del, handle, keyval, old, extra);
    if (rc != MPI_SUCCESS) failCallback(rc, "delete", keyval);
    lock.lock();
  }
  store(r, values, keyval, value);
}

bool getAttribute(AttributeKind kind, const AttributeStore& values, int keyval, void** value) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  requireKeyval(r, kind, keyval, true);
  auto it = values.find(keyval);
  if (it == values.end()) return false;
  *value = it->second;
  return true;
}

// Deleting a value that is not there is not an error (as in MPICH; MPI does not say).
void deleteAttribute(AttributeKind kind, void* handle, AttributeStore& values, int keyval, bool internal) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  Keyval& kv = requireKeyval(r, kind, keyval, internal);
  auto it = values.find(keyval);
  if (it == values.end()) return;
  void* value = it->second;
  auto del = kv.del;
  void* extra = kv.extraState;
  lock.unlock();
  const int rc = callDelete(kind, del, handle, keyval, value, extra);
  // A failing delete callback leaves the value in place (Open MPI does the same).
  if (rc != MPI_SUCCESS) failCallback(rc, "delete", keyval);
  lock.lock();
  if (values.erase(keyval)) {
    r.setOrder[&values].erase(keyval);
    detach(r, keyval);
  }
}

void copyAll(AttributeKind kind, void* oldHandle, AttributeStore& from, AttributeStore& to) {
  Registry& r = registry();
  struct Item {
    int keyval;
    void* value;
    Keyval kv;
  };
  std::vector<Item> items;
  {
    std::lock_guard lock(r.mutex);
    for (const auto& [keyval, value] : from) {
      auto it = r.keyvals.find(keyval);
      if (it != r.keyvals.end()) items.push_back({keyval, value, it->second});
    }
  }
  for (const Item& item : items) {
    void* out = nullptr;
    int flag = 0;
    if (item.kv.predefined) {
      // Open MPI's predefined communicator attributes use MPI_COMM_DUP_FN, except the
      // error-code counter, which only MPI_COMM_WORLD carries.
      flag = item.keyval != MPI_LASTUSEDCODE;
      out = item.value;
    } else if (item.kv.copy != nullptr) {
      const int rc = callCopy(kind, item.kv.copy, oldHandle, item.keyval, item.kv.extraState, item.value, &out, &flag);
      if (rc != MPI_SUCCESS) failCallback(rc, "copy", item.keyval);
    }
    if (!flag) continue;
    std::lock_guard lock(r.mutex);
    if (r.keyvals.count(item.keyval)) store(r, to, item.keyval, out);
  }
}

void deleteAll(AttributeKind kind, void* handle, AttributeStore& values) {
  Registry& r = registry();
  std::vector<int> order;
  {
    std::lock_guard lock(r.mutex);
    const auto& sequence = r.setOrder[&values];
    for (const auto& entry : values) order.push_back(entry.first);
    auto when = [&](int keyval) {
      auto it = sequence.find(keyval);
      return it == sequence.end() ? 0 : it->second;
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return when(a) > when(b); });
  }
  int firstError = MPI_SUCCESS;
  int failedKeyval = 0;
  for (int keyval : order) {
    void* value = nullptr;
    void (*del)() = nullptr;
    void* extra = nullptr;
    {
      std::lock_guard lock(r.mutex);
      auto it = values.find(keyval);
      if (it == values.end()) continue;  // a callback deleted it meanwhile
      value = it->second;
      if (auto kv = r.keyvals.find(keyval); kv != r.keyvals.end()) {
        del = kv->second.del;
        extra = kv->second.extraState;
      }
    }
    const int rc = callDelete(kind, del, handle, keyval, value, extra);
    if (rc != MPI_SUCCESS && firstError == MPI_SUCCESS) {
      firstError = rc;
      failedKeyval = keyval;
    }
    std::lock_guard lock(r.mutex);
    if (values.erase(keyval)) detach(r, keyval);
  }
  {
    std::lock_guard lock(r.mutex);
    r.setOrder.erase(&values);
  }
  // The object goes away regardless; the first failing callback makes the call fail.
  if (firstError != MPI_SUCCESS) failCallback(firstError, "delete", failedKeyval);
}

// MPI_COMM_WORLD's predefined attributes, attached the first time anything looks at its
// attributes (the world is built before this layer is involved). Values are Open MPI's:
// MPI_HOST is MPI_PROC_NULL (no host process), every rank may do I/O (MPI_ANY_SOURCE),
// clocks are not synchronised.
void ensurePredefined(Communicator& comm) {
  if (&comm != &comm.world().commWorld()) return;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (comm.attributes.count(MPI_TAG_UB)) return;
  const std::pair<int, int> values[] = {
      {MPI_TAG_UB, INT_MAX},  // capi::kTagUpperBound
      {MPI_HOST, MPI_PROC_NULL},
      {MPI_IO, MPI_ANY_SOURCE},
      {MPI_WTIME_IS_GLOBAL, 0},
      {MPI_APPNUM, comm.world().appNum()},
      {MPI_UNIVERSE_SIZE, comm.world().universeSize()},
      {MPI_LASTUSEDCODE, MPI_ERR_LASTCODE},  // refreshed by MPI_Comm_get_attr
  };
  for (const auto& [keyval, value] : values) store(r, comm.attributes, keyval, const_cast<int*>(internedInt(value)));
}

AttributeStore& sideStore(const void* handle) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.sideStores[handle];  // map nodes are stable; erased only by deleteAll*
}

// Reading must not create a store for every datatype ever queried.
bool getSideAttribute(AttributeKind kind, const void* handle, int keyval, void** value) {
  Registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    if (!r.sideStores.count(handle)) {
      requireKeyval(r, kind, keyval, true);
      return false;
    }
  }
  return getAttribute(kind, sideStore(handle), keyval, value);
}

void dropSideStore(const void* handle) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.sideStores.erase(handle);
}

}  // namespace

int createKeyval(AttributeKind kind, void (*copy)(), void (*del)(), void* extraState) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (r.next == INT_MAX) fail(MPI_ERR_KEYVAL, "no keyvals left");
  const int keyval = r.next++;
  r.keyvals[keyval] = Keyval{.kind = kind, .copy = copy, .del = del, .extraState = extraState};
  return keyval;
}

void freeKeyval(AttributeKind kind, int keyval) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  Keyval& kv = requireKeyval(r, kind, keyval, false);
  if (kv.attached == 0) {
    r.keyvals.erase(keyval);
  } else {
    kv.userFreed = true;
  }
}

bool isKeyval(AttributeKind kind, int keyval) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.keyvals.find(keyval);
  return it != r.keyvals.end() && !it->second.userFreed && it->second.kind == kind;
}

void setCommAttribute(Communicator& comm, int keyval, void* value) {
  ensurePredefined(comm);
  setAttribute(AttributeKind::Comm, comm.handle(), comm.attributes, keyval, value, false);
}

bool getCommAttribute(Communicator& comm, int keyval, void** value) {
  ensurePredefined(comm);
  return getAttribute(AttributeKind::Comm, comm.attributes, keyval, value);
}

void deleteCommAttribute(Communicator& comm, int keyval) {
  ensurePredefined(comm);
  deleteAttribute(AttributeKind::Comm, comm.handle(), comm.attributes, keyval, false);
}

void copyAttributesOnDup(Communicator& from, Communicator& to) {
  ensurePredefined(from);
  copyAll(AttributeKind::Comm, from.handle(), from.attributes, to.attributes);
}

void deleteAllAttributes(Communicator& comm) { deleteAll(AttributeKind::Comm, comm.handle(), comm.attributes); }

void setTypeAttribute(MPI_Datatype type, int keyval, void* value) {
  setAttribute(AttributeKind::Type, type, sideStore(type), keyval, value, false);
}

bool getTypeAttribute(MPI_Datatype type, int keyval, void** value) {
  return getSideAttribute(AttributeKind::Type, type, keyval, value);
}

void deleteTypeAttribute(MPI_Datatype type, int keyval) {
  deleteAttribute(AttributeKind::Type, type, sideStore(type), keyval, false);
}

void copyTypeAttributesOnDup(MPI_Datatype from, MPI_Datatype to) {
  copyAll(AttributeKind::Type, from, sideStore(from), sideStore(to));
}

void deleteAllTypeAttributes(MPI_Datatype type) {
  AttributeStore& values = sideStore(type);
  try {
    deleteAll(AttributeKind::Type, type, values);
  } catch (...) {
    dropSideStore(type);
    throw;
  }
  dropSideStore(type);
}

void setWinAttribute(MPI_Win win, int keyval, void* value, bool internal) {
  setAttribute(AttributeKind::Win, win, sideStore(win), keyval, value, internal);
}

bool getWinAttribute(MPI_Win win, int keyval, void** value) {
  return getSideAttribute(AttributeKind::Win, win, keyval, value);
}

void deleteWinAttribute(MPI_Win win, int keyval) {
  deleteAttribute(AttributeKind::Win, win, sideStore(win), keyval, false);
}

void deleteAllWinAttributes(MPI_Win win) {
  AttributeStore& values = sideStore(win);
  try {
    deleteAll(AttributeKind::Win, win, values);
  } catch (...) {
    dropSideStore(win);
    throw;
  }
  dropSideStore(win);
}

const int* internedInt(int value) {
  static std::mutex mutex;
  static auto* pool = new std::set<int>();  // set nodes never move; never destroyed
  std::lock_guard lock(mutex);
  return &*pool->insert(value).first;
}

}  // namespace zmpi::mpi
