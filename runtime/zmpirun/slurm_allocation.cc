#include "runtime/zmpirun/slurm_allocation.h"

#include <charconv>

namespace zmpi::runtime {
namespace {

int wholeNumber(const std::string& text, const std::string& what) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0) {
    throw AllocationError(what + ": '" + text + "' is not a whole number");
  }
  return value;
}

// Splits at commas outside brackets.
std::vector<std::string> topLevelItems(const std::string& list) {
  std::vector<std::string> items;
  std::string item;
  int depth = 0;
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) throw AllocationError("node list '" + list + "': unbalanced ']'");
    if (c == ',' && depth == 0) {
      items.push_back(item);
      item.clear();
    } else {
      item.push_back(c);
    }
  }
  if (depth != 0) throw AllocationError("node list '" + list + "': unbalanced '['");
  items.push_back(item);
  return items;
}

// The names one item stands for: "n[01-02]x[1,3]" -> n01x1 n01x3 n02x1 n02x3.
void expandItem(const std::string& item, std::vector<std::string>& names, const std::string& list) {
  const size_t open = item.find('[');
  if (open == std::string::npos) {
    if (item.empty()) throw AllocationError("node list '" + list + "': an empty name");
    names.push_back(item);
    return;
  }
  const size_t close = item.find(']', open);
  const std::string prefix = item.substr(0, open);
  const std::string rest = item.substr(close + 1);
  std::string ranges = item.substr(open + 1, close - open - 1);
  size_t start = 0;
  while (start <= ranges.size()) {
    size_t comma = ranges.find(',', start);
    if (comma == std::string::npos) comma = ranges.size();
    const std::string range = ranges.substr(start, comma - start);
    const size_t dash = range.find('-');
    const std::string first = range.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : range.substr(dash + 1);
    const int from = wholeNumber(first, "node list '" + list + "'");
    const int to = wholeNumber(last, "node list '" + list + "'");
    if (to < from) throw AllocationError("node list '" + list + "': range " + range + " runs backwards");
    for (int n = from; n <= to; ++n) {
      std::string digits = std::to_string(n);
      if (digits.size() < first.size()) digits.insert(0, first.size() - digits.size(), '0');
      expandItem(prefix + digits + rest, names, list);
    }
    start = comma + 1;
  }
}

std::string valueOf(const std::map<std::string, std::string>& environment, const char* name) {
  const auto found = environment.find(name);
  return found == environment.end() ? std::string() : found->second;
}

}  // namespace

std::vector<std::string> expandNodeList(const std::string& list) {
  std::vector<std::string> names;
  for (const std::string& item : topLevelItems(list)) expandItem(item, names, list);
  return names;
}

std::vector<int> expandTasksPerNode(const std::string& text) {
  std::vector<int> counts;
  for (const std::string& item : topLevelItems(text)) {
    const size_t paren = item.find("(x");
    const int count = wholeNumber(item.substr(0, paren), "SLURM_TASKS_PER_NODE");
    int repeat = 1;
    if (paren != std::string::npos) {
      if (!item.ends_with(")")) throw AllocationError("SLURM_TASKS_PER_NODE: '" + item + "' lacks its ')'");
      repeat = wholeNumber(item.substr(paren + 2, item.size() - paren - 3), "SLURM_TASKS_PER_NODE");
    }
    counts.insert(counts.end(), static_cast<size_t>(repeat), count);
  }
  return counts;
}

std::optional<SlurmAllocation> slurmAllocation(const std::map<std::string, std::string>& environment) {
  SlurmAllocation allocation;
  allocation.jobId = valueOf(environment, "SLURM_JOB_ID");
  if (allocation.jobId.empty()) return std::nullopt;
  std::string list = valueOf(environment, "SLURM_JOB_NODELIST");
  if (list.empty()) list = valueOf(environment, "SLURM_NODELIST");
  if (list.empty()) throw AllocationError("SLURM_JOB_ID is set but SLURM_JOB_NODELIST is not");
  const std::vector<std::string> names = expandNodeList(list);
  std::string tasks = valueOf(environment, "SLURM_TASKS_PER_NODE");
  if (tasks.empty()) tasks = valueOf(environment, "SLURM_JOB_CPUS_PER_NODE");
  const std::vector<int> slots = tasks.empty() ? std::vector<int>(names.size(), 1) : expandTasksPerNode(tasks);
  if (slots.size() != names.size()) {
    throw AllocationError("the allocation's " + std::to_string(names.size()) + " nodes (" + list + ") and its " +
                          std::to_string(slots.size()) + " task counts (" + tasks + ") do not match");
  }
  for (size_t i = 0; i < names.size(); ++i) allocation.nodes.push_back(SlurmNode{names[i], slots[i]});
  return allocation;
}

}  // namespace zmpi::runtime
