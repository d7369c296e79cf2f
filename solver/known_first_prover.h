// A prover for CertificateWriter (proof_certificate.h) that answers winning_move(p) from the
// table before it searches: the first move, in the game's generation order, whose result the
// table already knows to be a loss. After a search split over processes the table holds values
// proven elsewhere (mpi/mpi_proof_search.h), so a move it knows is free, while the search's own
// winning_move would try its moves in the search's order and re-prove a sibling nobody finished.
// It can also record the losses it chose (their keys): they, and what a certificate walk records
// below them, are what another process needs to write the same proof without searching. Class
// of game: two players taking turns (TwoPlayerGame, turn_order.h), win/loss, keyed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "solver/game_concept.h"
#include "solver/turn_order.h"

namespace solver {

// Search: known(p) -> std::optional<bool> and winning_move(p), as ProofSearch offers them.
template <KeyedGame G, typename Search>
requires TwoPlayerGame<G>
class KnownFirstProver {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;

  KnownFirstProver(const G& game, Search& search, bool record = false)
      : game_(game), search_(search), record_(record) {}

  // A move whose result the table (or the rules: no reply) already calls a loss, if any.
  std::optional<Move> known_winning_move(Position p) const {
    typename G::MoveList moves;
    game_.generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) {
      const auto undo = game_.make(p, moves[i]);
      const auto value = search_.known(p);
      game_.unmake(p, moves[i], undo);
      if (value && !*value) return moves[i];
    }
    return std::nullopt;
  }

  std::optional<Move> winning_move(Position p) {
    auto move = known_winning_move(p);
    if (!move) {
      move = search_.winning_move(p);
      ++searched_;
    }
    if (move && record_) {
      game_.make(p, *move);
      if (!game_.is_terminal(p)) losses_.push_back(game_.canonical_key(p));
    }
    return move;
  }

  // The losses chosen so far, when recording (terminal positions left out: the rules know them).
  const std::vector<Key>& losses() const { return losses_; }
  // How many winning moves the table did not know and the search had to find.
  std::uint64_t searched() const { return searched_; }

 private:
  const G& game_;
  Search& search_;
  bool record_;
  std::vector<Key> losses_;
  std::uint64_t searched_ = 0;
};

}  // namespace solver
