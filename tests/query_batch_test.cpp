// Many positions at once: the tier prober against the forward solver, and `drop16 query --batch`
// against one `drop16 query --json` run per position (which answers through Tablebase, not the
// prober), line by line, with the bad lines' error objects and the exit status.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/forward_solver.h"
#include "tablebase/tier_prober.h"
#include "tablebase/tier_solver.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace {

using Prober = tablebase::TierProber<drop::TierSpace>;

struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("query_batch_test") {}
};

void solve_into(const drop::TierSpace& space, const fs::path& dir) {
  tablebase::TierSolveOptions o;
  o.memory_bytes = std::uint64_t{1} << 30;
  o.threads = 2;
  o.dir = dir;
  o.zstd_level = 3;
  tablebase::solve_tiers(space, o);
}

// Positions by random play from the start, a fixed seed: every depth, either side to move.
std::vector<drop::Position> played_positions(const drop::Game& game, int count) {
  std::mt19937_64 rng(7);
  std::vector<drop::Position> out;
  for (int i = 0; i < count; ++i)
    out.push_back(test_support::random_position(game, rng, int(rng() % 12)));
  return out;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Run {
  int status = -1;
  std::string out, err;
};

// drop16 with `args` (each quoted), standard input from `input` (a file), in `tmp`.
Run drop16(const TempDir& tmp, const std::string& args, const fs::path& input = "/dev/null") {
  static int counter = 0;
  const fs::path out = tmp / ("out" + std::to_string(counter)),
                 err = tmp / ("err" + std::to_string(counter++));
  const std::string command = std::string(DROP16_BINARY) + " " + args + " <" + input.string() +
                              " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), slurp(out), slurp(err)};
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("the prober answers like the forward solver, with every move, caching or not",
          "[batch]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  solve_into(drop::TierSpace(game), tmp.dir);
  solver::ForwardSolver<drop::Game> search(game, std::uint64_t{1} << 30);
  // Budget 0 keeps no block: every probe goes through TableReader's own small cache.
  for (const std::uint64_t budget : {tablebase::kDefaultProbeCacheBytes, std::uint64_t{0}}) {
    INFO("cache budget " << budget);
    Prober prober(game, tmp.dir, budget);
    for (const drop::Position& p : played_positions(game, 200)) {
      INFO(drop::to_fen(game, p));
      const auto from_search = search.analyze(p);
      const auto answer = prober.probe(p, true);
      CHECK(prober.dte(p) == from_search.dte);
      CHECK(answer.dte == from_search.dte);
      REQUIRE(answer.moves.size() == from_search.moves.size());
      for (std::size_t m = 0; m < answer.moves.size(); ++m) {
        CHECK(answer.moves[m].move == from_search.moves[m].move);
        CHECK(answer.moves[m].outcome.win == from_search.moves[m].outcome.win);
        CHECK(answer.moves[m].outcome.dte == from_search.moves[m].outcome.dte);
      }
      CHECK(prober.probe(p, false).moves.empty());
    }
    CHECK((budget == 0) == (prober.cached_bytes() == 0));
  }
}

TEST_CASE("the prober refuses what the tables do not hold", "[batch]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  // Endgame tables of at most 4 pieces in play: the start (6) is beyond them.
  solve_into(drop::TierSpace(game, true, 4), tmp.dir);
  Prober prober(game, tmp.dir);
  CHECK_FALSE(prober.covers(game.start()));
  CHECK_THROWS_AS(prober.dte(game.start()), tablebase::NotCovered);
  const drop::Position few = drop::parse_fen(game, "k1N/1B1/K2[-] w");
  CHECK(prober.covers(few));
  CHECK(prober.dte(few) == Prober(game, tmp.dir, 0).dte(few));
  // Tables of another variant, and a directory without tables.
  const drop::Game other(drop::parse_variant("3x3:NBRK"));
  CHECK_THROWS_AS(Prober(other, tmp.dir), tablebase::TableError);
  TempDir empty;
  CHECK_THROWS_AS(Prober(game, empty.dir), tablebase::TableError);
}

TEST_CASE("query --batch gives per line what query --json gives, and error objects", "[batch]") {
  TempDir tmp;
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  const std::string tables = (tmp / "tables").string();
  REQUIRE(drop16(tmp, "solve --variant 3x3:NBK --quiet --tables " + tables).status == 0);
  // Good lines (one with blanks around it), bad ones of each kind, a blank line and a comment.
  std::vector<std::string> lines;
  for (const drop::Position& p : played_positions(game, 12)) lines.push_back(drop::to_fen(game, p));
  lines[3] = "  " + lines[3] + " \r";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"not a fen", "FEN"},
      {"4/4/4/4[NBRKnbrk] w", "rank"},  // another board
      {"3/3/3[NBRKnbrk] w", "allows"},  // another variant's hands
  };
  for (const auto& [fen, word] : bad) lines.push_back(fen);
  lines.insert(lines.begin() + 5, "");
  lines.insert(lines.begin() + 8, "# a comment");
  const std::size_t first_bad = lines.size() - bad.size() + 1;  // a line number
  std::ofstream(tmp / "fens") << [&] {
    std::string text;
    for (const std::string& l : lines) text += l + "\n";
    return text;
  }();

  const Run from_file =
      drop16(tmp, "query --tables " + tables + " --batch " + (tmp / "fens").string());
  INFO("stderr: " << from_file.err);
  CHECK(from_file.status == 1);  // some line failed
  CHECK(std::count(from_file.err.begin(), from_file.err.end(), '\n') == 1);
  const auto answers = json_lines(from_file.out);
  REQUIRE(answers.size() == lines.size() - 2);  // the blank line and the comment are skipped
  std::size_t next = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t from = lines[i].find_first_not_of(" \r");
    const std::string fen =
        from == std::string::npos
            ? ""
            : lines[i].substr(from, lines[i].find_last_not_of(" \r") - from + 1);
    if (fen.empty() || fen[0] == '#') continue;
    INFO("line " << i + 1 << ": " << fen);
    nlohmann::json got = answers.at(next++);
    CHECK(got.at("line") == i + 1);
    got.erase("line");
    const Run single = drop16(tmp, "query --json --tables " + tables + " --fen '" + fen + "'");
    if (single.status == 0) {
      nlohmann::json expected = nlohmann::json::parse(single.out);
      for (const char* timing :
           {"seconds", "probes", "cold_microseconds_per_probe", "warm_microseconds_per_probe"})
        expected.erase(timing);
      CHECK(got == expected);
    } else {  // the single query refuses it too: exit 2, and the batch says why in that line
      CHECK(single.status == 2);
      REQUIRE(got.size() == 1);
      CHECK("drop16: " + got.at("error").get<std::string>() + "\n" == single.err);
      REQUIRE(i + 1 >= first_bad);
      CHECK_THAT(got.at("error").get<std::string>(),
                 Catch::Matchers::Contains(bad.at(i + 1 - first_bad).second));
    }
  }
  CHECK(next == answers.size());

  SECTION("standard input gives the same") {
    const Run from_stdin = drop16(tmp, "query --tables " + tables + " --batch -", tmp / "fens");
    CHECK(from_stdin.status == 1);
    CHECK(from_stdin.out == from_file.out);
  }
  SECTION("--value-only gives each line's value and dte") {
    const Run values = drop16(
        tmp, "query --tables " + tables + " --value-only --batch " + (tmp / "fens").string());
    CHECK(values.status == 1);
    const auto short_answers = json_lines(values.out);
    REQUIRE(short_answers.size() == answers.size());
    for (std::size_t k = 0; k < answers.size(); ++k) {
      nlohmann::json expected = {{"line", answers[k].at("line")}};
      if (answers[k].contains("error")) {
        expected["error"] = answers[k].at("error");
      } else {
        expected["value"] = answers[k].at("value");
        expected["dte"] = answers[k].at("dte");
      }
      CHECK(short_answers[k] == expected);
    }
  }
  SECTION("a file of good lines only: exit 0") {
    std::ofstream(tmp / "good") << lines[0] << "\n" << lines[1] << "\n";
    const Run good =
        drop16(tmp, "query --tables " + tables + " --batch " + (tmp / "good").string());
    CHECK(good.status == 0);
    CHECK(good.err.empty());
    CHECK(json_lines(good.out).size() == 2);
  }
  SECTION("a file it cannot open, --value-only without --batch, --fen, another game: exit 2") {
    const Run missing =
        drop16(tmp, "query --tables " + tables + " --batch " + (tmp / "none").string());
    CHECK(missing.status == 2);
    CHECK(missing.out.empty());
    CHECK(drop16(tmp, "query --tables " + tables + " --value-only").status == 2);
    CHECK(drop16(tmp, "query --tables " + tables + " --batch - --fen '3/3/3[NBKnbk] w'").status ==
          2);
    // Spock's batch reads its keyed table, which these Drop 16 tables are not.
    const Run spock = drop16(tmp, "query --variant spock --tables " + tables + " --batch -");
    CHECK(spock.status == 2);
    CHECK_THAT(spock.err, Catch::Matchers::Contains("spock.wdl"));
  }
}

