// A two-sided keyed game (values for the side to move, as cyclic_retrograde.h takes it) seen as a
// coalition game of two players (coalition_game.h), for the tests that check the coalition solver
// against the two-sided one: the sides are players 0 and 1 by the parity of the plies played from
// a root, the player left at a finished position is the one not to move, and since the game's
// canonical keys are the mover's side's (a colour swap joins positions), canonical_form renames
// the player to move 0 and the other 1.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace test_support {

template <typename G>
class SidesAsPlayers {
 public:
  struct Position {
    typename G::Position position;
    int side = 0;  // the player to move
  };
  using Move = typename G::Move;
  using MoveList = typename G::MoveList;
  using Undo = typename G::Undo;
  struct Key {
    typename G::Key key;
    std::uint64_t side = 0;  // 2 in canonical keys
    std::uint64_t mix() const { return key.mix() * 3 + side; }
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.key, k.side);
    }
  };
  struct CanonicalForm {
    Key key;
    std::array<int, 2> renamed;
  };

  explicit SidesAsPlayers(const G& game) : game_(game) {}

  int players() const { return 2; }
  int player_to_move(const Position& p) const { return p.side; }
  std::uint32_t players_left(const Position& p) const { return 1u << (1 - p.side); }

  void generate(const Position& p, MoveList& out) const { game_.generate(p.position, out); }
  std::uint64_t count_moves(const Position& p) const { return game_.count_moves(p.position); }
  bool is_terminal(const Position& p) const { return game_.is_terminal(p.position); }
  Undo make(Position& p, Move m) const {
    p.side ^= 1;
    return game_.make(p.position, m);
  }
  void unmake(Position& p, Move m, Undo u) const {
    game_.unmake(p.position, m, u);
    p.side ^= 1;
  }

  bool keys_fit() const { return game_.keys_fit(); }
  Key raw_key(const Position& p) const {
    return {game_.raw_key(p.position), std::uint64_t(p.side)};
  }
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  Key canonical_key(const Position& p) const { return {game_.canonical_key(p.position), 2}; }
  CanonicalForm canonical_form(const Position& p) const {
    CanonicalForm form{canonical_key(p), {}};
    form.renamed[p.side] = 0;
    form.renamed[1 - p.side] = 1;
    return form;
  }
  Position from_key(Key k) const { return {game_.from_key(k.key), int(k.side)}; }

 private:
  const G& game_;
};

}  // namespace test_support
