// The settings registry (transport/settings.h) and the experiment list: bad values are
// refused naming the variable and the value, ranges hold, booleans take MCA's words,
// every declared setting is listed once.
#include "transport/settings.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string_view>

#include "transport/experiments.h"

namespace {

using namespace zmpi::transport;

// Sets a variable for one scope.
class Scoped {
 public:
  Scoped(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~Scoped() { ::unsetenv(name_); }
  Scoped(const Scoped&) = delete;
  Scoped& operator=(const Scoped&) = delete;

 private:
  const char* name_;
};

const IntSetting kCount{"ZMPI_TEST_SETTING_COUNT", 42, {0, 100}, "bytes", Level::Internal, "a test integer"};
const IntSetting kAutomatic{"ZMPI_TEST_SETTING_AUTO", Auto{}, {-5, 5}, nullptr, Level::Internal, "a test auto"};
const BoolSetting kFlag{"ZMPI_TEST_SETTING_FLAG", true, Level::Internal, "a test boolean"};
const StringSetting kWord{"ZMPI_TEST_SETTING_WORD", "red", {"red", "green"}, Level::Internal, "a test choice"};
const StringSetting kSecret{"ZMPI_TEST_SETTING_SECRET",  "", {}, Level::Internal, "a test secret",
                            StringSetting::Shown::Hidden};
const Experiment kTestExperiment{"test-experiment", true, "ZMPI_TEST_EXPERIMENT_ALIAS", "a test experiment"};

}  // namespace

TEST_CASE("settings: unset and empty mean the default") {
  CHECK(kCount.read() == 42);
  CHECK_FALSE(kAutomatic.readIfSet());
  CHECK(kFlag.read());
  CHECK(kWord.read() == "red");
  Scoped empty("ZMPI_TEST_SETTING_COUNT", "");
  CHECK(kCount.read() == 42);
  CHECK(kCount.currentText() == "42");
  CHECK(kAutomatic.defaultText() == "auto");
}

TEST_CASE("settings: integers are whole numbers within their range, else refused naming both") {
  {
    Scoped set("ZMPI_TEST_SETTING_COUNT", "100");
    CHECK(kCount.read() == 100);
  }
  for (const char* bad : {"x", "1k", " 5", "+5", "101", "-1", "99999999999999999999999"}) {
    INFO(bad);
    Scoped set("ZMPI_TEST_SETTING_COUNT", bad);
    CHECK_THROWS_WITH(kCount.read(),
                      std::string("ZMPI_TEST_SETTING_COUNT=") + bad + " is not a whole number of bytes (0 to 100)");
    CHECK_THROWS_AS(kCount.read(), SettingError);
    CHECK_THROWS_AS(kCount.read(), TransportError);  // the transport layer's error, as before
  }
  Scoped negative("ZMPI_TEST_SETTING_AUTO", "-5");
  CHECK(kAutomatic.readIfSet() == -5);
}

TEST_CASE("settings: booleans take 1/0, true/false, yes/no, on/off in any case") {
  for (const char* on : {"1", "true", "YES", "On"}) {
    Scoped set("ZMPI_TEST_SETTING_FLAG", on);
    CHECK(kFlag.read());
  }
  for (const char* off : {"0", "false", "no", "OFF"}) {
    Scoped set("ZMPI_TEST_SETTING_FLAG", off);
    CHECK_FALSE(kFlag.read());
  }
  Scoped set("ZMPI_TEST_SETTING_FLAG", "maybe");
  CHECK_THROWS_WITH(kFlag.read(), Catch::StartsWith("ZMPI_TEST_SETTING_FLAG='maybe' is not a boolean"));
}

TEST_CASE("settings: a string with choices refuses another, naming the choices") {
  Scoped set("ZMPI_TEST_SETTING_WORD", "blue");
  CHECK_THROWS_WITH(kWord.read(), "ZMPI_TEST_SETTING_WORD=blue is not one of red, green");
}

TEST_CASE("settings: a secret is never shown, and take() wipes it from the environment") {
  ::setenv("ZMPI_TEST_SETTING_SECRET", "hunter2hunter2hunter2", 1);
  CHECK(kSecret.currentText() == "(set)");
  CHECK(kSecret.typeName() == "secret");
  CHECK(kSecret.take() == "hunter2hunter2hunter2");
  CHECK(std::getenv("ZMPI_TEST_SETTING_SECRET") == nullptr);
}

TEST_CASE("settings: the registry lists each declared setting once, sorted, and finds it by name") {
  const auto all = allSettings();
  CHECK(std::is_sorted(all.begin(), all.end(), [](const SettingBase* a, const SettingBase* b) {
    return std::string_view(a->name()) < b->name();
  }));
  CHECK(std::count(all.begin(), all.end(), &kCount) == 1);
  CHECK(findSetting("ZMPI_TEST_SETTING_WORD") == &kWord);
  CHECK(findSetting("ZMPI_EXPERIMENT") != nullptr);
  CHECK(findSetting("ZMPI_TEST_EXPERIMENT_ALIAS") != nullptr);  // the deprecated alias is a setting too
  CHECK(findSetting("ZMPI_NO_SUCH_SETTING") == nullptr);
}

TEST_CASE("experiments: the list turns one on or off, the last word wins, the old variable still works") {
  CHECK(kTestExperiment.enabled());
  {
    Scoped list("ZMPI_EXPERIMENT", "no-test-experiment");
    CHECK_FALSE(kTestExperiment.enabled());
  }
  {
    Scoped list("ZMPI_EXPERIMENT", " no-test-experiment , test-experiment");
    CHECK(kTestExperiment.enabled());
  }
  {
    Scoped alias("ZMPI_TEST_EXPERIMENT_ALIAS", "0");
    CHECK_FALSE(kTestExperiment.enabled());
    Scoped list("ZMPI_EXPERIMENT", "test-experiment");
    CHECK(kTestExperiment.enabled());  // the list wins
  }
  Scoped list("ZMPI_EXPERIMENT", "test-experiment,no-such-thing");
  CHECK_THROWS_WITH(kTestExperiment.enabled(),
                    Catch::StartsWith("ZMPI_EXPERIMENT=test-experiment,no-such-thing: 'no-such-thing' names no "
                                      "experiment (known: "));
}
