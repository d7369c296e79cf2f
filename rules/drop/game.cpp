#include "rules/drop/game.h"

#include <algorithm>
#include <bit>

#include "rules/common/nibble_board.h"

namespace drop {

namespace {

// Exchanges the bits of x selected by mask with those `shift` places above them.
std::uint64_t delta_swap(std::uint64_t x, std::uint64_t mask, int shift) {
  const std::uint64_t t = (x ^ (x >> shift)) & mask;
  return x ^ t ^ (t << shift);
}

// The least of the 8 images of a 4x4 board of nibbles (square r*4+c at bits 4(r*4+c)): the
// common case of hashing done with word operations instead of square-by-square permutations.
std::uint64_t least_image_4x4(std::uint64_t board) {
  const auto mirror_files = [](std::uint64_t x) {
    x = delta_swap(x, 0x0F0F0F0F0F0F0F0Full, 4);     // nibbles within bytes
    return delta_swap(x, 0x00FF00FF00FF00FFull, 8);  // bytes within each 16-bit rank
  };
  const auto mirror_ranks = [](std::uint64_t x) {
    x = delta_swap(x, 0x0000FFFF0000FFFFull, 16);
    return delta_swap(x, 0x00000000FFFFFFFFull, 32);
  };
  const auto transpose = [](std::uint64_t x) {
    x = delta_swap(x, 0x0000F0F00000F0F0ull, 12);     // inside each 2x2 block
    return delta_swap(x, 0x00000000FF00FF00ull, 24);  // the off-diagonal blocks
  };
  const std::uint64_t f = mirror_files(board), r = mirror_ranks(board), fr = mirror_ranks(f);
  return std::min({board, f, r, fr, transpose(board), transpose(f), transpose(r), transpose(fr)});
}

// Square code in a key: 0 empty, 1..5 the key's own side's N B R Q K, 6..10 the other side's.
constexpr int code_of(PieceType t, bool theirs) {
  return 1 + t + 5 * theirs;
}

}  // namespace

Game::Game(const Variant& v) : variant_(v), geometry_(v.width, v.height) {
  Key128 states = 1;
  for (PieceType t : kAllPieceTypes) {
    hand_radix_[t] = std::max(v.max_count(kWhite, t), v.max_count(kBlack, t)) + 1;
    states *= Key128(hand_radix_[t]) * hand_radix_[t];
  }
  hand_bits_ = 0;
  while ((Key128(1) << hand_bits_) < states) ++hand_bits_;
}

std::array<std::uint32_t, 4> Game::code_planes(const Position& p, Color us) const {
  std::array<std::uint32_t, 4> planes{};
  for (int side = 0; side < 2; ++side)
    for (PieceType t : kAllPieceTypes) {
      const auto bb = std::uint32_t(p.pieces(side ? opposite(us) : us, t));
      const int code = code_of(t, side);
      for (int j = 0; j < 4; ++j)
        if (code >> j & 1) planes[j] |= bb;
    }
  return planes;
}

Key128 Game::hand_bits(const Position& p, Color us) const {
  Key128 index = 0;
  for (Color c : {us, opposite(us)})
    for (PieceType t : kAllPieceTypes) index = index * hand_radix_[t] + p.hand[c][t];
  return index << (4 * geometry_.squares());
}

Key Game::raw_key(const Position& p) const {
  const Key128 stm = Key128(p.side_to_move) << (key_bits() - 1);
  return to_key(common::nibble_board(code_planes(p, kWhite)) | hand_bits(p, kWhite) | stm);
}

template <bool kMoverRelative>
Key Game::least_image(const Position& p) const {
  const Color us = kMoverRelative ? p.side_to_move : kWhite;
  const auto planes = code_planes(p, us);
  Key128 best = ~Key128(0);
  if (geometry_.width() == 4 && geometry_.height() == 4)
    best = least_image_4x4(std::uint64_t(common::nibble_board(planes)));
  else
    for (const Symmetry& s : geometry_.symmetries()) {
      std::array<std::uint32_t, 4> image;
      for (int j = 0; j < 4; ++j) image[j] = s.apply_small(planes[j]);
      best = std::min(best, common::nibble_board(image));
    }
  Key128 rest = hand_bits(p, us);
  if (!kMoverRelative) rest |= Key128(p.side_to_move) << (key_bits() - 1);
  return to_key(best | rest);
}

Key Game::symmetric_key(const Position& p) const {
  return least_image<false>(p);
}
Key Game::canonical_key(const Position& p) const {
  return least_image<true>(p);
}

Position Game::from_key(Key k) const {
  Key128 v = drop::from_key(k);
  Position p;
  const int n = geometry_.squares();
  for (int sq = 0; sq < n; ++sq) {
    const int code = int(v >> (4 * sq)) & 15;
    if (code) p.put(sq, Piece{PieceType((code - 1) % 5), code > 5 ? kBlack : kWhite});
  }
  Key128 hands = (v >> (4 * n)) & ((Key128(1) << hand_bits_) - 1);
  for (Color c : {kBlack, kWhite})
    for (int t = kPieceTypes - 1; t >= 0; --t) {
      p.hand[c][t] = std::uint8_t(hands % hand_radix_[t]);
      hands /= hand_radix_[t];
    }
  p.side_to_move = Color(int(v >> (key_bits() - 1)) & 1);
  return p;
}

Position Game::transformed(const Position& p, const Symmetry& s) const {
  Position q = p;
  for (auto& b : q.by_color) b = s.apply(b);
  for (auto& b : q.by_type) b = s.apply(b);
  return q;
}

Position Game::color_swapped(const Position& p) const {
  Position q = p;
  std::swap(q.by_color[kWhite], q.by_color[kBlack]);
  std::swap(q.hand[kWhite], q.hand[kBlack]);
  q.side_to_move = opposite(p.side_to_move);
  return q;
}

}  // namespace drop
