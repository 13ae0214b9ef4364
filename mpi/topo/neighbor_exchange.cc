#include "mpi/topo/neighbor_exchange.h"

#include <algorithm>
#include <string>

#include "mpi/core/error.h"
#include "mpi/core/world.h"

namespace zmpi::mpi {
namespace {

std::size_t bytesOf(const NeighborBlock& block) { return static_cast<std::size_t>(block.count) * block.type->size(); }

class NeighborRequest : public Request {
 public:
  NeighborRequest(Communicator& c, std::unique_ptr<NeighborExchange> exchange)
      : Request(Kind::Collective), exchange_(std::move(exchange)) {
    comm = &c;
    setEmptyStatus(&status);
  }

  bool progress() override {
    if (done.load(std::memory_order_acquire)) return true;
    if (!exchange_->test()) return false;
    exchange_.reset();
    done.store(true, std::memory_order_release);
    return true;
  }

 private:
  std::unique_ptr<NeighborExchange> exchange_;
};

}  // namespace

NeighborExchange::NeighborExchange(Communicator& comm, const NeighborLists& lists, std::vector<NeighborBlock> sends,
                                   std::vector<NeighborBlock> recvs)
    : channel_(comm), sends_(std::move(sends)), recvs_(std::move(recvs)) {
  if (sends_.size() != lists.destinations.size() || recvs_.size() != lists.sources.size()) {
    fail(MPI_ERR_INTERN, "neighbor blocks do not match the topology's degrees");
  }
  for (const auto& block : sends_) block.type->retain();
  for (const auto& block : recvs_) block.type->retain();
  sendStaging_.resize(sends_.size());
  recvStaging_.resize(recvs_.size());

  // Receives first, so no block waits in the unexpected queue when it need not.
  for (std::size_t i = 0; i < recvs_.size(); ++i) {
    const int source = lists.sources[i];
    if (source == MPI_PROC_NULL) continue;
    const NeighborBlock& block = recvs_[i];
    void* target = block.base;
    if (!block.type->contiguous()) {
      recvStaging_[i].resize(bytesOf(block));
      target = recvStaging_[i].data();
    }
    pending_.push_back({channel_.irecv(source, lists.recvSteps[i], target, bytesOf(block)), static_cast<int>(i)});
  }
  for (std::size_t j = 0; j < sends_.size(); ++j) {
    const int dest = lists.destinations[j];
    if (dest == MPI_PROC_NULL) continue;
    const NeighborBlock& block = sends_[j];
    const void* data = block.base;
    if (!block.type->contiguous()) {
      sendStaging_[j].resize(bytesOf(block));
      block.type->pack(block.base, static_cast<std::size_t>(block.count), sendStaging_[j].data());
      data = sendStaging_[j].data();
    }
    pending_.push_back({channel_.isend(dest, lists.sendSteps[j], data, bytesOf(block)), -1});
  }
}

NeighborExchange::~NeighborExchange() {
  for (const auto& block : sends_) block.type->release();
  for (const auto& block : recvs_) block.type->release();
}

void NeighborExchange::finishReceive(int index) {
  if (index < 0) return;
  const auto i = static_cast<std::size_t>(index);
  if (!recvStaging_[i].empty()) {
    recvs_[i].type->unpack(recvStaging_[i].data(), recvStaging_[i].size(), recvs_[i].base);
    recvStaging_[i] = {};
  }
}

bool NeighborExchange::test() {
  auto done = std::remove_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    if (!channel_.test(p.request)) return false;
    finishReceive(p.recvIndex);
    return true;
  });
  pending_.erase(done, pending_.end());
  return pending_.empty();
}

void NeighborExchange::wait() {
  for (const Pending& p : pending_) {
    channel_.wait(p.request);
    finishReceive(p.recvIndex);
  }
  pending_.clear();
}

Request* makeNeighborRequest(Communicator& comm, std::unique_ptr<NeighborExchange> exchange) {
  return new NeighborRequest(comm, std::move(exchange));
}

}  // namespace zmpi::mpi
