// Keys computed the fast way (code planes, byte tables, the 4x4 word tricks) against their
// definitions spelled out with whole positions: the least raw key over transformed positions.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "tests/test_support.h"

using test_support::random_position;

TEST_CASE("symmetric and canonical keys are the least keys over the images", "[keys]") {
  std::mt19937_64 rng(7);
  for (const char* name : {"drop16", "3x3:NBRK", "4x3:NNBRQK", "2x2:NK", "5x5:NBRQK/nnk"}) {
    const drop::Game game(drop::parse_variant(name));
    for (int i = 0; i < 300; ++i) {
      const auto p = random_position(game, rng, int(rng() % 14));
      drop::Key least_raw{~0ull, ~0ull}, least_mover{~0ull, ~0ull};
      for (const auto& s : game.geometry().symmetries()) {
        const auto image = game.transformed(p, s);
        least_raw = std::min(least_raw, game.raw_key(image));
        // Mover-relative: the same position seen with the side to move as White.
        const auto white_to_move =
            image.side_to_move == drop::kWhite ? image : game.color_swapped(image);
        least_mover = std::min(least_mover, game.raw_key(white_to_move));
      }
      INFO(name << " " << drop::to_fen(game, p));
      REQUIRE(game.symmetric_key(p) == least_raw);
      REQUIRE(game.canonical_key(p) == least_mover);
      REQUIRE(game.from_key(game.raw_key(p)) == p);
    }
  }
}
