// Everything move generation and keys need to know about a WxH board of at most 64 squares,
// computed once per variant: the knight's and the king's leaps, the rays of the 8 directions, and
// the board's symmetries. Shared by the games on a rectangular grid of squares (Drop 16, Spock);
// each takes it into its namespace as its `Geometry`.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rules/common/bitboard.h"

namespace common {

using bitboards::Bitboard;

// Ray directions: the first four orthogonal (the rook's), the last four diagonal (the bishop's).
// Along a "positive" direction the square index grows, so the nearest square of a set on the ray
// is its lowest bit.
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
// squares at once (four lookups for boards of up to 32 squares, the keys' fast path; larger boards
// keep the tables empty and use apply).
struct Symmetry {
  std::array<std::uint8_t, 64> image{};  // image[sq] = where sq goes
  std::array<std::array<std::uint32_t, 256>, 4> byte_image{};

  Bitboard apply(Bitboard b) const;  // any board size
  // Fast paths for boards of at most 16 and 32 squares.
  std::uint32_t apply_tiny(std::uint32_t b) const {
    return byte_image[0][b & 0xFF] | byte_image[1][b >> 8];
  }
  std::uint32_t apply_small(std::uint32_t b) const {
    return byte_image[0][b & 0xFF] | byte_image[1][(b >> 8) & 0xFF] |
           byte_image[2][(b >> 16) & 0xFF] | byte_image[3][b >> 24];
  }
};

class BoardGeometry {
 public:
  BoardGeometry(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  int squares() const { return width_ * height_; }
  Bitboard board_mask() const { return board_mask_; }

  Bitboard knight_attacks(int sq) const { return knight_[sq]; }
  Bitboard king_attacks(int sq) const { return king_[sq]; }
  // Squares strictly beyond sq in direction d, up to the edge.
  Bitboard ray(int sq, int d) const { return ray_[sq][d]; }
  // The square of a non-empty subset of ray(sq, d) nearest to sq.
  static int nearest(Bitboard on_ray, int d) {
    return is_positive(d) ? bitboards::lsb(on_ray) : bitboards::msb(on_ray);
  }
  // The first occupied square beyond sq in direction d, or -1.
  int first_blocker(int sq, int d, Bitboard occupied) const {
    const Bitboard hit = ray_[sq][d] & occupied;
    return hit ? nearest(hit, d) : -1;
  }

  // The identity first; 8 elements on a square board, 4 otherwise.
  const std::vector<Symmetry>& symmetries() const { return symmetries_; }

  int square(int file, int rank) const { return rank * width_ + file; }
  int file_of(int sq) const { return sq % width_; }
  int rank_of(int sq) const { return sq / width_; }

 private:
  int width_, height_;
  Bitboard board_mask_;
  std::array<Bitboard, 64> knight_{}, king_{};
  std::array<std::array<Bitboard, kDirections>, 64> ray_{};
  std::vector<Symmetry> symmetries_;
};

}  // namespace common
