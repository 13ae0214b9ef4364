#include "transport/rendezvous.h"

#include <cstring>
#include <map>
#include <zmq_addon.hpp>

#include "transport/context.h"
#include "transport/errors.h"
#include "transport/log.h"
#include "transport/rendezvous_codec.h"
#include "transport/tsan_annotations.h"

namespace zmpi::transport {
namespace {

SocketOptions clientOptions(int participants, std::shared_ptr<const LinkKeys> linkKeys) {
  SocketOptions options;
  options.maxMessageSize = rendezvousClientMaxFrame(participants);
  options.linkKeys = std::move(linkKeys);
  return options;
}

void sendTo(Socket& router, const std::string& identity, const WireHeader& header, const std::string& payload) {
  zmqSend(router.raw(), zmq::buffer(identity), zmq::send_flags::sndmore);
  zmqSend(router.raw(), zmq::buffer(&header, sizeof header),
          header.payloadBytes ? zmq::send_flags::sndmore : zmq::send_flags::none);
  if (header.payloadBytes) zmqSend(router.raw(), zmq::buffer(payload), zmq::send_flags::none);
}

}  // namespace

RendezvousServer::RendezvousServer(const std::string& endpoint, uint64_t jobHash, int participants,
                                   std::chrono::milliseconds startupTimeout, EventHandler onEvent, JoinHandler onJoin,
                                   std::shared_ptr<const LinkKeys> linkKeys)
    : jobHash_(jobHash),
      participants_(participants),
      startupTimeout_(startupTimeout),
      onEvent_(std::move(onEvent)),
      onJoin_(std::move(onJoin)) {
  SocketOptions options;
  options.maxMessageSize = rendezvousServerMaxFrame();  // hellos are small; zmq refuses more before allocating
  options.linkKeys = std::move(linkKeys);
  options.linkServer = true;
  Socket router(zmq::socket_type::router, options);
  monitor_ = std::make_unique<HandshakeMonitor>(router, "rendezvous: ");
  endpoint_ = router.bind(endpoint);
  service_.start([this, r = std::move(router)](Socket control) mutable { serve(std::move(r), std::move(control)); });
}

RendezvousServer::~RendezvousServer() { stop(); }

void RendezvousServer::stop() { service_.stop(); }

void RendezvousServer::serve(Socket router, Socket control) {
  try {
    serveLoop(router, control);
  } catch (const std::exception& error) {
    // Only a broken socket or a context closed under the server gets here; log it
    // rather than terminate the process from a background thread.
    log::get("transport")->error("rendezvous: serving thread ended: {}", error.what());
  }
}

void RendezvousServer::reject(const std::string& why) {
  const uint64_t n = rejected_.fetch_add(1) + 1;
  log::get("transport")->log(log::rejectLevel(n), "rendezvous: rejected a message ({} so far): {}", n, why);
}

void RendezvousServer::serveLoop(Socket& router, Socket& control) {
  auto logger = log::get("transport");
  std::map<int, std::pair<std::string, std::string>> hellos;  // participant -> (identity, blob)
  std::string table;                                          // the encoded table, once every participant said hello
  bool tableSent = false;
  std::string startupError;  // set once the start-up deadline passed first
  const auto deadline = std::chrono::steady_clock::now() + startupTimeout_;
  for (;;) {
    zmq::pollitem_t items[] = {
        {router.raw().handle(), 0, ZMQ_POLLIN, 0}, {control.raw().handle(), 0, ZMQ_POLLIN, 0}, monitor_->pollItem()};
    auto wait = std::chrono::milliseconds(-1);
    const bool settled = tableSent || !startupError.empty();
    if (!settled) {
      wait =
          std::max(std::chrono::milliseconds(0),
                   std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    }
    checked("poll rendezvous on", endpoint_, [&] { return zmqPoll(items, 3, wait); });
    if (items[1].revents & ZMQ_POLLIN) return;
    if (items[2].revents & ZMQ_POLLIN) monitor_->drain();
    if (!(items[0].revents & ZMQ_POLLIN)) {
      if (!settled && std::chrono::steady_clock::now() >= deadline) {
        std::string missing;
        for (int i = 0; i < participants_; ++i) {
          if (!hellos.count(i)) missing += (missing.empty() ? "" : ",") + std::to_string(i);
        }
        startupError = "start-up timed out after " + std::to_string(startupTimeout_.count()) +
                       " ms; never heard from participant(s) " + missing;
        // Nobody joined: the participants do not use the rendezvous at all (a launcher
        // running a plain program such as `hostname`), which is not an error.
        if (hellos.empty()) {
          logger->debug("rendezvous: {}", startupError);
        } else {
          logger->error("rendezvous: {}", startupError);
        }
        for (auto& [index, hello] : hellos) {
          sendTo(router, hello.first, makeRendezvousHeader(kRendezvousError, jobHash_, {}, startupError.size()),
                 startupError);
        }
      }
      continue;
    }
    std::vector<zmq::message_t> frames;
    if (!zmqRecvMultipart(router.raw(), std::back_inserter(frames), zmq::recv_flags::dontwait)) continue;
    if (frames.empty()) continue;
    const std::string identity = frames[0].to_string();
    RendezvousRequest request;
    try {
      request = decodeRendezvousRequest(std::vector<zmq::message_t>(std::make_move_iterator(frames.begin() + 1),
                                                                    std::make_move_iterator(frames.end())),
                                        jobHash_, participants_);
    } catch (const MalformedMessage& error) {
      reject(error.what());
      continue;
    }
    const RendezvousEnvelope& envelope = request.envelope;
    if (request.kind == kRendezvousHello) {
      // Once the outcome is settled, a late or repeated hello gets that same outcome at
      // once instead of silence (which would look like a dead server).
      if (!startupError.empty()) {
        sendTo(router, identity, makeRendezvousHeader(kRendezvousError, jobHash_, {}, startupError.size()),
               startupError);
        continue;
      }
      if (tableSent) {
        sendTo(router, identity, makeRendezvousHeader(kRendezvousTable, jobHash_, {}, table.size()), table);
        continue;
      }
      const bool firstHello = !hellos.count(envelope.participant);
      hellos[envelope.participant] = {identity, std::move(request.blob)};
      if (firstHello && onJoin_) onJoin_(envelope.participant);
      if (static_cast<int>(hellos.size()) == participants_) {
        std::vector<std::string> blobs;
        for (auto& [index, hello] : hellos) blobs.push_back(hello.second);
        table = encodeRendezvousTable(blobs);
        for (auto& [index, hello] : hellos) {
          sendTo(router, hello.first, makeRendezvousHeader(kRendezvousTable, jobHash_, {}, table.size()), table);
        }
        tableSent = true;
        logger->debug("rendezvous: table of {} sent", participants_);
      }
    } else {  // kRendezvousEvent: decodeRendezvousRequest admits no other kind
      if (onEvent_) onEvent_(envelope.participant, static_cast<RendezvousEvent>(envelope.event), envelope.code);
      // Acknowledge, so a participant about to _exit (MPI_Abort) knows its event arrived.
      sendTo(router, identity, makeRendezvousHeader(kRendezvousEventAck, jobHash_, envelope, 0), std::string());
    }
  }
}

RendezvousClient::RendezvousClient(const std::string& serverEndpoint, uint64_t jobHash, int participant,
                                   int participants, std::shared_ptr<const LinkKeys> linkKeys)
    : server_(serverEndpoint),
      jobHash_(jobHash),
      participant_(participant),
      participants_(participants),
      socket_(zmq::socket_type::dealer, clientOptions(participants, std::move(linkKeys))) {
  socket_.connect(server_);
}

std::vector<std::string> RendezvousClient::exchange(const std::string& blob, std::chrono::milliseconds timeout) {
  if (blob.size() > kMaxRendezvousBlobBytes) {
    throw TransportError("rendezvous blob of " + std::to_string(blob.size()) + " bytes exceeds the limit");
  }
  RendezvousEnvelope envelope{participant_, participants_, 0, 0};
  WireHeader header = makeRendezvousHeader(kRendezvousHello, jobHash_, envelope, blob.size());
  checked("send rendezvous hello to", server_, [&] {
    zmqSend(socket_.raw(), zmq::buffer(&header, sizeof header), zmq::send_flags::sndmore);
    zmqSend(socket_.raw(), zmq::buffer(blob), zmq::send_flags::none);
  });
  // zmq_poll may return a little before its timeout, so poll again until the deadline:
  // "within N ms" in the error must mean at least N ms.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    zmq::pollitem_t items[] = {{socket_.raw().handle(), 0, ZMQ_POLLIN, 0}};
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    checked("wait for rendezvous table from", server_,
            [&] { return zmqPoll(items, 1, std::max(left, std::chrono::milliseconds(0))); });
    if (items[0].revents & ZMQ_POLLIN) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      throw TimeoutError("no rendezvous table from " + server_ + " within " + std::to_string(timeout.count()) + " ms");
    }
  }
  std::vector<zmq::message_t> frames;
  (void)zmqRecvMultipart(socket_.raw(), std::back_inserter(frames));
  return decodeRendezvousReply(std::move(frames), jobHash_, participants_, server_);
}

