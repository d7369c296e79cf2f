// The rules of the drop family as one object: what solvers in solver/ and tablebase/ see.
// Move generation, counting and make/unmake are inline because perft spends its life here.
#pragma once

#include <cstdint>
#include <utility>

#include "rules/common/game_types.h"
#include "rules/drop/geometry.h"
#include "rules/drop/key.h"
#include "rules/drop/move.h"
#include "rules/drop/position.h"
#include "rules/drop/variant.h"

namespace drop {

class Game
    : public common::GameTypes<drop::Position, drop::Move, drop::MoveList, drop::Undo, drop::Key> {
 public:
  explicit Game(const Variant& v);

  const Variant& variant() const { return variant_; }
  const Geometry& geometry() const { return geometry_; }
  // The same rules: the same variant (everything else is derived from it).
  bool operator==(const Game& other) const { return variant_ == other.variant_; }
  Position start() const { return start_position(variant_); }

  // Drops first (by type, then square), then captures.
  void generate(const Position& p, MoveList& out) const;
  // The captures alone, in generate's order.
  void generate_captures(const Position& p, MoveList& out) const;
  // The squares a piece of type t on `from` can capture on (either side's pieces), given the
  // occupied squares: that piece's captures in generate_captures, as one set.
  Bitboard capture_targets(PieceType t, int from, Bitboard occupied) const;
  // Number of legal moves without listing them: perft's last ply.
  std::uint64_t count_moves(const Position& p) const;
  // The side to move loses when it has no legal move.
  bool is_terminal(const Position& p) const;
  Undo make(Position& p, Move m) const;
  void unmake(Position& p, Move m, Undo u) const;

  // --- keys (see key.h); valid only when keys_fit() ---
  int key_bits() const { return 4 * geometry_.squares() + hand_bits_ + 1; }
  bool keys_fit() const { return key_bits() <= 128; }
  // Exact key of this position (White's view, side to move included).
  Key raw_key(const Position& p) const;
  // Least raw key over the board's symmetries: equal for positions that are mirror images.
  Key symmetric_key(const Position& p) const;
  // Mover-relative least image: equal for positions that are images of each other or colour
  // swaps, which have the same value and perft. What hash tables and solvers key on.
  Key canonical_key(const Position& p) const;
  // Inverse of raw_key; on a canonical key it gives a representative with White to move.
  Position from_key(Key k) const;

  // --- symmetry ---
  Position transformed(const Position& p, const Symmetry& s) const;
  // Swap the colours of every piece and hand and the side to move.
  Position color_swapped(const Position& p) const;

 private:
  PieceType type_on(const Position& p, Bitboard b) const {
    for (PieceType t : {kKnight, kBishop, kRook, kQueen})
      if (p.by_type[t] & b) return t;
    return kKing;
  }
  // Appends the captures of the side to move (generate's second part).
  void add_captures(const Position& p, MoveList& out) const;
  // The directions a slider of type t moves in: first to last, in Direction's order.
  static std::pair<int, int> slider_directions(PieceType t) {
    return {t == kBishop ? kNorthEast : kNorth, t == kRook ? kWest : kSouthWest};
  }
  // The board's nibble planes from `us`'s point of view (bit j of each square's code).
  std::array<std::uint32_t, 4> code_planes(const Position& p, Color us) const;
  Key128 hand_bits(const Position& p, Color us) const;
  template <bool kMoverRelative>
  Key least_image(const Position& p) const;

  Variant variant_;
  Geometry geometry_;
  std::array<int, kPieceTypes> hand_radix_{};  // max count of a type over both colours, plus one
  int hand_bits_ = 0;
};

inline int distinct_types(const Hand& h) {
  return (h[0] != 0) + (h[1] != 0) + (h[2] != 0) + (h[3] != 0) + (h[4] != 0);
}

inline std::uint64_t Game::count_moves(const Position& p) const {
  const Geometry& g = geometry_;
  const Bitboard occ = p.occupied();
  const Color us = p.side_to_move;
  std::uint64_t n = std::uint64_t(popcount(g.board_mask() & ~occ)) * distinct_types(p.hand[us]);
  for (Bitboard b = p.pieces(us, kKnight); b;) n += popcount(g.knight_attacks(pop_lsb(b)) & occ);
  for (Bitboard b = p.pieces(us, kKing); b;) n += popcount(g.king_attacks(pop_lsb(b)) & occ);
  const Bitboard own = p.by_color[us];
  for (Bitboard b = own & (p.by_type[kRook] | p.by_type[kQueen]); b;) {
    const int sq = pop_lsb(b);
    for (int d = kNorth; d <= kWest; ++d) n += (g.ray(sq, d) & occ) != 0;
  }
  for (Bitboard b = own & (p.by_type[kBishop] | p.by_type[kQueen]); b;) {
    const int sq = pop_lsb(b);
    for (int d = kNorthEast; d <= kSouthWest; ++d) n += (g.ray(sq, d) & occ) != 0;
  }
  return n;
}

inline void Game::generate(const Position& p, MoveList& out) const {
  const Geometry& g = geometry_;
  const Bitboard occ = p.occupied();
  const Color us = p.side_to_move;
  out.clear();
  const Bitboard empty = g.board_mask() & ~occ;
  for (PieceType t : kAllPieceTypes)
    if (p.hand[us][t])
      for (Bitboard b = empty; b;) out.push(Move::drop(t, pop_lsb(b)));
  add_captures(p, out);
}

inline void Game::generate_captures(const Position& p, MoveList& out) const {
  out.clear();
  add_captures(p, out);
}

inline void Game::add_captures(const Position& p, MoveList& out) const {
  const Geometry& g = geometry_;
  const Bitboard occ = p.occupied();
  const Color us = p.side_to_move;
  for (Bitboard b = p.by_color[us]; b;) {
    const int from = pop_lsb(b);
    const PieceType t = type_on(p, square_bit(from));
    if (t == kKnight || t == kKing) {
      for (Bitboard targets = (t == kKnight ? g.knight_attacks(from) : g.king_attacks(from)) & occ;
           targets;)
        out.push(Move::capture(from, pop_lsb(targets)));
      continue;
    }
    const auto [first, last] = slider_directions(t);
    for (int d = first; d <= last; ++d)
      if (const int to = g.first_blocker(from, d, occ); to >= 0) out.push(Move::capture(from, to));
  }
}

inline Bitboard Game::capture_targets(PieceType t, int from, Bitboard occupied) const {
  const Geometry& g = geometry_;
  if (t == kKnight) return g.knight_attacks(from) & occupied;
  if (t == kKing) return g.king_attacks(from) & occupied;
  Bitboard targets = 0;
  const auto [first, last] = slider_directions(t);
  for (int d = first; d <= last; ++d)
    if (const int to = g.first_blocker(from, d, occupied); to >= 0) targets |= square_bit(to);
  return targets;
}

inline bool Game::is_terminal(const Position& p) const {
  const Color us = p.side_to_move;
  if (distinct_types(p.hand[us]) && (geometry_.board_mask() & ~p.occupied())) return false;
  return count_moves(p) == 0;
}

inline Undo Game::make(Position& p, Move m) const {
  Undo u;
  const Color us = p.side_to_move;
  const Bitboard to = square_bit(m.to());
  if (m.is_drop()) {
    --p.hand[us][m.dropped()];
    p.by_color[us] |= to;
    p.by_type[m.dropped()] |= to;
  } else {
    const Bitboard from = square_bit(m.from());
    const PieceType mover = type_on(p, from);
    u.captured_type = type_on(p, to);
    u.captured_color = (p.by_color[kBlack] & to) ? kBlack : kWhite;
    p.by_color[u.captured_color] ^= to;
    p.by_type[u.captured_type] ^= to;
    p.by_color[us] ^= from | to;
    p.by_type[mover] ^= from | to;
  }
  p.side_to_move = opposite(us);
  return u;
}

inline void Game::unmake(Position& p, Move m, Undo u) const {
  const Color us = opposite(p.side_to_move);
  p.side_to_move = us;
  const Bitboard to = square_bit(m.to());
  if (m.is_drop()) {
    ++p.hand[us][m.dropped()];
    p.by_color[us] ^= to;
    p.by_type[m.dropped()] ^= to;
  } else {
    const Bitboard from = square_bit(m.from());
    const PieceType mover = type_on(p, to);
    p.by_color[us] ^= from | to;
    p.by_type[mover] ^= from | to;
    p.by_color[u.captured_color] |= to;
    p.by_type[u.captured_type] |= to;
  }
}

}  // namespace drop
