// `drop16 serve --port 0 --quiet ARGS...` in a child process, for the serve tests and the load test
// (bench/load/serve_load.cpp). The port is read from the first line the server prints; the server
// is stopped with SIGTERM when the object goes.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_support {

class ServeProcess {
 public:
  // Throws std::runtime_error when the server cannot start or does not say where it listens.
  ServeProcess(const std::string& binary, std::vector<std::string> args) {
    args.insert(args.begin(), {binary, "serve", "--port", "0", "--quiet"});
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[0]);
      ::close(fds[1]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(fds[1]);
    out_ = ::fdopen(fds[0], "r");  // kept open: the server must never write to a closed pipe
    char line[512] = {};
    if (std::fgets(line, sizeof line, out_)) first_line_ = line;
    const auto host = first_line_.find("127.0.0.1:");
    if (host != std::string::npos) port_ = std::atoi(first_line_.c_str() + host + 10);
    if (port_ <= 0) {
      stop();
      throw std::runtime_error(binary + " serve did not say where it listens: '" + first_line_ +
                               "'");
    }
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;
  ~ServeProcess() { stop(); }

  // Stops the server; its exit status (128 + signal if it died of one).
  int stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int raw = 0;
      ::waitpid(pid_, &raw, 0);
      status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
      pid_ = -1;
      std::fclose(out_);
    }
    return status_;
  }

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& first_line() const { return first_line_; }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
  int port_ = 0;
  int status_ = -1;
  std::string first_line_;
};

}  // namespace test_support
