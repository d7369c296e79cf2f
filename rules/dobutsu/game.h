// The rules of Dobutsu shogi (shared/games/DOBUTSU.md) as one object: what solvers in solver/ see
// (it satisfies solver::PerftGame and solver::KeyedGame). Move generation and make/unmake are
// inline because perft and the tier space spend their lives here.
//
// How the game's two ends show in the game interface, whose rule is "a position without moves is
// lost for the side to move":
// - A catch (the side to move can take the other Lion) is won in 1: its only moves are the Lion's
//   captures ("nothing else is played from such a position"), and the position after one, whose
//   side to move has no Lion, has no moves: lost.
// - A try (the other Lion stands on the side to move's home rank and cannot be taken) is lost in
//   0: no moves. So is a position whose side to move has no legal move.
#pragma once

#include <array>
#include <cstdint>

#include "rules/common/game_types.h"
#include "rules/dobutsu/key.h"
#include "rules/dobutsu/move.h"
#include "rules/dobutsu/position.h"
#include "rules/dobutsu/variant.h"

namespace dobutsu {

class Game : public common::GameTypes<dobutsu::Position, dobutsu::Move, dobutsu::MoveList,
                                      dobutsu::Undo, dobutsu::Key> {
 public:
  explicit Game(Variant v = {});

  const Variant& variant() const { return variant_; }
  bool operator==(const Game&) const { return true; }

  // The rank a side starts on (where the other Lion makes its try) and the one its Chicks promote
  // on.
  static constexpr int home_rank(Color c) { return c == kSente ? 0 : kRanks - 1; }
  static constexpr int far_rank(Color c) { return home_rank(opposite(c)); }

  Position start() const;

  // Whether a piece of side c stands one step from sq (could take what stands there).
  bool attacks(const Position& p, Color c, int sq) const {
    const auto& from = attackers_[c];
    return ((from[kChick][sq] & p.kind[kChick]) | (from[kElephant][sq] & p.kind[kElephant]) |
            (from[kGiraffe][sq] & p.kind[kGiraffe]) | (from[kLion][sq] & p.kind[kLion]) |
            (from[kHen][sq] & p.kind[kHen])) &
           p.side[c];
  }
  // The squares a piece of side c and kind k can step from to reach sq.
  Bitboard attackers(Color c, Kind k, int sq) const { return attackers_[c][k][sq]; }
  // The side to move can take the other Lion: it wins at once.
  bool is_catch(const Position& p) const {
    const int lion = p.lion(opposite(p.side_to_move));
    return lion >= 0 && attacks(p, p.side_to_move, lion);
  }
  // The other Lion stands on the side to move's home rank and cannot be taken: lost.
  bool is_try(const Position& p) const {
    const int lion = p.lion(opposite(p.side_to_move));
    return lion >= 0 && rank_of(lion) == home_rank(p.side_to_move) &&
           !attacks(p, p.side_to_move, lion);
  }
  // The kind of the piece on sq (which must hold one).
  static Kind kind_on(const Position& p, int sq) {
    const Bitboard bit = Bitboard(1u << sq);
    int k = 0;
    while (!(p.kind[k] & bit)) ++k;
    return Kind(k);
  }

  // No moves when the side to move's Lion was taken or in a try; only the Lion's captures in a
  // catch; else every step and drop.
  void generate(const Position& p, MoveList& out) const;
  // Number of legal moves without listing them: perft's last ply.
  std::uint64_t count_moves(const Position& p) const {
    MoveList list;
    generate(p, list);
    return std::uint64_t(list.size());
  }
  bool is_terminal(const Position& p) const { return count_moves(p) == 0; }

  Undo make(Position& p, Move m) const {
    Undo u;
    const Color c = p.side_to_move, them = opposite(c);
    const Bitboard to = Bitboard(1u << m.to());
    if (m.is_drop()) {
      p.side[c] |= to;
      p.kind[m.dropped()] |= to;
      --p.hand[c][m.dropped()];
    } else {
      const Bitboard from = Bitboard(1u << m.from());
      Kind moving = kind_on(p, m.from());
      if (p.side[them] & to) {
        const Kind taken = kind_on(p, m.to());
        u.captured = cell_of(them, taken);
        p.side[them] ^= to;
        p.kind[taken] ^= to;
        if (taken != kLion) ++p.hand[c][in_hand(taken)];
      }
      p.side[c] ^= Bitboard(from | to);
      p.kind[moving] ^= from;
      if (moving == kChick && rank_of(m.to()) == far_rank(c)) {
        moving = kHen;
        u.promoted = true;
      }
      p.kind[moving] |= to;
    }
    p.side_to_move = them;
    return u;
  }
  void unmake(Position& p, Move m, Undo u) const {
    const Color c = opposite(p.side_to_move), them = p.side_to_move;
    p.side_to_move = c;
    const Bitboard to = Bitboard(1u << m.to());
    if (m.is_drop()) {
      p.side[c] ^= to;
      p.kind[m.dropped()] ^= to;
      ++p.hand[c][m.dropped()];
      return;
    }
    const Bitboard from = Bitboard(1u << m.from());
    const Kind now = kind_on(p, m.to());
    p.side[c] ^= Bitboard(from | to);
    p.kind[now] ^= to;
    p.kind[u.promoted ? kChick : now] |= from;
    if (u.captured != kEmpty) {
      const Kind taken = kind_of(u.captured);
      p.side[them] |= to;
      p.kind[taken] |= to;
      if (taken != kLion) --p.hand[c][in_hand(taken)];
    }
  }

  // --- keys (key.h) ---
  int key_bits() const { return 128; }
  bool keys_fit() const { return true; }
  Key raw_key(const Position& p) const;
  // The lesser raw key of the position and its mirror image (the colours kept).
  Key symmetric_key(const Position& p) const;
  // Mover-relative least image: Gote to move is seen as Sente to move on the board turned half
  // round with the colours swapped, then the lesser of it and its mirror image. Equal exactly for
  // positions with isomorphic game trees.
  Key canonical_key(const Position& p) const;
  // Inverse of raw_key; on a canonical key it gives a representative with Sente to move.
  Position from_key(Key k) const;

  // The position seen from the other side: the board turned half round, the colours and the
  // hands swapped, the other side to move. Its game tree is the position's.
  static Position swapped(const Position& p);
  static Position mirror(const Position& p);

 private:
  Variant variant_;
  std::array<std::array<std::array<Bitboard, kSquares>, kKinds>, 2> steps_{};
  std::array<std::array<std::array<Bitboard, kSquares>, kKinds>, 2> attackers_{};
};

inline void Game::generate(const Position& p, MoveList& out) const {
  out.clear();
  const Color c = p.side_to_move, them = opposite(c);
  const int own_lion = p.lion(c);
  if (own_lion < 0) return;  // caught: the game is over
  const int their_lion = p.lion(them);
  if (their_lion >= 0 && attacks(p, c, their_lion)) {
    for (int k = 0; k < kKinds; ++k)
      for (unsigned f = attackers_[c][k][their_lion] & p.kind[k] & p.side[c]; f; f &= f - 1)
        out.push(Move::step(__builtin_ctz(f), their_lion));
    return;
  }
  if (their_lion >= 0 && rank_of(their_lion) == home_rank(c)) return;  // a try
  const Bitboard own = p.side[c];
  for (int k = 0; k < kKinds; ++k)
    for (unsigned b = p.kind[k] & own; b; b &= b - 1) {
      const int from = __builtin_ctz(b);
      for (unsigned t = steps_[c][k][from] & unsigned(~own); t; t &= t - 1)
        out.push(Move::step(from, __builtin_ctz(t)));
    }
  const unsigned empty = unsigned(~p.occupied()) & ((1u << kSquares) - 1);
  for (int k = 0; k < kHandKinds; ++k) {
    if (!p.hand[c][k]) continue;
    for (unsigned t = empty; t; t &= t - 1) out.push(Move::drop(Kind(k), __builtin_ctz(t)));
  }
}

}  // namespace dobutsu
