#pragma once
// Switches of internal mechanisms (the bulk connections, waiting threads that receive,
// shared-memory collectives and windows, ...): a user should never need them, comparisons
// and tests do. They are named in one list, ZMPI_EXPERIMENT=name,no-name,... (`name` turns
// a mechanism on, `no-name` off), instead of one variable each. The variable each had
// before (ZMPI_TCP_BULK=0, ...) is still read, as a deprecated alias through the registry,
// so scripts that set it keep working; the list wins where both speak.
#include <string>
#include <vector>

#include "transport/settings.h"

namespace zmpi::transport {

class Experiment {
 public:
  // `name` as in the list ("tcp-bulk"); `alias` the old variable ("ZMPI_TCP_BULK").
  Experiment(const char* name, bool fallback, const char* alias, const char* doc);
  Experiment(const Experiment&) = delete;
  Experiment& operator=(const Experiment&) = delete;

  // Parses the list (SettingError naming ZMPI_EXPERIMENT and an unknown name) and the alias;
  // callers read it once, at start-up.
  bool enabled() const;
  const char* name() const { return name_; }
  bool fallback() const { return fallback_; }
  const char* doc() const { return doc_; }

 private:
  const char* name_;
  bool fallback_;
  const char* doc_;
  BoolSetting alias_;
};

// Every experiment this program declares, sorted by name.
std::vector<const Experiment*> allExperiments();

}  // namespace zmpi::transport
