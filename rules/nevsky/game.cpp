#include "rules/nevsky/game.h"

#include <algorithm>

namespace nevsky {

namespace {

constexpr int kMoverShift = 126;

constexpr std::array<Player, kPlayers> kUnchanged = {kWhite, kRed, kGreen, kBlack};

}  // namespace

Game::Game(const Variant& v) : variant_((check_variant(v), v)), geometry_(v.size) {
  const Geometry& g = geometry_;
  const int last = size() - 1, k = v.radius();
  // White's group and kings; the others' are their images under the quarter turns, which take
  // White's corner to each player's (quarter_turns(4 - q) takes White's corner to q's).
  Bitboard group = 0, kings = 0;
  for (int sq = 0; sq < g.cells(); ++sq)
    if (g.column_of(sq) + (last - g.row_of(sq)) <= k) group |= cell_bit(sq);
  const int king_cells[kMaxKings] = {g.cell(0, last), g.cell(1, last), g.cell(0, last - 1)};
  for (int i = 0; i < v.kings; ++i) kings |= cell_bit(king_cells[i]);
  for (Player q : kAllPlayers) {
    const CellMap& image = g.quarter_turns((kPlayers - q) % kPlayers);
    start_.kings[q] = g.map(kings, image);
    start_.men[q] = g.map(group & ~kings, image);
  }
  give_turn(start_, kWhite);
  for (int t = 0; t < 4; ++t)
    for (int sq = 0; sq < g.cells(); ++sq)
      turned_and_reflected_[t][sq] = g.reflection()[g.quarter_turns(t)[sq]];
}

Key128 Game::packed(const Position& p, const CellMap* image,
                    const std::array<Player, kPlayers>& renamed) const {
  std::array<Bitboard, kPlayers> of{};
  Bitboard crowned = 0;
  for (Player q : kAllPlayers) {
    Bitboard checkers = p.checkers(q), kings = p.kings[q];
    if (image) {
      checkers = geometry_.map(checkers, *image);
      kings = geometry_.map(kings, *image);
    }
    of[renamed[q]] = checkers;
    crowned |= kings;
  }
  const Bitboard occupied = of[0] | of[1] | of[2] | of[3];
  const int n = popcount(occupied);
  int at = geometry_.cells();
  Key128 k = occupied;
  k |= Key128(extract_bits(of[kRed] | of[kBlack], occupied)) << at;
  at += n;
  k |= Key128(extract_bits(of[kGreen] | of[kBlack], occupied)) << at;
  at += n;
  k |= Key128(extract_bits(crowned, occupied)) << at;
  return k | Key128(renamed[p.to_move]) << kMoverShift;
}

Key Game::raw_key(const Position& p) const {
  return common::to_key(packed(p, nullptr, kUnchanged));
}

CanonicalForm Game::canonical_form(const Position& p) const {
  // The quarter turn that brings the mover's corner to White's: t anticlockwise turns, q -> q - t.
  const int t = p.to_move;
  CanonicalForm form;
  for (Player q : kAllPlayers) form.renamed[q] = Player((q + kPlayers - t) % kPlayers);
  Key128 least = packed(p, t ? &geometry_.quarter_turns(t) : nullptr, form.renamed);
  if (popcount(p.players_left()) <= 2) {
    // Then the reflection in White's diagonal, which swaps Red's and Black's corners.
    std::array<Player, kPlayers> reflected;
    for (Player q : kAllPlayers) reflected[q] = Player((kPlayers - form.renamed[q]) % kPlayers);
    const Key128 mirror = packed(p, &turned_and_reflected_[t], reflected);
    if (mirror < least) {
      least = mirror;
      form.renamed = reflected;
    }
  }
  form.key = common::to_key(least);
  return form;
}

Position Game::from_key(Key key) const {
  const Key128 k = common::from_key(key);
  const int cells = geometry_.cells();
  const Bitboard occupied = std::uint64_t(k) & geometry_.board_mask();
  const int n = popcount(occupied);
  const auto plane = [&](int at) {
    const std::uint64_t bits = std::uint64_t(k >> at) & (n == 64 ? ~0ull : (1ull << n) - 1);
    return deposit_bits(bits, occupied);
  };
  const Bitboard low = plane(cells), high = plane(cells + n), crowned = plane(cells + 2 * n);
  Position p;
  const Bitboard owned_by[kPlayers] = {occupied & ~low & ~high, low & ~high, ~low & high,
                                       low & high};
  for (Player q : kAllPlayers) {
    p.men[q] = owned_by[q] & occupied & ~crowned;
    p.kings[q] = owned_by[q] & occupied & crowned;
  }
  p.to_move = Player(int(k >> kMoverShift) & 3);
  return p;
}

}  // namespace nevsky
