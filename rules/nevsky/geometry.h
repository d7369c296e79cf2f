// What move generation and keys need to know about an N x N grid (3 <= N <= 8), computed once per
// Game: each cell's neighbours, the cells two steps away (a man's jump), the lines a king flies
// along, the corners, and the quarter turns and the reflection that keys use.
#pragma once

#include <array>
#include <cstdint>

#include "rules/nevsky/bitboard.h"
#include "rules/nevsky/player.h"

namespace nevsky {

// The grid's four directions. Right and up are "positive": the cell index grows along them, so
// the nearest cell of a set on a ray is its lowest bit. opposite(d) = d ^ 2.
enum Direction : int { kRight = 0, kUp = 1, kLeft = 2, kDown = 3 };
inline constexpr int kDirections = 4;
inline constexpr bool is_positive(int d) {
  return d == kRight || d == kUp;
}

// A player's two forward directions ("arrows", NEVSKY.md): White right and down, Red left and
// down, Green left and up, Black right and up.
inline constexpr std::array<Direction, 2> forward_directions(Player p) {
  constexpr std::array<std::array<Direction, 2>, kPlayers> kForward = {
      {{kRight, kDown}, {kLeft, kDown}, {kLeft, kUp}, {kRight, kUp}}};
  return kForward[p];
}

// A map of cells, image[cell] = where the cell goes.
using CellMap = std::array<std::uint8_t, 64>;

class Geometry {
 public:
  explicit Geometry(int size);

  int size() const { return size_; }
  int cells() const { return size_ * size_; }
  Bitboard board_mask() const { return board_mask_; }
  int cell(int column, int row) const { return row * size_ + column; }  // both from 0
  int column_of(int cell) const { return cell % size_; }
  int row_of(int cell) const { return cell / size_; }

  // The neighbour of `cell` in direction d, as a one-cell set (empty off the grid).
  Bitboard step(int cell, int d) const { return step_[cell][d]; }
  // The cell two steps away in direction d, where a man lands when it jumps (empty off the grid).
  Bitboard jump(int cell, int d) const { return jump_[cell][d]; }
  // Every cell strictly beyond `cell` in direction d, up to the edge.
  Bitboard ray(int cell, int d) const { return ray_[cell][d]; }
  // The cell of a non-empty subset of ray(cell, d) nearest to `cell`.
  static int nearest(Bitboard on_ray, int d) { return is_positive(d) ? lsb(on_ray) : msb(on_ray); }
  // Every cell of a set moved one step in direction d (cells that would leave the grid vanish).
  Bitboard shift(Bitboard b, int d) const {
    switch (d) {
      case kRight:
        return (b & ~last_column_) << 1;
      case kLeft:
        return (b & ~first_column_) >> 1;
      case kUp:
        return (b << size_) & board_mask_;
      default:
        return b >> size_;
    }
  }

  // A player's start corner, and its goal: the opposite corner, the start corner of its partner.
  int corner(Player p) const { return corner_[p]; }
  int goal(Player p) const { return corner_[partner(p)]; }

  // quarter_turns(k): the grid turned k quarter turns anticlockwise (k = 0..3). It takes each
  // player's corner to the corner of the player k places before it in the order of play (Red's to
  // White's for k = 1), and so each player's forward directions to that player's: with the
  // colours renamed p -> p - k, the rules and the order of play are kept.
  const CellMap& quarter_turns(int k) const { return turned_[k]; }
  // The reflection in the diagonal through White's and Green's corners: it keeps those two
  // corners and swaps Red's and Black's. With Red and Black renamed it keeps the rules but
  // reverses the order of play.
  const CellMap& reflection() const { return reflected_; }
  // Every cell of a set through a map.
  Bitboard map(Bitboard b, const CellMap& image) const {
    Bitboard out = 0;
    while (b) out |= cell_bit(image[pop_lsb(b)]);
    return out;
  }

 private:
  int size_;
  Bitboard board_mask_, first_column_ = 0, last_column_ = 0;
  std::array<std::array<Bitboard, kDirections>, 64> step_{}, jump_{}, ray_{};
  std::array<int, kPlayers> corner_{};
  std::array<CellMap, 4> turned_{};
  CellMap reflected_{};
};

}  // namespace nevsky
