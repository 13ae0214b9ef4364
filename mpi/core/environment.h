#pragma once
// Reading zmpi's settings (transport/settings.h) in the MPI layer: a value that is set but
// is not one its setting takes is an MpiError (MPI_ERR_OTHER) naming the variable and the
// value, never silently the default.
#include <optional>
#include <string>

#include "transport/experiments.h"
#include "transport/settings.h"

namespace zmpi::mpi {

long long setting(const transport::IntSetting& setting);
bool setting(const transport::BoolSetting& setting);
std::string setting(const transport::StringSetting& setting);
std::optional<long long> settingIfSet(const transport::IntSetting& setting);
std::optional<bool> settingIfSet(const transport::BoolSetting& setting);
std::optional<std::string> settingIfSet(const transport::StringSetting& setting);
bool experiment(const transport::Experiment& experiment);

// The variable's value, or `fallback` when unset: for variables zmpi does not own (SLURM_*).
std::string environmentString(const char* name, const std::string& fallback = "");
// `text` (the value of `name`) as an integer; MpiError naming `name` if it is not one.
long long parseNumber(const char* name, const std::string& text);

}  // namespace zmpi::mpi
