// Runs the built drop16 (DROP16_BINARY) as a child process, as a user would from a shell: the
// one launcher of the tests that check the command line.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace test_support {

struct Run {
  int status = -1;  // the exit status, or 128 + the signal that ended it
  std::string out, err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q.append(ch == '\'' ? "'\\''" : std::string(1, ch));
  return q.append("'");
}

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// drop16 with these arguments (each quoted), standard input from `input`. Output goes through
// files in a directory of this process's own (ctest may run several test processes at once),
// removed afterwards.
inline Run run_drop16(const std::vector<std::string>& args,
                      const std::filesystem::path& input = "/dev/null") {
  static int counter = 0;
  std::string name = "drop16_test_run_";
  name.append(std::to_string(getpid())).append("_").append(std::to_string(counter++));
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::create_directories(dir);
  // Built with append: GCC 12 gives a false -Wrestrict on `"literal" + std::string&&`.
  std::string command = shell_quote(DROP16_BINARY);
  for (const std::string& a : args) command.append(" ").append(shell_quote(a));
  command.append(" <").append(shell_quote(input.string()));
  command.append(" >").append(shell_quote((dir / "out").string()));
  command.append(" 2>").append(shell_quote((dir / "err").string()));
  const int raw = std::system(command.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

// drop16 with these arguments, its output thrown away, killed with SIGKILL (as a session's end
// or the OOM killer ends a run: no handler, no cleanup) as soon as `now()` holds, checked every
// millisecond; true if it was killed, false if it ended first or `now()` did not come within
// a minute.
template <typename Now>
bool kill_drop16_when(const std::vector<std::string>& args, Now&& now) {
  std::vector<std::string> argv_strings{DROP16_BINARY};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, DROP16_BINARY, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return false;
  int status = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!now()) {
    if (waitpid(pid, &status, WNOHANG) == pid) return false;  // ended first
    if (std::chrono::steady_clock::now() > give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace test_support
