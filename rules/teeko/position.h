// A Teeko position: each side's squares and the side to move. Plain data; what the squares are
// (the board's size, the patterns) lives in Game. The pieces in hand follow from those on the
// board (four a side), so they are not stored.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace teeko {

using Bitboard = std::uint64_t;  // bit (rank * size + file)

// Black moves first (written X), then Red (written O).
enum Color : std::uint8_t { kBlack = 0, kRed = 1 };
inline constexpr Color opposite(Color c) {
  return Color(c ^ 1);
}
inline constexpr const char* color_name(Color c) {
  return c == kBlack ? "Black" : "Red";
}

// The pieces each side has, dropped first and then stepped.
inline constexpr int kPiecesPerSide = 4;

struct Position {
  std::array<Bitboard, 2> pieces{};  // by Color
  Color side_to_move = kBlack;

  Bitboard occupied() const { return pieces[kBlack] | pieces[kRed]; }
  int on_board() const { return std::popcount(occupied()); }
  // While fewer than 8 pieces stand, moves are drops.
  bool dropping() const { return on_board() < 2 * kPiecesPerSide; }

  bool operator==(const Position&) const = default;
};

}  // namespace teeko
