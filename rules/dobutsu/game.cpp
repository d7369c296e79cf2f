#include "rules/dobutsu/game.h"

#include <algorithm>
#include <utility>

namespace dobutsu {

namespace {

constexpr int kHandShift = 48, kSideBit = 127;

// A piece's steps for Sente, as (file, rank) offsets; Gote's are the same turned half round.
struct Offset {
  int df, dr;
};
constexpr Offset kLionSteps[] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                                 {1, 0},   {-1, 1}, {0, 1},  {1, 1}};
constexpr Offset kGiraffeSteps[] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
constexpr Offset kElephantSteps[] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
constexpr Offset kChickSteps[] = {{0, 1}};
constexpr Offset kHenSteps[] = {{0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};

template <std::size_t N>
Bitboard steps_from(int sq, const Offset (&offsets)[N], int forward) {
  Bitboard b = 0;
  for (const Offset& o : offsets) {
    const int f = file_of(sq) + o.df, r = rank_of(sq) + o.dr * forward;
    if (f >= 0 && f < kFiles && r >= 0 && r < kRanks) b |= Bitboard(1u << square_of(f, r));
  }
  return b;
}

Key128 packed(const Position& p) {
  Key128 k = 0;
  for (int sq = 0; sq < kSquares; ++sq) k |= Key128(p.cell(sq)) << (4 * sq);
  for (int c = 0; c < 2; ++c)
    for (int kind = 0; kind < kHandKinds; ++kind)
      k |= Key128(p.hand[c][kind]) << (kHandShift + 2 * (kHandKinds * c + kind));
  return k;
}

}  // namespace

Game::Game(Variant v) : variant_(v) {
  for (int c = 0; c < 2; ++c) {
    const int forward = c == kSente ? 1 : -1;
    for (int sq = 0; sq < kSquares; ++sq) {
      steps_[c][kLion][sq] = steps_from(sq, kLionSteps, forward);
      steps_[c][kGiraffe][sq] = steps_from(sq, kGiraffeSteps, forward);
      steps_[c][kElephant][sq] = steps_from(sq, kElephantSteps, forward);
      steps_[c][kChick][sq] = steps_from(sq, kChickSteps, forward);
      steps_[c][kHen][sq] = steps_from(sq, kHenSteps, forward);
    }
    for (int k = 0; k < kKinds; ++k)
      for (int from = 0; from < kSquares; ++from)
        for (unsigned t = steps_[c][k][from]; t; t &= t - 1)
          attackers_[c][k][__builtin_ctz(t)] |= Bitboard(1u << from);
  }
}

Position Game::start() const {
  Position p;
  p.set(square_of(0, 0), cell_of(kSente, kElephant));
  p.set(square_of(1, 0), cell_of(kSente, kLion));
  p.set(square_of(2, 0), cell_of(kSente, kGiraffe));
  p.set(square_of(1, 1), cell_of(kSente, kChick));
  p.set(square_of(1, 2), cell_of(kGote, kChick));
  p.set(square_of(0, 3), cell_of(kGote, kGiraffe));
  p.set(square_of(1, 3), cell_of(kGote, kLion));
  p.set(square_of(2, 3), cell_of(kGote, kElephant));
  return p;
}

namespace {

// A set of squares turned half round, and in the mirror: tables of every 12-bit set.
struct SquareMaps {
  std::array<Bitboard, 1 << kSquares> turned{}, mirrored{};
  SquareMaps() {
    for (unsigned m = 0; m < turned.size(); ++m)
      for (int sq = 0; sq < kSquares; ++sq)
        if (m >> sq & 1) {
          turned[m] |= Bitboard(1u << dobutsu::turned(sq));
          mirrored[m] |= Bitboard(1u << dobutsu::mirrored(sq));
        }
  }
};
const SquareMaps kMaps;

}  // namespace

Position Game::swapped(const Position& p) {
  Position s;
  s.side = {kMaps.turned[p.side[kGote]], kMaps.turned[p.side[kSente]]};
  for (int k = 0; k < kKinds; ++k) s.kind[k] = kMaps.turned[p.kind[k]];
  s.hand = {p.hand[kGote], p.hand[kSente]};
  s.side_to_move = opposite(p.side_to_move);
  return s;
}

Position Game::mirror(const Position& p) {
  Position m = p;
  for (int c = 0; c < 2; ++c) m.side[c] = kMaps.mirrored[p.side[c]];
  for (int k = 0; k < kKinds; ++k) m.kind[k] = kMaps.mirrored[p.kind[k]];
  return m;
}

Key Game::raw_key(const Position& p) const {
  return common::to_key(packed(p) | Key128(p.side_to_move) << kSideBit);
}

Key Game::symmetric_key(const Position& p) const {
  return common::to_key(std::min(packed(p), packed(mirror(p))) | Key128(p.side_to_move)
                                                                     << kSideBit);
}

Key Game::canonical_key(const Position& p) const {
  const Position q = p.side_to_move == kSente ? p : swapped(p);
  return common::to_key(std::min(packed(q), packed(mirror(q))));
}

Position Game::from_key(Key key) const {
  const Key128 k = common::from_key(key);
  Position p;
  for (int sq = 0; sq < kSquares; ++sq) p.set(sq, Cell(int(k >> (4 * sq)) & 15));
  for (int c = 0; c < 2; ++c)
    for (int kind = 0; kind < kHandKinds; ++kind)
      p.hand[c][kind] = std::uint8_t(int(k >> (kHandShift + 2 * (kHandKinds * c + kind))) & 3);
  p.side_to_move = Color(int(k >> kSideBit) & 1);
  return p;
}

}  // namespace dobutsu
