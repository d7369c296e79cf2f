// Colours and piece types of the drop family, and their letters in FEN and move notation.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace drop {

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
inline constexpr Color opposite(Color c) {
  return Color(c ^ 1);
}

enum PieceType : std::uint8_t { kKnight = 0, kBishop, kRook, kQueen, kKing };
inline constexpr int kPieceTypes = 5;
inline constexpr std::array<PieceType, kPieceTypes> kAllPieceTypes = {kKnight, kBishop, kRook,
                                                                      kQueen, kKing};

// Upper-case letter of a type ('N', 'B', 'R', 'Q', 'K'); FEN uses lower case for Black.
inline constexpr char piece_letter(PieceType t) {
  return "NBRQK"[t];
}
inline constexpr char piece_letter(PieceType t, Color c) {
  return c == kWhite ? piece_letter(t) : char(piece_letter(t) - 'A' + 'a');
}

// The type named by an upper-case letter, if any.
inline std::optional<PieceType> piece_type_from_upper(char ch) {
  for (PieceType t : kAllPieceTypes)
    if (piece_letter(t) == ch) return t;
  return std::nullopt;
}

}  // namespace drop
