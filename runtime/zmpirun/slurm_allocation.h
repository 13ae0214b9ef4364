#pragma once
// The Slurm allocation zmpirun runs inside (salloc, sbatch, or srun's environment), as
// Open MPI's mpirun reads it: its nodes (SLURM_JOB_NODELIST, in Slurm's compressed form)
// and the tasks each may run (SLURM_TASKS_PER_NODE, "2(x3),1"), which become the hosts
// and slots of a job started with no -H or --hostfile.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zmpi::runtime {

class AllocationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SlurmNode {
  std::string name;
  int slots = 1;
};

struct SlurmAllocation {
  std::string jobId;
  std::vector<SlurmNode> nodes;  // in the node list's order: srun's task k runs on nodes[k]
};

// "n[1-3],gpu[01-02,7],login" -> n1 n2 n3 gpu01 gpu02 gpu7 login (leading zeros kept; a
// name may hold several bracketed ranges). Throws AllocationError on a malformed list.
std::vector<std::string> expandNodeList(const std::string& list);

// "2(x3),1" -> 2 2 2 1. Throws AllocationError on a malformed value.
std::vector<int> expandTasksPerNode(const std::string& text);

// The allocation named by `environment` (SLURM_JOB_ID set), or nullopt outside one.
// Throws AllocationError when its variables are inconsistent.
std::optional<SlurmAllocation> slurmAllocation(const std::map<std::string, std::string>& environment);

}  // namespace zmpi::runtime
