#include "mpi/core/watchdog.h"

#include <optional>
#include <vector>

#include "mpi/comm/communicator.h"
#include "mpi/core/current_call.h"
#include "mpi/core/environment.h"
#include "mpi/core/request.h"
#include "transport/log.h"

namespace zmpi::mpi {
namespace {

const transport::IntSetting kWatchdogSetting{
    "ZMPI_WATCHDOG_SECONDS",
    0,
    {0, 1LL << 30},
    "seconds",
    transport::Level::User,
    "a rank blocked in one MPI call this long logs what it waits for, and again every period (0: off)"};

std::string rankText(int rank) {
  if (rank == MPI_ANY_SOURCE) return "MPI_ANY_SOURCE";
  if (rank == MPI_PROC_NULL) return "MPI_PROC_NULL";
  return std::to_string(rank);
}

std::string tagText(int tag) { return tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(tag); }

std::string nameOf(const Communicator* comm) {
  if (comm == nullptr) return "";
  return comm->name.empty() ? std::string("(unnamed, context ") + std::to_string(comm->contextId()) + ")" : comm->name;
}

// The current call's communicator, if it has a valid one.
const Communicator* currentCommunicator() {
  if (currentCall.comm == MPI_COMM_NULL) return nullptr;
  try {
    return communicatorOf(currentCall.comm);
  } catch (...) {
    return nullptr;
  }
}

std::string withCall(const std::string& what, const Communicator* comm) {
  std::string text = currentCall.name != nullptr ? currentCall.name : "(outside any MPI call)";
  if (!what.empty()) text += ": " + what;
  if (comm != nullptr) text += (what.empty() ? ": communicator " : ", communicator ") + nameOf(comm);
  return text;
}

}  // namespace

std::chrono::milliseconds Watchdog::configuredPeriod() {
  const long long seconds = setting(kWatchdogSetting);
  return std::chrono::milliseconds(seconds > 0 ? seconds * 1000 : 0);
}

Watchdog::Watchdog(std::chrono::milliseconds period) : period_(period), thread_([this] { run(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

uint64_t Watchdog::add(std::string what) {
  const auto now = Clock::now();
  uint64_t id;
  {
    std::lock_guard lock(mutex_);
    id = nextId_++;
    entries_.emplace(id, Entry{std::move(what), now, now + period_});
  }
  changed_.notify_all();  // the timer may be asleep with no deadline, or a later one
  return id;
}

void Watchdog::remove(uint64_t id) {
  std::lock_guard lock(mutex_);
  entries_.erase(id);
}

void Watchdog::run() {
  auto logger = log::get("mpi");
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto now = Clock::now();
    std::vector<std::string> reports;
    std::optional<Clock::time_point> next;
    for (auto& [id, entry] : entries_) {
      if (entry.due <= now) {
        const auto blocked = std::chrono::duration_cast<std::chrono::seconds>(now - entry.since);
        reports.push_back("watchdog: " + entry.what + " (blocked for " + std::to_string(blocked.count()) + " s)");
        while (entry.due <= now) entry.due += period_;
      }
      if (!next || entry.due < *next) next = entry.due;
    }
    if (!reports.empty()) {
      lock.unlock();  // never block waiting threads on stderr
      for (const std::string& report : reports) logger->warn("{}", report);
      lock.lock();
      continue;  // entries may have changed meanwhile
    }
    if (next) {
      changed_.wait_until(lock, *next);
    } else {
      changed_.wait(lock);
    }
  }
}

std::string describeWait(const Request& request) {
  std::string what;
  if (request.kind == Request::Kind::Send) {
    what = "send to destination " + rankText(request.peer) + ", tag " + tagText(request.tag);
  } else if (request.kind == Request::Kind::Recv) {
    what = "receive from source " + rankText(request.peer) + ", tag " + tagText(request.tag);
  }
  return withCall(what, request.comm != nullptr ? request.comm : currentCommunicator());
}

std::string describeProbe(int source, int tag) {
  return withCall("message from source " + rankText(source) + ", tag " + tagText(tag), currentCommunicator());
}

std::string describeWait() { return withCall("", currentCommunicator()); }

}  // namespace zmpi::mpi
