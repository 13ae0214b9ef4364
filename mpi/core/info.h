#pragma once
// An MPI_Info object: an ordered list of (key, value) strings. Order is insertion order,
// as in Open MPI, so MPI_Info_get_nthkey is stable; setting an existing key replaces its
// value in place. Keys and values are checked against MPI_MAX_INFO_KEY/VAL by the entry
// points (capi/info.cc), not here.
#include <mpi.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi/core/handle.h"

namespace zmpi::mpi {

class Info {
 public:
  Info();
  ~Info();
  Info(const Info&) = delete;
  Info& operator=(const Info&) = delete;

  void set(const std::string& key, const std::string& value);
  std::optional<std::string> get(const std::string& key) const;
  bool erase(const std::string& key);  // false if the key was not there
  int size() const { return static_cast<int>(entries_.size()); }
  const std::string& keyAt(int n) const { return entries_.at(static_cast<size_t>(n)).first; }
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }

  MPI_Info handle() { return publicHandle_; }
  bool predefined() const { return predefined_; }

  // MPI_INFO_ENV: how this process was started (command, argv, maxprocs, host, arch, wdir),
  // bound to its predefined handle on first use.
  static Info& environment();

 private:
  ompi_info_t handle_;
  MPI_Info publicHandle_ = &handle_;
  bool predefined_ = false;
  std::vector<std::pair<std::string, std::string>> entries_;
};

// Throws MPI_ERR_INFO for MPI_INFO_NULL and invalid handles.
Info* infoOf(MPI_Info handle);
// As infoOf, but MPI_INFO_NULL (legal wherever an info is optional) gives null.
Info* infoOrNull(MPI_Info handle);

}  // namespace zmpi::mpi
