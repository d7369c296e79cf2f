// A long solve stopped by the user: the first SIGINT (Ctrl-C) or SIGTERM asks it to save its work
// at its next safe point (the tier or chunk it is on finished) and stop; a second one kills the
// process as usual. The solve asks the returned function between such points and, when it says
// yes, saves and throws tablebase::SolveInterrupted saying how to go on.
#pragma once

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <functional>

namespace app {

namespace stop_detail {
inline std::atomic<bool> signalled{false};
inline const char* notice = nullptr;  // written on the first signal
extern "C" inline void on_signal(int signal) {
  signalled.store(true);
  std::signal(signal, SIG_DFL);
  if (notice) {
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, notice, std::strlen(notice));
  }
}
}  // namespace stop_detail

// Installs the handlers; `notice` (a line, kept alive by the caller, or null) is written to stderr
// when the first signal comes, so a user who waits knows the stop is under way.
inline std::function<bool()> stop_on_signals(const char* notice = nullptr) {
  stop_detail::notice = notice;
  std::signal(SIGINT, stop_detail::on_signal);
  std::signal(SIGTERM, stop_detail::on_signal);
  return [] { return stop_detail::signalled.load(); };
}

}  // namespace app
