#include "rules/drop/placements.h"

namespace drop {

namespace {

// Every part of `hand` with `size` pieces.
std::vector<Hand> sub_hands(const Hand& hand, int size) {
  std::vector<Hand> out;
  Hand part{};
  auto choose = [&](auto& self, int type, int left) -> void {
    if (type == kPieceTypes) {
      if (!left) out.push_back(part);
      return;
    }
    for (int n = 0; n <= hand[type] && n <= left; ++n) {
      part[type] = std::uint8_t(n);
      self(self, type + 1, left - n);
    }
    part[type] = 0;
  };
  choose(choose, 0, size);
  return out;
}

}  // namespace

int last_drop_ply(const Variant& v) {
  int ply = 0;
  while (ply < v.squares()) {
    const bool white_moves = ply % 2 == 0;
    const int dropped_by_mover = white_moves ? (ply + 1) / 2 : ply / 2;
    if (v.hand_size(white_moves ? kWhite : kBlack) <= dropped_by_mover) break;
    ++ply;
  }
  return ply;
}

std::vector<DroppedPieces> dropped_after(const Variant& v, int ply) {
  std::vector<DroppedPieces> out;
  if (ply < 0 || ply > last_drop_ply(v)) return out;
  for (const Hand& white : sub_hands(v.start_hand[kWhite], (ply + 1) / 2))
    for (const Hand& black : sub_hands(v.start_hand[kBlack], ply / 2))
      out.push_back({white, black});
  return out;
}

std::vector<int> colour_multiplicities(const Variant& v, const DroppedPieces& d) {
  std::vector<int> m(kSquareColours, 0);
  int pieces = 0;
  for (PieceType t : kAllPieceTypes) {
    m[square_colour({t, kWhite})] = d.white[t];
    m[square_colour({t, kBlack})] = d.black[t];
    pieces += d.white[t] + d.black[t];
  }
  m[0] = v.squares() - pieces;
  return m;
}

Position position_from_colours(const Variant& v, const DroppedPieces& d,
                               std::span<const int> colours) {
  Position p = start_position(v);
  int pieces = 0;
  for (int sq = 0; sq < int(colours.size()); ++sq) {
    if (!colours[sq]) continue;
    const int code = colours[sq] - 1;
    p.put(sq, Piece{PieceType(code % kPieceTypes), Color(code / kPieceTypes)});
    ++pieces;
  }
  for (PieceType t : kAllPieceTypes) {
    p.hand[kWhite][t] = std::uint8_t(p.hand[kWhite][t] - d.white[t]);
    p.hand[kBlack][t] = std::uint8_t(p.hand[kBlack][t] - d.black[t]);
  }
  p.side_to_move = Color(pieces % 2);
  return p;
}

std::vector<std::vector<int>> square_permutations(const Geometry& g) {
  std::vector<std::vector<int>> out;
  for (const Symmetry& s : g.symmetries())
    out.emplace_back(s.image.begin(), s.image.begin() + g.squares());
  return out;
}

int captures_on_full_board(const Geometry& g, PieceType t, int sq) {
  if (t == kKnight) return popcount(g.knight_attacks(sq));
  if (t == kKing) return popcount(g.king_attacks(sq));
  int n = 0;
  const int first = t == kBishop ? kNorthEast : kNorth;
  const int last = t == kRook ? kWest : kSouthWest;
  for (int d = first; d <= last; ++d) n += g.ray(sq, d) != 0;
  return n;
}

std::vector<std::vector<std::uint32_t>> full_board_capture_weights(const Geometry& g, Color mover) {
  std::vector<std::vector<std::uint32_t>> weight(g.squares(),
                                                 std::vector<std::uint32_t>(kSquareColours, 0));
  for (int sq = 0; sq < g.squares(); ++sq)
    for (PieceType t : kAllPieceTypes)
      weight[sq][square_colour({t, mover})] = std::uint32_t(captures_on_full_board(g, t, sq));
  return weight;
}

}  // namespace drop
