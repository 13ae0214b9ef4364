// The per-job secret: fresh for every job, handed to local ranks in ZMPI_JOB_SECRET (never
// inherited from zmpirun's own environment), to remote ranks only sealed inside the Launch,
// which opens with the agents' secret alone.
#include "runtime/common/job_secret.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "runtime/zmpirun/rank_environment.h"

using namespace zmpi::runtime;

TEST_CASE("every job secret is new: 32 random bytes in hex") {
  const std::string a = newJobSecret();
  CHECK(a.size() == 64);
  CHECK(a != newJobSecret());
}

TEST_CASE("a sealed job secret opens only with the agents' secret, and not if altered") {
  const Secret agents("the agents' secret, long enough");
  const Secret other("another cluster's secret, as long");
  const std::string job = newJobSecret();
  const std::string sealed = sealJobSecret(agents, job);
  CHECK(sealed.find(job) == std::string::npos);
  CHECK(openJobSecret(agents, sealed) == job);
  CHECK(sealJobSecret(agents, job) != sealed);  // a fresh nonce every time
  CHECK_THROWS_AS(openJobSecret(other, sealed), SecretError);
  std::string altered = sealed;
  altered[altered.size() - 1] ^= 1;
  CHECK_THROWS_AS(openJobSecret(agents, altered), SecretError);
  CHECK_THROWS_AS(openJobSecret(agents, "short"), SecretError);
}

TEST_CASE("local ranks get the job's secret; remote ones never in their environment") {
  const std::map<std::string, std::string> environment = {
      {"PATH", "/bin"}, {"ZMPI_JOB_SECRET", "an outer job's secret"}, {"ZMPI_JOB_SECRET_FILE", "/tmp/outer"}};
  const JobEnvironment job{"job", "tcp://10.0.0.1:5000", 2, 2, "", "this job's secret, 64 hex digits in practice"};
  const RankEnvironment rank{0, "h", "127.0.0.1", 0, 1};
  auto count = [](const std::vector<std::string>& entries, const std::string& prefix) {
    return std::count_if(entries.begin(), entries.end(), [&](const std::string& e) { return e.starts_with(prefix); });
  };
  const auto local = rankEnvironment(environment, {{"ZMPI_JOB_SECRET", "from -x"}}, job, rank);
  CHECK(std::find(local.begin(), local.end(), "ZMPI_JOB_SECRET=" + job.jobSecret) != local.end());
  CHECK(count(local, "ZMPI_JOB_SECRET") == 1);
  const auto remote = remoteRankEnvironment(environment, {}, job, rank);
  CHECK(count(remote, "ZMPI_JOB_SECRET") == 0);
}

TEST_CASE("every rank, local or remote, gets the job's one ZMPI_ENCRYPT, whatever -x or the environment say") {
  const std::map<std::string, std::string> environment = {{"PATH", "/bin"}, {"ZMPI_ENCRYPT", "yes"}};
  const RankEnvironment rank{0, "h", "127.0.0.1", 0, 1};
  for (const bool encrypt : {false, true}) {
    const JobEnvironment job{"job", "tcp://10.0.0.1:5000", 2, 2, "", "this job's secret, 64 hex digits", encrypt};
    const std::string expected = encrypt ? "ZMPI_ENCRYPT=1" : "ZMPI_ENCRYPT=0";
    for (const auto& entries : {rankEnvironment(environment, {{"ZMPI_ENCRYPT", "on"}}, job, rank),
                                remoteRankEnvironment(environment, {{"ZMPI_ENCRYPT", "on"}}, job, rank)}) {
      CHECK(std::count_if(entries.begin(), entries.end(),
                          [](const std::string& e) { return e.starts_with("ZMPI_ENCRYPT="); }) == 1);
      CHECK(std::find(entries.begin(), entries.end(), expected) != entries.end());
    }
  }
}
