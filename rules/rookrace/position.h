// A rook race position: the two rooks, the pawns on the board, each reserve, each side's count of
// rook moves in a row inside one block, and the side to move. Plain data; what the squares are
// (the board's size) lives in Game.
//
// The block counter is a number only. ROOK-RACE.md has a position carry "the block of its last
// inside moves and a count 0-2"; that block is always the one the side's rook stands in now (a
// move inside a block ends in it, the next inside move can only be inside the same block, and
// drops never move the rook; rooks are never captured), so the count alone is the whole state.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace rookrace {

using Bitboard = std::uint64_t;  // bit (rank * size + file)

// White moves first, starts on a1 and races to the far corner; Black starts there.
enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
inline constexpr Color opposite(Color c) {
  return Color(c ^ 1);
}
inline constexpr const char* color_name(Color c) {
  return c == kWhite ? "White" : "Black";
}

// The most rook moves in a row a side may make inside one block.
inline constexpr int kMaxInsideMoves = 2;

struct Position {
  std::array<Bitboard, 2> pawns{};        // by Color
  std::array<std::uint8_t, 2> rook{};     // square of each side's rook
  std::array<std::uint8_t, 2> reserve{};  // pawns not yet dropped
  std::array<std::uint8_t, 2> inside{};   // rook moves in a row inside the rook's block, 0..2
  Color side_to_move = kWhite;

  Bitboard rooks() const { return Bitboard{1} << rook[kWhite] | Bitboard{1} << rook[kBlack]; }
  Bitboard occupied() const { return pawns[kWhite] | pawns[kBlack] | rooks(); }

  bool operator==(const Position&) const = default;
};

}  // namespace rookrace
