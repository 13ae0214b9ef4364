#include "runtime/zmpirun/launcher_settings.h"

namespace zmpi::runtime {

using transport::Level;

// The defaults shown are those of RemoteSettings and JobMonitor's settings
// (remote_launcher.h, job_monitor.h), which stay the values used when a variable is unset.
const transport::IntSetting kAgentTimeoutSetting{
    "ZMPI_AGENT_TIMEOUT_MS", 5000,          {1, 1LL << 40},
    "milliseconds",          Level::Tuning, "how long zmpirun waits for an agent's reply"};
const transport::IntSetting kHeartbeatSetting{"ZMPI_HEARTBEAT_MS", 1000,
                                              {1, 1LL << 40},      "milliseconds",
                                              Level::Tuning,       "how often zmpirun tells its agents it is alive"};
const transport::IntSetting kHeartbeatTimeoutSetting{
    "ZMPI_HEARTBEAT_TIMEOUT_MS",
    3000,
    {1, 1LL << 40},
    "milliseconds",
    Level::Tuning,
    "an agent that hears no heartbeat this long ends its ranks; zmpirun, an agent silent this long ends the job"};
const transport::IntSetting kKillGraceSetting{"ZMPI_KILL_GRACE_MS", 500,
                                              {0, 1LL << 40},       "milliseconds",
                                              Level::User,          "between SIGTERM and SIGKILL when a job is ended"};
const transport::IntSetting kEventGraceSetting{
    "ZMPI_EVENT_GRACE_MS",
    250,
    {0, 1LL << 40},
    "milliseconds",
    Level::Tuning,
    "how long zmpirun waits for the other ranks' exits after the first failure, to name its cause"};
const transport::IntSetting kOutputDrainSetting{
    "ZMPI_OUTPUT_DRAIN_MS", 2000,          {0, 1LL << 40},
    "milliseconds",         Level::Tuning, "how long zmpirun forwards the ranks' output after they exit"};
const transport::StringSetting kLauncherAddressSetting{
    "ZMPI_LAUNCHER_ADDRESS",
    "",
    {},
    Level::User,
    "the address of this machine the remote agents and ranks reach zmpirun at (default: chosen per host)"};

}  // namespace zmpi::runtime
