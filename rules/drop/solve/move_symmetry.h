// The drop family's board symmetries as proof search's MoveSymmetry (solver/proof_search.h):
// which symmetries fix a position, where a move goes under one, and which one is the half turn.
// Like tier_space.h, this binds the drop rules to a solver interface without either knowing
// the other.
#pragma once

#include <cstdint>

#include "rules/drop/game.h"

namespace drop {

class MoveSymmetry {
 public:
  explicit MoveSymmetry(const drop::Game& game)
      : game_(game), small_(game.geometry().squares() <= 32) {
    const auto& symmetries = game.geometry().symmetries();
    const int last = game.geometry().squares() - 1;
    for (int s = 0; s < int(symmetries.size()); ++s) {
      bool turns = true;
      for (int sq = 0; sq <= last; ++sq) turns &= symmetries[s].image[sq] == last - sq;
      if (turns) half_turn_ = s;
    }
  }

  std::uint32_t stabilizer(const drop::Position& p) const {
    const auto& symmetries = game_.geometry().symmetries();
    const drop::Bitboard occupied = p.occupied();
    std::uint32_t fixed = 1;
    for (int s = 1; s < int(symmetries.size()); ++s) {
      const drop::Symmetry& sym = symmetries[s];
      // Most positions fail on the occupied squares alone, the cheapest test.
      if (apply(sym, occupied) != occupied) continue;
      bool same = apply(sym, p.by_color[drop::kWhite]) == p.by_color[drop::kWhite];
      for (drop::PieceType t : drop::kAllPieceTypes)
        same = same && apply(sym, p.by_type[t]) == p.by_type[t];
      if (same) fixed |= 1u << s;
    }
    return fixed;
  }

  drop::Move image(drop::Move m, int s) const {
    const auto& image = game_.geometry().symmetries()[s].image;
    return m.is_drop() ? drop::Move::drop(m.dropped(), image[m.to()])
                       : drop::Move::capture(image[m.from()], image[m.to()]);
  }

  int half_turn() const { return half_turn_; }

  // True when p is its own half-turn image with the colours swapped: the board the second
  // player's mirror strategy keeps.
  bool mirrored(const drop::Position& p) const {
    if (half_turn_ < 0 || p.hand[drop::kWhite] != p.hand[drop::kBlack]) return false;
    const drop::Symmetry& turn = game_.geometry().symmetries()[half_turn_];
    if (apply(turn, p.by_color[drop::kWhite]) != p.by_color[drop::kBlack]) return false;
    for (drop::PieceType t : drop::kAllPieceTypes)
      if (apply(turn, p.by_type[t]) != p.by_type[t]) return false;
    return true;
  }

 private:
  drop::Bitboard apply(const drop::Symmetry& sym, drop::Bitboard b) const {
    return small_ ? sym.apply_small(std::uint32_t(b)) : sym.apply(b);
  }

  const drop::Game& game_;
  bool small_;
  int half_turn_ = -1;
};

}  // namespace drop