void RendezvousClient::notify(RendezvousEvent event, int code) {
  RendezvousEnvelope envelope{participant_, participants_, static_cast<int32_t>(event), code};
  WireHeader header = makeRendezvousHeader(kRendezvousEvent, jobHash_, envelope, 0);
  checked("send rendezvous event to", server_,
          [&] { zmqSend(socket_.raw(), zmq::buffer(&header, sizeof header), zmq::send_flags::none); });
}

bool RendezvousClient::notifyAndConfirm(RendezvousEvent event, int code, std::chrono::milliseconds timeout) {
  notify(event, code);
  // Bounded wait for the server's acknowledgement of this event (other replies, e.g. acks
  // of earlier events, are skipped).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    zmq::pollitem_t items[] = {{socket_.raw().handle(), 0, ZMQ_POLLIN, 0}};
    if (zmqPoll(items, 1, left) <= 0) return false;
    std::vector<zmq::message_t> frames;
    if (!zmqRecvMultipart(socket_.raw(), std::back_inserter(frames), zmq::recv_flags::dontwait)) continue;
    if (frames.empty() || frames[0].size() != sizeof(WireHeader)) continue;
    WireHeader reply;
    std::memcpy(&reply, frames[0].data(), sizeof reply);
    if (reply.kind == kRendezvousEventAck && rendezvousEnvelopeOf(reply).event == static_cast<int32_t>(event))
      return true;
  }
}

}  // namespace zmpi::transport
