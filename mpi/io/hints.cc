#include "mpi/io/hints.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "mpi/core/error.h"

namespace zmpi::mpi::io {
namespace {

// Reserved hints (MPI-3.1 13.2.8) a program may set and read back.
constexpr std::array<std::string_view, 9> kKept = {
    "access_style", "collective_buffering", "cb_block_size", "cb_buffer_size", "file_perm", "io_node_list",
    "nb_proc",      "striping_factor",      "striping_unit"};

void put(Hints& hints, const std::string& key, const std::string& value) {
  auto it = std::find_if(hints.begin(), hints.end(), [&](const auto& entry) { return entry.first == key; });
  if (it == hints.end()) {
    hints.emplace_back(key, value);
  } else {
    it->second = value;
  }
}

}  // namespace

Hints hintsFor(const Info* info, int commSize, const Hints& previous) {
  Hints hints = previous;
  if (info != nullptr) {
    for (const auto& [key, value] : info->entries()) {
      if (std::find(kKept.begin(), kKept.end(), key) != kKept.end()) put(hints, key, value);
    }
  }
  put(hints, "cb_nodes", std::to_string(commSize));
  put(hints, "romio_cb_read", "disable");
  put(hints, "romio_cb_write", "disable");
  put(hints, "romio_no_indep_rw", "false");
  return hints;
}

mode_t permissionsFrom(const Info* info) {
  const auto value = info ? info->get("file_perm") : std::nullopt;
  if (!value) return 0666;
  std::size_t used = 0;
  unsigned long permissions = 0;
  try {
    permissions = std::stoul(*value, &used, 8);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value->size() || permissions > 07777) {
    fail(MPI_ERR_INFO_VALUE, "file_perm \"" + *value + "\" is not an octal permission such as 0644");
  }
  return static_cast<mode_t>(permissions);
}

}  // namespace zmpi::mpi::io
