#include "rules/nevsky/geometry.h"

namespace nevsky {

namespace {

constexpr int kColumnStep[kDirections] = {1, 0, -1, 0};  // right, up, left, down
constexpr int kRowStep[kDirections] = {0, 1, 0, -1};

}  // namespace

Geometry::Geometry(int size)
    : size_(size), board_mask_(size == 8 ? ~Bitboard{0} : (Bitboard{1} << (size * size)) - 1) {
  const int last = size - 1;
  const auto on_grid = [size](int c, int r) { return c >= 0 && c < size && r >= 0 && r < size; };
  for (int r = 0; r < size; ++r) {
    first_column_ |= cell_bit(cell(0, r));
    last_column_ |= cell_bit(cell(last, r));
  }
  for (int sq = 0; sq < cells(); ++sq) {
    const int c = column_of(sq), r = row_of(sq);
    for (int d = 0; d < kDirections; ++d) {
      const int dc = kColumnStep[d], dr = kRowStep[d];
      if (on_grid(c + dc, r + dr)) step_[sq][d] = cell_bit(cell(c + dc, r + dr));
      if (on_grid(c + 2 * dc, r + 2 * dr)) jump_[sq][d] = cell_bit(cell(c + 2 * dc, r + 2 * dr));
      for (int g = c + dc, h = r + dr; on_grid(g, h); g += dc, h += dr)
        ray_[sq][d] |= cell_bit(cell(g, h));
    }
    // Anticlockwise quarter turn: (c, r) -> (last - r, c), top right to top left.
    turned_[0][sq] = std::uint8_t(sq);
    for (int k = 1; k < 4; ++k) {
      const int t = turned_[k - 1][sq];
      turned_[k][sq] = std::uint8_t(cell(last - row_of(t), column_of(t)));
    }
    // The diagonal from the top left to the bottom right: (c, r) -> (last - r, last - c).
    reflected_[sq] = std::uint8_t(cell(last - r, last - c));
  }
  corner_ = {cell(0, last), cell(last, last), cell(last, 0), cell(0, 0)};
}

}  // namespace nevsky
