#include "transport/log.h"

#include <cstdlib>
#include <mutex>
#include <unistd.h>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace zmpi::log {
namespace {

std::mutex mutex;
std::string rankTag = "-";

std::string patternFor(const std::string& layer) {
  return "[%H:%M:%S.%e] [zmpi " + layer + " rank " + rankTag + " pid " + std::to_string(getpid()) +
         "] [%^%l%$] %v";
}

spdlog::level::level_enum levelFromEnvironment() {
  const char* value = std::getenv("ZMPI_LOG_LEVEL");
  if (value == nullptr || *value == '\0') return spdlog::level::warn;
  return spdlog::level::from_str(value);
}

}  // namespace

std::shared_ptr<spdlog::logger> get(const std::string& layer) {
  std::lock_guard lock(mutex);
  const std::string name = "zmpi." + layer;
  if (auto existing = spdlog::get(name)) return existing;
  auto logger = spdlog::stderr_color_mt(name);
  logger->set_level(levelFromEnvironment());
  logger->set_pattern(patternFor(layer));
  return logger;
}

void setRankTag(const std::string& tag) {
  std::lock_guard lock(mutex);
  rankTag = tag;
  spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& logger) {
    const std::string layer = logger->name().substr(logger->name().find('.') + 1);
    logger->set_pattern(patternFor(layer));
  });
}

}  // namespace zmpi::log
