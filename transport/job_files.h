#pragma once
// The files a job's ranks create on a host, named after the job so that whoever outlives
// a crash can remove them: shared-memory objects "/dev/shm/zmpi-<job hash, 16 hex
// digits>-..." (mailboxes, shared windows) and ipc endpoints "/tmp/zmpi-<job hash>-<rank>".
// A rank unlinks its own as soon as it can; one killed before that leaves them behind, so
// the launcher (zmpirun, and zmpid for its host) calls removeJobFiles once the job's
// ranks on that host are gone.
#include <chrono>
#include <cstdint>
#include <string>

namespace zmpi::transport {

// shm_open name prefix of every shared-memory object of the job: "/zmpi-<hash>-".
std::string jobShmPrefix(uint64_t jobHash);
// The ipc endpoint file of a rank.
std::string jobIpcPath(uint64_t jobHash, int rank);
// Removes the job's shared-memory objects and ipc endpoint files on this host; returns
// how many were removed.
int removeJobFiles(uint64_t jobHash);

// Removes files of any job that nobody removed because everyone who could was killed
// (zmpirun and its ranks by SIGKILL): this user's objects named like a job's that no
// process maps and ipc endpoint files that no socket listens on, unchanged for at least
// `minimumAge` (a file being created is not yet mapped or bound). The next zmpirun calls
// it. Returns how many were removed.
int removeStaleJobFiles(std::chrono::seconds minimumAge);
// The age launchers use: far longer than a rank takes from creating a file to using it.
inline constexpr std::chrono::seconds kStaleFileAge{5};

}  // namespace zmpi::transport
