// Nevsky checkers solved by coalitions (solver/coalition_retrograde.h): every position of the
// tiniest rows, one man a player, with and without a king, free-for-all and pairs, against the
// plain fixed point over raw positions (no symmetry), every coalition's value and distance.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/nevsky/game.h"
#include "rules/nevsky/player.h"
#include "rules/nevsky/variant.h"
#include "solver/coalition_game.h"
#include "solver/coalition_retrograde.h"
#include "solver/coalition_solve.h"
#include "solver/wdl.h"
#include "tests/coalition_check.h"

namespace {

static_assert(solver::CoalitionGame<nevsky::Game> && solver::RenamesPlayers<nevsky::Game>);

// Checks the row, and that the cases where a solver ignoring a rule would be wrong are there:
// positions whose values differ from their symmetric images' (renamings), drawn ends in pair play
// only (a finished position holding both partners of the winning pair and no one else draws for a
// coalition holding one of them), endless play with kings.
test_support::Seen check_row(const std::string& row) {
  INFO(row);
  const nevsky::Game game(nevsky::parse_variant(row));
  const test_support::Seen seen = test_support::check_coalitions(game, {game.start()});
  CHECK(seen.renamed_values > 0);
  CHECK(seen.alone_losses > 0);
  CHECK(seen.pair_wins > 0);
  if (game.variant().pairs)
    CHECK(seen.finished_draws > 0);
  else
    CHECK(seen.finished_draws == 0);  // one player left at every end
  if (game.variant().kings > 0) CHECK(seen.endless_draws > 0);
  return seen;
}

solver::WdlValue start_value(const std::string& row, std::uint32_t coalition) {
  const nevsky::Game game(nevsky::parse_variant(row));
  return solver::solve_coalitions(game, game.start(), {std::uint64_t{1} << 30, false})
      .root_values[coalition];
}

}  // namespace

TEST_CASE("nevsky coalitions: the 3x3 rows, every position against the fixed point",
          "[coalition][nevsky]") {
  for (const char* row :
       {"nevsky:3x3:1", "nevsky:3x3:1+1", "nevsky:3x3:1:pairs", "nevsky:3x3:1+1:pairs"})
    check_row(row);
}

TEST_CASE("nevsky coalitions: the 4x4 rows, every position against the fixed point",
          "[coalition][nevsky]") {
  CHECK(check_row("nevsky:4x4:1").kingmakers > 0);
  check_row("nevsky:4x4:1:pairs");
}

TEST_CASE("nevsky coalitions: pair play is not the free-for-all's pair coalition",
          "[coalition][nevsky]") {
  // White and Green as a coalition of the free-for-all may take each other's checkers; partners
  // of pair play may not. On 3x3 with one man each the rule changes the pair's value at the start
  // (both rows are checked against the fixed point above), so a solver that played pair play as
  // the free-for-all would be caught here.
  constexpr std::uint32_t kWhiteGreen = nevsky::kWhiteGreen;
  CHECK(start_value("nevsky:3x3:1", kWhiteGreen) != start_value("nevsky:3x3:1:pairs", kWhiteGreen));
}
