// A position of the drop family: who stands where, what is in each hand, who moves.
// Board-size facts (which bits are squares) live in Geometry; a Position is plain data.
#pragma once

#include <array>
#include <optional>

#include "rules/drop/bitboard.h"
#include "rules/drop/piece.h"
#include "rules/drop/variant.h"

namespace drop {

struct Piece {
  PieceType type;
  Color color;
};

struct Position {
  std::array<Bitboard, 2> by_color{};
  std::array<Bitboard, kPieceTypes> by_type{};
  std::array<Hand, 2> hand{};
  Color side_to_move = kWhite;

  Bitboard occupied() const { return by_color[kWhite] | by_color[kBlack]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color[c] & by_type[t]; }

  std::optional<Piece> piece_on(int sq) const {
    const Bitboard b = square_bit(sq);
    if (!(occupied() & b)) return std::nullopt;
    for (PieceType t : kAllPieceTypes)
      if (by_type[t] & b) return Piece{t, by_color[kBlack] & b ? kBlack : kWhite};
    return std::nullopt;
  }
  void put(int sq, Piece p) {
    by_color[p.color] |= square_bit(sq);
    by_type[p.type] |= square_bit(sq);
  }
  // Pieces of a colour and type, on the board and in hand.
  int count(Color c, PieceType t) const { return popcount(pieces(c, t)) + hand[c][t]; }
  // Pieces in both hands; pieces in play (hands and board), which only captures lower.
  int pieces_in_hands() const {
    int n = 0;
    for (const Hand& h : hand)
      for (int c : h) n += c;
    return n;
  }
  int pieces_in_play() const { return pieces_in_hands() + popcount(occupied()); }

  bool operator==(const Position&) const = default;
};

// The start position of a variant: empty board, full hands, White to move.
inline Position start_position(const Variant& v) {
  Position p;
  p.hand = v.start_hand;
  return p;
}

}  // namespace drop
