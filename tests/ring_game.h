// A toy game of three or four players on a ring of cells, for the coalition solver's tests: small
// enough to solve every position in a test, with cycles, a symmetry that renames the players, and
// ends where several players are left (pair play's drawn coalitions).
//
// Rules. The ring has k cells a player, numbered clockwise; player q's home is cell q * k. Each
// player holds tokens (alike). The player to move either steps one of its tokens 1 or 2 cells
// clockwise, onto an empty cell or onto a token of an opponent, which is captured (taken off), or,
// if it has a token on its home cell, stops the game. In pair play (four players) partners sit
// opposite (q and q + 2): a partner's token blocks like one's own. A player without tokens is out.
// After a move the turn passes clockwise to the next player holding tokens; one that has tokens but
// no legal move leaves (its tokens taken off) and the turn passes on. The game is over when it is
// stopped, or when the players holding tokens are one player (in pair play, of one pair); the
// players left are those holding tokens, and the player to move named there is the first of them
// clockwise from the one the turn was passing to.
// Symmetry. Turning the ring by k cells takes each player's home, tokens and turn to the next
// player's, keeping the order of play (and the pairs): canonical_form is the least key of the
// players turns of the position, with the renaming q -> q + t of the turn t it took.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rules/common/move_list.h"
#include "tests/small_key.h"

namespace test_support {

class RingGame {
 public:
  static constexpr int kMostCells = 16;
  struct Position {
    std::array<std::int8_t, kMostCells> owner;  // -1: empty
    int mover = 0;
    bool over = false;
  };
  struct Move {
    int from, to;  // from == -1: the game is stopped
  };
  using Undo = Position;
  using Key = SmallKey;
  using MoveList = common::FixedMoveList<Move, 2 * kMostCells + 1>;
  struct CanonicalForm {
    Key key;
    std::array<int, 4> renamed;
  };

  RingGame(int players, int cells_per_player, bool pairs)
      : players_(players), per_player_(cells_per_player), pairs_(pairs) {
    if (players < 3 || players > 4 || cells_per_player < 1 ||
        players * cells_per_player > kMostCells || (pairs && players != 4))
      throw std::invalid_argument("RingGame: 3 or 4 players, at most 16 cells, pairs of four");
  }

  // Each player's first `tokens` cells from its home hold its tokens; player 0 to move.
  Position start(int tokens) const {
    Position p;
    p.owner.fill(-1);
    for (int q = 0; q < players_; ++q)
      for (int i = 0; i < tokens; ++i) p.owner[q * per_player_ + i] = std::int8_t(q);
    give_turn(p, 0);
    return p;
  }

  int players() const { return players_; }
  int player_to_move(const Position& p) const { return p.mover; }
  std::uint32_t players_left(const Position& p) const { return holders(p); }
  bool is_terminal(const Position& p) const { return p.over; }

  void generate(const Position& p, MoveList& out) const {
    out.clear();
    if (p.over) return;
    const int m = p.mover;
    if (p.owner[home(m)] == m) out.push({-1, -1});
    for (int c = 0; c < cells(); ++c)
      if (p.owner[c] == m)
        for (int step = 1; step <= 2; ++step) {
          const int to = (c + step) % cells();
          if (open_to(p, m, to)) out.push({c, to});
        }
  }
  std::uint64_t count_moves(const Position& p) const {
    MoveList moves;
    generate(p, moves);
    return std::uint64_t(moves.size());
  }
  Undo make(Position& p, Move m) const {
    const Undo before = p;
    const int next = (p.mover + 1) % players_;
    if (m.from < 0) {
      p.over = true;
      p.mover = first_holder(p, next);
      return before;
    }
    p.owner[m.to] = p.owner[m.from];
    p.owner[m.from] = -1;
    give_turn(p, next);
    return before;
  }
  void unmake(Position& p, Move, const Undo& u) const { p = u; }

