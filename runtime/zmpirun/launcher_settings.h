#pragma once
// zmpirun's own settings (the ranks' are declared beside the code that reads them, the
// launcher-to-rank contract in mpi/init/launch_contract.h). In the launcher library, not in
// zmpirun's main, so that zmpi_info, linked with the library, lists them too.
#include "transport/settings.h"

namespace zmpi::runtime {

extern const transport::IntSetting kAgentTimeoutSetting;
extern const transport::IntSetting kHeartbeatSetting;
extern const transport::IntSetting kHeartbeatTimeoutSetting;
extern const transport::IntSetting kKillGraceSetting;
extern const transport::IntSetting kEventGraceSetting;
extern const transport::IntSetting kOutputDrainSetting;
extern const transport::StringSetting kLauncherAddressSetting;

}  // namespace zmpi::runtime
