#include "rules/common/board_geometry.h"

namespace common {

using namespace bitboards;

namespace {

constexpr int kFileStep[kDirections] = {0, 1, 0, -1, 1, -1, 1, -1};
constexpr int kRankStep[kDirections] = {1, 0, -1, 0, 1, 1, -1, -1};

// The symmetry that sends (file, rank) to f(file, rank).
template <typename F>
Symmetry make_symmetry(int width, int height, F f) {
  Symmetry s;
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) {
      const auto [c2, r2] = f(c, r);
      s.image[r * width + c] = std::uint8_t(r2 * width + c2);
    }
  const int squares = width * height;
  if (squares > 32) return s;
  for (int byte = 0; byte < 4; ++byte)
    for (int v = 0; v < 256; ++v) {
      std::uint32_t out = 0;
      for (int bit = 0; bit < 8; ++bit) {
        const int sq = byte * 8 + bit;
        if ((v >> bit & 1) && sq < squares) out |= std::uint32_t{1} << s.image[sq];
      }
      s.byte_image[byte][v] = out;
    }
  return s;
}

}  // namespace

Bitboard Symmetry::apply(Bitboard b) const {
  Bitboard out = 0;
  while (b) out |= square_bit(image[pop_lsb(b)]);
  return out;
}

BoardGeometry::BoardGeometry(int width, int height)
    : width_(width),
      height_(height),
      board_mask_(width * height == 64 ? ~Bitboard{0} : (Bitboard{1} << (width * height)) - 1) {
  auto on_board = [&](int f, int r) { return f >= 0 && f < width && r >= 0 && r < height; };
  for (int sq = 0; sq < squares(); ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    for (auto [df, dr] :
         {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
      if (on_board(f + df, r + dr)) knight_[sq] |= square_bit(square(f + df, r + dr));
    for (int d = 0; d < kDirections; ++d) {
      if (on_board(f + kFileStep[d], r + kRankStep[d]))
        king_[sq] |= square_bit(square(f + kFileStep[d], r + kRankStep[d]));
      for (int g = f + kFileStep[d], h = r + kRankStep[d]; on_board(g, h);
           g += kFileStep[d], h += kRankStep[d])
        ray_[sq][d] |= square_bit(square(g, h));
    }
  }
  const int w = width - 1, h = height - 1;
  symmetries_.push_back(make_symmetry(width, height, [](int c, int r) { return std::pair{c, r}; }));
  symmetries_.push_back(make_symmetry(width, height, [w](int c, int r) {
    return std::pair{w - c, r};
  }));
  symmetries_.push_back(make_symmetry(width, height, [h](int c, int r) {
    return std::pair{c, h - r};
  }));
  symmetries_.push_back(make_symmetry(width, height, [w, h](int c, int r) {
    return std::pair{w - c, h - r};
  }));
  if (width == height) {
    symmetries_.push_back(make_symmetry(width, height, [](int c, int r) {
      return std::pair{r, c};
    }));
    symmetries_.push_back(make_symmetry(width, height, [w](int c, int r) {
      return std::pair{w - r, c};
    }));
    symmetries_.push_back(make_symmetry(width, height, [w](int c, int r) {
      return std::pair{r, w - c};
    }));
    symmetries_.push_back(make_symmetry(width, height, [w](int c, int r) {
      return std::pair{w - r, w - c};
    }));
  }
}

}  // namespace common
