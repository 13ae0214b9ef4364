// PollRegistration: the user threads' registration as pollers of the rings, and when the
// progress thread may drop a registration that lingers after a spin.
#include "mpi/core/poll_registration.h"

#include <catch2/catch.hpp>
#include <memory>

#include "mpi/core/mock_fabric.h"

using zmpi::mpi::MockFabric;
using zmpi::mpi::MockNetwork;
using zmpi::mpi::PollRegistration;
using Clock = std::chrono::steady_clock;

namespace {

// Counts the registrations the fabric sees.
class CountingFabric : public MockFabric {
 public:
  using MockFabric::MockFabric;
  void enterPolling() override { ++entered; }
  void leavePolling() override { ++left; }
  int entered = 0;
  int left = 0;
};

}  // namespace

TEST_CASE("a spin registers once, lingers after it ends, and is dropped only when nobody spins", "[poll]") {
  CountingFabric fabric(std::make_shared<MockNetwork>(1), 0);
  PollRegistration polling(fabric);
  CHECK_FALSE(polling.registered());

  polling.beginSpin();
  CHECK(polling.registered());
  CHECK(polling.userSpinning());
  CHECK_FALSE(polling.dropIfIdle());  // a thread spins: kept
  polling.endSpin();
  CHECK(polling.registered());  // lingers
  CHECK_FALSE(polling.userSpinning());

  polling.beginSpin();  // registered already: no second enterPolling
  polling.endSpin();
  CHECK(fabric.entered == 1);

  CHECK(polling.dropIfIdle());
  CHECK_FALSE(polling.registered());
  CHECK(fabric.left == 1);
  CHECK_FALSE(polling.dropIfIdle());  // nothing left to drop
  CHECK(fabric.left == 1);
}

TEST_CASE("the linger deadline moves when a spin has ended since the progress thread last looked", "[poll]") {
  CountingFabric fabric(std::make_shared<MockNetwork>(1), 0);
  PollRegistration polling(fabric);
  const Clock::time_point first = Clock::now();

  polling.beginSpin();
  polling.endSpin();
  CHECK(polling.lingerDeadline(first) == first + PollRegistration::kLinger);
  // No spin since: the deadline stays where it was, whatever the time now.
  const Clock::time_point later = first + std::chrono::milliseconds(3);
  CHECK(polling.lingerDeadline(later) == first + PollRegistration::kLinger);
  // Another spin ended: kLinger from when it is seen.
  polling.beginSpin();
  polling.endSpin();
  CHECK(polling.lingerDeadline(later) == later + PollRegistration::kLinger);
  const Clock::time_point muchLater = later + std::chrono::milliseconds(50);
  CHECK(polling.lingerDeadline(muchLater) == later + PollRegistration::kLinger);
}
