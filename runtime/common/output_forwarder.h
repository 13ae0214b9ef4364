#pragma once
// Forwards ranks' output to the launcher's stdout/stderr line by line: bytes from one rank
// are held until their line is complete, and a line is written in one piece, so two ranks
// never share a line however their writes interleave. With tagging each line starts with
// Open MPI's "[1,R]<stdout>:" prefix.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace zmpi::runtime {

enum class Stream { Stdout = 1, Stderr = 2 };

class OutputForwarder {
 public:
  OutputForwarder(int stdoutFd, int stderrFd, bool tagOutput);
  OutputForwarder(const OutputForwarder&) = delete;
  OutputForwarder& operator=(const OutputForwarder&) = delete;

  // Bytes a rank wrote; complete lines go out at once, a trailing partial line is held.
  void write(int rank, Stream stream, std::string_view bytes);
  // The rank's stream reached end of file: its held partial line (if any) goes out as is.
  void close(int rank, Stream stream);

  // A line longer than this is written in pieces rather than held without bound; the
  // pieces of one line stay together unless another rank writes in between.
  static constexpr size_t kMaxHeldBytes = 1 << 20;

 private:
  using Source = std::pair<int, Stream>;
  struct Target {
    int fd;
    bool alive = true;               // false once its reader went away (EPIPE)
    std::optional<Source> openLine;  // whose unfinished line the target currently ends with
  };

  // Appends `text` from `source` to `out` for `target`: ends another rank's unfinished line
  // first, tags the start of a line, and records whether the line is still open.
  void append(std::string& out, Target& target, const Source& source, std::string_view text, bool lineComplete);
  void flush(Target& target, const std::string& out);
  Target& targetOf(Stream stream) { return stream == Stream::Stdout ? stdout_ : stderr_; }

  Target stdout_;
  Target stderr_;
  bool tagOutput_;
  std::map<Source, std::string> held_;
};

}  // namespace zmpi::runtime
