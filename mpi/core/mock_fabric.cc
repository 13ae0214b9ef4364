#include "mpi/core/mock_fabric.h"

namespace zmpi::mpi {

MockNetwork::MockNetwork(int size) {
  for (int i = 0; i < size; ++i) queues_.push_back(std::make_unique<Queue>());
}

std::vector<SentRecord> MockNetwork::sent() const {
  std::lock_guard lock(recordMutex_);
  return records_;
}

std::vector<SentRecord> MockNetwork::sentBy(int rank) const {
  std::lock_guard lock(recordMutex_);
  std::vector<SentRecord> out;
  for (const auto& record : records_) {
    if (record.from == rank) out.push_back(record);
  }
  return out;
}

void MockNetwork::clearRecords() {
  std::lock_guard lock(recordMutex_);
  records_.clear();
}

void MockNetwork::deliver(int from, int to, const transport::WireHeader& header, zmq::message_t&& payload) {
  {
    std::lock_guard lock(recordMutex_);
    records_.push_back({from, to, static_cast<MessageKind>(header.kind), envelopeOf(header), header.payloadBytes});
  }
  // The sender's buffer may be reused as soon as send returns (zero-copy payloads are
  // released by zmq once sent); copy so the mock behaves like the wire.
  transport::WireMessage message{header, zmq::message_t(payload.data(), payload.size())};
  Queue& queue = *queues_.at(static_cast<size_t>(to));
  std::lock_guard lock(queue.mutex);
  queue.messages.push_back(std::move(message));
  queue.ready.notify_one();
}

std::optional<transport::WireMessage> MockNetwork::take(int rank, std::chrono::milliseconds timeout) {
  Queue& queue = *queues_.at(static_cast<size_t>(rank));
  std::unique_lock lock(queue.mutex);
  auto ready = [&] { return !queue.messages.empty() || queue.woken; };
  if (timeout.count() < 0) {
    queue.ready.wait(lock, ready);
  } else {
    queue.ready.wait_for(lock, timeout, ready);
  }
  queue.woken = false;
  if (queue.messages.empty()) return std::nullopt;
  transport::WireMessage message = std::move(queue.messages.front());
  queue.messages.pop_front();
  return message;
}

void MockNetwork::wake(int rank) {
  Queue& queue = *queues_.at(static_cast<size_t>(rank));
  std::lock_guard lock(queue.mutex);
  queue.woken = true;
  queue.ready.notify_one();
}

}  // namespace zmpi::mpi
