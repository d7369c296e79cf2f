// Long commands report progress on stderr and --quiet hides it: the forward searches of the games
// with cycles, of the games valued per coalition and of Drop 16, and Royal Nardy's bear-off
// database, each run past the first report (solver/progress.h: after 3 s; the bear-off database
// of 9 checkers takes some 7 s of one core).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/drop16_process.h"

namespace {

using test_support::Run;
using test_support::run_drop16;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("forward searches and the bear-off build report progress on stderr, --quiet hides it",
          "[cli][progress]") {
  struct Long {
    std::vector<std::string> args;
    std::string line;  // what the progress lines start with
    std::string unit;
  };
  const std::vector<Long> commands = {
      {{"solve", "--variant", "spock", "--max-depth", "60", "--time-limit", "4"},
       "search: ",
       "nodes/s"},
      {{"solve", "--variant", "rookrace", "--max-depth", "60", "--time-limit", "4"},
       "search: ",
       "nodes/s"},
      {{"solve", "--variant", "nevsky", "--max-depth", "60", "--time-limit", "4"},
       "search: ",
       "nodes/s"},
      {{"bearoff", "--variant", "nardy", "--checkers", "9", "--threads", "1"},
       "bear-off: ",
       "boards/s"},
  };
  for (const Long& c : commands) {
    const Run r = run_drop16(c.args);
    INFO(c.args[0] << " " << c.args[2] << ": stderr " << r.err);
    REQUIRE(r.status == 0);
    CHECK(has(r.err, c.line));
    CHECK(has(r.err, c.unit));
    // A search stopped by its time limit says so in its last line; the bear-off build is done.
    CHECK(has(r.err, c.args[0] == "solve" ? ", stopped" : ", done"));
    if (c.args[0] == "solve") CHECK(has(r.err, "depth "));
    CHECK(!r.out.empty());
  }
  // Drop 16's DTE search (solve without --tables) has no time limit: stopped after 4 s of a
  // variant that takes minutes, it has reported by then.
  const auto err = std::filesystem::temp_directory_path() /
                   ("drop16_progress_" + std::to_string(getpid()) + ".err");
  const std::string command = "timeout 4 " + test_support::shell_quote(DROP16_BINARY) +
                              " solve --variant 3x4:NBRK >/dev/null 2>" +
                              test_support::shell_quote(err.string());
  CHECK(std::system(command.c_str()) != 0);  // stopped by the timeout
  const std::string dte_search = test_support::slurp(err);
  std::filesystem::remove(err);
  INFO("Drop 16's DTE search: stderr " << dte_search);
  CHECK(has(dte_search, "search: "));
  CHECK(has(dte_search, "nodes/s"));

  std::vector<std::string> quiet = commands.front().args;
  quiet.push_back("--quiet");
  const Run r = run_drop16(quiet);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
}
