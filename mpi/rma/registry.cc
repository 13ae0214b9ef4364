#include "mpi/rma/registry.h"

#include <atomic>
#include <map>
#include <mutex>

#include "mpi/core/envelope.h"
#include "mpi/core/world.h"
#include "mpi/rma/protocol.h"
#include "mpi/rma/window.h"
#include "transport/log.h"

namespace zmpi::mpi::rma {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<uint32_t, std::shared_ptr<Window>> windows;
  std::map<World*, int> windowsPerWorld;
};

// Never destroyed: a progress thread may still look a window up while the process exits.
Registry& registry() {
  static auto* instance = new Registry();
  return *instance;
}

void dispatch(World& world, transport::WireMessage&& message) {
  const Envelope envelope = envelopeOf(message.header);
  std::shared_ptr<Window> window = findWindow(static_cast<uint32_t>(envelope.context));
  if (!window || &window->world() != &world) {
    log::get("mpi")->warn("dropped a one-sided message (kind {}) for unknown window {} from world rank {}",
                          message.header.kind, envelope.context, envelope.senderWorld);
    return;
  }
  window->onMessage(std::move(message));
}

void installHandlers(World& world) {
  for (uint16_t kind = kFirstRmaKind; kind <= kLastRmaKind; ++kind) {
    world.engine().setActiveMessageHandler(
        kind, [&world](transport::WireMessage&& message) { dispatch(world, std::move(message)); });
  }
}

void removeHandlers(World& world) {
  for (uint16_t kind = kFirstRmaKind; kind <= kLastRmaKind; ++kind) world.engine().setActiveMessageHandler(kind, {});
}

}  // namespace

uint32_t nextWindowId() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1);
}

void registerWindow(const std::shared_ptr<Window>& window) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.windows[window->id()] = window;
  if (r.windowsPerWorld[&window->world()]++ == 0) installHandlers(window->world());
}

void unregisterWindow(const Window& window) {
  std::shared_ptr<Window> last;  // destroyed after the mutex is released
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.windows.find(window.id());
  if (it == r.windows.end()) return;
  last = std::move(it->second);
  r.windows.erase(it);
  World* world = &last->world();
  if (--r.windowsPerWorld[world] == 0) {
    r.windowsPerWorld.erase(world);
    removeHandlers(*world);
  }
}

std::shared_ptr<Window> findWindow(uint32_t id) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.windows.find(id);
  return it == r.windows.end() ? nullptr : it->second;
}

}  // namespace zmpi::mpi::rma
