// Writes a proof certificate (format: proof_format.h) from a finished proof search: for the
// winner one winning move per position, for the loser every legal move, down to positions the
// leaf rule hands to the checker, and a back-reference wherever a position (up to symmetry and
// colour swap) was already proven. The prover is asked again at each node, which its table
// answers almost always; it must offer prove(p) and winning_move(p) (proof_search.h). Class of
// game: two players taking turns (TwoPlayerGame, turn_order.h), win/loss, keyed: the winner and
// the loser alternate down the tree.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "solver/game_concept.h"
#include "solver/proof_format.h"
#include "solver/turn_order.h"

namespace solver {

struct CertificateStats {
  std::uint64_t positions = 0;        // records written
  std::uint64_t leaves = 0;           // kLeaf records: left to the checker
  std::uint64_t back_references = 0;  // kSeen records
};

// The prover claimed a value it then could not back with a move: a bug, never a false proof.
class CertificateError : public std::logic_error {
 public:
  explicit CertificateError(const std::string& what) : std::logic_error(what) {}
};

// G::Move must offer raw() -> std::uint16_t, the code the checker matches against its own moves.
template <KeyedGame G, typename Prover, typename IsLeaf, typename Sink>
requires TwoPlayerGame<G>
class CertificateWriter {
 public:
  using Position = typename G::Position;

  CertificateWriter(const G& game, Prover& prover, IsLeaf is_leaf, Sink& out)
      : game_(game), prover_(prover), is_leaf_(std::move(is_leaf)), out_(out) {}

  CertificateStats write(const ProofHeader& header, Position root) {
    put_header(out_, header);
    write_position(root, header.win);
    return stats_;
  }

 private:
  void write_position(Position& p, bool win) {
    ++stats_.positions;
    if (is_leaf_(p)) {
      ++stats_.leaves;
      out_.put(kLeaf);
      return;
    }
    const auto key = game_.canonical_key(p);
    if (written_.contains(key)) {
      ++stats_.back_references;
      out_.put(kSeen);
      return;
    }
    if (win) {
      const auto move = prover_.winning_move(p);
      if (!move) throw CertificateError("the prover found no winning move in a position it won");
      out_.put(kWinningMove);
      put_u16(out_, move->raw());
      const auto undo = game_.make(p, *move);
      write_position(p, false);
      game_.unmake(p, *move, undo);
    } else {
      typename G::MoveList moves;
      game_.generate(p, moves);
      out_.put(kEveryReply);
      put_varint(out_, std::uint64_t(moves.size()));
      for (int i = 0; i < moves.size(); ++i) {
        put_u16(out_, moves[i].raw());
        const auto undo = game_.make(p, moves[i]);
        write_position(p, true);
        game_.unmake(p, moves[i], undo);
      }
    }
    // Only now, with its whole subtree out: a later reference never points into an unfinished
    // proof (the game has no cycles, so it cannot meet its own ancestor anyway).
    written_.insert(key);
  }

  const G& game_;
  Prover& prover_;
  IsLeaf is_leaf_;
  Sink& out_;
  CertificateStats stats_;
  absl::flat_hash_set<typename G::Key> written_;
};

}  // namespace solver
