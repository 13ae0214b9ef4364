#pragma once
// Sending and receiving one wire message (header frame + optional payload frame) on any
// zmq socket. Shared by the server, the client and anything else that speaks the wire
// format, so the frame rules live in one place next to decodeFrames().
#include <optional>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "transport/wire.h"

namespace zmpi::transport {

// Receives every frame of one message without blocking (call after a poll said
// POLLIN). Returns nullopt if nothing was waiting; zmq delivers a multipart message
// atomically, so once the first frame is here the rest are too.
std::optional<std::vector<zmq::message_t>> receiveFrames(zmq::socket_t& socket, const std::string& peer);

// Validates frames as decodeFrames() does; zero frames is malformed too.
WireMessage decodeMessage(std::vector<zmq::message_t>&& frames, uint64_t expectedJobHash);

// Sends header then payload (the payload frame only if non-empty). `header.payloadBytes`
// is set from the payload here, so callers cannot send a mismatched header. Returns
// false if the socket would block (send timeout or dontwait), throws TransportError on
// real failures. Nothing is sent when it returns false.
bool sendMessage(zmq::socket_t& socket, const std::string& peer, WireHeader header, zmq::message_t&& payload,
                 zmq::send_flags flags = zmq::send_flags::none);

}  // namespace zmpi::transport
