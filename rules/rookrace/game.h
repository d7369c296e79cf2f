// The rules of the rook race (shared/games/ROOK-RACE.md) as one object: what solvers in solver/
// see (it satisfies solver::PerftGame and solver::KeyedGame). Move generation, counting and
// make/unmake are inline because perft spends its life here.
//
// How the race's goal shows in the game interface: a rook move onto the opponent's starting
// corner wins at once, so the position after it, with the opponent to move, is terminal and lost
// for the side to move (generate lists no move there, is_terminal holds), exactly like a position
// whose side to move has no legal move. The solvers' rule "terminal = the side to move has lost"
// then gives the winning move its win in 1 with no special case.
#pragma once

#include <array>
#include <cstdint>

#include "rules/common/game_types.h"
#include "rules/rookrace/key.h"
#include "rules/rookrace/move.h"
#include "rules/rookrace/position.h"
#include "rules/rookrace/variant.h"

namespace rookrace {

class Game : public common::GameTypes<rookrace::Position, rookrace::Move, rookrace::MoveList,
                                      rookrace::Undo, rookrace::Key> {
 public:
  explicit Game(Variant v);

  const Variant& variant() const { return variant_; }
  // The same rules: the same variant (everything else is derived from it).
  bool operator==(const Game& other) const { return variant_ == other.variant_; }
  int size() const { return variant_.size; }
  int squares() const { return variant_.size * variant_.size; }
  int square(int file, int rank) const { return rank * variant_.size + file; }
  int file_of(int sq) const { return sq % variant_.size; }
  int rank_of(int sq) const { return sq / variant_.size; }

  // Where each side's rook starts: White a1, Black the far corner. Each races to the other's.
  int start_corner(Color c) const { return c == kWhite ? 0 : squares() - 1; }
  int goal(Color c) const { return start_corner(opposite(c)); }
  // The 2x2 block holding sq, as a set of squares, and its number (rank-major from a1).
  Bitboard block_of(int sq) const { return block_mask_[sq]; }
  int block_index(int sq) const { return rank_of(sq) / 2 * (variant_.size / 2) + file_of(sq) / 2; }
  int blocks() const { return variant_.size * variant_.size / 4; }
  bool same_block(int a, int b) const { return block_mask_[a] >> b & 1; }
  // The squares a rook on `from` slides to over empty squares: each ray up to and including the
  // first occupied square on it.
  Bitboard rook_reach(int from, Bitboard occupied) const;

  Position start() const;

  // The side to move has lost when the other rook stands on its goal (it won by the move before):
  // no moves then. Otherwise rook moves and drops as the rules say.
  void generate(const Position& p, MoveList& out) const;
  // Number of legal moves without listing them: perft's last ply.
  std::uint64_t count_moves(const Position& p) const;
  // The side to move has lost: the other rook reached its goal, or it has no legal move.
  bool is_terminal(const Position& p) const { return count_moves(p) == 0; }
  Undo make(Position& p, Move m) const;
  void unmake(Position& p, Move m, Undo u) const;

  // --- keys (key.h): exact on every board ---
  int key_bits() const { return 128; }
  bool keys_fit() const { return true; }
  Key raw_key(const Position& p) const;
  // The least raw key over the board's symmetries that keep the colours (the identity and the
  // reflection in the a1-h8 diagonal, which fixes both corners and maps blocks to blocks).
  Key symmetric_key(const Position& p) const;
  // Mover-relative least image: also the colour swap with the half turn (which exchanges the two
  // corners, so White's race becomes Black's), so that Black to move is seen as White to move.
  // Equal exactly for positions with isomorphic game trees.
  Key canonical_key(const Position& p) const;
  // Inverse of raw_key; on a canonical key it gives a representative with White to move.
  Position from_key(Key k) const;

 private:
  enum Direction { kNorth, kEast, kSouth, kWest };  // north and east: the square index grows
  static constexpr int kDirections = 4;

  // Where the side to move's rook may go, and the squares it may drop on.
  Bitboard rook_targets(const Position& p) const;
  Bitboard drop_targets(const Position& p) const;
  bool lost_already(const Position& p) const {
    return p.rook[opposite(p.side_to_move)] == goal(opposite(p.side_to_move));
  }
  // The key of p seen through square map `image`, `us` becoming the key's own side.
  Key128 packed(const Position& p, const std::array<std::uint8_t, 64>& image, Color us) const;

  Variant variant_;
  Bitboard board_mask_;
  std::array<Bitboard, 64> block_mask_{};
  std::array<std::array<Bitboard, kDirections>, 64> ray_{};
  // Square maps: the identity, the a1-h8 reflection, the half turn, the a8-h1 reflection.
  std::array<std::array<std::uint8_t, 64>, 4> image_{};
};

inline Bitboard Game::rook_reach(int from, Bitboard occupied) const {
  Bitboard reach = 0;
  for (int d = 0; d < kDirections; ++d) {
    Bitboard ray = ray_[from][d];
    if (const Bitboard hit = ray & occupied) {
      const int first =
          d == kNorth || d == kEast ? std::countr_zero(hit) : 63 - std::countl_zero(hit);
      ray ^= ray_[first][d];  // up to and including the first piece in the way
    }
    reach |= ray;
  }
  return reach;
}

inline Bitboard Game::rook_targets(const Position& p) const {
  const Color us = p.side_to_move;
  const int from = p.rook[us];
  const Bitboard occupied = p.occupied();
  Bitboard reach = rook_reach(from, occupied);
  // Only empty squares and the mover's own pawns: never an enemy pawn or the other rook.
  reach &= ~occupied | p.pawns[us];
  // After two rook moves in a row inside its block, the rook must leave it.
  if (p.inside[us] >= kMaxInsideMoves) reach &= ~block_mask_[from];
  return reach;
}

inline Bitboard Game::drop_targets(const Position& p) const {
  const Color us = p.side_to_move;
  if (!p.reserve[us]) return 0;
  Bitboard allowed = board_mask_ & ~p.occupied() & ~(Bitboard{1} << start_corner(us));
  for (Bitboard own = p.pawns[us]; own; own &= own - 1)
    allowed &= ~block_mask_[std::countr_zero(own)];  // one pawn of a colour a block
  return allowed;
}

inline void Game::generate(const Position& p, MoveList& out) const {
  out.clear();
  if (lost_already(p)) return;
  const int from = p.rook[p.side_to_move];
  for (Bitboard b = rook_targets(p); b; b &= b - 1) out.push(Move::rook(from, std::countr_zero(b)));
  for (Bitboard b = drop_targets(p); b; b &= b - 1) out.push(Move::drop(std::countr_zero(b)));
}

inline std::uint64_t Game::count_moves(const Position& p) const {
  if (lost_already(p)) return 0;
  return std::uint64_t(std::popcount(rook_targets(p)) + std::popcount(drop_targets(p)));
}

inline Undo Game::make(Position& p, Move m) const {
  const Color us = p.side_to_move;
  Undo u{false, p.inside[us]};
  const Bitboard to = Bitboard{1} << m.to();
  if (m.is_drop()) {
    p.pawns[us] |= to;
    --p.reserve[us];
  } else {
    u.captured = p.pawns[us] & to;
    p.pawns[us] &= ~to;  // the pawn leaves the game
    // A move inside the block counts; one that leaves it resets the count. Drops leave it be.
    p.inside[us] = block_mask_[m.from()] & to ? std::uint8_t(p.inside[us] + 1) : 0;
    p.rook[us] = std::uint8_t(m.to());
  }
  p.side_to_move = opposite(us);
  return u;
}

inline void Game::unmake(Position& p, Move m, Undo u) const {
  const Color us = opposite(p.side_to_move);
  p.side_to_move = us;
  const Bitboard to = Bitboard{1} << m.to();
  if (m.is_drop()) {
    p.pawns[us] &= ~to;
    ++p.reserve[us];
  } else {
    if (u.captured) p.pawns[us] |= to;
    p.inside[us] = u.inside;
    p.rook[us] = std::uint8_t(m.from());
  }
}

}  // namespace rookrace
