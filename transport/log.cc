#include "transport/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "transport/settings.h"

namespace zmpi::log {
namespace {

std::mutex mutex;
std::string rankTag = "-";

std::string patternFor(const std::string& layer) {
  return "[%H:%M:%S.%e] [zmpi " + layer + " rank " + rankTag + " pid " + std::to_string(getpid()) +
         "] [%^%l%$] %v";
}

const transport::StringSetting kLogLevelSetting{
    "ZMPI_LOG_LEVEL",
    "warn",
    {"trace", "debug", "info", "warn", "warning", "err", "error", "critical", "off"},
    transport::Level::User,
    "what zmpi logs to stderr (debug: also which path, shm, ipc or tcp, each pair uses)"};

// A logger is made anywhere, even while an error is being reported: a bad level is said
// once on stderr, naming the variable, and the default kept, rather than thrown from here.
spdlog::level::level_enum levelFromEnvironment() {
  try {
    return spdlog::level::from_str(kLogLevelSetting.read());
  } catch (const transport::SettingError& error) {
    static std::once_flag said;
    std::call_once(said, [&] { std::fprintf(stderr, "zmpi: %s; logging at warn\n", error.what()); });
    return spdlog::level::warn;
  }
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
