#include "transport/experiments.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <string_view>

namespace zmpi::transport {
namespace {

const StringSetting kExperimentList{
    "ZMPI_EXPERIMENT",
    "",
    {},
    Level::Tuning,
    "switches of internal mechanisms, comma-separated: `name` turns one on, `no-name` off "
    "(zmpi_info --experiments lists them and their defaults)"};

struct Experiments {
  std::mutex mutex;
  std::vector<const Experiment*> all;
};

Experiments& experiments() {
  static Experiments instance;
  return instance;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// What the list says of `name`: on, off, or nothing. Every word must name an experiment.
std::optional<bool> listed(const char* name) {
  const std::optional<std::string> list = kExperimentList.readIfSet();
  if (!list) return std::nullopt;
  std::optional<bool> said;
  std::string_view rest = *list;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view word = trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (word.empty()) continue;
    const bool off = word.starts_with("no-");
    const std::string_view bare = off ? word.substr(3) : word;
    const std::vector<const Experiment*> known = allExperiments();
    if (std::none_of(known.begin(), known.end(), [&](const Experiment* e) { return bare == e->name(); })) {
      std::string names;
      for (const Experiment* e : known) names += std::string(names.empty() ? "" : ", ") + e->name();
      throw SettingError("ZMPI_EXPERIMENT=" + *list + ": '" + std::string(word) +
                         "' names no experiment (known: " + names + ")");
    }
    if (bare == name) said = !off;  // the last word about it wins
  }
  return said;
}

}  // namespace

Experiment::Experiment(const char* name, bool fallback, const char* alias, const char* doc)
    : name_(name), fallback_(fallback), doc_(doc), alias_(alias, fallback, Level::Internal, doc) {
  Experiments& all = experiments();
  const std::lock_guard lock(all.mutex);
  all.all.push_back(this);
}

bool Experiment::enabled() const {
  if (const std::optional<bool> said = listed(name_)) return *said;
  return alias_.read();
}

std::vector<const Experiment*> allExperiments() {
  Experiments& all = experiments();
  std::vector<const Experiment*> out;
  {
    const std::lock_guard lock(all.mutex);
    out = all.all;
  }
  std::sort(out.begin(), out.end(),
            [](const Experiment* a, const Experiment* b) { return std::string_view(a->name()) < b->name(); });
  return out;
}

}  // namespace zmpi::transport
