#pragma once
// Processes a job leaves behind. A rank's background child normally stays in the job's
// process group and dies with it; one that made itself a session of its own (setsid, a
// daemon) escapes killpg. The launcher therefore registers as a "child subreaper": such
// orphans are re-parented to it instead of to init, and once every rank has exited it
// ends and reaps whatever children it still has.
#include <sys/types.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace zmpi::runtime {

// prctl(PR_SET_CHILD_SUBREAPER); call before starting any rank. Best effort.
void becomeSubreaper();

// This process's children (from /proc), zombies included.
std::vector<pid_t> listChildren();

// Kills (SIGKILL) and reaps every child of this process, round after round, since each
// killed process's own orphans become our children next. Returns how many were ended.
// Only for when the job's own ranks are all reaped: any child left is an orphan.
int endAdoptedOrphans();

// The same for a process that runs several jobs at once (zmpid): only the children for
// which `belongs` holds are ended (each round asks again, for the next generation).
int endAdoptedOrphans(const std::function<bool(pid_t)>& belongs);

// Whether process `pid`'s environment (/proc/PID/environ) has the entry "NAME=value".
// Jobs mark their processes with ZMPI_JOB_ID, which their descendants inherit.
bool environmentHas(pid_t pid, const std::string& entry);

// Reaps children that already exited and are not in `keep` (ranks whose exit their
// group must see itself): adopted orphans would otherwise stay zombies.
int reapStrayChildren(const std::set<pid_t>& keep);

}  // namespace zmpi::runtime
