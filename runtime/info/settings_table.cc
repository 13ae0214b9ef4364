#include "runtime/info/settings_table.h"

#include <string>

#include "transport/experiments.h"

namespace zmpi::runtime {
namespace {

bool chosen(const transport::SettingBase& setting, const TableChoice& choice) {
  if (choice.level) return setting.level() == *choice.level;
  return choice.internal || setting.level() != transport::Level::Internal;
}

std::string current(const transport::SettingBase& setting) {
  try {
    return setting.currentText();
  } catch (const transport::SettingError& error) {
    return std::string("invalid: ") + error.what();
  }
}

// Markdown cells: a '|' in the text would end the cell.
std::string cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
    text.replace(at, 1, "\\|");
  return text;
}

}  // namespace

void printSettings(std::ostream& out, const TableChoice& choice) {
  for (const transport::SettingBase* setting : transport::allSettings()) {
    if (!chosen(*setting, choice)) continue;
    out << setting->name() << "\n    type " << setting->typeName() << ", default " << setting->defaultText()
        << ", current " << current(*setting) << ", level " << transport::levelName(setting->level());
    if (const std::string range = setting->rangeText(); !range.empty()) out << ", values " << range;
    out << "\n    " << setting->doc() << "\n";
  }
  if (choice.level && *choice.level != transport::Level::Tuning) return;
  out << "\nExperiments (ZMPI_EXPERIMENT=name,no-name,...):\n";
  for (const transport::Experiment* experiment : transport::allExperiments()) {
    std::string state;
    try {
      state = experiment->enabled() ? "on" : "off";
    } catch (const transport::SettingError& error) {
      state = std::string("invalid: ") + error.what();
    }
    out << "  " << experiment->name() << " (default " << (experiment->fallback() ? "on" : "off") << ", now " << state
        << "): " << experiment->doc() << "\n";
  }
}

void printMarkdown(std::ostream& out, const TableChoice& choice) {
  out << "| variable | type | default | values | level | what |\n|---|---|---|---|---|---|\n";
  for (const transport::SettingBase* setting : transport::allSettings()) {
    if (setting->level() == transport::Level::Internal || !chosen(*setting, choice)) continue;
    out << "| `" << setting->name() << "` | " << setting->typeName() << " | " << cell(setting->defaultText()) << " | "
        << cell(setting->rangeText()) << " | " << transport::levelName(setting->level()) << " | "
        << cell(setting->doc()) << " |\n";
  }
  if (choice.level && *choice.level != transport::Level::Tuning) return;
  out << "\n| `ZMPI_EXPERIMENT` name | default | what |\n|---|---|---|\n";
  for (const transport::Experiment* experiment : transport::allExperiments()) {
    out << "| `" << experiment->name() << "` | " << (experiment->fallback() ? "on" : "off") << " | "
        << cell(experiment->doc()) << " |\n";
  }
}

void printNames(std::ostream& out) {
  for (const transport::SettingBase* setting : transport::allSettings()) out << setting->name() << "\n";
}

}  // namespace zmpi::runtime
