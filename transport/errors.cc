#include "transport/errors.h"

namespace zmpi::transport {

void rethrowZmq(const zmq::error_t& error, const std::string& action, const std::string& peer) {
  throw TransportError(action + " " + peer + ": " + error.what() + " (errno " + std::to_string(error.num()) + ")");
}

}  // namespace zmpi::transport
