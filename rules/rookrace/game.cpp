#include "rules/rookrace/game.h"

#include <algorithm>

namespace rookrace {

namespace {

constexpr int kFileStep[4] = {0, 1, 0, -1};  // north, east, south, west
constexpr int kRankStep[4] = {1, 0, -1, 0};

constexpr int kOwnPawns = 0, kOtherPawns = 3, kRooks = 96, kCounters = 108, kReserves = 112;
constexpr int kSideBit = 127;

}  // namespace

Game::Game(Variant v)
    : variant_(v), board_mask_(squares() == 64 ? ~Bitboard{0} : (Bitboard{1} << squares()) - 1) {
  const int n = v.size;
  const auto on_board = [n](int f, int r) { return f >= 0 && f < n && r >= 0 && r < n; };
  for (int sq = 0; sq < squares(); ++sq) {
    const int f = file_of(sq), r = rank_of(sq);
    for (int df = 0; df < 2; ++df)
      for (int dr = 0; dr < 2; ++dr)
        block_mask_[sq] |= Bitboard{1} << square(f / 2 * 2 + df, r / 2 * 2 + dr);
    for (int d = 0; d < kDirections; ++d)
      for (int g = f + kFileStep[d], h = r + kRankStep[d]; on_board(g, h);
           g += kFileStep[d], h += kRankStep[d])
        ray_[sq][d] |= Bitboard{1} << square(g, h);
    const int last = n - 1;
    image_[0][sq] = std::uint8_t(sq);
    image_[1][sq] = std::uint8_t(square(r, f));                // a1-h8 reflection
    image_[2][sq] = std::uint8_t(square(last - f, last - r));  // half turn
    image_[3][sq] = std::uint8_t(square(last - r, last - f));  // a8-h1 reflection
  }
}

Position Game::start() const {
  Position p;
  p.rook = {std::uint8_t(start_corner(kWhite)), std::uint8_t(start_corner(kBlack))};
  p.reserve = {std::uint8_t(variant_.pawns), std::uint8_t(variant_.pawns)};
  return p;
}

Key128 Game::packed(const Position& p, const std::array<std::uint8_t, 64>& image, Color us) const {
  const Color them = opposite(us);
  Key128 k = 0;
  for (const auto& [side, shift] : {std::pair{us, kOwnPawns}, std::pair{them, kOtherPawns}})
    for (Bitboard b = p.pawns[side]; b; b &= b - 1) {
      const int t = image[std::countr_zero(b)];
      const int code = 1 + 2 * (rank_of(t) & 1) + (file_of(t) & 1);
      k |= Key128(code) << (6 * block_index(t) + shift);
    }
  k |= Key128(image[p.rook[us]]) << kRooks | Key128(image[p.rook[them]]) << (kRooks + 6);
  k |= Key128(p.inside[us]) << kCounters | Key128(p.inside[them]) << (kCounters + 2);
  k |= Key128(p.reserve[us]) << kReserves | Key128(p.reserve[them]) << (kReserves + 7);
  return k;
}

Key Game::raw_key(const Position& p) const {
  return common::to_key(packed(p, image_[0], kWhite) | Key128(p.side_to_move) << kSideBit);
}

Key Game::symmetric_key(const Position& p) const {
  const Key128 least = std::min(packed(p, image_[0], kWhite), packed(p, image_[1], kWhite));
  return common::to_key(least | Key128(p.side_to_move) << kSideBit);
}

Key Game::canonical_key(const Position& p) const {
  const bool white = p.side_to_move == kWhite;
  const Color us = p.side_to_move;
  return common::to_key(
      std::min(packed(p, image_[white ? 0 : 2], us), packed(p, image_[white ? 1 : 3], us)));
}

Position Game::from_key(Key key) const {
  const Key128 k = common::from_key(key);
  const auto bits = [&](int at, int width) { return int(k >> at) & ((1 << width) - 1); };
  Position p;
  for (int b = 0; b < blocks(); ++b) {
    const int block_file = b % (size() / 2) * 2, block_rank = b / (size() / 2) * 2;
    for (const auto& [side, shift] : {std::pair{kWhite, kOwnPawns}, std::pair{kBlack, kOtherPawns}})
      if (const int code = bits(6 * b + shift, 3))
        p.pawns[side] |= Bitboard{1}
                         << square(block_file + ((code - 1) & 1), block_rank + ((code - 1) >> 1));
  }
  p.rook = {std::uint8_t(bits(kRooks, 6)), std::uint8_t(bits(kRooks + 6, 6))};
  p.inside = {std::uint8_t(bits(kCounters, 2)), std::uint8_t(bits(kCounters + 2, 2))};
  p.reserve = {std::uint8_t(bits(kReserves, 7)), std::uint8_t(bits(kReserves + 7, 7))};
  p.side_to_move = Color(bits(kSideBit, 1));
  return p;
}

}  // namespace rookrace
