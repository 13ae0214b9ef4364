// MPI_T init/finalize, control variables and enums over the settings registry.
//
// Every setting is MPI_T_SCOPE_READONLY: zmpi reads its settings once, at MPI_Init or when
// the mechanism starts, and caches them on its hot paths, so a write after that would
// change nothing (and before it, the environment is the interface). MPI_T_cvar_write
// therefore answers MPI_T_ERR_CVAR_SET_NEVER. A read gives the value in effect from the
// environment: the default when unset, -1 for an integer or enum the code chooses ("auto").
#include <climits>
#include <cstring>
#include <string>

#include "mpi/capi/entry.h"
#include "mpi/capi/tools_state.h"

using namespace zmpi;
using namespace zmpi::mpi::tools;

namespace {

// Strings are read into a buffer of this many chars (the handle's count).
constexpr int kStringCount = 1024;

const Cvar* cvarAt(int index) {
  const auto& table = cvars();
  if (index < 0 || index >= static_cast<int>(table.size())) return nullptr;
  return &table[static_cast<std::size_t>(index)];
}

int enumValue(const Enum& table, const std::string& text) {
  for (const auto& [name, value] : table.items) {
    if (name == text) return value;
  }
  return -1;
}

// The setting's value into `buffer` as the cvar's datatype says.
int readInto(const Cvar& cvar, void* buffer) {
  try {
    const transport::SettingBase& setting = *cvar.setting;
    switch (setting.kind()) {
      case transport::SettingBase::Kind::Integer: {
        const auto& s = static_cast<const transport::IntSetting&>(setting);
        const long long value = s.readIfSet().value_or(s.automatic() ? -1 : s.fallback());
        if (cvar.datatype == MPI_INT) {
          *static_cast<int*>(buffer) = static_cast<int>(value);
        } else {
          *static_cast<MPI_Count*>(buffer) = value;
        }
        return MPI_SUCCESS;
      }
      case transport::SettingBase::Kind::Boolean: {
        const auto& s = static_cast<const transport::BoolSetting&>(setting);
        const std::optional<bool> value = s.readIfSet();
        *static_cast<int*>(buffer) = value ? (*value ? 1 : 0) : s.automatic() ? -1 : (s.fallback() ? 1 : 0);
        return MPI_SUCCESS;
      }
      case transport::SettingBase::Kind::String: {
        const auto& s = static_cast<const transport::StringSetting&>(setting);
        if (cvar.enumIndex >= 0) {
          *static_cast<int*>(buffer) = enumValue(enums()[static_cast<std::size_t>(cvar.enumIndex)], s.read());
          return MPI_SUCCESS;
        }
        const std::string text = s.secret() ? (s.readIfSet() ? "(set)" : "") : s.read();
        const std::size_t copied = std::min<std::size_t>(text.size(), kStringCount - 1);
        std::memcpy(buffer, text.data(), copied);
        static_cast<char*>(buffer)[copied] = '\0';
        return MPI_SUCCESS;
      }
    }
  } catch (const transport::SettingError&) {
    return MPI_ERR_OTHER;  // the environment holds a value the setting refuses
  }
  return MPI_ERR_OTHER;
}

}  // namespace

extern "C" {

int PMPI_T_init_thread(int required, int* provided) {
  if (provided == nullptr) return MPI_T_ERR_INVALID;
  const std::lock_guard lock(toolsMutex());
  (void)cvars();  // the tables, built once
  ++initCount();
  *provided = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : std::min(required, int{MPI_THREAD_MULTIPLE});
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_init_thread)

int PMPI_T_finalize(void) {
  const std::lock_guard lock(toolsMutex());
  if (initCount() == 0) return MPI_T_ERR_NOT_INITIALIZED;
  --initCount();
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_finalize)

int PMPI_T_cvar_get_num(int* num_cvar) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_cvar == nullptr) return MPI_T_ERR_INVALID;
  *num_cvar = static_cast<int>(cvars().size());
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_cvar_get_num)

int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                         MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  const Cvar* cvar = cvarAt(cvar_index);
  if (cvar == nullptr) return MPI_T_ERR_INVALID_INDEX;
  copyOut(cvar->setting->name(), name, name_len);
  if (verbosity != nullptr) *verbosity = verbosityOf(cvar->setting->level());
  if (datatype != nullptr) *datatype = cvar->datatype;
  if (enumtype != nullptr) *enumtype = cvar->enumIndex >= 0 ? enumHandle(cvar->enumIndex) : MPI_T_ENUM_NULL;
  copyOut(cvar->setting->doc(), desc, desc_len);
  if (bind != nullptr) *bind = MPI_T_BIND_NO_OBJECT;
  if (scope != nullptr) *scope = MPI_T_SCOPE_READONLY;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_cvar_get_info)

int PMPI_T_cvar_get_index(const char* name, int* cvar_index) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || cvar_index == nullptr) return MPI_T_ERR_INVALID;
  const auto& table = cvars();
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (std::strcmp(table[i].setting->name(), name) == 0) {
      *cvar_index = static_cast<int>(i);
      return MPI_SUCCESS;
    }
  }
  return MPI_T_ERR_INVALID_NAME;
}
ZMPI_ALIAS(MPI_T_cvar_get_index)

int PMPI_T_cvar_handle_alloc(int cvar_index, void* obj_handle, MPI_T_cvar_handle* handle, int* count) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  const Cvar* cvar = cvarAt(cvar_index);
  if (cvar == nullptr) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  (void)obj_handle;  // every cvar is MPI_T_BIND_NO_OBJECT: the object is ignored
  *handle = new (std::nothrow) ompi_mpit_cvar_handle_t{cvar_index};
  if (*handle == nullptr) return MPI_T_ERR_MEMORY;
  *count = cvar->datatype == MPI_CHAR ? kStringCount : 1;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_cvar_handle_alloc)

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == nullptr || *handle == MPI_T_CVAR_HANDLE_NULL) return MPI_T_ERR_INVALID_HANDLE;
  delete *handle;
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_cvar_handle_free)

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == MPI_T_CVAR_HANDLE_NULL) return MPI_T_ERR_INVALID_HANDLE;
  const Cvar* cvar = cvarAt(handle->index);
  if (cvar == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  return readInto(*cvar, buf);
}
ZMPI_ALIAS(MPI_T_cvar_read)

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void* buf) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (handle == MPI_T_CVAR_HANDLE_NULL || cvarAt(handle->index) == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  (void)buf;
  return MPI_T_ERR_CVAR_SET_NEVER;  // every setting is read-only (above)
}
ZMPI_ALIAS(MPI_T_cvar_write)

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  const int index = enumIndexOf(enumtype);
  if (index < 0) return MPI_T_ERR_INVALID_HANDLE;
  const Enum& table = enums()[static_cast<std::size_t>(index)];
  if (num != nullptr) *num = static_cast<int>(table.items.size());
  copyOut(table.name, name, name_len);
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_enum_get_info)

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  const int which = enumIndexOf(enumtype);
  if (which < 0) return MPI_T_ERR_INVALID_HANDLE;
  const Enum& table = enums()[static_cast<std::size_t>(which)];
  if (index < 0 || index >= static_cast<int>(table.items.size())) return MPI_T_ERR_INVALID_ITEM;
  const auto& [itemName, itemValue] = table.items[static_cast<std::size_t>(index)];
  if (value != nullptr) *value = itemValue;
  copyOut(itemName, name, name_len);
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_enum_get_item)

}  // extern "C"