TEST_CASE("query --batch on endgame tables: a position beyond them is an error line", "[batch]") {
  TempDir tmp;
  const std::string tables = (tmp / "tables").string();
  REQUIRE(drop16(tmp, "solve --variant 3x3:NBK --max-pieces 4 --quiet --tables " + tables).status ==
          0);
  const std::vector<std::string> fens = {"3/3/3[NBKnbk] w", "k1N/1B1/K2[-] w"};
  std::ofstream(tmp / "fens") << fens[0] << "\n" << fens[1] << "\n";
  const Run batch = drop16(tmp, "query --tables " + tables + " --batch " + (tmp / "fens").string());
  CHECK(batch.status == 1);
  const auto answers = json_lines(batch.out);
  REQUIRE(answers.size() == 2);
  const Run beyond = drop16(tmp, "query --json --tables " + tables + " --fen '" + fens[0] + "'");
  CHECK(beyond.status == 2);
  CHECK(answers[0] ==
        nlohmann::json{{"line", 1}, {"error", beyond.err.substr(8, beyond.err.size() - 9)}});
  const Run held = drop16(tmp, "query --json --tables " + tables + " --fen '" + fens[1] + "'");
  REQUIRE(held.status == 0);
  CHECK(answers[1].at("dte") == nlohmann::json::parse(held.out).at("dte"));
  CHECK(answers[1].at("moves") == nlohmann::json::parse(held.out).at("moves"));
}

TEST_CASE("query --batch refuses a damaged table file by name: exit 2", "[batch]") {
  TempDir tmp;
  const std::string tables = (tmp / "tables").string();
  REQUIRE(drop16(tmp, "solve --variant 3x3:NBK --quiet --tables " + tables).status == 0);
  const fs::path damaged = tmp / "tables" / "NBKvNBK.dte";  // the start position's tier
  REQUIRE(fs::exists(damaged));
  fs::resize_file(damaged, 100);
  std::ofstream(tmp / "fens") << "3/3/3[NBKnbk] w\n";
  const Run batch = drop16(tmp, "query --tables " + tables + " --batch " + (tmp / "fens").string());
  CHECK(batch.status == 2);
  CHECK(std::count(batch.err.begin(), batch.err.end(), '\n') == 1);
  CHECK_THAT(batch.err, Catch::Matchers::Contains(damaged.string()));
}
