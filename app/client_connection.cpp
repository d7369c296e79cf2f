#include "app/client_connection.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace app {

namespace {

struct Address {
  std::string host;
  int port = -1;
};

// An IP socket's address as cpp-httplib words a request's (numeric host, port); none for any
// other descriptor (a Unix socket's "port" is its path) or on failure.
template <typename Get>
Address address_of(int fd, Get get) {
  sockaddr_storage storage{};
  socklen_t length = sizeof storage;
  if (get(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) return {};
  if (storage.ss_family != AF_INET && storage.ss_family != AF_INET6) return {};
  char host[NI_MAXHOST], port[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<sockaddr*>(&storage), length, host, sizeof host, port,
                  sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return {};
  return {host, std::atoi(port)};
}

bool same(const Address& a, const std::string& host, int port) {
  return a.port == port && a.host == host;
}

// The descriptor of the TCP socket with these addresses; -1 if there is none.
int find_socket(const httplib::Request& req) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
    int fd = -1;
    try {
      fd = std::stoi(entry.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    if (same(address_of(fd, ::getpeername), req.remote_addr, req.remote_port) &&
        same(address_of(fd, ::getsockname), req.local_addr, req.local_port))
      return fd;
  }
  return -1;
}

}  // namespace

bool ClientConnection::gone() const {
  if (!looked_up_) {
    socket_ = find_socket(request_);
    looked_up_ = true;
  }
  if (socket_ < 0) return false;
  pollfd p{socket_, POLLRDHUP, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

}  // namespace app
