#include "transport/settings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace zmpi::transport {
namespace {

// The registry: a function-local static, so a setting declared in any translation unit's
// static initialisation finds it constructed. Settings live as long as the program.
struct Registry {
  std::mutex mutex;
  std::vector<const SettingBase*> settings;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

}  // namespace

const char* levelName(Level level) {
  switch (level) {
    case Level::User:
      return "user";
    case Level::Tuning:
      return "tuning";
    case Level::Internal:
      return "internal";
  }
  return "?";
}

std::optional<Level> levelNamed(std::string_view name) {
  for (Level level : {Level::User, Level::Tuning, Level::Internal}) {
    if (name == levelName(level)) return level;
  }
  return std::nullopt;
}

SettingBase::SettingBase(const char* name, Kind kind, Level level, const char* doc)
    : name_(name), kind_(kind), level_(level), doc_(doc) {
  Registry& all = registry();
  const std::lock_guard lock(all.mutex);
  all.settings.push_back(this);
}

std::string SettingBase::typeName() const {
  switch (kind_) {
    case Kind::Integer:
      return "integer";
    case Kind::Boolean:
      return "boolean";
    case Kind::String:
      return "string";
  }
  return "?";
}

std::optional<std::string> SettingBase::text() const {
  const char* value = std::getenv(name_);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::vector<const SettingBase*> allSettings() {
  Registry& all = registry();
  std::vector<const SettingBase*> out;
  {
    const std::lock_guard lock(all.mutex);
    out = all.settings;
  }
  std::sort(out.begin(), out.end(), [](const SettingBase* a, const SettingBase* b) {
    return std::string_view(a->name()) < std::string_view(b->name());
  });
  return out;
}

const SettingBase* findSetting(std::string_view name) {
  for (const SettingBase* setting : allSettings()) {
    if (name == setting->name()) return setting;
  }
  return nullptr;
}

long long parseInteger(const char* name, std::string_view text, long long least, long long most, const char* unit) {
  long long value = 0;
  const char* end = text.data() + text.size();
  // from_chars takes no space or '+' and reports overflow.
  // NOLINTNEXTLINE(bugprone-suspicious-stringview-data-usage): it reads [data, data + size) only
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || value < least || value > most) {
    std::string message = std::string(name) + "=" + std::string(text) + " is not a whole number";
    if (unit != nullptr) message += std::string(" of ") + unit;
    message += " (" + std::to_string(least) + " to " + std::to_string(most) + ")";
    throw SettingError(message);
  }
  return value;
}

bool parseBoolean(const char* name, std::string_view text) {
  const std::string word = lowered(text);
  if (word == "1" || word == "true" || word == "yes" || word == "on") return true;
  if (word == "0" || word == "false" || word == "no" || word == "off") return false;
  throw SettingError(std::string(name) + "='" + std::string(text) +
                     "' is not a boolean (1/0, true/false, yes/no, on/off)");
}

IntSetting::IntSetting(const char* name, long long fallback, Range range, const char* unit, Level level,
                       const char* doc)
    : SettingBase(name, Kind::Integer, level, doc),
      fallback_(fallback),
      automatic_(false),
      range_(range),
      unit_(unit) {}

IntSetting::IntSetting(const char* name, Auto, Range range, const char* unit, Level level, const char* doc)
    : SettingBase(name, Kind::Integer, level, doc), fallback_(0), automatic_(true), range_(range), unit_(unit) {}

std::optional<long long> IntSetting::readIfSet() const {
  const std::optional<std::string> value = text();
  if (!value) return std::nullopt;
  return parseInteger(name(), *value, range_.least, range_.most, unit_);
}

long long IntSetting::read() const { return readIfSet().value_or(fallback_); }

std::string IntSetting::typeName() const {
  return unit_ != nullptr ? std::string("integer (") + unit_ + ")" : std::string("integer");
}

std::string IntSetting::defaultText() const { return automatic_ ? "auto" : std::to_string(fallback_); }

namespace {
// Large powers of two as 2^n: "0..2^40" reads better than "0..1099511627776".
std::string boundText(long long value) {
  if (value >= (1LL << 20) && (value & (value - 1)) == 0) return "2^" + std::to_string(__builtin_ctzll(value));
  return std::to_string(value);
}
}  // namespace

std::string IntSetting::rangeText() const { return boundText(range_.least) + ".." + boundText(range_.most); }

std::string IntSetting::currentText() const {
  const std::optional<long long> value = readIfSet();
  return value ? std::to_string(*value) : defaultText();
}

BoolSetting::BoolSetting(const char* name, bool fallback, Level level, const char* doc)
    : SettingBase(name, Kind::Boolean, level, doc), fallback_(fallback), automatic_(false) {}

BoolSetting::BoolSetting(const char* name, Auto, Level level, const char* doc)
    : SettingBase(name, Kind::Boolean, level, doc), fallback_(false), automatic_(true) {}

std::optional<bool> BoolSetting::readIfSet() const {
  const std::optional<std::string> value = text();
  if (!value) return std::nullopt;
  return parseBoolean(name(), *value);
}

bool BoolSetting::read() const { return readIfSet().value_or(fallback_); }

std::string BoolSetting::defaultText() const { return automatic_ ? "auto" : fallback_ ? "1" : "0"; }

std::string BoolSetting::currentText() const {
  const std::optional<bool> value = readIfSet();
  return value ? (*value ? "1" : "0") : defaultText();
}

StringSetting::StringSetting(const char* name, const char* fallback, std::vector<std::string> choices, Level level,
                             const char* doc, Shown shown)
    : SettingBase(name, Kind::String, level, doc), fallback_(fallback), choices_(std::move(choices)), shown_(shown) {}

std::optional<std::string> StringSetting::readIfSet() const {
  std::optional<std::string> value = text();
  if (value && !choices_.empty() && std::find(choices_.begin(), choices_.end(), *value) == choices_.end()) {
    throw SettingError(std::string(name()) + "=" + *value + " is not one of " + joined(choices_, ", "));
  }
  return value;
}

std::string StringSetting::read() const { return readIfSet().value_or(fallback_); }

std::string StringSetting::take() const {
  char* value = std::getenv(name());
  if (value == nullptr) return {};
  std::string copy(value);
  explicit_bzero(value, std::strlen(value));
  ::unsetenv(name());
  return copy;
}

std::string StringSetting::typeName() const { return secret() ? "secret" : "string"; }

std::string StringSetting::defaultText() const { return *fallback_ == '\0' ? "(none)" : fallback_; }

std::string StringSetting::rangeText() const { return joined(choices_, "|"); }

std::string StringSetting::currentText() const {
  const std::optional<std::string> value = readIfSet();
  if (!value) return defaultText();
  return secret() ? "(set)" : *value;
}

}  // namespace zmpi::transport
