// Slurm's compressed node lists: the first host is where task 0 hosts the rendezvous.
#include <catch2/catch.hpp>

#include "mpi/core/slurm_environment.h"

using zmpi::mpi::firstHostOfNodeList;

TEST_CASE("the first host of a Slurm node list", "[slurm]") {
  CHECK(firstHostOfNodeList("node1") == "node1");
  CHECK(firstHostOfNodeList("node1,node2") == "node1");
  CHECK(firstHostOfNodeList("node[01-03]") == "node01");
  CHECK(firstHostOfNodeList("node[7,9-12]") == "node7");
  CHECK(firstHostOfNodeList("gpu3,node[01-03]") == "gpu3");
  CHECK(firstHostOfNodeList("rack1-node[004-008],rack2-node1") == "rack1-node004");
}
