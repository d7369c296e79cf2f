// The text round trip every game's notation owes its engine: every position random play reaches,
// the game's end included, prints as text that parses back to the same position (and prints the
// same again). One helper for every game (Drop 16 family, Spock, the rook race, Royal Nardy): a
// game with chance (solver/chance.h) rolls with its own odds between the plays.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "solver/chance.h"

namespace test_support {

struct RoundTrips {
  int positions = 0;  // checked, ends included
  int ends = 0;       // terminal positions among them
};

// Plays `games` random games from `start`, each until it ends or for `plies` plies (a roll of the
// dice counts as one), and checks on every position met, the first and the last included, that
// parse(print(p)) == p and print(parse(print(p))) == print(p). print: Position -> std::string;
// parse: std::string -> Position (throwing on text it refuses, which fails the test).
template <typename G, typename Print, typename Parse>
RoundTrips check_random_games_round_trip(const G& game, const typename G::Position& start,
                                         int games, int plies, std::mt19937_64& rng, Print&& print,
                                         Parse&& parse) {
  RoundTrips seen;
  const auto check = [&](const typename G::Position& p) {
    const std::string text = print(p);
    INFO("position: " << text);
    typename G::Position back;
    REQUIRE_NOTHROW(back = parse(text));
    CHECK(back == p);
    CHECK(print(back) == text);
    ++seen.positions;
    if (game.is_terminal(p)) ++seen.ends;
  };
  for (int n = 0; n < games; ++n) {
    typename G::Position p = start;
    check(p);
    for (int ply = 0; ply < plies && !game.is_terminal(p); ++ply) {
      if constexpr (solver::ChanceGame<G>) {
        if (game.is_chance(p)) {  // an outcome drawn with its weight
          typename G::ChanceList outcomes;
          game.chances(p, outcomes);
          std::uint64_t total = 0;
          for (int i = 0; i < outcomes.size(); ++i) total += outcomes[i].weight;
          std::uint64_t pick = rng() % total;
          int i = 0;
          while (pick >= outcomes[i].weight) pick -= outcomes[i++].weight;
          game.make_chance(p, outcomes[i].outcome);
          check(p);
          continue;
        }
      }
      typename G::MoveList moves;
      game.generate(p, moves);
      if (moves.size() == 0) break;
      game.make(p, moves[int(rng() % std::uint64_t(moves.size()))]);
      check(p);
    }
  }
  return seen;
}

}  // namespace test_support
