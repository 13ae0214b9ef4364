#include "runtime/zmpirun/hostfile.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace zmpi::runtime {
namespace {

bool parsePositive(const std::string& text, int& value) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  value = std::stoi(text);
  return value > 0;
}

// Splits a line into tokens, turning "slots = 4" into "slots=4" as Open MPI's lexer does.
std::vector<std::string> tokenize(const std::string& line) {
  std::vector<std::string> raw;
  std::istringstream words(line);
  for (std::string word; words >> word;) raw.push_back(word);
  std::vector<std::string> tokens;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!tokens.empty() && (raw[i].front() == '=' || tokens.back().back() == '=') && tokens.size() > 1) {
      tokens.back() += raw[i];
    } else {
      tokens.push_back(raw[i]);
    }
  }
  return tokens;
}

bool validHostName(const std::string& name) {
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_' && c != ':' && c != '@') {
      return false;
    }
  }
  return !name.empty();
}

}  // namespace

std::vector<HostEntry> parseHostfile(std::istream& in, const std::string& fileName) {
  std::vector<HostEntry> entries;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = "hostfile '" + fileName + "', line " + std::to_string(number);
    auto fail = [&](const std::string& why) { throw HostfileError(where + ": " + why); };
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const std::vector<std::string> tokens = tokenize(line);
    if (tokens.empty()) continue;
    HostEntry entry;
    entry.name = tokens[0];
    entry.origin = where;
    if (!validHostName(entry.name) || entry.name.find('=') != std::string::npos) {
      fail("'" + entry.name + "' is not a host name");
    }
    // MPICH's and Intel MPI's "host:N", which the Kubeflow MPI Operator writes for them. Only
    // with one colon: a name with more is an address of another kind, left whole.
    if (const size_t colon = entry.name.find(':');
        colon != std::string::npos && colon == entry.name.rfind(':') && colon > 0) {
      int value = 0;
      if (!parsePositive(entry.name.substr(colon + 1), value)) {
        fail("slots in '" + entry.name + "' must be a positive integer (host:N)");
      }
      entry.slots = value;
      entry.name.erase(colon);
    }
    for (size_t i = 1; i < tokens.size(); ++i) {
      const std::string& token = tokens[i];
      const size_t equals = token.find('=');
      if (equals == std::string::npos) {
        fail("expected key=value after the host name, found '" + token + "' (e.g. '" + entry.name + " slots=4')");
      }
      const std::string key = token.substr(0, equals);
      const std::string text = token.substr(equals + 1);
      int value = 0;
      if (key == "slots" || key == "cpu" || key == "count") {
        if (!parsePositive(text, value)) fail("slots must be a positive integer, found '" + token + "'");
        // A name shortened above had its slots as host:N already.
        if (entry.name != tokens[0]) fail("slots given twice: '" + tokens[0] + "' and '" + token + "'");
        entry.slots = value;
      } else if (key == "max_slots" || key == "max-slots") {
        if (!parsePositive(text, value)) fail("max_slots must be a positive integer, found '" + token + "'");
        entry.maxSlots = value;
      } else if (key == "agent_port") {
        if (!parsePositive(text, value) || value > 65535)
          fail("agent_port must be a port number, found '" + token + "'");
        entry.agentPort = value;
      } else {
        fail("unknown key '" + key + "' (known: slots, max_slots, agent_port)");
      }
    }
    if (entry.slots && entry.maxSlots && *entry.maxSlots < *entry.slots) {
      fail("max_slots=" + std::to_string(*entry.maxSlots) + " is less than slots=" + std::to_string(*entry.slots));
    }
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) throw HostfileError("hostfile '" + fileName + "' lists no hosts");
  return entries;
}

std::vector<HostEntry> readHostfile(const std::string& fileName) {
  std::ifstream in(fileName);
  if (!in) throw HostfileError("cannot open hostfile '" + fileName + "'");
  return parseHostfile(in, fileName);
}

std::vector<HostEntry> parseHostList(const std::string& list) {
  std::vector<HostEntry> entries;
  std::istringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    HostEntry entry;
    entry.origin = "--host";
    const size_t colon = item.rfind(':');
    entry.name = item.substr(0, colon);
    int slots = 1;
    if (colon != std::string::npos && !parsePositive(item.substr(colon + 1), slots)) {
      throw HostfileError("--host '" + list + "': slots in '" + item + "' must be a positive integer");
    }
    if (!validHostName(entry.name)) throw HostfileError("--host '" + list + "': '" + item + "' is not a host name");
    entry.slots = slots;
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) throw HostfileError("--host '" + list + "' lists no hosts");
  return entries;
}

}  // namespace zmpi::runtime
