// The drop game with captures switched off: the "drops only" play of the designer's placement
// claim. It offers the same interface as Game (solver/game_concept.h), so the generic perft and
// position counters enumerate drops-only play unchanged; keys and symmetry are Game's, since
// the restriction commutes with the board's symmetries and with swapping colours.
#pragma once

#include <cstdint>

#include "rules/common/game_types.h"
#include "rules/drop/game.h"

namespace drop {

class DropsOnlyGame
    : public common::GameTypes<drop::Position, drop::Move, drop::MoveList, drop::Undo, drop::Key> {
 public:
  // `game` must outlive this object.
  explicit DropsOnlyGame(const Game& game) : game_(game) {}

  const Game& game() const { return game_; }
  Position start() const { return game_.start(); }

  void generate(const Position& p, MoveList& out) const {
    out.clear();
    const Bitboard empty = game_.geometry().board_mask() & ~p.occupied();
    for (PieceType t : kAllPieceTypes)
      if (p.hand[p.side_to_move][t])
        for (Bitboard b = empty; b;) out.push(Move::drop(t, pop_lsb(b)));
  }
  std::uint64_t count_moves(const Position& p) const {
    const Bitboard empty = game_.geometry().board_mask() & ~p.occupied();
    return std::uint64_t(popcount(empty)) * distinct_types(p.hand[p.side_to_move]);
  }
  bool is_terminal(const Position& p) const { return count_moves(p) == 0; }
  Undo make(Position& p, Move m) const { return game_.make(p, m); }
  void unmake(Position& p, Move m, Undo u) const { game_.unmake(p, m, u); }

  bool keys_fit() const { return game_.keys_fit(); }
  Key raw_key(const Position& p) const { return game_.raw_key(p); }
  Key symmetric_key(const Position& p) const { return game_.symmetric_key(p); }
  Key canonical_key(const Position& p) const { return game_.canonical_key(p); }
  Position from_key(Key k) const { return game_.from_key(k); }

 private:
  const Game& game_;
};

}  // namespace drop
