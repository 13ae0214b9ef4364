#pragma once
// The launcher learns of child exits (SIGCHLD) and of requests to stop (SIGINT, SIGTERM,
// SIGHUP) through signalfds, so no handler ever runs asynchronously and the poll loop
// sees signals in order with everything else. For that the signals must be blocked in
// every thread: blockLauncherSignals() runs first in main(), before zmq or the rendezvous
// server start theirs. A child gets the original mask and dispositions back before exec.
#include <csignal>
#include <initializer_list>

#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {

// Blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP; ignores SIGPIPE (a rank that closed its
// stdin must not kill the launcher) and SIGTTIN/SIGTTOU (a background launcher reading a
// terminal gets EIO, treated as end of input, instead of being stopped).
void blockLauncherSignals();

// Restores, in a forked child, the mask and dispositions the launcher was started with.
// Async-signal-safe: only sigaction and sigprocmask.
void restoreSignalsInChild();

// A non-blocking, close-on-exec signalfd for `signals` (which must be blocked).
UniqueFd openSignalFd(std::initializer_list<int> signals);

// Reads one pending signal from a signalfd; 0 when none is pending.
int readSignal(int signalFd);

}  // namespace zmpi::runtime
