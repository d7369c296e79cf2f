// The registry of games (rules/registry.h) and what the front ends make of it: every game's names
// parse and are claimed by that game alone, a text no game claims is refused with one line saying
// what is accepted, a command a game lacks is refused with exit status 2 naming the game and what
// it has, options are refused for the games they do not apply to, `games --json` lists each game's
// capabilities as the entries declare them, and a game's help shows only its own options.
#include "rules/registry.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/drop16_process.h"

namespace {

using test_support::Run;

Run drop16(const std::vector<std::string>& args) {
  return test_support::run_drop16(args);
}

int count_lines(const std::string& s) {
  return int(std::count(s.begin(), s.end(), '\n'));
}

// Exit status 2, one line on stderr holding every word, nothing on stdout.
void check_refused(const std::vector<std::string>& args, const std::vector<std::string>& words) {
  std::string shown;
  for (const auto& a : args) shown += a + " ";
  INFO("drop16 " << shown);
  const Run r = drop16(args);
  INFO("stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(count_lines(r.err) == 1);
  CHECK(r.out.empty());
  for (const auto& w : words) CHECK_THAT(r.err, Catch::Matchers::Contains(w));
}

// How many games claim the text.
int claimants(std::string_view text) {
  int n = 0;
  registry::for_each_entry([&](auto e) { n += decltype(e)::claims(text) ? 1 : 0; });
  return n;
}

}  // namespace

TEST_CASE("every game's names and example parse, each claimed by its game alone", "[registry]") {
  std::set<std::string_view> ids;
  registry::for_each_entry([&](auto e) {
    using E = decltype(e);
    INFO(E::info.id);
    CHECK(ids.insert(E::info.id).second);  // ids are unique: they name files and answers
    CHECK(claimants(E::info.id) == 1);
    CHECK(claimants(E::info.example) == 1);
    CHECK(E::claims(E::info.example));
    CHECK(registry::info_of(E::info.example).id == E::info.id);
    // The example's name is its own normal form, and parses back to itself.
    CHECK(E::normalized(E::info.example) == E::info.example);
    CHECK(E::normalized(E::normalized(E::info.example)) == E::normalized(E::info.example));
    // A position of it, written and read back.
    if constexpr (registry::PageEntry<E>) {
      const auto s = E::setup(E::info.example, E::start_fen(E::info.example));
      CHECK(E::fen(*s.game, E::parse_fen(*s.game, E::fen(*s.game, s.position))) ==
            E::fen(*s.game, s.position));
    }
    CHECK(!E::info.commands.empty());
    CHECK(!registry::supported_commands(E::info).empty());
  });
  CHECK(ids.size() == registry::kGames.size());
  CHECK(registry::default_variant() == registry::kGames.front().id);
  for (const char* v : {"drop16", "3x3:NBRK", "4x3:QK/rnk", "spock", "spock:3x3:RSK/rsk",
                        "rookrace", "rookrace:4x4:2", "nardy"})
    CHECK(claimants(v) == 1);
}

TEST_CASE("a variant no game claims, or a malformed one, is refused with one line",
          "[registry][errors]") {
  for (const char* text : {"chess", "spockish", "", "Drop16", "rook"}) {
    INFO(text);
    CHECK(claimants(text) == 0);
    try {
      registry::visit(text, [](auto) {});
      FAIL("accepted");
    } catch (const common::ParseError& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Matchers::Contains("'" + std::string(text) + "'"));
      for (const registry::GameInfo& g : registry::kGames)
        CHECK_THAT(what, Catch::Matchers::Contains(std::string(g.variants)));
      CHECK(what.find('\n') == std::string::npos);
    }
  }
  // A text a game claims is that game's to refuse, naming the fault.
  check_refused({"moves", "--variant", "chess"}, {"'chess'", "drop16 games"});
  check_refused({"perft", "--variant", "3x9:NK", "--depth", "1"}, {"height '9'"});
  check_refused({"moves", "--variant", "spock:2x3:K/k"}, {"3 to 8"});
  check_refused({"moves", "--variant", "rookrace:5x5:1"}, {"a side of 5"});
  check_refused({"moves", "--variant", "nardy:24"}, {"'nardy:24'", "'nardy'"});
}

TEST_CASE("a command a game lacks is refused naming the game and what it has",
          "[registry][cli][errors]") {
  // Every command of the binary, the registry's and the games' own (rules/<game>/commands/),
  // with the games that have it, as the listing gives them.
  const Run listing = drop16({"games", "--json"});
  REQUIRE(listing.status == 0);
  const auto games = nlohmann::json::parse(listing.out).at("games");
  std::map<std::string, std::vector<std::string>> serving;  // command: the titles having it
  for (const auto& g : games)
    for (const auto& c : g.at("commands")) serving[c].push_back(g.at("title"));
  // Each game's own commands add themselves to the binary: at least Drop 16's prove.
  CHECK(serving.size() > registry::kCommands.size());
  for (const auto& g : games) {
    std::vector<std::string> has;
    for (const auto& c : g.at("commands")) has.push_back(c);
    const std::string example = g.at("example");
    for (const auto& [c, titles] : serving) {
      // check-proof reads its game from the proof file, and serve takes the game of each
      // request (its API refuses a game without serve with the same sentence).
      if (std::find(has.begin(), has.end(), c) != has.end() || c == "check-proof" || c == "serve")
        continue;
      std::vector<std::string> args = {c, "--variant", example};
      // Commands that need more arguments than a variant ask for them after the game's check.
      if (c == "perft" || c == "distinct") args.insert(args.end(), {"--depth", "1"});
      if (c == "cluster-plan") args.insert(args.end(), {"--rate", "1"});
      check_refused(args, {c + " serves " + registry::joined_with_and(titles) +
                               (titles.size() == 1 ? " only" : ""),
                           g.at("title").get<std::string>() + " (--variant " + example + ") has " +
                               registry::joined_with_and(has)});
    }
  }
}

