// Positions of Royal Nardy for the tests: random games from the start (the engine picks plays at
// random), and random set-ups that reach what games rarely do in a few hundred plies: bearing off,
// full bars, royal checkers crowded in the home, eaten royals, shortened boards.
#pragma once

#include <random>
#include <vector>

#include "rules/nardy/game.h"
#include "rules/nardy/notation.h"

namespace test_support {

// Every position met (before each roll, and with its roll) in `games` random games of at most
// `plies` plays each.
inline std::vector<nardy::Position> nardy_random_games(const nardy::Game& g, int games, int plies,
                                                       std::mt19937_64& rng) {
  std::vector<nardy::Position> out;
  for (int n = 0; n < games; ++n) {
    nardy::Position p = nardy::parse_fen(nardy::start_fen()).position;
    for (int ply = 0; ply < plies && !g.is_terminal(p); ++ply) {
      out.push_back(p);
      // Rolls drawn with their odds: 36 equally likely ordered pairs.
      const int a = int(rng() % 6) + 1, b = int(rng() % 6) + 1;
      g.make_chance(p, nardy::Roll{std::uint8_t(std::max(a, b)), std::uint8_t(std::min(a, b))});
      nardy::MoveList plays;
      g.generate(p, plays);
      g.make(p, plays[int(rng() % plays.size())]);
    }
  }
  return out;
}

// A legal position (the parser's checks) with checkers of both sides spread over the `reach`
// points nearest each side's home, some on the bar, some borne off, some royal ones eaten; the
// dice not rolled. Checkers that would land on an opposing point go elsewhere or are borne off.
inline nardy::Position nardy_random_setup(const nardy::Game& g, std::mt19937_64& rng) {
  using nardy::Side;
  nardy::Position p;
  const int n = g.points();
  for (Side s : {nardy::kWhite, nardy::kBlack}) {
    const int reach = 6 + int(rng() % (n - 5));  // 6..n points from home
    const int plain = int(rng() % (nardy::kPlain + 1));
    const int royal = int(rng() % (nardy::kRoyal + 1));
    p.eaten[s] = std::uint8_t(rng() % (nardy::kRoyal - royal + 1));
    int off = 0;
    for (int k = 0; k < plain + royal; ++k) {
      const bool is_royal = k >= plain;
      if (!is_royal && rng() % 8 == 0) {
        ++p.bar[s];
        continue;
      }
      const int q = 1 + int(rng() % reach);
      const nardy::Side o = nardy::opponent(s);
      if (p.on_point(o, n + 1 - q) > 0 || (is_royal && rng() % 2 && p.on_point(s, q) > 0)) {
        ++off;
        continue;
      }
      ++(is_royal ? p.royal : p.plain)[s][q - 1];
    }
    p.off[s] = std::uint8_t(off + rng() % 3);
    if (p.in_play(s, n) + p.off[s] + p.eaten[s] > nardy::kCheckers) p.off[s] = 0;
  }
  if (p.in_play(nardy::kWhite, n) + p.in_play(nardy::kBlack, n) == 0) {
    p.plain[nardy::kWhite][0] = 1;
    p.off[nardy::kWhite] = 0;
  }
  p.side_to_move = Side(rng() % 2);
  if (p.in_play(p.side_to_move, n) == 0) p.side_to_move = nardy::opponent(p.side_to_move);
  return p;
}

}  // namespace test_support
