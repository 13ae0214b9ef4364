#pragma once
// What zmpi_info prints: the settings registry (transport/settings.h) as text for a
// terminal, or as the Markdown table the README carries (checked by a test to be current).
#include <optional>
#include <ostream>

#include "transport/settings.h"

namespace zmpi::runtime {

struct TableChoice {
  std::optional<transport::Level> level;  // only this level
  bool internal = false;                  // with no level: internal ones too (--all)
};

// Name, type, default, current value, level, range and doc of each setting chosen, then
// the experiments (ZMPI_EXPERIMENT). A current value that does not parse is shown as the
// error, not thrown: zmpi_info is where one looks at a bad value.
void printSettings(std::ostream& out, const TableChoice& choice);
// The settings chosen (as printSettings, internal ones never) as a Markdown table, then the
// experiments unless one level other than tuning was asked for: README.md carries the user
// level's, docs/settings.md the whole.
void printMarkdown(std::ostream& out, const TableChoice& choice);
// Every setting's name, one a line (for the test that greps the sources).
void printNames(std::ostream& out);

}  // namespace zmpi::runtime