TEST_CASE("an option a game lacks is refused naming the option, the game and who has it",
          "[registry][cli][errors]") {
  check_refused({"solve", "--variant", "3x3:NBK", "--max-depth", "3"},
                {"--max-depth", "Drop 16", "spock", "rookrace"});
  check_refused({"solve", "--variant", "spock:3x3:RK/rk", "--value-only", "--tables", "t"},
                {"--value-only", "Spock", "drop16"});
  check_refused({"moves", "--variant", "rookrace", "--roll", "6-5"}, {"--roll", "nardy"});
  check_refused({"verify", "--variant", "rookrace:2x2:0", "--per-tier", "3"},
                {"--per-tier", "drop16"});
}

TEST_CASE("games --json lists every game with the capabilities its entry declares",
          "[registry][cli]") {
  const Run r = drop16({"games", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("default_variant") == registry::default_variant());
  REQUIRE(j.at("games").size() == registry::kGames.size());
  for (std::size_t i = 0; i < registry::kGames.size(); ++i) {
    const registry::GameInfo& g = registry::kGames[i];
    const auto& listed = j.at("games")[i];
    INFO(g.id);
    CHECK(listed.at("id") == g.id);
    CHECK(listed.at("variants") == g.variants);
    CHECK(listed.at("value_family") == registry::family_name(g.family));
    CHECK(listed.at("dice") == g.dice);
    std::set<std::string> commands;
    for (const auto& c : listed.at("commands")) commands.insert(c);
    for (const registry::Command c : registry::kCommands)
      CHECK(commands.count(std::string(registry::command_name(c))) == (g.commands.has(c) ? 1 : 0));
    std::set<std::string> tables;
    for (const auto& t : listed.at("tables")) tables.insert(t);
    for (const registry::TableFormat t : registry::kTableFormats)
      CHECK(tables.count(std::string(registry::table_format_name(t))) == (g.tables.has(t) ? 1 : 0));
  }
  // One game alone, by a variant of it.
  const Run one = drop16({"games", "--variant", "spock:3x3:RK/rk", "--json"});
  REQUIRE(one.status == 0);
  const auto s = nlohmann::json::parse(one.out).at("games");
  REQUIRE(s.size() == 1);
  CHECK(s[0].at("id") == "spock");
  CHECK(s[0].at("value_family") == "win/draw/loss");
  check_refused({"games", "--variant", "chess"}, {"'chess'"});
}

TEST_CASE("a game's help shows the options that apply to it alone", "[registry][cli]") {
  const Run spock = drop16({"solve", "--variant", "spock", "--help"});
  REQUIRE(spock.status == 0);
  CHECK_THAT(spock.out, Catch::Matchers::Contains("--max-depth"));
  CHECK_THAT(spock.out, Catch::Matchers::Contains("Spock"));
  CHECK(spock.out.find("--value-only") == std::string::npos);
  // Its loopy tier tables go over MPI ranks; a tier split over them is Drop 16's alone.
  CHECK_THAT(spock.out, Catch::Matchers::Contains("--mpi"));
  CHECK(spock.out.find("--mpi-split-entries") == std::string::npos);
  // So do Nevsky's coalition tier tables.
  const Run nevsky = drop16({"solve", "--variant", "nevsky:3x3:1", "--help"});
  REQUIRE(nevsky.status == 0);
  CHECK_THAT(nevsky.out, Catch::Matchers::Contains("--mpi"));
  CHECK(nevsky.out.find("--mpi-split-entries") == std::string::npos);
  const Run drop = drop16({"solve", "--variant", "3x3:NBK", "--help"});
  REQUIRE(drop.status == 0);
  CHECK_THAT(drop.out, Catch::Matchers::Contains("--value-only"));
  CHECK(drop.out.find("--max-depth") == std::string::npos);
  // Without --variant, every option.
  const Run all = drop16({"solve", "--help"});
  REQUIRE(all.status == 0);
  CHECK_THAT(all.out, Catch::Matchers::Contains("--value-only"));
  CHECK_THAT(all.out, Catch::Matchers::Contains("--max-depth"));
  // A command the game lacks says so.
  const Run prove = drop16({"prove", "--variant", "rookrace", "--help"});
  REQUIRE(prove.status == 0);
  CHECK_THAT(prove.out, Catch::Matchers::Contains("prove serves Drop 16 only; the rook race"));
  // The top-level help names every game.
  const Run top = drop16({"--help"});
  REQUIRE(top.status == 0);
  for (const registry::GameInfo& g : registry::kGames)
    CHECK_THAT(top.out, Catch::Matchers::Contains(std::string(g.title)));
}
