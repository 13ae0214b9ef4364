#pragma once
// The address a process started by a cluster manager (a rank, or a zmpid started by srun)
// binds and publishes, so that processes on other nodes can reach it: 127.0.0.1 when the
// whole job is on this node; otherwise the IPv4 address the node's name resolves to --
// unless that is one of the loopback names a distribution gives the machine itself
// (127.0.0.1, Debian's 127.0.1.1), then the first address of an interface that is up and
// not loopback.
#include <string>

namespace zmpi::transport {

std::string nodeAddress(const std::string& nodeName, bool jobOnThisNodeOnly);

}  // namespace zmpi::transport
