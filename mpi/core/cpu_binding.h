#pragma once
// Binding a rank to CPUs, as Open MPI's mpirun does by default (--bind-to core for up to
// two ranks per host, package above that, none when the host is oversubscribed). A rank
// that stays on one core keeps its caches and never finds its shared-memory peer
// descheduled on the same core while both spin; without it a 2-rank ping-pong on a
// loaded 2-core machine measured 4 us instead of 0.7 us.
//
// The policy comes from ZMPI_BIND_TO (core, hwthread, package/socket, none; the first
// four with Open MPI's ":overload-allowed" bind an oversubscribed host too, rank i on core
// i modulo the cores); zmpirun sets it from --bind-to. Ranks started by zmpirun without the flag use Open MPI's
// default; ranks started by hand are not bound unless ZMPI_BIND_TO says so. The rank binds itself at MPI_Init, before
// zmpi starts any thread, so its threads inherit the binding. A rank bound by default gives the binding up when another
// process contests its core (contention_watch.h).
#include <string>
#include <vector>

namespace zmpi::mpi {

struct CpuCore {
  int package = 0;
  std::vector<int> cpus;  // hardware threads of this core the process may use
};

// The cores this process may run on (its affinity mask grouped by core, in CPU order).
// Without /sys topology every allowed CPU counts as a core of package 0.
std::vector<CpuCore> allowedCores();

// The CPUs a rank with `localRank` of `localSize` on its host binds to under the
// `requested` policy; empty means "do not bind" (policy none, or more ranks than cores --
// oversubscribed -- without ":overload-allowed"). Throws std::invalid_argument for an
// unknown policy.
std::vector<int> cpusToBind(const std::string& requested, int localRank, int localSize,
                            const std::vector<CpuCore>& cores);

// The policy for a rank: ZMPI_BIND_TO if set, else Open MPI's default for ranks started
// by zmpirun (core up to 2 ranks per host, package above), else none.
std::string bindingPolicy(const std::string& requested, bool launched, int localSize);

// How many CPUs this process could run on before MPI_Init bound it (its affinity mask
// at the first call, which bindFromEnvironment makes before binding).
int cpusAllowedAtStart();

// Whether this process is bound to CPUs (bindFromEnvironment or bindToCpus, and not
// unbound since).
bool boundToCpus();

// Binds every thread of this process to `cpus`; false (and nothing recorded) if the
// kernel refused or `cpus` is empty.
bool bindToCpus(const std::vector<int>& cpus);

// Gives every thread of a bound process back the affinity mask it started with (a rank
// whose core another process contests, contention_watch.h). False if it was not bound
// or the kernel refused; only the first of concurrent calls acts.
bool unbindFromCpus();

// Applies the environment's policy to this process (ZMPI_BIND_TO, ZMPI_LAUNCHED,
// ZMPI_LOCAL_RANK, ZMPI_LOCAL_SIZE); logs the result at debug level.
void bindFromEnvironment();

}  // namespace zmpi::mpi
