// What move generation and keys need to know about a WxH board, computed once per Game: the
// knight's leaps (Spock), the rays of the 8 directions (sliders and the Rock's run over friends),
// and the board's symmetries.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rules/spock/bitboard.h"

namespace spock {

// The first four are orthogonal (Paper), the last four diagonal (Scissors). Along a "positive"
// direction the square index grows, so the nearest square of a set on the ray is its lowest bit.
enum Direction : int {
  kNorth,
  kEast,
  kSouth,
  kWest,
  kNorthEast,
  kNorthWest,
  kSouthEast,
  kSouthWest
};
inline constexpr int kDirections = 8;
inline constexpr bool is_positive(int d) {
  return d == kNorth || d == kEast || d == kNorthEast || d == kNorthWest;
}

// One symmetry of the board as a permutation of squares, with byte tables that map a whole set of
// squares of a board of at most 32 squares in four lookups (what keys use).
struct Symmetry {
  std::array<std::uint8_t, 64> image{};  // image[sq] = where sq goes
  std::array<std::array<std::uint32_t, 256>, 4> byte_image{};

  std::uint32_t apply_small(std::uint32_t b) const {
    return byte_image[0][b & 0xFF] | byte_image[1][(b >> 8) & 0xFF] |
           byte_image[2][(b >> 16) & 0xFF] | byte_image[3][b >> 24];
  }
};

class Geometry {
 public:
  Geometry(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  int squares() const { return width_ * height_; }
  Bitboard board_mask() const { return board_mask_; }

  Bitboard knight_leaps(int sq) const { return knight_[sq]; }
  // Squares strictly beyond sq in direction d, up to the edge.
  Bitboard ray(int sq, int d) const { return ray_[sq][d]; }
  // The square of a non-empty subset of ray(sq, d) nearest to sq.
  static int nearest(Bitboard on_ray, int d) { return is_positive(d) ? lsb(on_ray) : msb(on_ray); }

  // The identity first; 8 elements on a square board, 4 otherwise.
  const std::vector<Symmetry>& symmetries() const { return symmetries_; }

  int square(int file, int rank) const { return rank * width_ + file; }
  int file_of(int sq) const { return sq % width_; }
  int rank_of(int sq) const { return sq / width_; }

 private:
  int width_, height_;
  Bitboard board_mask_;
  std::array<Bitboard, 64> knight_{};
  std::array<std::array<Bitboard, kDirections>, 64> ray_{};
  std::vector<Symmetry> symmetries_;
};

}  // namespace spock
