#include "mpi/init/pmix_client.h"

#if ZMPI_HAVE_PMIX

#include <mpi.h>
#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "mpi/core/error.h"
#include "mpi/init/deadline.h"
#include "mpi/init/shared_library.h"

namespace zmpi::mpi {
namespace {

// The few functions of libpmix zmpi calls; the structures they take come from pmix.h.
struct PmixFunctions {
  explicit PmixFunctions(const SharedLibrary& lib)
      : init(lib.function<decltype(&PMIx_Init)>("PMIx_Init")),
        finalize(lib.function<decltype(&PMIx_Finalize)>("PMIx_Finalize")),
        get(lib.function<decltype(&PMIx_Get)>("PMIx_Get")),
        put(lib.function<decltype(&PMIx_Put)>("PMIx_Put")),
        commit(lib.function<decltype(&PMIx_Commit)>("PMIx_Commit")),
        fence(lib.function<decltype(&PMIx_Fence)>("PMIx_Fence")),
        abort(lib.function<decltype(&PMIx_Abort)>("PMIx_Abort")),
        errorString(lib.function<decltype(&PMIx_Error_string)>("PMIx_Error_string")),
        valueDestruct(lib.function<decltype(&PMIx_Value_destruct)>("PMIx_Value_destruct")) {}
  decltype(&PMIx_Init) init;
  decltype(&PMIx_Finalize) finalize;
  decltype(&PMIx_Get) get;
  decltype(&PMIx_Put) put;
  decltype(&PMIx_Commit) commit;
  decltype(&PMIx_Fence) fence;
  decltype(&PMIx_Abort) abort;
  decltype(&PMIx_Error_string) errorString;
  decltype(&PMIx_Value_destruct) valueDestruct;
};

pmix_info_t flagInfo(const char* key, bool flag) {
  pmix_info_t info;
  std::memset(&info, 0, sizeof info);
  std::strncpy(info.key, key, PMIX_MAX_KEYLEN);
  info.value.type = PMIX_BOOL;
  info.value.data.flag = flag;
  return info;
}

std::optional<long long> integerOf(const pmix_value_t& value) {
  switch (value.type) {
    case PMIX_UINT8:
      return value.data.uint8;
    case PMIX_UINT16:
      return value.data.uint16;
    case PMIX_UINT32:
      return value.data.uint32;
    case PMIX_UINT64:
      return static_cast<long long>(value.data.uint64);
    case PMIX_INT:
      return value.data.integer;
    case PMIX_INT32:
      return value.data.int32;
    case PMIX_SIZE:
      return static_cast<long long>(value.data.size);
    default:
      return std::nullopt;
  }
}

class PmixClient final : public ProcessManager {
 public:
  explicit PmixClient(std::chrono::milliseconds timeout) : library_("libpmix.so.2", "PMIx"), pmix_(library_) {
    std::memset(&self_, 0, sizeof self_);
    const char* space = std::getenv("PMIX_NAMESPACE");
    // The call may outlive this object (a server that never answers): it fills its own.
    auto proc = std::make_shared<pmix_proc_t>(self_);
    const auto status = runWithDeadline(timeout, [init = pmix_.init, proc] { return init(proc.get(), nullptr, 0); });
    if (!status) {
      fail(MPI_ERR_OTHER, "MPI_Init: the PMIx server of namespace " + std::string(space ? space : "?") +
                              " did not answer PMIx_Init within " + std::to_string(timeout.count()) + " ms");
    }
    if (*status != PMIX_SUCCESS) {
      fail(MPI_ERR_OTHER, "MPI_Init: PMIx_Init failed (namespace " + std::string(space ? space : "?") +
                              "): " + pmix_.errorString(*status) + "; is the manager's PMIx server running?");
    }
    initialized_ = true;
    self_ = *proc;
    identity_.rank = static_cast<int>(self_.rank);
    identity_.jobId = self_.nspace;
    pmix_proc_t job = self_;
    job.rank = PMIX_RANK_WILDCARD;
    const auto size = integerKey(job, PMIX_JOB_SIZE);
    if (!size || *size < 1) fail(MPI_ERR_OTHER, describe("has no job size (" PMIX_JOB_SIZE ")"));
    identity_.size = static_cast<int>(*size);
    identity_.localRank = static_cast<int>(integerKey(self_, PMIX_LOCAL_RANK).value_or(-1));
    identity_.localSize = static_cast<int>(integerKey(job, PMIX_LOCAL_SIZE).value_or(0));
    identity_.node = stringKey(self_, PMIX_HOSTNAME).value_or("");
    identity_.universeSize = static_cast<int>(integerKey(job, PMIX_UNIV_SIZE).value_or(0));
    identity_.appNum = static_cast<int>(integerKey(self_, PMIX_APPNUM).value_or(0));
  }

  ~PmixClient() override { finalize(); }

  const char* name() const override { return "PMIx"; }

