// MPI_T categories: one per setting level for the control variables (zmpi_user,
// zmpi_tuning, zmpi_internal) and one for the engine's performance variables. They never
// change while the library is loaded, so the stamp is constant.
#include <cstring>
#include <vector>

#include "mpi/capi/entry.h"
#include "mpi/capi/tools_state.h"

using namespace zmpi;
using namespace zmpi::mpi::tools;

namespace {

struct Category {
  const char* name;
  const char* desc;
};

constexpr Category kCategories[kCategoryCount] = {
    {"zmpi_user", "zmpi settings for users (README: Settings)"},
    {"zmpi_tuning", "zmpi performance settings with measured defaults"},
    {"zmpi_internal", "zmpi settings zmpirun sets for its ranks, and deprecated aliases"},
    {"zmpi_engine", "counters of zmpi's matching engine and paths"},
};

constexpr transport::Level kLevels[] = {transport::Level::User, transport::Level::Tuning, transport::Level::Internal};

std::vector<int> cvarsOf(int category) {
  std::vector<int> out;
  if (category == kPvarCategory) return out;
  const auto& table = cvars();
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].setting->level() == kLevels[category]) out.push_back(static_cast<int>(i));
  }
  return out;
}

std::vector<int> pvarsOf(int category) {
  std::vector<int> out;
  if (category != kPvarCategory) return out;
  for (int i = 0; i < pvarCount(); ++i) out.push_back(i);
  return out;
}

bool validCategory(int index) { return index >= 0 && index < kCategoryCount; }

int fill(const std::vector<int>& indices, int len, int out[]) {
  if (len < 0 || (len > 0 && out == nullptr)) return MPI_T_ERR_INVALID;
  for (int i = 0; i < len && i < static_cast<int>(indices.size()); ++i) out[i] = indices[static_cast<std::size_t>(i)];
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_T_category_get_num(int* num_cat) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (num_cat == nullptr) return MPI_T_ERR_INVALID;
  *num_cat = kCategoryCount;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_category_get_num)

int PMPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len, int* num_cvars,
                             int* num_pvars, int* num_categories) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!validCategory(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  copyOut(kCategories[cat_index].name, name, name_len);
  copyOut(kCategories[cat_index].desc, desc, desc_len);
  if (num_cvars != nullptr) *num_cvars = static_cast<int>(cvarsOf(cat_index).size());
  if (num_pvars != nullptr) *num_pvars = static_cast<int>(pvarsOf(cat_index).size());
  if (num_categories != nullptr) *num_categories = 0;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_category_get_info)

int PMPI_T_category_get_index(const char* name, int* category_index) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (name == nullptr || category_index == nullptr) return MPI_T_ERR_INVALID;
  for (int i = 0; i < kCategoryCount; ++i) {
    if (std::strcmp(kCategories[i].name, name) == 0) {
      *category_index = i;
      return MPI_SUCCESS;
    }
  }
  return MPI_T_ERR_INVALID_NAME;
}
ZMPI_ALIAS(MPI_T_category_get_index)

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!validCategory(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  return fill(cvarsOf(cat_index), len, indices);
}
ZMPI_ALIAS(MPI_T_category_get_cvars)

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!validCategory(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  return fill(pvarsOf(cat_index), len, indices);
}
ZMPI_ALIAS(MPI_T_category_get_pvars)

int PMPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!validCategory(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  return fill({}, len, indices);
}
ZMPI_ALIAS(MPI_T_category_get_categories)

int PMPI_T_category_changed(int* stamp) {
  if (!initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (stamp == nullptr) return MPI_T_ERR_INVALID;
  *stamp = 1;
  return MPI_SUCCESS;
}
ZMPI_ALIAS(MPI_T_category_changed)

}  // extern "C"
