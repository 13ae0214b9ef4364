#include "runtime/common/output_forwarder.h"

#include "runtime/common/unique_fd.h"

namespace zmpi::runtime {

OutputForwarder::OutputForwarder(int stdoutFd, int stderrFd, bool tagOutput)
    : stdout_{stdoutFd, true, std::nullopt}, stderr_{stderrFd, true, std::nullopt}, tagOutput_(tagOutput) {}

void OutputForwarder::append(std::string& out, Target& target, const Source& source, std::string_view text,
                             bool lineComplete) {
  if (target.openLine && *target.openLine != source) {
    out += '\n';  // another rank's unfinished line: end it rather than continue it
    target.openLine.reset();
  }
  if (!target.openLine && tagOutput_) {
    out += "[1," + std::to_string(source.first) + "]" + (source.second == Stream::Stdout ? "<stdout>:" : "<stderr>:");
  }
  out += text;
  if (lineComplete) {
    out += '\n';
    target.openLine.reset();
  } else {
    target.openLine = source;
  }
}

void OutputForwarder::flush(Target& target, const std::string& out) {
  if (out.empty() || !target.alive) return;
  // A reader that went away (`zmpirun ... | head`) loses the rest; the job goes on.
  if (!writeAll(target.fd, out)) target.alive = false;
}

void OutputForwarder::write(int rank, Stream stream, std::string_view bytes) {
  const Source source{rank, stream};
  Target& target = targetOf(stream);
  std::string& held = held_[source];
  std::string out;
  // All complete lines of this chunk go out in one write: one rank's lines stay together
  // and the launcher makes one system call per chunk, not per line.
  for (size_t newline; (newline = bytes.find('\n')) != std::string_view::npos;) {
    if (held.empty()) {
      append(out, target, source, bytes.substr(0, newline), true);
    } else {
      held.append(bytes.substr(0, newline));
      append(out, target, source, held, true);
      held.clear();
    }
    bytes.remove_prefix(newline + 1);
  }
  held.append(bytes);
  if (held.size() >= kMaxHeldBytes) {
    append(out, target, source, held, false);
    held.clear();
  }
  flush(target, out);
}

void OutputForwarder::close(int rank, Stream stream) {
  const Source source{rank, stream};
  auto it = held_.find(source);
  if (it == held_.end()) return;
  Target& target = targetOf(stream);
  std::string out;
  if (!it->second.empty()) append(out, target, source, it->second, false);
  held_.erase(it);
  flush(target, out);
}

}  // namespace zmpi::runtime
