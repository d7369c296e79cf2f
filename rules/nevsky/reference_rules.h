// A deliberately plain second implementation of Nevsky checkers (shared/games/NEVSKY.md),
// written from the rule book cell by cell: a grid of letters, routes found by walking and jumping
// one cell at a time on a copy of the board, moves as text, copy-make, its own reading and writing
// of the position string and its own start setup. It shares nothing with the bitboard engine (not
// even the Position), so tests use it as an independent check of the starts, move generation (the
// one-move-per-(start, end, captured set) rule and the canonical route printed), make, the leaving
// rule, the position string and perft, and bench/ as the speed baseline.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rules/common/reference_perft.h"

namespace nevsky::reference {

struct Board {
  int n = 0;                // the grid is n x n
  std::vector<char> cells;  // row-major from the bottom row: '.', a man w r g b, a king W R G B
  int mover = 0;            // 0 White, 1 Red, 2 Green, 3 Black
  bool pairs = false;       // pair play: White and Green against Red and Black

  // Column c and row r count from 1 at the bottom left, as the rule book's cell names do.
  char& at(int c, int r) { return cells[std::size_t((r - 1) * n + (c - 1))]; }
  char at(int c, int r) const { return cells[std::size_t((r - 1) * n + (c - 1))]; }
  bool inside(int c, int r) const { return c >= 1 && c <= n && r >= 1 && r <= n; }
};

inline const std::string kMen = "wrgb", kKings = "WRGB";

// Whose checker a letter is, or -1 for an empty cell.
inline int owner(char piece) {
  if (piece == '.') return -1;
  return int(kMen.find(char(std::tolower(piece))));
}
inline bool is_king(char piece) {
  return piece != '.' && std::isupper(static_cast<unsigned char>(piece));
}

// The corners, from the table of NEVSKY.md: White 1n, Red nn, Green n1, Black 11.
inline std::pair<int, int> start_corner(int player, int n) {
  const std::pair<int, int> corners[4] = {{1, n}, {n, n}, {n, 1}, {1, 1}};
  return corners[player];
}
inline std::pair<int, int> goal_corner(int player, int n) {
  return start_corner((player + 2) % 4, n);
}
// The two arrows: White right and down, Red left and down, Green left and up, Black right and up.
inline std::vector<std::pair<int, int>> forward(int player) {
  const std::vector<std::pair<int, int>> arrows[4] = {
      {{1, 0}, {0, -1}}, {{-1, 0}, {0, -1}}, {{-1, 0}, {0, 1}}, {{1, 0}, {0, 1}}};
  return arrows[player];
}
inline const std::vector<std::pair<int, int>> kAllDirections = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};

inline std::string cell_text(int c, int r) {
  return std::string{char('0' + c), char('0' + r)};
}

// Whether `player` may take the checker `piece`: another player's, not the partner's in pairs.
inline bool may_take(const Board& b, int player, char piece) {
  const int o = owner(piece);
  return o >= 0 && o != player && !(b.pairs && o == (player + 2) % 4);
}

inline bool holds_checkers(const Board& b, int player) {
  for (char piece : b.cells)
    if (owner(piece) == player) return true;
  return false;
}

inline bool game_over(const Board& b) {
  bool holds[4];
  int count = 0;
  for (int q = 0; q < 4; ++q) count += holds[q] = holds_checkers(b, q);
  if (b.pairs) return !(holds[0] || holds[2]) || !(holds[1] || holds[3]);
  return count <= 1;
}

struct Route {
  int start_c = 0, start_r = 0;
  std::vector<std::pair<int, int>> landings;  // where the piece lands, one per checker taken
  std::vector<std::pair<int, int>> taken;     // the checkers taken, in order

  std::string text() const {
    std::string s = cell_text(start_c, start_r);
    for (const auto& [c, r] : landings) s.append(":").append(cell_text(c, r));
    return s;
  }
};

