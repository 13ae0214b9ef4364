#include "transport/context.h"

#include "transport/errors.h"
#include "transport/log.h"

namespace zmpi::transport {
namespace {
std::atomic<ContextOwner*> liveOwner{nullptr};
std::atomic<int> openSockets{0};
}  // namespace

ContextOwner::ContextOwner() : context_(1) {
  ContextOwner* expected = nullptr;
  if (!liveOwner.compare_exchange_strong(expected, this)) {
    throw TransportError("a zmq context is already open in this process (one context per process)");
  }
  // zmq's own limit is low (1023 by default); an 8-rank job opens far fewer, but a
  // 500-cycle stress test must never trip it because of a slow close elsewhere.
  context_.set(zmq::ctxopt::max_sockets, 4096);
}

ContextOwner::~ContextOwner() { close(); }

void ContextOwner::close() {
  if (closed_) return;
  closed_ = true;
  if (int open = openSockets.load(); open != 0) {
    log::get("transport")->error("closing the zmq context with {} socket(s) still open", open);
  }
  context_.shutdown();
  context_.close();
  liveOwner.store(nullptr);
}

zmq::context_t& ContextOwner::context() {
  ContextOwner* owner = liveOwner.load();
  if (owner == nullptr) throw TransportError("no zmq context is open (create a ContextOwner first)");
  return owner->context_;
}

bool ContextOwner::isOpen() { return liveOwner.load() != nullptr; }

void noteSocketOpened() { openSockets.fetch_add(1); }
void noteSocketClosed() { openSockets.fetch_sub(1); }
int openSocketCount() { return openSockets.load(); }

}  // namespace zmpi::transport
