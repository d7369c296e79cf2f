#include "rules/teeko/game.h"

#include <algorithm>

namespace teeko {

namespace {

constexpr int kOther = 64, kSideBit = 127;

}  // namespace

Game::Game(Variant v) : variant_(v), board_mask_((Bitboard{1} << squares()) - 1) {
  const int n = v.size, last = n - 1;
  const auto on_board = [n](int f, int r) { return f >= 0 && f < n && r >= 0 && r < n; };
  const auto bit = [this](int f, int r) { return Bitboard{1} << square(f, r); };
  for (int sq = 0; sq < squares(); ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    for (int df = -1; df <= 1; ++df)
      for (int dr = -1; dr <= 1; ++dr)
        if ((df || dr) && on_board(f + df, r + dr)) neighbours_[sq] |= bit(f + df, r + dr);
    // The rotations by quarter turns, then the reflections.
    const std::array<std::pair<int, int>, kSymmetries> images = {{{f, r},
                                                                  {last - r, f},
                                                                  {last - f, last - r},
                                                                  {r, last - f},
                                                                  {last - f, r},
                                                                  {f, last - r},
                                                                  {r, f},
                                                                  {last - r, last - f}}};
    for (int g = 0; g < kSymmetries; ++g)
      image_[g][sq] = std::uint8_t(square(images[g].first, images[g].second));
  }
  // Four in a line: from each square, towards the east, the north, the north-east, the
  // north-west; and every 2x2 block.
  constexpr int kLineSteps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
  for (int sq = 0; sq < squares(); ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    for (const auto& [df, dr] : kLineSteps)
      if (on_board(f + 3 * df, r + 3 * dr))
        patterns_.push_back(bit(f, r) | bit(f + df, r + dr) | bit(f + 2 * df, r + 2 * dr) |
                            bit(f + 3 * df, r + 3 * dr));
    if (on_board(f + 1, r + 1))
      patterns_.push_back(bit(f, r) | bit(f + 1, r) | bit(f, r + 1) | bit(f + 1, r + 1));
    // The advanced variant: the corners of every square of side 3 or more.
    if (v.advanced)
      for (int side = 3; side <= n; ++side)
        if (on_board(f + side - 1, r + side - 1))
          patterns_.push_back(bit(f, r) | bit(f + side - 1, r) | bit(f, r + side - 1) |
                              bit(f + side - 1, r + side - 1));
  }
  for (const Bitboard p : patterns_) patterns_from_[std::countr_zero(p)].push_back(p);
}

Key128 Game::packed(const Position& p, int g, Color own) const {
  return Key128(image(g, p.pieces[own])) | Key128(image(g, p.pieces[opposite(own)])) << kOther;
}

Key Game::raw_key(const Position& p) const {
  return common::to_key(packed(p, 0, kBlack) | Key128(p.side_to_move) << kSideBit);
}

Key Game::symmetric_key(const Position& p) const {
  Key128 least = packed(p, 0, kBlack);
  for (int g = 1; g < kSymmetries; ++g) least = std::min(least, packed(p, g, kBlack));
  return common::to_key(least | Key128(p.side_to_move) << kSideBit);
}

Key Game::canonical_key(const Position& p) const {
  Key128 least = packed(p, 0, p.side_to_move);
  for (int g = 1; g < kSymmetries; ++g) least = std::min(least, packed(p, g, p.side_to_move));
  return common::to_key(least);
}

Position Game::from_key(Key key) const {
  const Key128 k = common::from_key(key);
  Position p;
  p.pieces[kBlack] = Bitboard(k) & board_mask_;
  p.pieces[kRed] = Bitboard(k >> kOther) & board_mask_;
  p.side_to_move = Color(int(k >> kSideBit) & 1);
  return p;
}

}  // namespace teeko
