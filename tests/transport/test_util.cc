#include "test_util.h"

#include <dirent.h>

#include <cstring>

namespace zmpi::transport::test {

std::string endpointPattern(Kind kind) {
  static std::atomic<int> counter{0};
  switch (kind) {
    case Kind::Tcp:
      return "tcp://127.0.0.1:*";
    case Kind::Ipc:
      return "ipc://*";  // zmq picks a fresh path and removes it on close
    case Kind::Inproc:
      return "inproc://zmpi-test-" + std::to_string(counter.fetch_add(1));
  }
  return {};
}

const char* kindName(Kind kind) {
  switch (kind) {
    case Kind::Tcp:
      return "tcp";
    case Kind::Ipc:
      return "ipc";
    case Kind::Inproc:
      return "inproc";
  }
  return "?";
}

EchoServer::EchoServer(const ServerOptions& options) : MessageServer(options) {}

bool EchoServer::waitForAsync(size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return async_.size() >= count; });
}

bool EchoServer::waitForSync(size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return sync_ >= count; });
}

std::vector<std::string> EchoServer::asyncPayloads() {
  std::lock_guard lock(mutex_);
  return async_;
}

size_t EchoServer::syncCount() {
  std::lock_guard lock(mutex_);
  return sync_;
}

void EchoServer::handleAsync(WireMessage&& message) {
  std::lock_guard lock(mutex_);
  async_.push_back(message.payload.to_string());
  changed_.notify_all();
}

WireMessage EchoServer::handleSync(WireMessage&& request) {
  {
    std::lock_guard lock(mutex_);
    ++sync_;
    changed_.notify_all();
  }
  if (request.header.kind == kFailKind) throw std::runtime_error("asked to fail");
  return std::move(request);
}

ServerOptions serverOptions(Kind kind, uint64_t job, const std::string& name) {
  ServerOptions options;
  options.asyncEndpoint = endpointPattern(kind);
  options.syncEndpoint = endpointPattern(kind);
  options.jobHash = job;
  options.name = name;
  options.socket = quickSocket();
  return options;
}

SocketOptions quickSocket() {
  SocketOptions socket;
  socket.linger = 100ms;
  socket.sendTimeout = 2000ms;
  return socket;
}

ClientOptions clientFor(const MessageServer& server, SocketOptions socket) {
  return ClientOptions{server.asyncEndpoint(), server.syncEndpoint(), server.jobHash(), socket};
}

WireHeader header(uint16_t kind) {
  WireHeader h;
  h.kind = kind;
  return h;
}

zmq::message_t text(const std::string& s) { return makePayload(s.data(), s.size()); }

std::string rawHeader(const WireHeader& header) {
  return std::string(reinterpret_cast<const char*>(&header), sizeof header);
}

std::vector<BadMessage> badMessages(uint64_t job) {
  const auto make = [job](uint64_t payloadBytes) {
    WireHeader h;
    h.kind = kEchoKind;
    h.jobHash = job;
    h.payloadBytes = payloadBytes;
    return h;
  };
  std::vector<BadMessage> bad;
  bad.push_back({"missing payload frame", {rawHeader(make(16))}});
  bad.push_back({"truncated header", {rawHeader(make(0)).substr(0, 10)}});
  bad.push_back({"empty header frame", {std::string()}});
  bad.push_back({"oversize declared length", {rawHeader(make(kMaxPayloadBytes + 1)), "12345678"}});
  bad.push_back({"length mismatch", {rawHeader(make(100)), "12345678"}});
  WireHeader magic = make(0);
  magic.magic = 0xdeadbeef;
  bad.push_back({"wrong magic", {rawHeader(magic)}});
  WireHeader version = make(0);
  version.version = kWireVersion + 1;
  bad.push_back({"wrong version", {rawHeader(version)}});
  WireHeader otherJob = make(0);
  otherJob.jobHash = job + 1;
  bad.push_back({"wrong job", {rawHeader(otherJob)}});
  bad.push_back({"extra frame", {rawHeader(make(4)), "abcd", "extra"}});
  bad.push_back({"payload declared empty", {rawHeader(make(0)), "surprise"}});
  return bad;
}

void sendRaw(zmq::socket_t& socket, const std::vector<std::string>& frames) {
  for (size_t i = 0; i < frames.size(); ++i) {
    const bool last = i + 1 == frames.size();
    zmqSend(socket, zmq::buffer(frames[i]), last ? zmq::send_flags::none : zmq::send_flags::sndmore);
  }
}

int openFdCount() {
  int count = 0;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count - 1;  // the directory stream's own fd
}

}  // namespace zmpi::transport::test
