// Whether a request's client is still connected, so that a server stops the heavy work of a
// request no one will read (a search, a solve per coalition: solver/stop_asked.h).
//
// cpp-httplib 0.11 gives a handler no socket, but a worker thread keeps the request's socket open
// until its handler returns: it is found among the process's open descriptors as the TCP socket
// whose local and peer addresses are the request's (once, when the work starts), and then polled.
// The client is gone when it has closed its end or reset the connection; a client that only
// shuts its sending side while it waits for the answer reads as gone too, which no browser nor
// HTTP library does.
#pragma once

#include <httplib.h>

#include <functional>

namespace app {

class ClientConnection {
 public:
  // The request's connection; never gone when its socket is not found.
  explicit ClientConnection(const httplib::Request& req);

  bool gone() const;
  // gone(), for long work to ask now and then; valid while the request's handler runs.
  std::function<bool()> stop_check() const {
    return [this] { return gone(); };
  }

 private:
  int socket_ = -1;
};

}  // namespace app
