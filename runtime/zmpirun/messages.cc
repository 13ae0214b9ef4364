#include "runtime/zmpirun/messages.h"

namespace zmpi::runtime::messages {
namespace {
const std::string kRule = "--------------------------------------------------------------------------\n";
std::string str(long value) { return std::to_string(value); }
}  // namespace

std::string banner(const std::string& body) { return kRule + body + (body.ends_with('\n') ? "" : "\n") + kRule; }

std::string abort(int rank, int code) {
  return banner("MPI_ABORT was invoked on rank " + str(rank) + " in communicator MPI_COMM_WORLD\nwith errorcode " +
                str(code) +
                ".\n\nNOTE: invoking MPI_ABORT causes zmpirun to kill all MPI processes.\n"
                "You may or may not see output from other processes, depending on\n"
                "exactly when zmpirun kills them.\n");
}

std::string killedBySignal(int rank, pid_t pid, const std::string& host, int signal) {
  return banner("zmpirun noticed that process rank " + str(rank) + " with PID " + str(pid) + " on node " + host +
                " exited on signal " + describeSignal(signal) + ".\n");
}

std::string nonZeroExit(int rank, pid_t pid, const std::string& host, int code) {
  return banner(
      "zmpirun detected that one or more processes exited with non-zero status, thus causing\n"
      "the job to be terminated. The first process to do so was:\n\n"
      "  Process rank: " +
      str(rank) + "\n  PID:          " + str(pid) + "\n  Node:         " + host + "\n  Exit code:    " + str(code) +
      "\n");
}

std::string exitedImproperly(int rank, pid_t pid, const std::string& host, bool calledInit) {
  const std::string cause = calledInit ? "This process called MPI_Init but exited without calling MPI_Finalize.\n"
                                         "By rule, all processes that call MPI_Init MUST call MPI_Finalize prior to\n"
                                         "exiting, or it is considered an abnormal termination.\n"
                                       : "This process did not call MPI_Init before exiting, but others in the job\n"
                                         "did. This can make a job hang while it waits for all processes to call\n"
                                         "MPI_Init. By rule, if one process calls MPI_Init, all must.\n";
  return banner("zmpirun has exited due to process rank " + str(rank) + " with PID " + str(pid) + " on\nnode " + host +
                " exiting improperly.\n\n" + cause);
}

std::string timeout(int seconds) {
  return banner("The user-provided time limit for job execution has been reached:\n\n  Timeout: " + str(seconds) +
                " seconds\n\nThe job will now be aborted. Please check your code and/or\n"
                "adjust/remove the job execution time limit (as specified by --timeout\n"
                "command line option or MPIEXEC_TIMEOUT environment variable).\n");
}

std::string launcherSignaled(int signal) {
  return banner("zmpirun received signal " + describeSignal(signal) + " and ended the job: every rank\n" +
                "was sent SIGTERM, and SIGKILL if it had not exited shortly after.\n");
}

std::string notEnoughSlots(int requested, int available, const std::string& program) {
  return banner("There are not enough slots available in the system to satisfy the " + str(requested) +
                "\nslots that were requested by the application:\n\n  " + program + "\n\n" +
                "Either request fewer slots for your application, or make more slots\navailable for use (" +
                str(available) +
                " available now).\n\n"
                "A \"slot\" is a place where zmpirun can start a rank. The number of slots is\n"
                "defined by:\n\n"
                "  1. Hostfile, via \"slots=N\" clauses (N defaults to the number of\n"
                "     processor cores of this machine if not provided)\n"
                "  2. The --host command line parameter, via a \":N\" suffix on the\n"
                "     hostname (N defaults to 1 if not provided)\n"
                "  3. If none of a hostfile or the --host command line parameter is\n"
                "     present, zmpirun defaults to the number of processor cores (and\n"
                "     runs more ranks than that anyway, unless --nooversubscribe is given)\n\n"
                "Alternatively, you can use the --oversubscribe option to ignore the\n"
                "number of available slots when deciding the number of processes to\nlaunch.\n");
}

std::string maxSlotsExceeded(const std::string& reason) {
  return banner("The job cannot be placed: " + reason + ".\n--oversubscribe cannot go beyond a host's max_slots.\n");
}

std::string executableNotFound(const std::string& program, const std::string& host) {
  return banner(
      "zmpirun was unable to find the specified executable file, and therefore\n"
      "did not launch the job. This error was first reported for process\n"
      "rank 0; it may have occurred for other processes as well.\n\n"
      "NOTE: A common cause for this error is misspelling a zmpirun command\n"
      "      line parameter option (remember that zmpirun interprets the first\n"
      "      unrecognized command line token as the executable).\n\n"
      "Node:       " +
      host + "\nExecutable: " + program + "\n");
}

std::string launchFailed(int rank, const std::string& host, const std::string& program, const std::string& error) {
  return banner(
      "zmpirun was unable to launch the specified application as it encountered an\nerror:\n\n"
      "Error: " +
      error + "\nNode: " + host + "\nRank: " + str(rank) + "\nExecutable: " + program +
      "\n\nwhen attempting to start process rank " + str(rank) + ".\n");
}

std::string hostLost(const std::string& host, const std::vector<int>& ranks, const std::string& why) {
  std::string list;
  for (int rank : ranks) list += (list.empty() ? "" : ", ") + str(rank);
  const bool many = ranks.size() > 1;
  return banner(why + "\n\nThe job is ended. Process rank" + (many ? "s " : " ") + list + " on node " + host +
                (many ? " are" : " is") +
                " presumed dead:\nthe agent ends the job's ranks itself when it stops hearing from zmpirun.\n");
}

std::string startupTimeout(long long milliseconds, const std::vector<int>& missing,
                           const std::vector<std::string>& hosts) {
  std::string list;
  for (int rank : missing) {
    list += (list.empty() ? "" : ", ") + str(rank) + " on node " + hosts.at(static_cast<size_t>(rank));
  }
  const bool many = missing.size() > 1;
  return banner("MPI_Init did not complete within the start-up timeout of " + std::to_string(milliseconds) +
                " ms\n(ZMPI_STARTUP_TIMEOUT_MS): process rank" + (many ? "s " : " ") + list + (many ? " are" : " is") +
                " running but never called MPI_Init,\nso the ranks that did cannot form the job. The job is ended.\n");
}

std::string needsSecret(const std::string& host, const std::string& origin) {
  return banner("Host '" + host + "' (from " + origin +
                ") is not this machine, so its ranks are started\n"
                "by the zmpid agent there, which runs only requests signed with the secret it\n"
                "shares with zmpirun.\n\n"
                "Set ZMPI_SECRET_FILE to a file holding that secret (readable only by you,\n"
                "chmod 600), or ZMPI_SECRET to the secret itself.\n");
}

}  // namespace zmpi::runtime::messages
