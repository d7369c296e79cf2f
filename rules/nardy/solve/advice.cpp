#include "rules/nardy/solve/advice.h"

#include <optional>
#include <stdexcept>

#include "rules/nardy/solve/player.h"
#include "rules/nardy/solve/two_sided.h"
#include "solver/expectimax.h"

namespace nardy::advice {

namespace {

// The side to roll's exact points of q (dice not rolled), if q is finished or a small plain race.
std::optional<double> exact_value(const nardy::Game& game, const nardy::Position& q,
                                  solver::Expectimax<nardy::Game>& search) {
  const nardy::Side s = q.side_to_move, o = nardy::opponent(s);
  if (game.is_terminal(q)) return game.terminal_value(q)[s];
  if (player::in_contact(game, q)) return std::nullopt;
  const auto mine = bearoff::home_board(game, q, s);
  const auto theirs = bearoff::home_board(game, q, o);
  if (!mine || !theirs || mine->royal || theirs->royal || mine->checkers() > kExactRaceCheckers ||
      theirs->checkers() > kExactRaceCheckers)
    return std::nullopt;
  // The rules are the same for both sides, so the side to roll plays White there.
  return search.value(bearoff::race_position(*mine, *theirs, q.eaten[s], q.eaten[o]))[0];
}

}  // namespace

Advice advise(const nardy::Game& game, const nardy::Position& p, const bearoff::OneSided* db,
              int depth) {
  if (!p.dice.rolled() || game.is_terminal(p))
    throw std::invalid_argument("advice needs a position with its dice rolled, not finished");
  const player::Player player(game, db, depth);
  const nardy::Game race_board(12);
  solver::Expectimax<nardy::Game> search(race_board, std::uint64_t{256} << 20);
  nardy::MoveList moves;
  game.generate(p, moves);
  Advice a;
  a.exact = true;
  std::vector<std::optional<double>> exact;
  for (const nardy::Move& m : moves) {
    nardy::Position q = p;
    game.make(q, m);
    exact.push_back(exact_value(game, q, search));
    a.exact = a.exact && exact.back().has_value();
    a.plays.push_back({m, q, 0});
  }
  for (std::size_t i = 0; i < a.plays.size(); ++i) {
    a.plays[i].value = a.exact ? -*exact[i] : player.value_of(a.plays[i].after, p.side_to_move);
    if (a.plays[i].value > a.plays[a.best].value) a.best = i;
  }
  a.source =
      a.exact ? "exact race expectimax"
              : "player search, depth " + std::to_string(depth) + (db ? ", bear-off database" : "");
  return a;
}

}  // namespace nardy::advice
