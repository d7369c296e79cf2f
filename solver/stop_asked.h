// Long work its caller may stop early (a server's work for a client that has gone): the work asks
// a `std::function<bool()>` now and then, where stopping leaves nothing half done but itself, and
// throws StopAsked when it says yes. An empty function never stops it.
#pragma once

#include <functional>
#include <stdexcept>

namespace solver {

class StopAsked : public std::runtime_error {
 public:
  StopAsked() : std::runtime_error("stopped as asked") {}
};

// Throws StopAsked when `stop_requested` is set and says to stop.
inline void check_stop(const std::function<bool()>& stop_requested) {
  if (stop_requested && stop_requested()) throw StopAsked();
}

}  // namespace solver
