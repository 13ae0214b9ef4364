// Which CPUs a rank binds to: Open MPI's defaults and --bind-to policies over synthetic
// topologies (two packages of two cores with two hardware threads each, and a plain
// 2-core VM), and no binding at all when a host is oversubscribed.
#include "mpi/core/cpu_binding.h"

#include <sched.h>

#include <catch2/catch.hpp>
#include <stdexcept>

using zmpi::mpi::allowedCores;
using zmpi::mpi::bindingPolicy;
using zmpi::mpi::CpuCore;
using zmpi::mpi::cpusToBind;
using Cpus = std::vector<int>;

namespace {

// Package 0: cores {0,4} and {1,5}; package 1: cores {2,6} and {3,7} (Linux numbers the
// second hardware thread of each core after all first threads).
const std::vector<CpuCore> kTwoPackages = {{0, {0, 4}}, {0, {1, 5}}, {1, {2, 6}}, {1, {3, 7}}};
const std::vector<CpuCore> kTwoCores = {{0, {0}}, {0, {1}}};

}  // namespace

TEST_CASE("the default policy follows Open MPI's mpirun", "[binding]") {
  CHECK(bindingPolicy("", true, 1) == "core");
  CHECK(bindingPolicy("", true, 2) == "core");
  CHECK(bindingPolicy("", true, 3) == "package");
  CHECK(bindingPolicy("", false, 2) == "none");  // started by hand: leave the process alone
  CHECK(bindingPolicy("hwthread", false, 8) == "hwthread");
}

TEST_CASE("core binding gives rank i core i with all its hardware threads", "[binding]") {
  CHECK(cpusToBind("core", 0, 2, kTwoCores) == Cpus{0});
  CHECK(cpusToBind("core", 1, 2, kTwoCores) == Cpus{1});
  CHECK(cpusToBind("core", 2, 4, kTwoPackages) == Cpus{2, 6});
  CHECK(cpusToBind("core", 3, 4, kTwoPackages) == Cpus{3, 7});
}

TEST_CASE("package binding gives the whole package of the rank's core", "[binding]") {
  CHECK(cpusToBind("package", 1, 4, kTwoPackages) == Cpus{0, 1, 4, 5});
  CHECK(cpusToBind("socket", 2, 4, kTwoPackages) == Cpus{2, 3, 6, 7});
  CHECK(cpusToBind("package", 1, 2, kTwoCores) == Cpus{0, 1});
}

TEST_CASE("hwthread binding counts hardware threads in core order", "[binding]") {
  CHECK(cpusToBind("hwthread", 0, 8, kTwoPackages) == Cpus{0});
  CHECK(cpusToBind("hwthread", 1, 8, kTwoPackages) == Cpus{4});
  CHECK(cpusToBind("hwthread", 7, 8, kTwoPackages) == Cpus{7});
}

TEST_CASE("overload-allowed binds an oversubscribed host too, rank i on core i modulo the cores", "[binding]") {
  CHECK(cpusToBind("core:overload-allowed", 0, 4, kTwoCores) == Cpus{0});
  CHECK(cpusToBind("core:overload-allowed", 1, 4, kTwoCores) == Cpus{1});
  CHECK(cpusToBind("core:overload-allowed", 2, 4, kTwoCores) == Cpus{0});
  CHECK(cpusToBind("core:overload-allowed", 3, 4, kTwoCores) == Cpus{1});
  CHECK(cpusToBind("core:overload-allowed", 5, 6, kTwoPackages) == Cpus{1, 5});
  CHECK(cpusToBind("hwthread:overload-allowed", 9, 10, kTwoPackages) == Cpus{4});
  CHECK(cpusToBind("package:overload-allowed", 6, 8, kTwoPackages) == Cpus{2, 3, 6, 7});
  // Not oversubscribed: the same as without the qualifier.
  CHECK(cpusToBind("core:overload-allowed", 1, 2, kTwoCores) == Cpus{1});
  CHECK(cpusToBind("core:overload-allowed", 0, 4, {}).empty());
  CHECK_THROWS_AS(cpusToBind("none:overload-allowed", 0, 4, kTwoCores), std::invalid_argument);
  CHECK_THROWS_AS(cpusToBind("core:overload", 0, 4, kTwoCores), std::invalid_argument);
  CHECK_THROWS_AS(cpusToBind(":overload-allowed", 0, 4, kTwoCores), std::invalid_argument);
}

TEST_CASE("an oversubscribed host, policy none or a bad local rank bind nothing", "[binding]") {
  CHECK(cpusToBind("core", 0, 4, kTwoCores).empty());
  CHECK(cpusToBind("package", 3, 4, kTwoCores).empty());
  CHECK(cpusToBind("hwthread", 0, 9, kTwoPackages).empty());
  CHECK(cpusToBind("none", 0, 1, kTwoCores).empty());
  CHECK(cpusToBind("core", -1, 2, kTwoCores).empty());
  CHECK_THROWS_AS(cpusToBind("cores", 0, 1, kTwoCores), std::invalid_argument);
}

TEST_CASE("the allowed cores cover exactly this process's affinity mask", "[binding]") {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  REQUIRE(sched_getaffinity(0, sizeof mask, &mask) == 0);
  int seen = 0;
  for (const auto& core : allowedCores()) {
    REQUIRE_FALSE(core.cpus.empty());
    for (int cpu : core.cpus) {
      CHECK(CPU_ISSET(cpu, &mask));
      ++seen;
    }
  }
  CHECK(seen == CPU_COUNT(&mask));
}

namespace {
cpu_set_t currentMask() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  REQUIRE(sched_getaffinity(0, sizeof mask, &mask) == 0);
  return mask;
}
}  // namespace

TEST_CASE("a bound process unbinds back to the mask it started with, once", "[binding]") {
  using zmpi::mpi::bindToCpus;
  using zmpi::mpi::boundToCpus;
  using zmpi::mpi::unbindFromCpus;
  const cpu_set_t start = currentMask();
  const auto cores = allowedCores();
  REQUIRE_FALSE(cores.empty());
  CHECK_FALSE(unbindFromCpus());  // never bound
  REQUIRE(bindToCpus({cores.back().cpus.front()}));
  CHECK(boundToCpus());
  const cpu_set_t bound = currentMask();
  CHECK(CPU_COUNT(&bound) == 1);
  CHECK(unbindFromCpus());
  CHECK_FALSE(boundToCpus());
  const cpu_set_t after = currentMask();
  CHECK(CPU_EQUAL(&after, &start));
  CHECK_FALSE(unbindFromCpus());  // only the first call acts
  CHECK_FALSE(bindToCpus({}));
}
