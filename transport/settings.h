#pragma once
// zmpi's settings registry. Every ZMPI_* environment variable a process reads is declared
// once, as a setting object beside the code that uses it (name, type, default, range, a
// one-line doc, a level), and read only through it: so `zmpi_info` and the MPI_T control
// variables can list every one, and a bad value is always an error naming the variable
// and the value (SettingError; mpi/ turns it into an MpiError, runtime/ into its message).
//
// Declaring a setting registers it in a process-wide list (a function-local static, so a
// setting may be declared in any translation unit's static initialisation). Reading parses
// the environment at that moment: code that needs the value on a hot path reads it once,
// at construction or into a static, as it always did -- never per message. A setting is an
// object with static storage: reading one from another file's static initialiser could
// find it not yet constructed (none does; keep it so).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/errors.h"

namespace zmpi::transport {

// Who a setting is for: users (documented in the README), tuning (performance knobs with
// measured defaults), internal (set by zmpirun for its ranks, or switches of mechanisms
// a user should not need).
enum class Level { User, Tuning, Internal };
const char* levelName(Level level);
std::optional<Level> levelNamed(std::string_view name);

// A variable whose value is not one its setting takes; the text names both.
class SettingError : public TransportError {
 public:
  using TransportError::TransportError;
};

class SettingBase {
 public:
  enum class Kind { Integer, Boolean, String };

  SettingBase(const char* name, Kind kind, Level level, const char* doc);
  SettingBase(const SettingBase&) = delete;
  SettingBase& operator=(const SettingBase&) = delete;

  const char* name() const { return name_; }
  Kind kind() const { return kind_; }
  Level level() const { return level_; }
  const char* doc() const { return doc_; }
  // "integer", "boolean", "string", "secret".
  virtual std::string typeName() const;
  // The default as zmpi_info shows it ("auto" where the code chooses; the doc says how).
  virtual std::string defaultText() const = 0;
  // The values taken ("0..65536", "shm|ipc|tcp"), "" when any.
  virtual std::string rangeText() const = 0;
  // The environment's text; nullopt when the variable is unset or empty (both mean the
  // default, as zmpi always read them).
  std::optional<std::string> text() const;
  // The value in effect as text, after checking it (SettingError); secrets show "(set)".
  virtual std::string currentText() const = 0;

 protected:
  ~SettingBase() = default;

 private:
  const char* name_;
  Kind kind_;
  Level level_;
  const char* doc_;
};

// Every setting this program declares, sorted by name.
std::vector<const SettingBase*> allSettings();
const SettingBase* findSetting(std::string_view name);

// The parsers, for the settings below and for values that arrive other ways (the tests).
// `name` only names the variable in the error.
long long parseInteger(const char* name, std::string_view text, long long least, long long most,
                       const char* unit = nullptr);
// 1/true/yes/on and 0/false/no/off, any case.
bool parseBoolean(const char* name, std::string_view text);

struct Range {
  long long least;
  long long most;
};

// A default the code chooses from the machine or the job (zmpi_info shows "auto").
struct Auto {};

class IntSetting final : public SettingBase {
 public:
  IntSetting(const char* name, long long fallback, Range range, const char* unit, Level level, const char* doc);
  IntSetting(const char* name, Auto, Range range, const char* unit, Level level, const char* doc);

  // The value, or the default when unset; only for settings with a fixed default.
  long long read() const;
  // The value when set, nullopt when unset.
  std::optional<long long> readIfSet() const;
  bool automatic() const { return automatic_; }
  long long fallback() const { return fallback_; }
  Range range() const { return range_; }
  const char* unit() const { return unit_; }

  std::string typeName() const override;
  std::string defaultText() const override;
  std::string rangeText() const override;
  std::string currentText() const override;

 private:
  long long fallback_;
  bool automatic_;
  Range range_;
  const char* unit_;
};

class BoolSetting final : public SettingBase {
 public:
  BoolSetting(const char* name, bool fallback, Level level, const char* doc);
  BoolSetting(const char* name, Auto, Level level, const char* doc);

  bool read() const;
  std::optional<bool> readIfSet() const;
  bool automatic() const { return automatic_; }
  bool fallback() const { return fallback_; }

  std::string defaultText() const override;
  std::string rangeText() const override { return "0|1"; }
  std::string currentText() const override;

 private:
  bool fallback_;
  bool automatic_;
};

class StringSetting final : public SettingBase {
 public:
  enum class Shown { Value, Hidden };  // Hidden: a secret, never printed
  // `choices` empty: any text (the code checks it); else one of them.
  StringSetting(const char* name, const char* fallback, std::vector<std::string> choices, Level level, const char* doc,
                Shown shown = Shown::Value);

  // The value, or the default when unset (checked against the choices).
  std::string read() const;
  std::optional<std::string> readIfSet() const;
  // The value ("" when unset), then overwritten in place (it lives in the initial
  // environment block, which /proc/PID/environ shows) and removed from the environment.
  std::string take() const;
  const std::vector<std::string>& choices() const { return choices_; }
  bool secret() const { return shown_ == Shown::Hidden; }

  std::string typeName() const override;
  std::string defaultText() const override;
  std::string rangeText() const override;
  std::string currentText() const override;

 private:
  const char* fallback_;
  std::vector<std::string> choices_;
  Shown shown_;
};

}  // namespace zmpi::transport
