#include "mpi/init/pmi2_client.h"

#if ZMPI_HAVE_PMI2

#include <mpi.h>
#include <slurm/pmi2.h>

#include "mpi/core/error.h"
#include "mpi/init/card_text.h"
#include "mpi/init/deadline.h"
#include "mpi/init/shared_library.h"

namespace zmpi::mpi {
namespace {

struct Pmi2Functions {
  explicit Pmi2Functions(const SharedLibrary& lib)
      : init(lib.function<decltype(&PMI2_Init)>("PMI2_Init")),
        finalize(lib.function<decltype(&PMI2_Finalize)>("PMI2_Finalize")),
        jobId(lib.function<decltype(&PMI2_Job_GetId)>("PMI2_Job_GetId")),
        put(lib.function<decltype(&PMI2_KVS_Put)>("PMI2_KVS_Put")),
        fence(lib.function<decltype(&PMI2_KVS_Fence)>("PMI2_KVS_Fence")),
        get(lib.function<decltype(&PMI2_KVS_Get)>("PMI2_KVS_Get")),
        abort(lib.function<decltype(&PMI2_Abort)>("PMI2_Abort")) {}
  decltype(&PMI2_Init) init;
  decltype(&PMI2_Finalize) finalize;
  decltype(&PMI2_Job_GetId) jobId;
  decltype(&PMI2_KVS_Put) put;
  decltype(&PMI2_KVS_Fence) fence;
  decltype(&PMI2_KVS_Get) get;
  decltype(&PMI2_Abort) abort;
};

class Pmi2Client final : public ProcessManager {
 public:
  explicit Pmi2Client(std::chrono::milliseconds timeout) : library_("libpmi2.so.0", "PMI-2"), pmi_(library_) {
    struct Start {
      int status, spawned, size, rank, appnum;
    };
    // The calls may outlive this object (a server that never answers): they take copies.
    const auto start = runWithDeadline(timeout, [init = pmi_.init] {
      Start s{};
      s.status = init(&s.spawned, &s.size, &s.rank, &s.appnum);
      return s;
    });
    if (!start) fail(MPI_ERR_OTHER, "MPI_Init: the PMI-2 server (PMI_FD) did not answer PMI2_Init in time");
    if (start->status != PMI2_SUCCESS || start->size < 1) {
      fail(MPI_ERR_OTHER, "MPI_Init: PMI2_Init failed (error " + std::to_string(start->status) +
                              "); is PMI_FD a connection to the manager's PMI-2 server?");
    }
    initialized_ = true;
    identity_.rank = start->rank;
    identity_.size = start->size;
    identity_.appNum = start->appnum;
    char id[PMI2_MAX_VALLEN] = {};
    if (pmi_.jobId(id, sizeof id) != PMI2_SUCCESS) fail(MPI_ERR_OTHER, describe("PMI2_Job_GetId failed"));
    identity_.jobId = std::string("pmi2-") + id;
  }

  ~Pmi2Client() override { finalize(); }

  const char* name() const override { return "PMI-2"; }

  std::vector<std::string> allgather(const std::string& key, const std::string& value,
                                     std::chrono::milliseconds timeout) override {
    publish(key, identity_.rank, value);
    fenceWithin(timeout, key);
    std::vector<std::string> values(static_cast<size_t>(identity_.size));
    for (int r = 0; r < identity_.size; ++r) values[static_cast<size_t>(r)] = fetch(key, r);
    return values;
  }

  std::string broadcastFromRankZero(const std::string& key, const std::string& value,
                                    std::chrono::milliseconds timeout) override {
    if (identity_.rank == 0) publish(key, 0, value);
    fenceWithin(timeout, key);
    return identity_.rank == 0 ? value : fetch(key, 0);
  }

  void abort(int code, const std::string& message) noexcept override {
    (void)code;  // PMI-2 carries no exit code: the manager reports the rank's own
    if (initialized_) pmi_.abort(1, message.c_str());
  }

  void finalize() noexcept override {
    if (initialized_) pmi_.finalize();
    initialized_ = false;
  }

 private:
  std::string describe(const std::string& what) const {
    return "MPI_Init: rank " + std::to_string(identity_.rank) + " of PMI-2 job " + identity_.jobId + ": " + what;
  }

  // PMI-2's keys are the whole job's, its values text of at most PMI2_MAX_VALLEN bytes:
  // rank `owner`'s value goes hex-encoded in pieces, under keys that name the owner.
  void publish(const std::string& key, int owner, const std::string& value) {
    const auto pieces = cardPieces(value, PMI2_MAX_VALLEN - 1);
    for (size_t i = 0; i < pieces.size(); ++i) {
      const std::string name = pieceKey(key, owner, i);
      if (pmi_.put(name.c_str(), pieces[i].c_str()) != PMI2_SUCCESS) {
        fail(MPI_ERR_OTHER, describe("PMI2_KVS_Put of key " + name + " failed"));
      }
    }
  }

  void fenceWithin(std::chrono::milliseconds timeout, const std::string& key) {
    const auto status = runWithDeadline(timeout, [fence = pmi_.fence] { return fence(); });
    if (!status) {
      fail(MPI_ERR_OTHER, describe("the fence after publishing key " + key + " did not complete within " +
                                   std::to_string(timeout.count()) + " ms: some rank never reached MPI_Init"));
    }
    if (*status != PMI2_SUCCESS) fail(MPI_ERR_OTHER, describe("PMI2_KVS_Fence after key " + key + " failed"));
  }

  std::string fetch(const std::string& key, int owner) {
    CardAssembly card;
    for (size_t i = 0; !card.complete(); ++i) {
      const std::string name = pieceKey(key, owner, i);
      char text[PMI2_MAX_VALLEN + 1] = {};  // zeroed, and one more than PMI2_KVS_Get may fill
      int length = 0;
      if (pmi_.get(nullptr, owner, name.c_str(), text, PMI2_MAX_VALLEN, &length) != PMI2_SUCCESS || length < 0) {
        fail(MPI_ERR_OTHER, describe("rank " + std::to_string(owner) + "'s key " + name + " is missing"));
      }
      if (!card.add(text)) {
        fail(MPI_ERR_OTHER, describe("rank " + std::to_string(owner) + "'s key " + name + " is malformed"));
      }
    }
    return card.value();
  }

  static std::string pieceKey(const std::string& key, int owner, size_t piece) {
    return key + "-" + std::to_string(owner) + "-" + std::to_string(piece);
  }

  SharedLibrary library_;
  Pmi2Functions pmi_;
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<ProcessManager> connectPmi2(std::chrono::milliseconds timeout) {
  return std::make_unique<Pmi2Client>(timeout);
}

}  // namespace zmpi::mpi

#endif  // ZMPI_HAVE_PMI2
