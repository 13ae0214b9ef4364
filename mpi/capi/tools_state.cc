#include "mpi/capi/tools_state.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <deque>

namespace zmpi::mpi::tools {
namespace {

std::vector<Enum> enumTable;
std::deque<mca_base_var_enum_t> enumHandles;  // stable addresses

Enum enumOf(const transport::StringSetting& setting) {
  Enum out{setting.name(), {}};
  const auto& choices = setting.choices();
  const std::string fallback = setting.defaultText();
  if (std::find(choices.begin(), choices.end(), fallback) == choices.end()) out.items.emplace_back("auto", -1);
  for (std::size_t i = 0; i < choices.size(); ++i) out.items.emplace_back(choices[i], static_cast<int>(i));
  return out;
}

std::vector<Cvar> buildCvars() {
  std::vector<Cvar> out;
  for (const transport::SettingBase* setting : transport::allSettings()) {
    Cvar cvar{setting, MPI_INT, -1};
    if (setting->kind() == transport::SettingBase::Kind::Integer) {
      const auto range = static_cast<const transport::IntSetting*>(setting)->range();
      if (range.least < INT_MIN || range.most > INT_MAX) cvar.datatype = MPI_COUNT;
    } else if (setting->kind() == transport::SettingBase::Kind::String) {
      const auto* text = static_cast<const transport::StringSetting*>(setting);
      if (text->choices().empty()) {
        cvar.datatype = MPI_CHAR;
      } else {
        cvar.enumIndex = static_cast<int>(enumTable.size());
        enumTable.push_back(enumOf(*text));
        enumHandles.push_back(mca_base_var_enum_t{cvar.enumIndex});
      }
    }
    out.push_back(cvar);
  }
  return out;
}

int count = 0;

}  // namespace

int& initCount() { return count; }

std::mutex& toolsMutex() {
  static std::mutex mutex;
  return mutex;
}

const std::vector<Cvar>& cvars() {
  static const std::vector<Cvar> table = buildCvars();
  return table;
}

std::vector<Enum>& enums() {
  (void)cvars();
  return enumTable;
}

MPI_T_enum enumHandle(int index) { return &enumHandles[static_cast<std::size_t>(index)]; }

int enumIndexOf(MPI_T_enum handle) {
  (void)cvars();
  for (std::size_t i = 0; i < enumHandles.size(); ++i) {
    if (&enumHandles[i] == handle) return static_cast<int>(i);
  }
  return -1;
}

bool initialized() {
  const std::lock_guard lock(toolsMutex());
  return count > 0;
}

void copyOut(std::string_view text, char* buffer, int* length) {
  if (length == nullptr) return;
  const int whole = static_cast<int>(text.size()) + 1;
  if (buffer == nullptr || *length <= 0) {
    *length = whole;
    return;
  }
  const int copied = std::min(*length - 1, static_cast<int>(text.size()));
  std::memcpy(buffer, text.data(), static_cast<std::size_t>(copied));
  buffer[copied] = '\0';
  *length = copied + 1;
}

int verbosityOf(transport::Level level) {
  switch (level) {
    case transport::Level::User:
      return MPI_T_VERBOSITY_USER_BASIC;
    case transport::Level::Tuning:
      return MPI_T_VERBOSITY_TUNER_BASIC;
    case transport::Level::Internal:
      return MPI_T_VERBOSITY_MPIDEV_BASIC;
  }
  return MPI_T_VERBOSITY_MPIDEV_ALL;
}

}  // namespace zmpi::mpi::tools
