// The rules of Spock (shared/games/SPOCK.md) as one object: what solvers in solver/ see (it
// satisfies solver::PerftGame and solver::KeyedGame). Move generation, counting and make/unmake
// are inline because perft spends its life here.
#pragma once

#include <cstdint>

#include "rules/common/game_types.h"
#include "rules/spock/geometry.h"
#include "rules/spock/key.h"
#include "rules/spock/move.h"
#include "rules/spock/position.h"

namespace spock {

class Game : public common::GameTypes<spock::Position, spock::Move, spock::MoveList, spock::Undo,
                                      spock::Key> {
 public:
  // A board of 3..8 files and 3..8 ranks; throws ParseError otherwise.
  Game(int width, int height);

  int width() const { return geometry_.width(); }
  int height() const { return geometry_.height(); }
  // The same rules: the same board.
  bool operator==(const Game& other) const {
    return width() == other.width() && height() == other.height();
  }
  const Geometry& geometry() const { return geometry_; }

  // Empty when the side to move has no Spock: it has lost already.
  void generate(const Position& p, MoveList& out) const;
  // Number of legal moves without listing them: perft's last ply.
  std::uint64_t count_moves(const Position& p) const;
  // The side to move has lost: it has no Spock, or no legal move.
  bool is_terminal(const Position& p) const { return count_moves(p) == 0; }
  Undo make(Position& p, Move m) const;
  void unmake(Position& p, Move m, Undo u) const;

  // --- keys (see key.h); valid only when keys_fit() ---
  int key_bits() const { return 4 * geometry_.squares() + 1; }
  bool keys_fit() const { return key_bits() <= 128; }
  // Exact key of this position (Blue's view, side to move included).
  Key raw_key(const Position& p) const;
  // Least raw key over the board's symmetries: equal for positions that are mirror images.
  Key symmetric_key(const Position& p) const;
  // Mover-relative least image: equal exactly for positions that are images of each other under
  // the board's symmetries and the colour swap (the rules know neither colour nor direction), so
  // have isomorphic game trees. What hash tables and solvers key on.
  Key canonical_key(const Position& p) const;
  // Inverse of raw_key; on a canonical key it gives a representative with Blue to move.
  Position from_key(Key k) const;

 private:
  // Calls f(type, from, targets) for every piece of the side to move, if it has a Spock.
  template <typename F>
  void for_each_piece(const Position& p, F&& f) const;
  // Where a piece of type t on sq may go: `open` is the empty squares and the enemies it captures.
  template <PieceType t>
  Bitboard targets(int sq, Bitboard own, Bitboard enemy, Bitboard open) const;

  // The board's nibble planes from `us`'s point of view (bit j of each square's code).
  std::array<std::uint32_t, 4> code_planes(const Position& p, Color us) const;
  template <bool kMoverRelative>
  Key least_image(const Position& p) const;

  Geometry geometry_;
};

template <PieceType t>
inline Bitboard Game::targets(int sq, Bitboard own, Bitboard enemy, Bitboard open) const {
  const Geometry& g = geometry_;
  Bitboard out = 0;
  if constexpr (t == kSpock) {
    // Only onto an occupied square, friend or enemy of any type.
    return g.knight_attacks(sq) & (own | enemy);
  } else if constexpr (t == kRock) {
    // One step, or on over a chain of friends, to the first square that is not a friend.
    for (int d = 0; d < kDirections; ++d)
      if (const Bitboard beyond = g.ray(sq, d) & ~own)
        out |= square_bit(Geometry::nearest(beyond, d)) & open;
  } else {
    // Friends are transparent: the ray runs to the first enemy, which is taken if it may be.
    constexpr int first = t == kScissors ? kNorthEast : kNorth;
    constexpr int last = t == kPaper ? kWest : kSouthWest;
    for (int d = first; d <= last; ++d) {
      Bitboard reach = g.ray(sq, d);
      if (const Bitboard hit = reach & enemy) reach ^= g.ray(Geometry::nearest(hit, d), d);
      out |= reach & open;
    }
  }
  return out;
}

template <typename F>
inline void Game::for_each_piece(const Position& p, F&& f) const {
  const Color us = p.side_to_move;
  const Bitboard own = p.by_color[us], enemy = p.by_color[opposite(us)];
  if (!(own & p.by_type[kSpock])) return;
  const Bitboard empty = geometry_.board_mask() & ~(own | enemy);
  for (Bitboard b = own & p.by_type[kSpock]; b;) {
    const int sq = pop_lsb(b);
    f(kSpock, sq, targets<kSpock>(sq, own, enemy, 0));
  }
  // A piece of type t captures the types t+1 and t+2 of the cycle (piece.h): `open` is where it
  // may land.
  const auto each_of = [&]<PieceType t>() {
    Bitboard b = own & p.by_type[t];
    if (!b) return;
    const Bitboard open =
        empty | (enemy & (p.by_type[(t + 1) % kPieceTypes] | p.by_type[(t + 2) % kPieceTypes]));
    while (b) {
      const int sq = pop_lsb(b);
      f(t, sq, targets<t>(sq, own, enemy, open));
    }
  };
  each_of.template operator()<kRock>();
  each_of.template operator()<kScissors>();
  each_of.template operator()<kLizard>();
  each_of.template operator()<kPaper>();
}

inline void Game::generate(const Position& p, MoveList& out) const {
  out.clear();
  for_each_piece(p, [&](PieceType t, int from, Bitboard to) {
    while (to) out.push(Move(t, from, pop_lsb(to)));
  });
}

inline std::uint64_t Game::count_moves(const Position& p) const {
  std::uint64_t n = 0;
  for_each_piece(p, [&](PieceType, int, Bitboard to) { n += popcount(to); });
  return n;
}

inline Undo Game::make(Position& p, Move m) const {
  Undo u;
  const Color us = p.side_to_move;
  const Bitboard from = square_bit(m.from()), to = square_bit(m.to());
  const PieceType mover = m.mover();
  if (p.occupied() & to) {
    u.captured = true;
    u.captured_type = p.type_on(to);
    u.captured_color = (p.by_color[kRed] & to) ? kRed : kBlue;
    p.by_color[u.captured_color] ^= to;
    p.by_type[u.captured_type] ^= to;
  }
  p.by_color[us] ^= from | to;
  p.by_type[mover] ^= from | to;
  if (mover == kSpock) {  // a Spock always lands on a piece: the next type appears behind it
    p.by_color[us] |= from;
    p.by_type[next_in_cycle(u.captured_type)] |= from;
  }
  p.side_to_move = opposite(us);
  return u;
}

inline void Game::unmake(Position& p, Move m, Undo u) const {
  const Color us = opposite(p.side_to_move);
  p.side_to_move = us;
  const Bitboard from = square_bit(m.from()), to = square_bit(m.to());
  const PieceType mover = m.mover();
  if (mover == kSpock) {
    p.by_color[us] ^= from;
    p.by_type[next_in_cycle(u.captured_type)] ^= from;
  }
  p.by_color[us] ^= from | to;
  p.by_type[mover] ^= from | to;
  if (u.captured) {
    p.by_color[u.captured_color] |= to;
    p.by_type[u.captured_type] |= to;
  }
}

}  // namespace spock
