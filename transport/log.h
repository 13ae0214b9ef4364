#pragma once
// One spdlog logger per layer ("transport", "mpi", "runtime"). The level comes from the
// environment variable ZMPI_LOG_LEVEL (trace, debug, info, warn, error, off); the default
// is "warn", so zmpi is quiet unless something is wrong.
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

namespace zmpi::log {

// Returns the logger for a layer, creating it (stderr, level from the environment) once.
std::shared_ptr<spdlog::logger> get(const std::string& layer);

// Adds "rank N" to every logger's pattern once the rank is known.
void setRankTag(const std::string& tag);

}  // namespace zmpi::log
