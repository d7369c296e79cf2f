// Whether a request's client is still connected, so that a server stops the heavy work of a
// request no one will read (a search, a solve per coalition: solver/stop_asked.h).
//
// cpp-httplib 0.11 gives a handler no socket, but a worker thread keeps the request's socket open
// until its handler returns: it is found among the process's open descriptors as the TCP socket
// whose local and peer addresses are the request's (when first asked: the requests that never
// ask, those the tables answer, pay nothing), and then polled. The client is gone when it has
// closed its end or reset the connection; a client that only shuts its sending side while it
// waits for the answer reads as gone too, which no browser nor HTTP library does.
#pragma once

#include <httplib.h>

#include <functional>

namespace app {

class ClientConnection {
 public:
  // The request's connection (it must outlive this object, as the handler's request does).
  explicit ClientConnection(const httplib::Request& req) : request_(req) {}

  // Whether the client has gone; never when the request's socket is not found. For the handler's
  // thread (the work it runs asks from that thread), not thread-safe.
  bool gone() const;
  // gone(), for long work to ask now and then; valid while this object lives.
  std::function<bool()> stop_check() const {
    return [this] { return gone(); };
  }

 private:
  const httplib::Request& request_;
  mutable int socket_ = -1;
  mutable bool looked_up_ = false;
};

}  // namespace app