  bool keys_fit() const { return true; }
  Key raw_key(const Position& p) const {
    Key k;
    for (int c = 0; c < cells(); ++c) k.lo |= std::uint64_t(p.owner[c] + 1) << (4 * c);
    k.hi = std::uint64_t(p.mover) | std::uint64_t(p.over) << 2;
    return k;
  }
  Key symmetric_key(const Position& p) const { return canonical_key(p); }
  Key canonical_key(const Position& p) const { return canonical_form(p).key; }
  CanonicalForm canonical_form(const Position& p) const {
    CanonicalForm best{raw_key(p), {0, 1, 2, 3}};
    for (int t = 1; t < players_; ++t) {
      const Key k = raw_key(turned(p, t));
      if (k < best.key) {
        best.key = k;
        for (int q = 0; q < players_; ++q) best.renamed[q] = (q + t) % players_;
      }
    }
    return best;
  }
  Position from_key(Key k) const {
    Position p;
    for (int c = 0; c < kMostCells; ++c) p.owner[c] = std::int8_t(int(k.lo >> (4 * c) & 15) - 1);
    p.mover = int(k.hi & 3);
    p.over = k.hi >> 2 & 1;
    return p;
  }

  // p turned t players clockwise: cell c goes to c + t * k, player q to q + t.
  Position turned(const Position& p, int t) const {
    Position out = p;
    for (int c = 0; c < cells(); ++c)
      out.owner[(c + t * per_player_) % cells()] =
          p.owner[c] < 0 ? std::int8_t(-1) : std::int8_t((p.owner[c] + t) % players_);
    out.mover = (p.mover + t) % players_;
    return out;
  }

  // Every position of the ring with at most `tokens` tokens a player and at least two players
  // holding tokens, each player to move that holds tokens, settled as play leaves them (the leaving
  // rule applied): roots from which every corner of the game is reached.
  std::vector<Position> all_positions(int tokens) const {
    std::vector<Position> out;
    Position p;
    p.owner.fill(-1);
    fill(p, 0, std::array<int, 4>{}, tokens, out);
    return out;
  }

 private:
  int cells() const { return players_ * per_player_; }
  int home(int q) const { return q * per_player_; }
  bool friends(int a, int b) const { return a == b || (pairs_ && (a + 2) % 4 == b); }
  bool open_to(const Position& p, int m, int cell) const {
    return p.owner[cell] < 0 || !friends(m, p.owner[cell]);
  }
  std::uint32_t holders(const Position& p) const {
    std::uint32_t left = 0;
    for (int c = 0; c < cells(); ++c)
      if (p.owner[c] >= 0) left |= 1u << p.owner[c];
    return left;
  }
  bool finished(std::uint32_t left) const {
    if (pairs_) return !(left & 0b0101) || !(left & 0b1010);
    return std::popcount(left) <= 1;
  }
  int first_holder(const Position& p, int q) const {
    const std::uint32_t left = holders(p);
    for (int i = 0; i < players_; ++i, q = (q + 1) % players_)
      if (left >> q & 1) return q;
    return q;
  }
  // The turn comes to q: players out are skipped, players without a move leave, until a player
  // with a move is to move or the game is over.
  void give_turn(Position& p, int q) const {
    for (;;) {
      const std::uint32_t left = holders(p);
      if (finished(left)) {
        p.over = true;
        p.mover = first_holder(p, q);
        return;
      }
      if (left >> q & 1) {
        p.mover = q;
        p.over = false;
        if (count_moves(p) > 0) return;
        for (int c = 0; c < cells(); ++c)
          if (p.owner[c] == q) p.owner[c] = -1;
      }
      q = (q + 1) % players_;
    }
  }
  void fill(Position& p, int cell, std::array<int, 4> held, int tokens,
            std::vector<Position>& out) const {
    if (cell == cells()) {
      const std::uint32_t left = holders(p);
      if (std::popcount(left) < 2) return;
      for (int q = 0; q < players_; ++q)
        if (left >> q & 1) {
          Position settled = p;
          give_turn(settled, q);
          out.push_back(settled);
        }
      return;
    }
    p.owner[cell] = -1;
    fill(p, cell + 1, held, tokens, out);
    for (int q = 0; q < players_; ++q)
      if (held[q] < tokens) {
        p.owner[cell] = std::int8_t(q);
        ++held[q];
        fill(p, cell + 1, held, tokens, out);
        --held[q];
      }
    p.owner[cell] = -1;
  }

  int players_, per_player_;
  bool pairs_;
};

}  // namespace test_support
