// A toy game of three players in turn for the max^n tests: one pile of tokens, each turn the
// mover takes 1 to `most` of them, and play stops when the pile is empty. The player who took the
// last token scores 1, the others 0. A player who cannot win is left to choose which of the other
// two wins, so ties between its moves decide the others' points and the tie rule is tested.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "rules/common/move_list.h"
#include "tests/small_key.h"

namespace test_support {

class ThreePlayerNim {
 public:
  struct Position {
    int pile;
    int mover;
  };
  using Move = int;  // tokens taken
  struct Undo {};
  using Points = std::array<int, 3>;
  using Key = SmallKey;
  using MoveList = common::FixedMoveList<Move, 8>;

  explicit ThreePlayerNim(int most) : most_(most) {
    if (most < 1 || most > MoveList::kCapacity) throw std::invalid_argument("most");
  }

  int players() const { return 3; }
  int player_to_move(const Position& p) const { return p.mover; }
  bool is_terminal(const Position& p) const { return p.pile == 0; }
  Points terminal_value(const Position& p) const {
    Points v{};
    v[(p.mover + 2) % 3] = 1;  // took the last token
    return v;
  }

  void generate(const Position& p, MoveList& out) const {
    out.clear();
    for (int take = 1; take <= most_ && take <= p.pile; ++take) out.push(take);
  }
  std::uint64_t count_moves(const Position& p) const { return std::min(p.pile, most_); }
  Undo make(Position& p, Move m) const {
    p.pile -= m;
    p.mover = (p.mover + 1) % 3;
    return {};
  }
  void unmake(Position& p, Move m, Undo) const {
    p.pile += m;
    p.mover = (p.mover + 2) % 3;
  }

  // As a coalition game (solver/coalition_game.h): the player left at the end took the last token.
  std::uint32_t players_left(const Position& p) const { return 1u << (p.mover + 2) % 3; }

  bool keys_fit() const { return true; }
  // The pile alone: the game is the same whoever moves, up to a rotation of the players, the one
  // that names the mover 0.
  Key canonical_key(const Position& p) const { return {std::uint64_t(p.pile), 3}; }
  struct CanonicalForm {
    Key key;
    std::array<int, 3> renamed;
  };
  CanonicalForm canonical_form(const Position& p) const {
    CanonicalForm form{canonical_key(p), {}};
    for (int q = 0; q < 3; ++q) form.renamed[q] = (q + 3 - p.mover) % 3;
    return form;
  }
  Key raw_key(const Position& p) const { return {std::uint64_t(p.pile), std::uint64_t(p.mover)}; }
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  Position from_key(Key k) const {
    if (k.hi > 2) throw std::invalid_argument("from_key: not a raw key");
    return {int(k.lo), int(k.hi)};
  }

 private:
  int most_;
};

}  // namespace test_support