  std::vector<std::string> allgather(const std::string& key, const std::string& value,
                                     std::chrono::milliseconds timeout) override {
    publish(key, value);
    fenceWithin(timeout, true, key);
    std::vector<std::string> values(static_cast<size_t>(identity_.size));
    for (int r = 0; r < identity_.size; ++r) values[static_cast<size_t>(r)] = fetch(r, key);
    return values;
  }

  std::string broadcastFromRankZero(const std::string& key, const std::string& value,
                                    std::chrono::milliseconds timeout) override {
    if (identity_.rank == 0) publish(key, value);
    fenceWithin(timeout, true, key);
    return identity_.rank == 0 ? value : fetch(0, key);
  }

  void abort(int code, const std::string& message) noexcept override {
    if (initialized_) pmix_.abort(code, message.c_str(), nullptr, 0);
  }

  void finalize() noexcept override {
    if (initialized_) pmix_.finalize(nullptr, 0);
    initialized_ = false;
  }

 private:
  std::string describe(const std::string& what) const {
    return "MPI_Init: rank " + std::to_string(identity_.rank) + " of PMIx namespace " + identity_.jobId + ": " + what;
  }
  std::string failure(const char* call, const std::string& key, pmix_status_t status) const {
    return describe(std::string(call) + " of key " + key + " failed: " + pmix_.errorString(status));
  }

  void publish(const std::string& key, const std::string& value) {
    pmix_value_t entry;
    std::memset(&entry, 0, sizeof entry);
    entry.type = PMIX_BYTE_OBJECT;
    entry.data.bo.bytes = const_cast<char*>(value.data());  // PMIx_Put copies it
    entry.data.bo.size = value.size();
    pmix_status_t status = pmix_.put(PMIX_GLOBAL, key.c_str(), &entry);
    if (status == PMIX_SUCCESS) status = pmix_.commit();
    if (status != PMIX_SUCCESS) fail(MPI_ERR_OTHER, failure("PMIx_Put", key, status));
  }

  void fenceWithin(std::chrono::milliseconds timeout, bool collect, const std::string& key) {
    const auto status = runWithDeadline(timeout, [fence = pmix_.fence, collect] {
      pmix_info_t info = flagInfo(PMIX_COLLECT_DATA, collect);
      return fence(nullptr, 0, &info, 1);
    });
    if (!status) {
      fail(MPI_ERR_OTHER, describe("the fence after publishing key " + key + " did not complete within " +
                                   std::to_string(timeout.count()) + " ms: some rank never reached MPI_Init"));
    }
    if (*status != PMIX_SUCCESS) fail(MPI_ERR_OTHER, failure("PMIx_Fence", key, *status));
  }

  // Rank `rank`'s value of `key`, from the data the fence collected.
  std::string fetch(int rank, const std::string& key) {
    pmix_proc_t peer = self_;
    peer.rank = static_cast<pmix_rank_t>(rank);
    pmix_info_t local = flagInfo(PMIX_OPTIONAL, true);  // collected already: never wait for it
    pmix_value_t* value = nullptr;
    const pmix_status_t status = pmix_.get(&peer, key.c_str(), &local, 1, &value);
    if (status != PMIX_SUCCESS || value == nullptr) {
      fail(MPI_ERR_OTHER,
           describe("rank " + std::to_string(rank) + "'s key " + key + " is missing: " + pmix_.errorString(status)));
    }
    std::string bytes;
    const bool usable = value->type == PMIX_BYTE_OBJECT;
    if (usable) bytes.assign(value->data.bo.bytes, value->data.bo.size);
    release(value);
    if (!usable) fail(MPI_ERR_OTHER, describe("rank " + std::to_string(rank) + "'s key " + key + " is not bytes"));
    return bytes;
  }

  std::optional<long long> integerKey(const pmix_proc_t& proc, const char* key) {
    pmix_value_t* value = nullptr;
    if (pmix_.get(&proc, key, nullptr, 0, &value) != PMIX_SUCCESS || value == nullptr) return std::nullopt;
    const auto number = integerOf(*value);
    release(value);
    return number;
  }

  std::optional<std::string> stringKey(const pmix_proc_t& proc, const char* key) {
    pmix_value_t* value = nullptr;
    if (pmix_.get(&proc, key, nullptr, 0, &value) != PMIX_SUCCESS || value == nullptr) return std::nullopt;
    std::optional<std::string> text;
    if (value->type == PMIX_STRING && value->data.string != nullptr) text = value->data.string;
    release(value);
    return text;
  }

  // PMIx_Get's value is the caller's, allocated by libpmix with malloc.
  void release(pmix_value_t* value) {
    pmix_.valueDestruct(value);
    std::free(value);
  }

  SharedLibrary library_;
  PmixFunctions pmix_;
  pmix_proc_t self_;
  bool initialized_ = false;
};

}  // namespace

std::unique_ptr<ProcessManager> connectPmix(std::chrono::milliseconds timeout) {
  return std::make_unique<PmixClient>(timeout);
}

}  // namespace zmpi::mpi

#endif  // ZMPI_HAVE_PMIX
