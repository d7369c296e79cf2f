// A Spock position: who stands where and who moves. Board-size facts (which bits are squares)
// live in Geometry; a Position is plain data.
#pragma once

#include <array>
#include <optional>

#include "rules/spock/bitboard.h"
#include "rules/spock/piece.h"

namespace spock {

struct Piece {
  PieceType type;
  Color color;
};

struct Position {
  std::array<Bitboard, 2> by_color{};
  std::array<Bitboard, kPieceTypes> by_type{};
  Color side_to_move = kBlue;

  Bitboard occupied() const { return by_color[kBlue] | by_color[kRed]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color[c] & by_type[t]; }

  // The type on an occupied square (a one-bit set).
  PieceType type_on(Bitboard b) const {
    for (PieceType t : {kRock, kScissors, kLizard, kPaper})
      if (by_type[t] & b) return t;
    return kSpock;
  }
  std::optional<Piece> piece_on(int sq) const {
    const Bitboard b = square_bit(sq);
    if (!(occupied() & b)) return std::nullopt;
    return Piece{type_on(b), by_color[kRed] & b ? kRed : kBlue};
  }
  void put(int sq, Piece p) {
    by_color[p.color] |= square_bit(sq);
    by_type[p.type] |= square_bit(sq);
  }

  bool operator==(const Position&) const = default;
};

}  // namespace spock
