// The rules of Teeko (shared/games/TEEKO.md) as one object: what solvers in solver/ see (it
// satisfies solver::PerftGame and solver::KeyedGame). Move generation and make/unmake are inline
// because perft and the tier space spend their lives here.
//
// How the win shows in the game interface: a move that makes a pattern of four wins at once, so
// the position after it, with the other side to move, is terminal and lost for the side to move
// (generate lists no move there, is_terminal holds), exactly like a position whose side to move has
// no legal move. The solvers' rule "terminal = the side to move has lost" then gives the winning
// move its win in 1 with no special case. A side to move that stands in a pattern itself cannot
// arise (its own move would have ended the game); the text forms refuse it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "rules/common/game_types.h"
#include "rules/teeko/key.h"
#include "rules/teeko/move.h"
#include "rules/teeko/position.h"
#include "rules/teeko/variant.h"

namespace teeko {

class Game : public common::GameTypes<teeko::Position, teeko::Move, teeko::MoveList, teeko::Undo,
                                      teeko::Key> {
 public:
  // The board's symmetries: the identity first, then the other rotations and reflections.
  static constexpr int kSymmetries = 8;

  explicit Game(Variant v);

  const Variant& variant() const { return variant_; }
  // The same rules: the same variant (everything else is derived from it).
  bool operator==(const Game& other) const { return variant_ == other.variant_; }
  int size() const { return variant_.size; }
  int squares() const { return variant_.size * variant_.size; }
  int square(int file, int rank) const { return rank * variant_.size + file; }
  int file_of(int sq) const { return sq % variant_.size; }
  int rank_of(int sq) const { return sq / variant_.size; }
  Bitboard board_mask() const { return board_mask_; }
  // The squares one step from sq, in the 8 directions.
  Bitboard neighbours(int sq) const { return neighbours_[sq]; }
  // The winning sets of four squares: lines, 2x2 blocks and, in the advanced variant, the corners
  // of larger squares.
  const std::vector<Bitboard>& patterns() const { return patterns_; }
  // Whether these squares (one side's) are a pattern: a side has at most four pieces, so its
  // squares must be one of the patterns exactly.
  bool is_pattern(Bitboard b) const {
    if (std::popcount(b) != kPiecesPerSide) return false;
    for (const Bitboard p : patterns_from_[std::countr_zero(b)])
      if (p == b) return true;
    return false;
  }
  // The image of a square, and of a set of squares, under symmetry g (0: the identity).
  int image(int g, int sq) const { return image_[g][sq]; }
  Bitboard image(int g, Bitboard squares) const {
    Bitboard out = 0;
    for (; squares; squares &= squares - 1)
      out |= Bitboard{1} << image_[g][std::countr_zero(squares)];
    return out;
  }

  Position start() const { return Position{}; }

  // The side to move has lost when the other side stands in a pattern (it won by the move
  // before): no moves then. Otherwise drops while fewer than 8 pieces stand, then steps.
  void generate(const Position& p, MoveList& out) const;
  // Number of legal moves without listing them: perft's last ply.
  std::uint64_t count_moves(const Position& p) const;
  // The side to move has lost: the other side made a pattern, or it has no legal move.
  bool is_terminal(const Position& p) const { return count_moves(p) == 0; }
  Undo make(Position& p, Move m) const {
    const Bitboard to = Bitboard{1} << m.to();
    p.pieces[p.side_to_move] ^= m.is_drop() ? to : to | Bitboard{1} << m.from();
    p.side_to_move = opposite(p.side_to_move);
    return {};
  }
  void unmake(Position& p, Move m, Undo) const {
    p.side_to_move = opposite(p.side_to_move);
    const Bitboard to = Bitboard{1} << m.to();
    p.pieces[p.side_to_move] ^= m.is_drop() ? to : to | Bitboard{1} << m.from();
  }
  bool lost_already(const Position& p) const {
    return is_pattern(p.pieces[opposite(p.side_to_move)]);
  }

  // --- keys (key.h): exact on every board ---
  int key_bits() const { return 128; }
  bool keys_fit() const { return true; }
  Key raw_key(const Position& p) const;
  // The least raw key over the board's 8 symmetries (the colours kept).
  Key symmetric_key(const Position& p) const;
  // Mover-relative least image: the side to move's squares are the key's own, so that Red to move
  // is seen as Black to move (the rules treat the sides alike but for who starts, which the
  // pieces on the board already say). Equal exactly for positions with isomorphic game trees.
  Key canonical_key(const Position& p) const;
  // Inverse of raw_key; on a canonical key it gives a representative with Black to move.
  Position from_key(Key k) const;

 private:
  Key128 packed(const Position& p, int g, Color own) const;

  Variant variant_;
  Bitboard board_mask_ = 0;
  std::array<Bitboard, 64> neighbours_{};
  std::vector<Bitboard> patterns_;
  std::array<std::vector<Bitboard>, 64> patterns_from_;  // by each pattern's lowest square
  std::array<std::array<std::uint8_t, 64>, kSymmetries> image_{};
};

inline void Game::generate(const Position& p, MoveList& out) const {
  out.clear();
  if (lost_already(p)) return;
  const Bitboard empty = board_mask_ & ~p.occupied();
  if (p.dropping()) {
    for (Bitboard b = empty; b; b &= b - 1) out.push(Move::drop(std::countr_zero(b)));
    return;
  }
  for (Bitboard own = p.pieces[p.side_to_move]; own; own &= own - 1) {
    const int from = std::countr_zero(own);
    for (Bitboard b = neighbours_[from] & empty; b; b &= b - 1)
      out.push(Move::step(from, std::countr_zero(b)));
  }
}

inline std::uint64_t Game::count_moves(const Position& p) const {
  if (lost_already(p)) return 0;
  const Bitboard empty = board_mask_ & ~p.occupied();
  if (p.dropping()) return std::uint64_t(std::popcount(empty));
  std::uint64_t n = 0;
  for (Bitboard own = p.pieces[p.side_to_move]; own; own &= own - 1)
    n += std::uint64_t(std::popcount(neighbours_[std::countr_zero(own)] & empty));
  return n;
}

}  // namespace teeko
