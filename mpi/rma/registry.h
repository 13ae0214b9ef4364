#pragma once
// Which window a one-sided message is for. Window ids come from one process-wide counter,
// so they are never reused within a job, and a late message for a freed window is
// dropped rather than applied to a new one. A window is registered before its id is
// sent to any peer (publish before reference).
//
// The engine's active-message handlers for kinds 16..31 are installed on a world when its
// first window is registered and removed with its last, so a world without windows pays
// nothing and a destroyed world's engine never calls into freed windows.
#include <cstdint>
#include <memory>

namespace zmpi::mpi {
class World;
}

namespace zmpi::mpi::rma {

class Window;

uint32_t nextWindowId();
void registerWindow(const std::shared_ptr<Window>& window);
// Drops the registry's reference: the window is destroyed once no handler is using it.
void unregisterWindow(const Window& window);
std::shared_ptr<Window> findWindow(uint32_t id);

}  // namespace zmpi::mpi::rma
