#pragma once
// A cluster manager's wire-up service as a rank sees it: PMIx (Slurm's srun --mpi=pmix,
// Open MPI's mpirun / PRRTE, Flux) or PMI-2 (srun --mpi=pmi2). It says who this process is
// and runs the one exchange MpiWorld needs: every rank publishes its card (where it
// listens) and reads everyone's. The table built from the cards is the same one zmpirun's
// rendezvous broadcasts; only its source differs.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace zmpi::mpi {

struct ProcessIdentity {
  int rank = 0;
  int size = 1;
  int localRank = -1;    // -1: the manager did not say
  int localSize = 0;     // 0: the manager did not say
  std::string jobId;     // unique per job step (PMIx namespace, PMI-2 job id)
  std::string node;      // the manager's name for this node; empty: not given
  int universeSize = 0;  // MPI_UNIVERSE_SIZE: slots the manager offers; 0: not given
  int appNum = 0;        // MPI_APPNUM: which program of an MPMD launch
};

class ProcessManager {
 public:
  virtual ~ProcessManager() = default;

  // "PMIx" or "PMI-2": named in every error, so a failed start says whose service failed.
  virtual const char* name() const = 0;
  const ProcessIdentity& identity() const { return identity_; }

  // Publishes `value` under `key`, waits until every rank has (a fence), and returns every
  // rank's value in rank order. Throws MpiError naming the rank, the key and the manager
  // when the exchange fails, a value is missing, or it takes longer than `timeout`.
  virtual std::vector<std::string> allgather(const std::string& key, const std::string& value,
                                             std::chrono::milliseconds timeout) = 0;
  // Rank 0's `value` for `key`, on every rank (others pass an empty one); throws as above.
  virtual std::string broadcastFromRankZero(const std::string& key, const std::string& value,
                                            std::chrono::milliseconds timeout) = 0;
  // Asks the manager to end the whole job (MPI_Abort, a fatal error). Never throws.
  virtual void abort(int code, const std::string& message) noexcept = 0;
  // Leaves the manager's service at MPI_Finalize. Never throws.
  virtual void finalize() noexcept = 0;

 protected:
  ProcessIdentity identity_;
};

// The manager whose client variables are in the environment (PMIX_NAMESPACE and PMIX_RANK:
// PMIx; PMI_FD: PMI-2), connected; null when neither is set. Throws MpiError naming the
// manager when its service cannot be reached within `timeout`.
std::unique_ptr<ProcessManager> connectProcessManager(std::chrono::milliseconds timeout);

}  // namespace zmpi::mpi
