// zmpirun inside a Slurm allocation: the allocation's nodes and slots as Slurm writes them,
// and the lines by which the agents srun started say where they listen.
#include "runtime/zmpirun/slurm_allocation.h"

#include <catch2/catch.hpp>

#include "runtime/zmpirun/slurm_agents.h"

using namespace zmpi::runtime;

TEST_CASE("Slurm node lists expand as Slurm writes them", "[slurm]") {
  using Names = std::vector<std::string>;
  CHECK(expandNodeList("n1") == Names{"n1"});
  CHECK(expandNodeList("n[1-3]") == Names{"n1", "n2", "n3"});
  CHECK(expandNodeList("node[08-11]") == Names{"node08", "node09", "node10", "node11"});
  CHECK(expandNodeList("gpu[1,4-5],login") == Names{"gpu1", "gpu4", "gpu5", "login"});
  CHECK(expandNodeList("rack[1-2]-n[1-2]") == Names{"rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"});
  CHECK_THROWS_AS(expandNodeList("n[1-3"), AllocationError);
  CHECK_THROWS_AS(expandNodeList("n1-3]"), AllocationError);
  CHECK_THROWS_AS(expandNodeList("n[3-1]"), AllocationError);
  CHECK_THROWS_AS(expandNodeList("n[a-b]"), AllocationError);
  CHECK_THROWS_AS(expandNodeList("n1,,n2"), AllocationError);
}

TEST_CASE("Slurm's tasks per node expand", "[slurm]") {
  CHECK(expandTasksPerNode("4") == std::vector<int>{4});
  CHECK(expandTasksPerNode("2(x3),1") == std::vector<int>{2, 2, 2, 1});
  CHECK_THROWS_AS(expandTasksPerNode("2(x3"), AllocationError);
  CHECK_THROWS_AS(expandTasksPerNode("x"), AllocationError);
}

TEST_CASE("an allocation from Slurm's variables, or none", "[slurm]") {
  CHECK_FALSE(slurmAllocation({}).has_value());
  const auto allocation =
      slurmAllocation({{"SLURM_JOB_ID", "42"}, {"SLURM_JOB_NODELIST", "n[1-3]"}, {"SLURM_TASKS_PER_NODE", "2(x2),1"}});
  REQUIRE(allocation);
  CHECK(allocation->jobId == "42");
  REQUIRE(allocation->nodes.size() == 3);
  CHECK(allocation->nodes[0].name == "n1");
  CHECK(allocation->nodes[1].slots == 2);
  CHECK(allocation->nodes[2].slots == 1);
  CHECK_THROWS_AS(slurmAllocation({{"SLURM_JOB_ID", "42"}}), AllocationError);
  CHECK_THROWS_WITH(
      slurmAllocation({{"SLURM_JOB_ID", "42"}, {"SLURM_JOB_NODELIST", "n[1-3]"}, {"SLURM_TASKS_PER_NODE", "2"}}),
      Catch::Contains("do not match"));
}

TEST_CASE("an agent's listening line under srun --label", "[slurm]") {
  int task = -1;
  std::string address;
  int port = 0;
  REQUIRE(parseAgentLine("2: zmpid: listening on tcp://127.0.0.13:40123", task, address, port));
  CHECK(task == 2);
  CHECK(address == "127.0.0.13");
  CHECK(port == 40123);
  REQUIRE(parseAgentLine(" 0: zmpid: listening on tcp://10.1.2.3:7117", task, address, port));
  CHECK(task == 0);
  CHECK_FALSE(parseAgentLine("zmpid: listening on tcp://10.1.2.3:7117", task, address, port));
  CHECK_FALSE(parseAgentLine("1: something else", task, address, port));
  CHECK_FALSE(parseAgentLine("1: zmpid: listening on tcp://10.1.2.3:", task, address, port));
  CHECK_FALSE(parseAgentLine("1: zmpid: listening on tcp://10.1.2.3:99999", task, address, port));
  CHECK_FALSE(parseAgentLine("x: zmpid: listening on tcp://10.1.2.3:1", task, address, port));
}