// Every complete capture route on from the piece standing on (c, r); the piece itself is off the
// board (lifted from its start cell), taken checkers are removed from b as they are jumped.
inline void extend(Board& b, int player, bool king, int c, int r, Route& route,
                   std::vector<Route>& out) {
  bool went_on = false;
  for (const auto& [dc, dr] : kAllDirections) {
    // The checker to jump: the neighbour for a man; for a king the first checker along the line.
    int vc = c + dc, vr = r + dr;
    if (king)
      while (b.inside(vc, vr) && b.at(vc, vr) == '.') vc += dc, vr += dr;
    if (!b.inside(vc, vr) || !may_take(b, player, b.at(vc, vr))) continue;
    // The landing cells: right behind it for a man; any empty cell before the next checker for
    // a king.
    for (int lc = vc + dc, lr = vr + dr; b.inside(lc, lr) && b.at(lc, lr) == '.';
         lc += dc, lr += dr) {
      went_on = true;
      const char victim = b.at(vc, vr);
      b.at(vc, vr) = '.';
      route.landings.push_back({lc, lr});
      route.taken.push_back({vc, vr});
      extend(b, player, king, lc, lr, route, out);
      route.landings.pop_back();
      route.taken.pop_back();
      b.at(vc, vr) = victim;
      if (!king) break;
    }
  }
  if (!went_on && !route.landings.empty()) out.push_back(route);
}

// The moves of `player` in b, whoever is to move: the captures if it has any (each man's complete
// routes, each king's routes taking its most), else its steps and slides. A capture is listed once
// per (start, end, set taken), written by its least route text.
inline std::vector<std::string> moves_of(const Board& board, int player) {
  Board b = board;
  std::map<std::tuple<int, int, int, int, std::vector<std::pair<int, int>>>, std::string> captures;
  for (int r = 1; r <= b.n; ++r)
    for (int c = 1; c <= b.n; ++c) {
      const char piece = b.at(c, r);
      if (owner(piece) != player) continue;
      std::vector<Route> routes;
      Route route;
      route.start_c = c, route.start_r = r;
      b.at(c, r) = '.';
      extend(b, player, is_king(piece), c, r, route, routes);
      b.at(c, r) = piece;
      std::size_t most = 0;
      for (const Route& x : routes) most = std::max(most, x.taken.size());
      for (const Route& x : routes) {
        if (is_king(piece) && x.taken.size() < most) continue;
        auto set = x.taken;
        std::sort(set.begin(), set.end());
        const auto key =
            std::make_tuple(c, r, x.landings.back().first, x.landings.back().second, set);
        const auto found = captures.find(key);
        if (found == captures.end() || x.text() < found->second) captures[key] = x.text();
      }
    }
  std::vector<std::string> moves;
  for (const auto& [key, text] : captures) moves.push_back(text);
  if (!moves.empty()) return moves;
  for (int r = 1; r <= b.n; ++r)
    for (int c = 1; c <= b.n; ++c) {
      const char piece = b.at(c, r);
      if (owner(piece) != player) continue;
      const auto directions = is_king(piece) ? kAllDirections : forward(player);
      for (const auto& [dc, dr] : directions)
        for (int tc = c + dc, tr = r + dr; b.inside(tc, tr) && b.at(tc, tr) == '.';
             tc += dc, tr += dr) {
          moves.push_back(cell_text(c, r) + "-" + cell_text(tc, tr));
          if (!is_king(piece)) break;
        }
    }
  return moves;
}

// The turn comes to `player`: skip players without checkers, take off the checkers of a player
// without a legal move, until someone can move or the game is over (then the first player holding
// checkers from there is named).
inline void turn_comes(Board& b, int player) {
  for (;;) {
    if (game_over(b)) {
      while (!holds_checkers(b, player)) player = (player + 1) % 4;
      b.mover = player;
      return;
    }
    if (holds_checkers(b, player)) {
      if (!moves_of(b, player).empty()) {
        b.mover = player;
        return;
      }
      for (char& piece : b.cells)
        if (owner(piece) == player) piece = '.';
    }
    player = (player + 1) % 4;
  }
}

inline std::vector<std::string> legal_moves(const Board& b) {
  if (game_over(b)) return {};
  return moves_of(b, b.mover);
}

