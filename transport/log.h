#pragma once
// One spdlog logger per layer ("transport", "mpi", "runtime"). The level comes from the
// environment variable ZMPI_LOG_LEVEL (trace, debug, info, warn, error, off); the default
// is "warn", so zmpi is quiet unless something is wrong.
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace zmpi::log {

// Returns the logger for a layer, creating it (stderr, level from the environment) once.
std::shared_ptr<spdlog::logger> get(const std::string& layer);

// Adds "rank N" to every logger's pattern once the rank is known.
void setRankTag(const std::string& tag);

// The level for the n-th (1-based) rejected message of one receiver: warn for the first
// ten and every thousandth, debug otherwise, so that a peer sending garbage cannot flood
// the log (one line per message only at debug level).
inline spdlog::level::level_enum rejectLevel(uint64_t n) {
  return n <= 10 || n % 1000 == 0 ? spdlog::level::warn : spdlog::level::debug;
}

}  // namespace zmpi::log
