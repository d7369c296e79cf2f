// The Royal Nardy player and its match (rules/nardy/solve/player.h): a seeded match is the same
// every time; every play made, the player's and the baseline's, is one the brute-force rules
// (rules/nardy/reference_rules.h) allow; each finished game's points are the brute force's score,
// and the match's figures add up from the games; where the database values a race, its chance of
// finishing first is a direct computation's.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "rules/nardy/notation.h"
#include "rules/nardy/reference_rules.h"
#include "rules/nardy/solve/player.h"
#include "solver/expectimax.h"

namespace {

using nardy::bearoff::OneSided;
using nardy::player::play_match;
using nardy::player::Player;

const OneSided& database() {
  static const OneSided db(5, 2);
  return db;
}

}  // namespace

TEST_CASE("nardy match: seeded matches repeat, plays are legal, points are the rules'",
          "[nardy][player]") {
  const nardy::Game game;
  const Player player(game, &database(), 1);
  int checked = 0, player_plays = 0;
  const auto m = play_match(
      game, player, 6, 7, 10'000, [&](const nardy::Position& p, const nardy::Move& play) {
        nardy::Position q = p;
        game.make(q, play);
        const auto legal =
            nardy::reference::play_results(nardy::reference::from_fen(nardy::to_fen(game, p)));
        CHECK(legal.count(nardy::to_fen(game, q)) == 1);
        ++checked;
      });
  CHECK(checked > 300);
  const auto again = play_match(game, player, 6, 7);
  REQUIRE(again.games.size() == m.games.size());
  int sum = 0, wins = 0, losses = 0;
  for (std::size_t g = 0; g < m.games.size(); ++g) {
    const auto& r = m.games[g];
    CHECK(r.final_position == again.games[g].final_position);
    CHECK(r.plies == again.games[g].plies);
    CHECK(r.player_side == (g % 2 == 0 ? nardy::kWhite : nardy::kBlack));
    REQUIRE(r.finished);
    player_plays += r.plies / 2;
    const int white = nardy::reference::white_score(
        nardy::reference::from_fen(nardy::to_fen(game, r.final_position)));
    CHECK(r.points[nardy::kWhite] == white);
    CHECK(r.points[nardy::kBlack] == -white);
    CHECK(r.player_points == (r.player_side == nardy::kWhite ? white : -white));
    sum += r.player_points;
    wins += r.player_points > 0;
    losses += r.player_points < 0;
  }
  CHECK(m.mean == Approx(sum / 6.0));
  CHECK(m.wins == wins);
  CHECK(m.losses == losses);
  CHECK(m.unfinished == 0);
  CHECK(player_plays > 100);
  // Another seed, other dice.
  const auto other = play_match(game, player, 2, 8);
  CHECK(other.games[0].final_position != m.games[0].final_position);
  // The player beats random play (a check that it plays at all, not a measurement).
  CHECK(m.mean > 0);
}

TEST_CASE("nardy player: a race the database holds is valued from its distributions",
          "[nardy][player]") {
  const nardy::Game game;
  const nardy::player::Evaluator eval(game, &database());
  // White: checkers on 1 and 2; Black: one on its 6-point. White to roll.
  const auto s =
      nardy::parse_fen("P/P/././././././././././././././././p/././././. 0/0 13/14 0/0 w -");
  REQUIRE(eval.from_database(s.position));
  // Every roll bears off White's checkers on 1 and 2 (1-1 plays four 1s), so White is first.
  CHECK(eval.first_off_probability(s.position) == 1.0);
  CHECK(eval.value(s.position) == 1.0);  // an oin: Black has borne off
  // Against a direct sum over both sides' roll counts from the database's own counts.
  const auto t =
      nardy::parse_fen("./././././P/././././././././././././p/././././. 0/0 14/14 0/0 w -");
  REQUIRE(eval.from_database(t.position));
  const auto& db = database();
  const auto white = *nardy::bearoff::home_board(game, t.position, nardy::kWhite);
  const auto black = *nardy::bearoff::home_board(game, t.position, nardy::kBlack);
  double first = 0;
  for (int n = 0; n <= 24; ++n)
    for (int k = n; k <= 24; ++k) first += db.probability(white, n) * db.probability(black, k);
  CHECK(std::abs(eval.first_off_probability(t.position) - first) < 1e-12);
  // One checker on 6 against one on 6, to roll: off in one roll with 27 of 36, else surely next.
  CHECK(std::abs(first - (27.0 / 36 + 9.0 / 36 * 9.0 / 36)) < 1e-12);
  // Not a race: the start.
  CHECK_FALSE(eval.from_database(nardy::parse_fen(nardy::start_fen()).position));
}

TEST_CASE("nardy player: its search is expectimax with the evaluation at the horizon",
          "[nardy][player]") {
  // On a 12-point board (whose positions have exact keys), the player's value of a position a play
  // leads to is what solver::Expectimax finds 0 and 2 plies deep (the roll and the reply) with
  // the evaluation at its horizon, for both the player's depths.
  const nardy::Game game(12);
  const nardy::player::Evaluator eval(game, &database());
  const auto horizon = [&](const nardy::Position& p) {
    const double v = eval.value(p);
    return p.side_to_move == nardy::kWhite ? std::array<double, 2>{v, -v}
                                           : std::array<double, 2>{-v, v};
  };
  for (const char* fen :
       {"./P/P/./././p/p/././P/p 0/0 12/12 0/0 w -", "././R/./p/././P/./r/./. 0/0 12/12 1/1 b -",
        "P/./r/./././P/./R/./p/. 0/0 11/12 1/1 w -"}) {
    const auto s = nardy::parse_fen(fen);
    const nardy::Side mover = nardy::opponent(s.position.side_to_move);
    for (int depth : {1, 2}) {
      const Player player(game, &database(), depth);
      solver::Expectimax<nardy::Game, double, decltype(horizon)> search(
          game, std::uint64_t{64} << 20, horizon);
      const auto v = search.value(s.position, 2 * (depth - 1));
      INFO(fen << " depth " << depth);
      CHECK(std::abs(player.value_of(s.position, mover) - v[mover]) < 1e-12);
    }
  }
}
