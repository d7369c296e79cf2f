// The drop16 command as users and the contract checks see it: run the built binary, then check
// its exit status, that stdout is the promised JSON, and that bad input gives exactly one line on
// stderr that names the fault, with exit status 2.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/registry.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "solver/perft.h"
#include "solver/proof_checkpoint.h"
#include "solver/wdl.h"
#include "tests/analysis_moves.h"
#include "tests/drop16_process.h"
#include "tests/fixed_point.h"
#include "tests/test_support.h"

namespace {

using test_support::Run;
using test_support::slurp;

Run drop16(const std::vector<std::string>& args) {
  return test_support::run_drop16(args);
}

int count_lines(const std::string& s) {
  return int(std::count(s.begin(), s.end(), '\n'));
}

struct BadInput {
  std::vector<std::string> args;
  std::vector<std::string> words;  // each must appear in the one stderr line
};

void check_bad_input(const BadInput& c) {
  std::string shown;
  for (const auto& a : c.args) shown += a + " ";
  INFO("drop16 " << shown);
  const Run r = drop16(c.args);
  INFO("stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK((!r.err.empty() && r.err.back() == '\n'));
  CHECK(r.out.empty());
  for (const auto& w : c.words) CHECK_THAT(r.err, Catch::Matchers::Contains(w));
}

}  // namespace

TEST_CASE("drop16 perft --json prints the published count", "[cli]") {
  for (const char* threads : {"1", "2"}) {
    const Run r = drop16({"perft", "--depth", "3", "--json", "--quiet", "--threads", threads});
    INFO("stderr: " << r.err);
    REQUIRE(r.status == 0);
    CHECK(count_lines(r.out) == 1);
    const auto j = nlohmann::json::parse(r.out);  // throws, failing the test, if not JSON
    CHECK(j.at("nodes").get<std::uint64_t>() == 388580);
    CHECK(j.at("depth").get<int>() == 3);
    CHECK(j.at("variant").get<std::string>() == "drop16");
    CHECK(j.at("fen").get<std::string>() == "4/4/4/4[NNBBRRQKnnbbrrqk] w");
    CHECK(j.at("seconds").is_number());
    CHECK_FALSE(j.contains("divide"));
  }
  // A position from ../shared/vectors/positions-perft.txt: perft(3) = 1378, with and without a
  // hash table.
  for (const char* hash : {"0", "1"}) {
    const Run r = drop16({"perft", "--depth", "3", "--json", "--quiet", "--hash", hash, "--fen",
                          "1RBq/Qr1N/b1r1/1n2[B] b"});
    REQUIRE(r.status == 0);
    CHECK(nlohmann::json::parse(r.out).at("nodes").get<std::uint64_t>() == 1378);
  }
}

TEST_CASE("drop16 perft --divide lists every root move and sums to nodes", "[cli]") {
  const drop::Game g(drop::drop16_variant());
  const std::string fen = "b2r/KRnr/4/1Qq1[NBBRnk] w";  // from the vectors: perft(3) = 22021
  const drop::Position root = drop::parse_fen(g, fen);
  for (const char* hash : {"0", "2"}) {
    const Run r = drop16(
        {"perft", "--depth", "3", "--divide", "--json", "--quiet", "--hash", hash, "--fen", fen});
    INFO("stderr: " << r.err);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    const auto& divide = j.at("divide");
    std::uint64_t sum = 0;
    std::set<std::string> names;
    for (const auto& [move, count] : divide.items()) {
      sum += count.get<std::uint64_t>();
      names.insert(move);
      // Each entry is the subtree of that move, recomputed here with the library.
      drop::Position p = root;
      g.make(p, drop::parse_move(g, p, move));
      CHECK(count.get<std::uint64_t>() == solver::perft(g, p, 2));
    }
    CHECK(sum == j.at("nodes").get<std::uint64_t>());
    CHECK(sum == 22021);
    drop::MoveList list;
    g.generate(root, list);
    std::set<std::string> expected;
    for (drop::Move m : list) expected.insert(drop::move_name(g.geometry(), m));
    CHECK(names == expected);
  }
}

TEST_CASE("drop16 moves and show describe the position", "[cli]") {
  const drop::Game g(drop::drop16_variant());
  // --moves plays N@a1 (White) then N@b3 (Black's knight, written upper case).
  const Run r = drop16({"moves", "--json", "--moves", "N@a1", "N@b3"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("fen").get<std::string>() == "4/1n2/4/N3[NBBRRQKnbbrrqk] w");
  const drop::Position p = drop::parse_fen(g, j.at("fen").get<std::string>());
  drop::MoveList list;
  g.generate(p, list);
  std::vector<std::string> expected;
  for (drop::Move m : list) expected.push_back(drop::move_name(g.geometry(), m));
  CHECK(j.at("moves").get<std::vector<std::string>>() == expected);
  CHECK_FALSE(j.at("terminal").get<bool>());
  // A terminal position: no hand, no capture.
  const Run t = drop16({"moves", "--json", "--fen", "N3/4/4/3n[] w"});
  REQUIRE(t.status == 0);
  CHECK(nlohmann::json::parse(t.out).at("moves").empty());
  CHECK(nlohmann::json::parse(t.out).at("terminal").get<bool>());
  const Run s = drop16({"show", "--fen", "N3/4/4/3n[] w"});
  REQUIRE(s.status == 0);
  CHECK_THAT(s.out, Catch::Matchers::Contains("N3/4/4/3n[] w"));
}

TEST_CASE("bad FENs through the command: exit 2, one line naming the fault", "[cli][errors]") {
  const BadInput cases[] = {
      {{"perft", "--depth", "1", "--fen", "4/4/4[] w"}, {"FEN", "3 ranks"}},
      {{"perft", "--depth", "1", "--fen", "5/4/4/4[] w"}, {"FEN", "rank 4 has 5 squares"}},
      {{"perft", "--depth", "1", "--fen", "4/4/4/3x[] w"}, {"FEN", "unknown letter", "'x'"}},
      {{"perft", "--depth", "1", "--fen", "NNN1/4/4/4[] w"}, {"FEN", "3 knight", "allows 2"}},
      {{"perft", "--depth", "1", "--fen", "N3/4/4/4[NN] w"}, {"FEN", "3 knight", "allows 2"}},
      {{"perft", "--depth", "1", "--fen", "4/4/4/4[] x"}, {"FEN", "side to move", "'x'"}},
      {{"perft", "--depth", "1", "--fen", "4/4/4/4[]"}, {"FEN", "side to move"}},
      {{"perft", "--depth", "1", "--fen", "4/4/4/4 w"}, {"FEN", "hands"}},
      {{"moves", "--fen", "4/4/4/4[QQ] w"}, {"FEN", "2 queen", "allows 1"}},
      {{"show", "--fen", "4/4/P3/4[] w"}, {"FEN", "unknown letter", "'P'"}},
      {{"perft", "--depth", "1", "--variant", "3x3:NK", "--fen", "4/4/4/4[] w"}, {"4 ranks"}},
      // An empty --fen is not the start position: the user meant some position and gave none.
      {{"perft", "--depth", "1", "--fen", ""}, {"FEN", "empty"}},
      {{"solve", "--variant", "2x2:NK", "--fen", ""}, {"FEN", "empty"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
}

TEST_CASE("bad moves through the command: exit 2, one line naming the fault", "[cli][errors]") {
  const BadInput cases[] = {
      {{"moves", "--moves", "Z@a1"}, {"'Z@a1'", "a drop starts with"}},
      {{"moves", "--moves", "a1"}, {"'a1'", "expected a drop like"}},
      {{"moves", "--moves", "N@e1"}, {"'e1' is not a square"}},
      {{"moves", "--moves", "N@a1", "a1a9"}, {"'a9' is not a square"}},
      {{"moves", "--moves", "a1b2"}, {"'a1b2'", "not a legal capture"}},
      {{"moves", "--moves", "N@a1", "N@a1"}, {"occupied"}},
      {{"moves", "--fen", "4/4/4/N3[n] w", "--moves", "Q@b1"}, {"no queen"}},
      {{"show", "--fen", "1n2/1q2/KR1k/4[] w", "--moves", "b2b4"}, {"not a legal capture"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
}

TEST_CASE("bad variants and flags through the command: exit 2, one line", "[cli][errors]") {
  const BadInput cases[] = {
      {{"perft", "--depth", "1", "--variant", "0x4:NK"}, {"variant", "width '0'"}},
      {{"perft", "--depth", "1", "--variant", "9x9:NK"}, {"variant", "width '9'"}},
      {{"perft", "--depth", "1", "--variant", "4x9:NK"}, {"variant", "height '9'"}},
      {{"perft", "--depth", "1", "--variant", "4x4:NX"}, {"unknown piece letter 'X'"}},
      {{"moves", "--variant", "chess"}, {"'chess'"}},
      {{"perft", "--depth", "2", "--bogus"}, {"--bogus"}},
      {{"perft"}, {"--depth", "required"}},
      {{"perft", "--depth", "abc"}, {"--depth", "abc"}},
      {{"perft", "--depth", "-1"}, {"--depth"}},
      {{"perft", "--depth", "1", "--threads", "0"}, {"--threads"}},
      {{"perft", "--depth", "1", "--hash", "lots"}, {"--hash", "lots"}},
      {{"perft", "--depth", "1", "--fen"}, {"--fen"}},
      {{}, {"subcommand"}},
      // 8x4 keys need 4 x 32 squares + hand + side bits, more than 128.
      {{"perft", "--depth", "1", "--variant", "8x4:NNBBRRQK", "--hash", "1"}, {"--hash", "128"}},
      {{"distinct", "--depth", "1", "--variant", "8x4:NNBBRRQK"}, {"128"}},
      {{"solve", "--variant", "2x2:K", "--tables", "t", "--mpi-split-entries", "9"}, {"--mpi"}},
      {{"solve", "--variant", "2x2:K", "--tables", "t", "--mpi", "--mpi-split-entries", "0"},
       {"--mpi-split-entries", "range"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
  // The same variant is fine without --hash (plain perft needs no keys): 5 types x 32 squares.
  const Run r = drop16({"perft", "--depth", "1", "--variant", "8x4:NNBBRRQK", "--json"});
  REQUIRE(r.status == 0);
  CHECK(nlohmann::json::parse(r.out).at("nodes").get<std::uint64_t>() == 160);
}

// Apart from the rest: building a board of more than 32 squares is undefined behaviour today
// (geometry.cpp make_symmetry), so a sanitizer build of drop16 aborts here.
TEST_CASE("8x8 through the command", "[cli][large-board]") {
  // Keys of 8x8 positions need 271 bits (64 squares x 4 + hands + side), more than 128.
  check_bad_input(
      {{"perft", "--depth", "1", "--variant", "8x8:NNBBRRQK", "--hash", "1"}, {"--hash", "128"}});
  check_bad_input({{"distinct", "--depth", "1", "--variant", "8x8:NNBBRRQK"}, {"128"}});
  // Plain perft needs no keys: 5 types x 64 squares.
  const Run r = drop16({"perft", "--depth", "1", "--variant", "8x8:NNBBRRQK", "--json"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(nlohmann::json::parse(r.out).at("nodes").get<std::uint64_t>() == 320);
}

TEST_CASE("an unknown subcommand is named in the error", "[cli][errors]") {
  // Exit 2 and one line, and the message says which word was not understood.
  check_bad_input({{"frobnicate", "--depth", "1"}, {"frobnicate"}});
}

TEST_CASE("prove refuses a checkpoint whose keys are packed another way", "[cli][errors]") {
  const auto file =
      std::filesystem::temp_directory_path() / ("drop16_cli_ckpt_" + std::to_string(getpid()));
  const drop::Game g(drop::parse_variant("3x3:NK"));
  solver::Checkpoint c{drop::kKeyFormat + 1, "3x3:NK", drop::to_fen(g, g.start()), 10, 1.0, {}};
  c.entries.push_back({1, 2, true, 12});
  solver::save_checkpoint(file, c);
  check_bad_input({{"prove", "--variant", "3x3:NK", "--checkpoint", file.string()},
                   {"--checkpoint", "key", "format"}});
  // The same file in this binary's format is taken (without the made-up entry).
  c.key_format = drop::kKeyFormat;
  c.entries.clear();
  solver::save_checkpoint(file, c);
  const Run r =
      drop16({"prove", "--variant", "3x3:NK", "--checkpoint", file.string(), "--json", "--quiet"});
  INFO("stderr: " << r.err);
  CHECK(r.status == 0);
  std::filesystem::remove(file);
}

TEST_CASE("claims never replaces a report it did not make with the same parameters",
          "[cli][errors]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("drop16_cli_claims_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto record = dir / "claims-2x2-NK.json";
  const auto report = dir / "claims-2x2-NK.md";
  // A published record whose random games were 100 of seed 1: asking for 2000 would recount
  // them and overwrite it.
  nlohmann::json published = {
      {"variant", "2x2:NK"},
      {"format", 1},
      {"sections",
       {{"random_play", {{"params", {{"samples", 100}, {"seed", 1}}}, {"complete", true}}}}}};
  std::ofstream(record) << published.dump();
  std::ofstream(report) << "# the published report\n";
  const std::vector<std::string> run = {"claims", "--variant", "2x2:NK",     "--samples",
                                        "2000",   "--out",     dir.string(), "--quiet"};
  check_bad_input({run, {"random_play", "--out", "--fresh"}});
  CHECK(nlohmann::json::parse(slurp(record)) == published);
  CHECK(slurp(report) == "# the published report\n");
  // A report with no record beside it, and a record that cannot be read, are refused as well.
  std::filesystem::remove(record);
  check_bad_input({run, {"claims-2x2-NK.md", "no record"}});
  std::ofstream(record) << "{ not json";
  check_bad_input({run, {"claims-2x2-NK.json", "cannot be read"}});
  CHECK(slurp(report) == "# the published report\n");
  std::filesystem::remove_all(dir);
}

// --- Spock (games/SPOCK.md) through the same commands ---

TEST_CASE("Spock perft and moves through the command agree with the library", "[cli][spock]") {
  const spock::Setup start = spock::parse_fen(spock::start_fen());
  for (int depth = 1; depth <= 4; ++depth) {
    const Run r = drop16({"perft", "--variant", "spock", "--depth", std::to_string(depth), "--json",
                          "--hash", depth % 2 ? "0" : "16"});
    INFO("depth " << depth << " stderr: " << r.err);
    REQUIRE(r.status == 0);
    spock::Position p = start.position;
    CHECK(nlohmann::json::parse(r.out).at("nodes").get<std::uint64_t>() ==
          solver::perft(start.game, p, depth));
  }
  const Run m = drop16({"moves", "--variant", "spock", "--moves", "c1a2", "--json"});
  INFO("stderr: " << m.err);
  REQUIRE(m.status == 0);
  const auto j = nlohmann::json::parse(m.out);
  spock::Position p = start.position;
  start.game.make(p, spock::parse_move(start.game, p, "c1a2"));
  CHECK(j.at("fen").get<std::string>() == spock::to_fen(start.game, p));
  spock::MoveList list;
  start.game.generate(p, list);
  std::vector<std::string> expected;
  for (int i = 0; i < list.size(); ++i) expected.push_back(spock::move_name(start.game, list[i]));
  CHECK(j.at("moves").get<std::vector<std::string>>() == expected);
}

namespace {

// Checks a Spock solve's JSON answer for `position`: its "value" and "dte", and each move's (best
// first), are those `answer_for` gives ({"value", "dte"}) for the fixed point's value of
// the position, and for the mover's value of each move.
template <typename AnswerFor>
void check_spock_answer(const nlohmann::json& j, const spock::Game& game,
                        const spock::Position& position,
                        const test_support::FixedPoint<spock::Game>& truth, AnswerFor answer_for) {
  const auto value = truth.value(game.canonical_key(position));
  REQUIRE(value);
  const nlohmann::json own = answer_for(*value);
  CHECK(j.at("value") == own.at("value"));
  CHECK(j.at("dte") == own.at("dte"));
  spock::MoveList list;
  game.generate(position, list);
  REQUIRE(j.at("moves").size() == std::size_t(list.size()));
  const auto moves = test_support::moves_by_name(j.at("moves"));
  for (int i = 0; i < list.size(); ++i) {
    spock::Position child = position;
    game.make(child, list[i]);
    const nlohmann::json move =
        answer_for(solver::mover_value(*truth.value(game.canonical_key(child))));
    const auto m = moves.find(spock::move_name(game, list[i]));
    REQUIRE(m != moves.end());
    CHECK(m->second.at("value") == move.at("value"));
    CHECK(m->second.at("dte") == move.at("dte"));
  }
}

}  // namespace

// solve on a ladder row (every placement of the pieces, and all play from them) against the plain
// fixed point of tests/fixed_point.h, which shares no code with the retrograde solver.
TEST_CASE("Spock solve of a ladder row agrees with the fixed point", "[cli][spock]") {
  const std::string row = "spock:3x3:RK/rk";
  const spock::Material material = spock::parse_material(row);
  const spock::Game game(material.width, material.height);
  const test_support::FixedPoint<spock::Game> truth(game, spock::placements(material));
  // Placements by hand, and one position of each value the solve found.
  std::vector<std::string> fens = {"k1r/3/R1K w", "k1r/3/R1K b", "1rk/3/KR1 w", "3/rkR/K2 b"};
  for (const solver::Wdl wanted : {solver::Wdl::win, solver::Wdl::draw, solver::Wdl::loss})
    for (const auto& [key, v] : truth.values())
      if (v.wdl == wanted) {
        fens.push_back(spock::to_fen(game, game.from_key(key)));
        break;
      }
  REQUIRE(fens.size() == 7);
  for (const std::string& fen : fens) {
    const Run r = drop16({"solve", "--variant", row, "--fen", fen, "--json", "--quiet"});
    INFO(fen << " stderr: " << r.err);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    const spock::Setup s = spock::parse_fen(fen);
    check_spock_answer(j, game, s.position, truth, [](solver::WdlValue v) {
      return nlohmann::json{{"value", solver::wdl_name(v.wdl)},
                            {"dte", v.wdl == solver::Wdl::draw ? nlohmann::json(nullptr)
                                                               : nlohmann::json(v.distance)}};
    });
    const auto& solved = j.at("solved");
    std::uint64_t wins = 0, draws = 0, losses = 0;
    for (const auto& [key, v] : truth.values())
      (v.wdl == solver::Wdl::win ? wins : v.wdl == solver::Wdl::draw ? draws : losses)++;
    CHECK(solved.at("wins") == wins);
    CHECK(solved.at("draws") == draws);
    CHECK(solved.at("losses") == losses);
  }
}

// solve --max-depth runs the bounded forward search: on a ladder row's positions it must give the
// fixed point's value and every move's, with "unknown" exactly where nothing is forced within the
// bound (draws at every bound).
TEST_CASE("Spock solve --max-depth agrees with the fixed point within its bound", "[cli][spock]") {
  const std::string row = "spock:3x3:RK/rk";
  const spock::Material material = spock::parse_material(row);
  const spock::Game game(material.width, material.height);
  const test_support::FixedPoint<spock::Game> truth(game, spock::placements(material));
  int longest = 0;
  std::vector<std::string> fens = {"k1r/3/R1K w", "1rk/3/KR1 w", "3/rkR/K2 b"};
  for (const auto& [key, v] : truth.values()) longest = std::max(longest, v.distance);
  for (const solver::Wdl wanted : {solver::Wdl::win, solver::Wdl::draw, solver::Wdl::loss})
    for (const auto& [key, v] : truth.values())
      if (v.wdl == wanted && v.distance >= (wanted == solver::Wdl::draw ? 0 : 7)) {
        fens.push_back(spock::to_fen(game, game.from_key(key)));
        break;
      }
  REQUIRE(fens.size() == 6);
  // What a search bounded to d plies must say of a position (or a move) whose value is v.
  const auto expected = [](solver::WdlValue v, int d) {
    if (v.wdl == solver::Wdl::draw || v.distance > d)
      return nlohmann::json{{"value", "unknown"}, {"dte", nullptr}};
    return nlohmann::json{{"value", solver::wdl_name(v.wdl)}, {"dte", v.distance}};
  };
  for (const std::string& fen : fens)
    for (const int depth : {longest, 5}) {
      const Run r = drop16({"solve", "--variant", row, "--fen", fen, "--max-depth",
                            std::to_string(depth), "--json"});
      INFO(fen << " --max-depth " << depth << " stderr: " << r.err);
      REQUIRE(r.status == 0);
      const auto j = nlohmann::json::parse(r.out);
      const spock::Setup s = spock::parse_fen(fen);
      check_spock_answer(j, game, s.position, truth,
                         [&](solver::WdlValue v) { return expected(v, depth); });
      CHECK(j.at("search").at("max_depth") == depth);
      CHECK(j.at("search").at("stopped").is_null());
    }
}

TEST_CASE("Spock solve --max-depth stops at its time limit with what it decided", "[cli][spock]") {
  const Run r =
      drop16({"solve", "--variant", "spock", "--max-depth", "60", "--time-limit", "0.5", "--json"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("fen") == spock::start_fen());
  CHECK(j.at("value") == "unknown");
  CHECK(j.at("search").at("stopped") == "time");
  CHECK(j.at("search").at("depth").get<int>() < 60);
  CHECK(j.at("search").at("depth").get<int>() >= 3);
  CHECK(j.at("seconds").get<double>() < 10);
  CHECK(j.at("moves").size() == 21);
}

TEST_CASE("Spock verify re-solves a row's positions with the forward search", "[cli][spock]") {
  const std::string row = "spock:3x3:RK/rk";
  const spock::Material material = spock::parse_material(row);
  const spock::Game game(material.width, material.height);
  const test_support::FixedPoint<spock::Game> truth(game, spock::placements(material));
  int longest = 0;
  for (const auto& [key, v] : truth.values()) longest = std::max(longest, v.distance);
  const Run r =
      drop16({"verify", "--variant", row, "--samples", "500", "--seed", "7", "--json", "--quiet"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("variant") == row);
  CHECK(j.at("samples") == 500);
  CHECK(j.at("mismatches") == 0);
  CHECK(j.at("positions") == truth.size());
  CHECK(j.at("longest_distance") == longest);
  const auto& sampled = j.at("sampled");
  CHECK(sampled.at("wins").get<int>() + sampled.at("draws").get<int>() +
            sampled.at("losses").get<int>() ==
        500);
  CHECK(sampled.at("draws").get<int>() > 0);  // draws were checked too
  CHECK(j.contains("seconds"));
}

TEST_CASE("bad input to Spock's bounded search and verify: exit 2, one line naming the fault",
          "[cli][spock][errors]") {
  const BadInput cases[] = {
      {{"solve", "--variant", "spock", "--max-depth", "0"}, {"--max-depth"}},
      {{"solve", "--variant", "spock", "--max-depth", "x"}, {"--max-depth"}},
      {{"solve", "--variant", "spock", "--max-depth", "20000"}, {"--max-depth"}},
      {{"solve", "--variant", "spock", "--max-depth", "5", "--time-limit", "0"}, {"--time-limit"}},
      {{"solve", "--variant", "spock", "--time-limit", "5"}, {"--time-limit", "--max-depth"}},
      {{"solve", "--max-depth", "5"}, {"--max-depth", "spock"}},
      {{"solve", "--variant", "spock", "--max-depth", "5", "--tables", "t"}, {"--tables"}},
      {{"solve", "--variant", "spock", "--max-depth", "5", "--fen", "psp/3/K2 w"}, {"FEN"}},
      {{"solve", "--variant", "spock:3x3:RK/rk", "--max-depth", "5"}, {"--fen"}},
      {{"verify", "--variant", "spock", "--samples", "3"}, {"ladder row"}},
      {{"verify", "--variant", "spock:3x3:RK/rx"}, {"variant", "'x'"}},
      {{"verify", "--samples", "3"}, {"--tables"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
}

TEST_CASE("bad Spock input through the command: exit 2, one line naming the fault",
          "[cli][spock][errors]") {
  const BadInput cases[] = {
      {{"perft", "--variant", "spock", "--depth", "1", "--fen", "psksp/rrrrr/5/RRRRR/PSKSP"},
       {"FEN", "side to move"}},
      {{"perft", "--variant", "spock", "--depth", "1", "--fen", "psksp/rrrrr/5/RRRRR/PSKSQ w"},
       {"FEN", "'Q'"}},
      {{"perft", "--variant", "spock", "--depth", "1", "--fen", "psksp/rrrrr/5/RRRRRR/PSKSP w"},
       {"FEN", "rank 2"}},
      {{"moves", "--variant", "spock", "--fen", "psp/3/K2 w"}, {"FEN", "no Spock"}},
      {{"moves", "--variant", "spock", "--fen", ""}, {"FEN", "empty"}},
      {{"moves", "--variant", "spock", "--moves", "c1b3"}, {"'c1b3'"}},
      {{"moves", "--variant", "spock", "--moves", "z9a1"}, {"'z9a1'"}},
      {{"show", "--variant", "spock", "--moves", "a2a3", "a3a4"}, {"'a3a4'"}},
      {{"solve", "--variant", "spock:3x3:RK/rx"}, {"variant", "'x'"}},
      {{"solve", "--variant", "spock:2x3:K/k"}, {"variant", "3 to 8"}},
      {{"solve", "--variant", "spock:3x3:R/rk"}, {"variant", "no Spock"}},
      {{"solve", "--variant", "spock:3x3:RK/rk", "--fen", "k3/4/4/3K w"}, {"--fen", "4x4"}},
      {{"solve", "--variant", "spock:3x3:RK/rk", "--fen", "kr1/1r1/R1K w"}, {"--fen", "not among"}},
      {{"moves", "--variant", "spock:3x3:RK/rk"}, {"--fen"}},
      {{"solve", "--variant", "spock:4x4:RSLPK/rslpk", "--memory", "0.01"}, {"memory"}},
      {{"prove", "--variant", "spock"},
       {"prove serves Drop 16 only", "Spock (--variant spock) has perft"}},
      {{"moves", "--variant", "spockish"}, {"'spockish'"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
}

TEST_CASE(
    "a command refusing a game names the commands that serve it, and numbers too large "
    "are called that",
    "[cli][errors]") {
  // Tables of each kind, for the commands that must tell them apart.
  test_support::TempDir dir("cli_test_errors");
  const std::string drop_tables = (dir / "drop").string(), spock_table = (dir / "spock").string();
  REQUIRE(drop16({"solve", "--variant", "2x2:NK", "--tables", drop_tables, "--quiet"}).status == 0);
  REQUIRE(
      drop16({"solve", "--variant", "spock:3x3:K/k", "--tables", spock_table, "--quiet"}).status ==
      0);
  const std::string nardy_commands =
      "Royal Nardy (--variant nardy) has moves, show, query, serve, bearoff, endgame and "
      "nardy-match";
  // Every game that has the command, in registry order ("Drop 16, Spock, ... and Teeko").
  const std::string solve_serves =
      "solve serves " + registry::games_serving(registry::Command::solve);
  const std::string perft_serves =
      "perft serves " + registry::games_serving(registry::Command::perft);
  CHECK_THAT(solve_serves,
             Catch::Matchers::StartsWith("solve serves Drop 16, Spock, the rook race"));
  const BadInput cases[] = {
      {{"solve", "--variant", "nardy"}, {solve_serves, nardy_commands}},
      {{"solve", "--variant", "nardy", "--max-depth", "3"}, {"solve serves", nardy_commands}},
      {{"perft", "--variant", "nardy", "--depth", "1"}, {perft_serves, nardy_commands}},
      {{"distinct", "--variant", "nardy", "--depth", "1"}, {"distinct serves", nardy_commands}},
      {{"prove", "--variant", "nardy"}, {"prove serves Drop 16 only", nardy_commands}},
      {{"verify", "--variant", "nardy"}, {"verify serves", nardy_commands}},
      {{"prove", "--variant", "spock"},
       {"prove serves Drop 16 only",
        "Spock (--variant spock) has perft, distinct, moves, show, solve, query, verify and "
        "serve"}},
      {{"claims", "--variant", "rookrace:4x4:2"},
       {"claims serves Drop 16 only",
        "the rook race (--variant rookrace:4x4:2) has perft, distinct, moves, show, solve, "
        "query, verify and serve"}},
      {{"cluster-plan", "--variant", "spock:3x3:K/k", "--rate", "1"},
       {"cluster-plan serves Drop 16 only", "Spock"}},
      // Tables of one game named for what they are when another game's are asked for.
      {{"query", "--variant", "rookrace:2x2:0", "--tables", drop_tables, "--fen",
        "1r/R1 [0,0] [-,-] w"},
       {drop_tables, "holds no loopy tier tables of the rook race",
        "the tables of 2x2:NK (Drop 16)"}},
      {{"verify", "--variant", "rookrace:2x2:0", "--tables", drop_tables},
       {drop_tables, "holds no loopy tier tables of the rook race",
        "the tables of 2x2:NK (Drop 16)"}},
      {{"query", "--variant", "2x2:NK", "--tables", spock_table, "--fen", "2/2[NKnk] w"},
       {"holds the table of spock:3x3:K/k (Spock)", "--variant spock:3x3:K/k"}},
      {{"query", "--variant", "spock", "--tables", drop_tables, "--fen", "k2/3/2K w"},
       {"holds no table of Spock", "the tables of 2x2:NK (Drop 16)"}},
      // Options of tier tables are refused to the other games, naming who has them.
      {{"verify", "--variant", "rookrace:2x2:0", "--per-tier", "5"},
       {"--per-tier", "for games with tier tables", "drop16"}},
      // --digest serves every tier format, but needs the tables.
      {{"verify", "--variant", "rookrace:2x2:0", "--digest"},
       {"--digest", "give their directory (--tables DIR)"}},
      // Numbers too large are too large, not "not a number".
      {{"moves", "--variant", "rookrace:2x2:0", "--fen", "1r/R1 [100000000000000000000,0] [-,-] w"},
       {"FEN", "White's reserve '100000000000000000000' is more than the variant's 0 pawns"}},
      {{"moves", "--variant", "rookrace:2x2:0", "--fen", "1r/R1 [x,0] [-,-] w"},
       {"White's reserve 'x' is not a number of pawns (0 to 0)"}},
      {{"perft", "--variant", "rookrace:4x4:100000000000000000000", "--depth", "1"},
       {"the pawns a side are '100000000000000000000', more than 127"}},
      {{"perft", "--variant", "rookrace:1000x1000:0", "--depth", "1"},
       {"a side of 1000", "boards are 2x2, 4x4, 6x6 or 8x8"}},
      {{"perft", "--variant", "10x10:NK", "--depth", "1"},
       {"width '10' is out of range", "1 to 8"}},
      {{"perft", "--variant", "spock:10x10:K/k", "--depth", "1"},
       {"a board of 10x10", "3 to 8 files and ranks"}},
      {{"moves", "--fen", "100000000000000000000/4/4/4[] w"},
       {"FEN", "rank 4", "'0' counts no squares"}},
      {{"verify", "--variant", "rookrace:2x2:0", "--samples", "-1"}, {"--samples"}},
      {{"verify", "--variant", "rookrace:2x2:0", "--samples", "100000000000000000000"},
       {"--samples"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
  // None says the old wrong thing.
  for (const auto& args : {std::vector<std::string>{"solve", "--variant", "nardy"},
                           std::vector<std::string>{"query", "--variant", "rookrace:2x2:0",
                                                    "--tables", drop_tables}}) {
    const Run r = drop16(args);
    CHECK_THAT(r.err, !Catch::Matchers::Contains("Drop 16 family only") &&
                          !Catch::Matchers::Contains("WxH:HAND"));
  }
}

TEST_CASE("rook race perft, moves and show through the command agree with the library",
          "[cli][rookrace]") {
  Run r = drop16({"perft", "--variant", "rookrace:4x4:2", "--depth", "3", "--json", "--quiet"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("nodes").get<std::uint64_t>() == 5810);  // ../shared/vectors/rookrace-start-perft.txt
  CHECK(j.at("variant") == "rookrace:4x4:2");
  CHECK(j.at("fen") == "3r/4/4/R3 [2,2] [-,-] w");
  r = drop16({"moves", "--variant", "rookrace:4x4:2", "--moves", "a1a2", "d4c4", "--json"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("fen") == "2r1/4/R3/4 [2,2] [1,1] w");
  CHECK(j.at("moves").size() == 19);
  CHECK(j.at("terminal") == false);
  r = drop16({"show", "--variant", "rookrace", "--json"});
  REQUIRE(r.status == 0);
  CHECK(nlohmann::json::parse(r.out).at("variant") == "rookrace");
  // The race won: Black, to move, has lost.
  r = drop16({"moves", "--variant", "rookrace:4x4:2", "--fen", "R2P/4/4/3r [1,2] [-,-] w",
              "--moves", "a4d4", "--json"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("terminal") == true);
  CHECK(j.at("moves").empty());
}

TEST_CASE("rook race solve, verify and the bounded search through the command", "[cli][rookrace]") {
  // 2x2 without pawns: either rook move wins in 3 (Black's rook must leave the corner).
  Run r = drop16({"solve", "--variant", "rookrace:2x2:0", "--json", "--quiet"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("value") == "win");
  CHECK(j.at("dte") == 3);
  CHECK(j.at("winning_moves") == nlohmann::json::array({"a1b1", "a1a2"}));
  CHECK(j.at("solved").at("positions") == 6);
  // 4x4 without pawns: its start is drawn; the counts add up.
  r = drop16({"solve", "--variant", "rookrace:4x4:0", "--json", "--quiet"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("value") == "draw");
  CHECK(j.at("dte").is_null());
  const auto& s = j.at("solved");
  CHECK(s.at("wins").get<int>() + s.at("draws").get<int>() + s.at("losses").get<int>() ==
        s.at("positions").get<int>());
  r = drop16({"verify", "--variant", "rookrace:4x4:0", "--samples", "200", "--json", "--quiet"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("mismatches") == 0);
  CHECK(j.at("sampled").at("draws").get<int>() > 0);
  // Nothing is forced from a drawn start, whatever the bound; a win in 3 is found within 3.
  r = drop16({"solve", "--variant", "rookrace:4x4:0", "--max-depth", "6", "--json", "--quiet"});
  REQUIRE(r.status == 0);
  CHECK(nlohmann::json::parse(r.out).at("value") == "unknown");
  r = drop16({"solve", "--variant", "rookrace:2x2:0", "--max-depth", "3", "--json", "--quiet"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j.at("value") == "win");
  CHECK(j.at("dte") == 3);
}

namespace {

// The files of `dir` ending in `extension`.
std::vector<std::filesystem::path> files_ending(const std::filesystem::path& dir,
                                                const std::string& extension) {
  std::vector<std::filesystem::path> found;
  std::error_code error;
  for (const auto& e : std::filesystem::directory_iterator(dir, error))
    if (e.path().extension() == extension) found.push_back(e.path());
  return found;
}

// Every file of `dir` but the lock, by name, with its bytes.
std::map<std::string, std::string> table_files(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename() != ".lock") files[e.path().filename().string()] = slurp(e.path());
  return files;
}

}  // namespace

TEST_CASE("a loopy solve killed with SIGKILL resumes from its files: the same tables and counts",
          "[cli][rookrace][loopy]") {
  // rookrace:6x6:1 in slices of 0.03 CPU minutes (1.8 million entries at the rate a plan
  // assumes): its largest tier in 4 slices, the others whole (slices bounded in time are the
  // same in every run, as those a memory cap makes need not be: the cap is taken less what the
  // process holds when it starts). Killed once in the reach, once inside a sliced
  // tier, each as soon as the files it stops at appear: the resumed run redoes none of the
  // slices on disk (at most the one being solved is lost), and ends with the uninterrupted run's
  // files, byte for byte, and its counts.
  const test_support::TempDir tmp("cli_loopy_kill");
  const auto args = [](const std::filesystem::path& dir) {
    return std::vector<std::string>{"solve",      "--variant",       "rookrace:6x6:1", "--tables",
                                    dir.string(), "--slice-minutes", "0.03",           "--threads",
                                    "2",          "--quiet",         "--json"};
  };
  const Run whole = drop16(args(tmp.dir / "whole"));
  REQUIRE(whole.status == 0);
  const auto w = nlohmann::json::parse(whole.out);
  REQUIRE(w.at("tables").at("slices_solved").get<int>() > 3);
  const auto dir = tmp.dir / "killed";
  // In the reach: once its first marks are on disk.
  CHECK(test_support::kill_drop16_when(args(dir),
                                       [&] { return !files_ending(dir, ".marks").empty(); }));
  CHECK(files_ending(dir, ".wdl").empty());
  // In the solve: once a sliced tier has a slice on disk.
  std::size_t slices = 0;
  CHECK(test_support::kill_drop16_when(args(dir), [&] {
    slices = files_ending(dir, ".slice").size();
    return slices > 0;
  }));
  // The slices there after the kill (one more may have been renamed into place since).
  const std::vector<std::filesystem::path> kept = files_ending(dir, ".slice");
  REQUIRE(kept.size() >= slices);
  // Unless the kill came after the tier's merge (and before its slices were removed), each slice
  // on disk is resumed, and only those after them solved.
  const std::string tier = kept.front().filename().string();
  const bool merged = std::filesystem::exists(dir / (tier.substr(0, tier.find('.')) + ".wdl"));
  const Run resumed = drop16(args(dir));
  REQUIRE(resumed.status == 0);
  const auto r = nlohmann::json::parse(resumed.out);
  CHECK(r.at("solved") == w.at("solved"));
  CHECK(r.at("tables").at("reach_tiers_resumed") == r.at("tables").at("tiers"));
  if (!merged) {
    CHECK(r.at("tables").at("slices_resumed").get<std::size_t>() == kept.size());
    CHECK(r.at("tables").at("slices_solved").get<int>() +
              r.at("tables").at("slices_resumed").get<int>() ==
          w.at("tables").at("slices_solved").get<int>());
  }
  CHECK(table_files(dir) == table_files(tmp.dir / "whole"));
  // A damaged reach mark refused at the command: exit 2, one line naming the file.
  std::filesystem::remove_all(dir);
  CHECK(test_support::kill_drop16_when(args(dir),
                                       [&] { return !files_ending(dir, ".marks").empty(); }));
  const auto marks = files_ending(dir, ".marks");
  REQUIRE(!marks.empty());
  std::string bytes = slurp(marks.front());
  bytes.back() = char(bytes.back() ^ 0x5a);
  std::ofstream(marks.front(), std::ios::binary) << bytes;
  const Run refused = drop16(args(dir));
  CHECK(refused.status == 2);
  CHECK(count_lines(refused.err) == 1);
  CHECK_THAT(refused.err, Catch::Matchers::Contains(marks.front().string()));
}

TEST_CASE("bad rook race input through the command: exit 2, one line naming the fault",
          "[cli][rookrace][errors]") {
  const BadInput cases[] = {
      {{"perft", "--variant", "rookrace:5x5:2", "--depth", "1"}, {"variant", "a side of 5"}},
      {{"perft", "--variant", "rookrace:4x4", "--depth", "1"}, {"variant", "rookrace:NxN:P"}},
      {{"perft", "--variant", "rookrace:4x4:200", "--depth", "1"}, {"variant", "0 to 127"}},
      {{"moves", "--variant", "rookrace", "--fen", "7r/8/8/8/8/8/8/R7 [8,8] w"},
       {"FEN", "4 fields"}},
      {{"moves", "--variant", "rookrace:4x4:2", "--fen", "3r/4/4/R3 [3,2] [-,-] w"},
       {"FEN", "reserve"}},
      {{"moves", "--variant", "rookrace:4x4:2", "--fen", "3r/4/PP2/R3 [0,2] [-,-] w"},
       {"FEN", "block"}},
      {{"moves", "--variant", "rookrace:4x4:2", "--fen", "7r/8/8/8/8/8/8/R7 [2,2] [-,-] w"},
       {"FEN", "ranks"}},
      {{"moves", "--variant", "rookrace", "--moves", "a1b2"}, {"'a1b2'", "not a legal move"}},
      {{"moves", "--variant", "rookrace", "--moves", "p@c3"}, {"'p@c3'"}},
      {{"show", "--variant", "rookrace:4x4:2", "--moves", "P@a1"}, {"'P@a1'"}},
      {{"solve", "--variant", "rookrace:4x4:2", "--memory", "0.01"}, {"memory"}},
      {{"solve", "--variant", "rookrace:4x4:2", "--tables", "unused", "--slice-minutes", "0"},
       {"--slice-minutes"}},
      {{"solve", "--variant", "rookrace:4x4:2", "--tables", "unused", "--slice-minutes", "ten"},
       {"--slice-minutes"}},
      {{"solve", "--variant", "rookrace:4x4:2", "--slice-minutes", "1"}, {"--tables"}},
      {{"prove", "--variant", "rookrace"},
       {"prove serves Drop 16 only", "the rook race (--variant rookrace) has perft"}},
  };
  for (const BadInput& c : cases) check_bad_input(c);
}
