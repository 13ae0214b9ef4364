#pragma once
// The TCP congestion control a bulk data connection sends with (ZMPI_BULK_CONGESTION).
//
// Ranks send in bursts (a message, then a wait for the reply or the next step) over links
// with microsecond round trips, where Reno's plain window growth serves best. Measured
// 2026-12-04 on the 2-core VM, 2 ranks, bulk connections only (transport/README.md):
// - between two network namespaces (veth), the system's default bbr against reno: ping-pong
//   1/2/4 MiB 238-517 / 538-946 / 1112-1890 us against 133-138 / 251-256 / 435-440; 2-rank
//   alltoall of 1 and 4 MiB 924-936 / 3731-3918 against 313-331 / 1318-1372; bbr paces each
//   burst at a rate estimated from earlier, mostly application-limited ones. cubic was worse
//   still on the exchange (4 MiB 5.2-6.9 ms).
// - over loopback (forced tcp): 2 / 4 MiB ping-pong 288-314 / 649-654 -> 162 / 297-309 us,
//   alltoall 4 MiB 1580-1783 -> 1001-1021.
// So every bulk connection sends with reno (always allowed to unprivileged processes),
// unless ZMPI_BULK_CONGESTION says otherwise; a lossy long-distance path between hosts may
// want the system's choice back:
//   unset or "auto"  reno
//   "system"         the kernel's default, whatever it is
//   NAME             that algorithm (one of /proc/sys/net/ipv4/tcp_allowed_congestion_control
//                    unless the process has CAP_NET_ADMIN)
#include <string>

namespace zmpi::transport {

struct CongestionChoice {
  std::string name;  // the algorithm to set; empty: leave the kernel's ("system")
};

// ZMPI_BULK_CONGESTION, checked: a name this process cannot set throws TransportError
// naming it and why.
CongestionChoice congestionFromEnvironment();
// Applies `choice` to a TCP socket; a failure leaves the kernel's choice (it was checked).
void applyCongestion(int fd, const CongestionChoice& choice);
// The algorithm `fd` sends with, "" if unknown.
std::string congestionOf(int fd);

}  // namespace zmpi::transport