inline Board play(Board b, const std::string& move) {
  std::vector<std::pair<int, int>> cells;
  for (std::size_t i = 0; i < move.size(); i += 3)
    cells.push_back({move[i] - '0', move[i + 1] - '0'});
  auto [c, r] = cells[0];
  char piece = b.at(c, r);
  b.at(c, r) = '.';
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const auto [tc, tr] = cells[i];
    if (move[2] == ':') {  // take the one checker between the two cells
      const int dc = (tc > c) - (tc < c), dr = (tr > r) - (tr < r);
      for (int x = c + dc, y = r + dr; x != tc || y != tr; x += dc, y += dr) b.at(x, y) = '.';
    }
    c = tc, r = tr;
  }
  if (!is_king(piece) && std::make_pair(c, r) == goal_corner(owner(piece), b.n))
    piece = kKings[std::size_t(owner(piece))];
  b.at(c, r) = piece;
  turn_comes(b, (b.mover + 1) % 4);
  return b;
}

// Trusts its text (one the engine's parser accepted) but applies the leaving rule itself.
inline Board from_text(const std::string& text, bool pairs) {
  std::vector<std::string> rows(1);
  std::size_t i = 0;
  for (; text[i] != ' '; ++i) {
    if (text[i] == '/')
      rows.emplace_back();
    else if (std::isdigit(static_cast<unsigned char>(text[i])))
      rows.back().append(std::size_t(text[i] - '0'), '.');
    else
      rows.back() += text[i];
  }
  Board b;
  b.n = int(rows.size());
  b.pairs = pairs;
  for (int r = b.n - 1; r >= 0; --r) b.cells.insert(b.cells.end(), rows[r].begin(), rows[r].end());
  turn_comes(b, int(kMen.find(text[i + 1])));
  return b;
}

inline std::string to_text(const Board& b) {
  std::string s;
  for (int r = b.n; r >= 1; --r) {
    int empty = 0;
    for (int c = 1; c <= b.n; ++c) {
      if (b.at(c, r) == '.') {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += b.at(c, r);
    }
    if (empty) s += char('0' + empty);
    if (r > 1) s += '/';
  }
  return s + ' ' + kMen[std::size_t(b.mover)];
}

// The start of "nevsky:NxN:M+K" (pairs or not), from the rule book: each player's men on the
// cells within distance k of its corner (M = 1, 3, 6, 10 for k = 0..3), its corner checker a king
// when K >= 1, the next cell clockwise along the edge when K >= 2, the corner's other neighbour
// when K = 3; White to move.
inline Board start(int n, int men, int kings, bool pairs) {
  const int k = men == 1 ? 0 : men == 3 ? 1 : men == 6 ? 2 : 3;
  // Per player: the corner, the next cell clockwise along the edge, the other neighbour.
  const std::pair<int, int> king_cells[4][3] = {{{1, n}, {2, n}, {1, n - 1}},
                                                {{n, n}, {n, n - 1}, {n - 1, n}},
                                                {{n, 1}, {n - 1, 1}, {n, 2}},
                                                {{1, 1}, {1, 2}, {2, 1}}};
  Board b;
  b.n = n;
  b.pairs = pairs;
  b.cells.assign(std::size_t(n * n), '.');
  for (int q = 0; q < 4; ++q) {
    const auto [c0, r0] = start_corner(q, n);
    for (int r = 1; r <= n; ++r)
      for (int c = 1; c <= n; ++c)
        if (std::abs(c - c0) + std::abs(r - r0) <= k) b.at(c, r) = kMen[std::size_t(q)];
    for (int i = 0; i < kings; ++i)
      b.at(king_cells[q][i].first, king_cells[q][i].second) = kKings[std::size_t(q)];
  }
  turn_comes(b, 0);
  return b;
}

// Perft by this engine alone, every leaf played (rules/common/reference_perft.h).
inline std::uint64_t perft(const Board& b, int depth) {
  return common::reference_perft(b, depth);
}

}  // namespace nevsky::reference
