// What a rank reads from a cluster manager's key-value store: its card as text in pieces,
// read back only when every piece is well formed; and which manager the environment names.
#include "mpi/init/process_manager.h"

#include <mpi.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "mpi/core/error.h"
#include "mpi/init/card_text.h"
#include "mpi/init/deadline.h"

using zmpi::mpi::CardAssembly;
using zmpi::mpi::cardPieces;

namespace {

std::string allBytes(size_t count) {
  std::string bytes;
  for (size_t i = 0; i < count; ++i) bytes.push_back(static_cast<char>(i * 37 % 256));
  return bytes;
}

std::string assembled(const std::vector<std::string>& pieces) {
  CardAssembly card;
  for (const auto& piece : pieces) REQUIRE(card.add(piece));
  REQUIRE(card.complete());
  return card.value();
}

// Sets a variable for one test and restores it.
struct ScopedVariable {
  ScopedVariable(const char* name, const char* value) : name(name) {
    if (const char* old = std::getenv(name)) previous = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedVariable() {
    if (previous) {
      setenv(name, previous->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  const char* name;
  std::optional<std::string> previous;
};

}  // namespace

TEST_CASE("a card survives its text pieces, every byte value and size", "[manager]") {
  for (size_t size : {0, 1, 2, 100, 509, 510, 511, 1500, 4096}) {
    const std::string card = allBytes(size);
    const auto pieces = cardPieces(card, 1023);
    for (const auto& piece : pieces) CHECK(piece.size() <= 1023);
    CHECK(assembled(pieces) == card);
  }
  CHECK(cardPieces(allBytes(3000), 1023).size() == 6);
}

TEST_CASE("a malformed or inconsistent piece is refused", "[manager]") {
  auto refused = [](std::vector<std::string> pieces) {
    CardAssembly card;
    for (const auto& piece : pieces) {
      if (!card.add(piece)) return true;
    }
    return false;
  };
  CHECK(refused({"no colon"}));
  CHECK(refused({":00"}));
  CHECK(refused({"0:"}));
  CHECK(refused({"x1:00"}));
  CHECK(refused({"1:0"}));           // half a byte
  CHECK(refused({"1:zz"}));          // not hex
  CHECK(refused({"1:AB"}));          // upper case is not what we write
  CHECK(refused({"2:00", "3:00"}));  // the count changed
  CHECK(refused({"1:00", "1:00"}));  // more pieces than it said
  CardAssembly partial;
  CHECK(partial.add("2:ab"));
  CHECK_FALSE(partial.complete());
}

TEST_CASE("no manager's variables: no manager; a PMIx one that cannot be reached fails naming PMIx", "[manager]") {
  ScopedVariable noNamespace("PMIX_NAMESPACE", nullptr);
  ScopedVariable noRank("PMIX_RANK", nullptr);
  ScopedVariable noFd("PMI_FD", nullptr);
  CHECK(zmpi::mpi::connectProcessManager(std::chrono::milliseconds(1000)) == nullptr);

  ScopedVariable space("PMIX_NAMESPACE", "zmpi-test-namespace");
  ScopedVariable rank("PMIX_RANK", "0");
  // No server listens at this address: PMIx_Init fails at once, within the deadline.
  ScopedVariable uri("PMIX_SERVER_URI41", "pmix-server.1;tcp4://127.0.0.1:9");
  ScopedVariable uri4("PMIX_SERVER_URI4", "pmix-server.1;tcp4://127.0.0.1:9");
  try {
    zmpi::mpi::connectProcessManager(std::chrono::milliseconds(10000));
    FAIL("connected to a PMIx server that does not exist");
  } catch (const zmpi::mpi::MpiError& error) {
    CHECK(error.code() == MPI_ERR_OTHER);
    CHECK_THAT(error.what(), Catch::Contains("PMIx") && Catch::Contains("zmpi-test-namespace"));
  }
}

TEST_CASE("a manager's call that never returns is given up at its deadline", "[manager]") {
  std::promise<void> never;
  auto blocked = std::make_shared<std::shared_future<void>>(never.get_future().share());
  const auto result = zmpi::mpi::runWithDeadline(std::chrono::milliseconds(50), [blocked] {
    blocked->wait();
    return 1;
  });
  CHECK_FALSE(result.has_value());
  never.set_value();  // lets the abandoned thread end
  CHECK(zmpi::mpi::runWithDeadline(std::chrono::milliseconds(5000), [] { return 7; }) == 7);
  CHECK_THROWS_AS(
      zmpi::mpi::runWithDeadline(std::chrono::milliseconds(5000), []() -> int { throw std::runtime_error("inside"); }),
      std::runtime_error);
}
