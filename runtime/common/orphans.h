#pragma once
// Processes a job leaves behind. A rank's background child normally stays in the job's
// process group and dies with it; one that made itself a session of its own (setsid, a
// daemon) escapes killpg. The launcher therefore registers as a "child subreaper": such
// orphans are re-parented to it instead of to init, and once every rank has exited it
// ends and reaps whatever children it still has.
#include <sys/types.h>

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

}  // namespace zmpi::runtime
