// Nevsky positions for the tests, built on the plain reference engine
// (rules/nevsky/reference_rules.h) so that they do not depend on the engine under test: boards
// written cell by cell, random play from the starts, random placements, and a board's images under
// the symmetries of NEVSKY.md made by hand from coordinates.
#pragma once

#include <array>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rules/nevsky/reference_rules.h"
#include "tests/conformance.h"

namespace nevsky_test {

namespace reference = nevsky::reference;

// A position string from cells and letters: board(6, {{"22", 'w'}, {"32", 'r'}}, 'w').
inline std::string board(int n, const std::map<std::string, char>& pieces, char mover) {
  reference::Board b;
  b.n = n;
  b.cells.assign(std::size_t(n * n), '.');
  for (const auto& [cell, letter] : pieces) b.at(cell[0] - '0', cell[1] - '0') = letter;
  b.mover = int(reference::kMen.find(mover));
  return reference::to_text(b);
}

// The positions of random games from a start, each played to its end or `max_plies`.
inline std::vector<std::string> random_games(const reference::Board& start, int games,
                                             int max_plies, std::mt19937& rng) {
  std::vector<std::string> out;
  for (int i = 0; i < games; ++i)
    for (auto& text :
         conformance::random_walk(start, max_plies, rng,
                                  [](const reference::Board& b) { return reference::to_text(b); }))
      out.push_back(std::move(text));
  return out;
}

// A random board of an n x n grid with at most `most` checkers a player, men and kings, each cell
// filled with probability `fill`; no man on its own goal corner (unreachable: it would have been
// crowned). Its player to move is any: the text is read by the leaving rule.
inline std::string random_placement(int n, int most, double fill, std::mt19937& rng) {
  reference::Board b;
  b.n = n;
  b.cells.assign(std::size_t(n * n), '.');
  int count[4] = {0, 0, 0, 0};
  std::bernoulli_distribution filled(fill), crowned(0.3);
  for (int r = 1; r <= n; ++r)
    for (int c = 1; c <= n; ++c) {
      const int q = int(rng() % 4);
      if (!filled(rng) || count[q] == most) continue;
      const bool king = crowned(rng) || std::make_pair(c, r) == reference::goal_corner(q, n);
      b.at(c, r) = (king ? reference::kKings : reference::kMen)[std::size_t(q)];
      ++count[q];
    }
  if (count[0] + count[1] + count[2] + count[3] == 0) b.at(1, 1) = 'b';
  b.mover = int(rng() % 4);
  return reference::to_text(b);
}

// A symmetry of the grid made by hand: where cell (c, r) goes, and the renaming of the players
// (renamed[q] is q's name in the image).
struct HandSymmetry {
  int quarter_turns;  // clockwise
  bool reflected;     // then the reflection in White's diagonal (from 1n to n1)
  std::array<int, 4> renamed;
};

// The board's image: turned clockwise (c, r) -> (r, n + 1 - c), which takes each corner to the
// next player's (White's 1n to Red's nn), colours renamed q -> q + 1; the reflection
// (c, r) -> (n + 1 - r, n + 1 - c) keeps White's and Green's corners and swaps Red's and Black's.
inline std::pair<reference::Board, HandSymmetry> image(const reference::Board& b, int turns,
                                                       bool reflect) {
  HandSymmetry s{turns, reflect, {0, 1, 2, 3}};
  reference::Board out = b;
  for (int r = 1; r <= b.n; ++r)
    for (int c = 1; c <= b.n; ++c) {
      int x = c, y = r;
      for (int t = 0; t < turns; ++t) std::tie(x, y) = std::pair{y, b.n + 1 - x};
      if (reflect) std::tie(x, y) = std::pair{b.n + 1 - y, b.n + 1 - x};
      char piece = b.at(c, r);
      if (piece != '.') {
        int q = (reference::owner(piece) + turns) % 4;
        if (reflect && q % 2) q = 4 - q;
        piece = (reference::is_king(piece) ? reference::kKings : reference::kMen)[std::size_t(q)];
      }
      out.at(x, y) = piece;
    }
  for (int q = 0; q < 4; ++q) {
    int to = (q + turns) % 4;
    if (reflect && to % 2) to = 4 - to;
    s.renamed[std::size_t(q)] = to;
  }
  out.mover = s.renamed[std::size_t(b.mover)];
  return {out, s};
}

}  // namespace nevsky_test
