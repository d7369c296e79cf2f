// The rules of Nevsky checkers (shared/games/NEVSKY.md) as one object: what solvers in solver/
// see. It satisfies solver::PerftGame, solver::KeyedGame and solver::NamesPlayers (four players).
// Move generation, counting and make/unmake are inline because perft spends its life here.
//
// How NEVSKY.md's rules read here (each a reading of its text; "decision" where it says so):
// - Men step one cell in one of their two forward directions onto an empty cell; kings slide any
//   number of empty cells along a row or column.
// - A man captures by jumping an adjacent opponent checker (any of the four directions) onto the
//   empty cell right behind it; a king flies over empty cells, over exactly one opponent checker,
//   onto any empty cell behind it before the next obstacle. Own checkers, and in pair play the
//   partner's, are never jumped: they block like the board's edge.
// - A captured checker leaves the board at once (its cell is empty for the rest of the move, so
//   it is never jumped twice), and the capturing piece's start cell is empty during the move (a
//   route may cross it or end on it). A capture goes on while the piece can capture from where it
//   stands: only complete routes are moves.
// - Capturing is compulsory for the player, who chooses the piece (decision). A man may take any
//   complete route. A king must take the greatest number of checkers that this king can take
//   (decision: counted among that king's own routes, not the player's), landing anywhere after
//   the last one.
// - A man is crowned only when its move ENDS on its goal corner; passing through it during a
//   capture leaves it a man, and it captures on as a man.
// - One move = (start cell, end cell, set of captured checkers): routes that agree on the three
//   are one move, generated once (Move).
// - After a move the turn passes clockwise; a player with no checkers is skipped, a player with
//   checkers but no legal move leaves and its checkers are taken off (decision), and the turn
//   passes on (give_turn). The game is over when one player is left (pair play: when every player
//   left is of one pair); such a position is terminal, whoever could still move.
//
// What a solver of coalitions (NEVSKY.md, "What solved means") gets from here:
// - players() == 4 and player_to_move(p), the player in 0..3 whose move it is (at a terminal
//   position, the first player holding checkers clockwise from the one the turn was passing to).
// - players_left(p), the players still holding checkers, and coalition_result(left, S), what a
//   finished position is worth to a coalition S: a win when every player left is in S, a loss when
//   none is, else a draw (only in pair play, where both partners of the winning pair may be left
//   and S may hold one of them). Endless play is a draw for every coalition.
// - canonical_form(p): the canonical key and how it renamed the players, so that S's value at p is
//   S-renamed's value at from_key(key) (keys section below).
#pragma once

#include <array>
#include <cstdint>

#include "rules/common/game_types.h"
#include "rules/nevsky/geometry.h"
#include "rules/nevsky/key.h"
#include "rules/nevsky/move.h"
#include "rules/nevsky/position.h"
#include "rules/nevsky/variant.h"

namespace nevsky {

// What a finished position is worth to a coalition (coalition_result).
enum class Result : std::uint8_t { loss, draw, win };

// A canonical key and the renaming of the players that took p to the position it keys:
// renamed[q] is the name player q has there (a permutation of 0..3, renamed[p.to_move] == White).
// The contract a coalition solver relies on: from_key(key) is the image of p under a symmetry
// whose renaming is `renamed`, so its game tree is p's with every player q named renamed[q], and
// the value of coalition S at p is the value of coalition rename(S) at from_key(key).
struct CanonicalForm {
  Key key;
  std::array<Player, kPlayers> renamed;

  // The coalition S (bit q for player q) under the renaming.
  PlayerSet rename(PlayerSet s) const {
    PlayerSet out = 0;
    for (Player q : kAllPlayers)
      if (s & player_bit(q)) out |= player_bit(renamed[q]);
    return out;
  }
};

class Game : public common::GameTypes<nevsky::Position, nevsky::Move, nevsky::MoveList,
                                      nevsky::Undo, nevsky::Key> {
 public:
  // Throws ParseError when v is not a variant (check_variant).
  explicit Game(const Variant& v);

  const Variant& variant() const { return variant_; }
  const Geometry& geometry() const { return geometry_; }
  int size() const { return geometry_.size(); }
  // Every group on its corner, White to move.
  Position start() const { return start_; }

  // --- players ---
  int players() const { return kPlayers; }
  int player_to_move(const Position& p) const { return p.to_move; }
  PlayerSet players_left(const Position& p) const { return p.players_left(); }
  // Over: one player left, or in pair play every player left of one pair (the pair whose
  // opponents are both out has won).
  bool is_finished(PlayerSet left) const {
    if (variant_.pairs) return !(left & kWhiteGreen) || !(left & kRedBlack);
    return (left & (left - 1)) == 0;
  }
  // What a finished position whose players left are `left` is worth to a coalition (NEVSKY.md,
  // "Pair play" and "What solved means"): a win when every player left is in it, a loss when none
  // is, else a draw. In free-for-all one player is left, so it is a win or a loss.
  static Result coalition_result(PlayerSet left, PlayerSet coalition) {
    if (!(left & ~coalition)) return Result::win;
    if (!(left & coalition)) return Result::loss;
    return Result::draw;
  }
  // The turn comes to `player`: the leaving rule is applied from it (players without checkers are
  // skipped, players without a legal move leave, their checkers taken off) until a player with a
  // legal move is to move or the game is over. make() calls it with the next player; the position
  // parser with the player the text names.
  void give_turn(Position& p, Player player) const;
  // Whether `who` has a legal move in p, whoever is to move.
  bool has_move(const Position& p, Player who) const;

  // --- moves ---
  // The moves of the player to move: its captures when it has any, else its steps and slides;
  // none at a terminal position.
  void generate(const Position& p, MoveList& out) const;
  // Number of legal moves without listing steps: perft's last ply.
  std::uint64_t count_moves(const Position& p) const;
  bool is_terminal(const Position& p) const { return is_finished(p.players_left()); }
  Undo make(Position& p, Move m) const;
  void unmake(Position& p, Move, const Undo& u) const { p = u; }

  // The checkers `who` may capture: every other player's, or in pair play its opponents'.
  Bitboard prey(const Position& p, Player who) const {
    Bitboard out = p.occupied() & ~p.checkers(who);
    if (variant_.pairs) out &= ~p.checkers(partner(who));
    return out;
  }
  // Where a king on `cell` slides in direction d: the cells before the first of `obstacles`.
  Bitboard slide(int cell, int d, Bitboard obstacles) const {
    const Bitboard ray = geometry_.ray(cell, d);
    const Bitboard hit = ray & obstacles;
    if (!hit) return ray;
    const int first = Geometry::nearest(hit, d);
    return ray ^ (geometry_.ray(first, d) | cell_bit(first));
  }

  // --- keys (key.h); valid only when keys_fit() ---
  int key_bits() const { return geometry_.cells() + 3 * kPlayers * variant_.men + 2; }
  bool keys_fit() const { return key_bits() <= 128; }
  // Exact key of this position, players as they are.
  Key raw_key(const Position& p) const;
  // The symmetries of Nevsky (NEVSKY.md, "Symmetry") are the quarter turns with the players
  // renamed to follow their corners, and, where at most two players are left, the reflections
  // with the same renaming (they reverse the order of play, which two players do not notice). No
  // symmetry but the identity keeps every player's name, so the least image over the symmetries
  // is the canonical key itself: symmetric_key == canonical_key.
  Key symmetric_key(const Position& p) const { return canonical_key(p); }
  // Equal exactly for positions that are images of each other under the symmetries above, which
  // have isomorphic game trees (the same perft; coalition values equal up to the renaming).
  // Computed as the image whose player to move is White (the quarter turn that brings the mover's
  // corner to White's), or the least of it and its reflection in White's diagonal where at most
  // two players are left.
  Key canonical_key(const Position& p) const { return canonical_form(p).key; }
  CanonicalForm canonical_form(const Position& p) const;
  // Inverse of raw_key; on a canonical key it gives a representative with White to move.
  Position from_key(Key k) const;

 private:
  Bitboard empty_cells(const Position& p) const { return geometry_.board_mask() & ~p.occupied(); }
  bool can_capture(const Position& p, Player who) const;
  // Appends every capture of `who`: each man's complete routes, each king's longest.
  void add_captures(const Position& p, Player who, MoveList& out) const;
  // Depth-first over the routes of one piece that started on `from` and stands on `at`, having
  // taken `captured` (`prey` is what it may still take, `empty` the cells free for it now: the
  // board's empty cells, its start cell and the captured ones). A complete route is pushed unless
  // the piece's moves (out[first..]) hold it already.
  void man_routes(int from, int at, Bitboard captured, Bitboard prey, Bitboard empty, MoveList& out,
                  int first) const;
  // The same for a king, which keeps only its routes taking the most checkers (`best`, the most
  // found so far; a longer route drops the king's shorter ones).
  void king_routes(int from, int at, int count, Bitboard captured, Bitboard prey, Bitboard empty,
                   MoveList& out, int first, int& best) const;
  static void push_unique(MoveList& out, int first, Move m) {
    for (int i = first; i < out.size(); ++i)
      if (out[i] == m) return;
    out.push(m);
  }
  // The key of p seen through cell map `image` (nullptr: the identity), players renamed.
  Key128 packed(const Position& p, const CellMap* image,
                const std::array<Player, kPlayers>& renamed) const;

  Variant variant_;
  Geometry geometry_;
  Position start_;
  // The quarter turns followed by the reflection in White's diagonal (canonical keys).
  std::array<CellMap, 4> turned_and_reflected_{};
};

inline bool Game::can_capture(const Position& p, Player who) const {
  const Geometry& g = geometry_;
  const Bitboard targets = prey(p, who), empty = empty_cells(p);
  const Bitboard men = p.men[who];
  for (int d = 0; d < kDirections; ++d)
    if (g.shift(g.shift(men, d) & targets, d) & empty) return true;
  const Bitboard occupied = p.occupied();
  for (Bitboard kings = p.kings[who]; kings;) {
    const int k = pop_lsb(kings);
    for (int d = 0; d < kDirections; ++d) {
      const Bitboard hit = g.ray(k, d) & occupied;
      if (!hit) continue;
      const int first = Geometry::nearest(hit, d);
      if ((cell_bit(first) & targets) && (g.step(first, d) & empty)) return true;
    }
  }
  return false;
}

inline bool Game::has_move(const Position& p, Player who) const {
  const Geometry& g = geometry_;
  const Bitboard empty = empty_cells(p);
  for (Direction d : forward_directions(who))
    if (g.shift(p.men[who], d) & empty) return true;
  for (int d = 0; d < kDirections; ++d)
    if (g.shift(p.kings[who], d) & empty) return true;
  return can_capture(p, who);
}

inline void Game::man_routes(int from, int at, Bitboard captured, Bitboard prey, Bitboard empty,
                             MoveList& out, int first) const {
  // The cells it can land on, without a branch a direction (they are hard to predict): a jump is
  // a target next to it with an empty cell behind.
  Bitboard land = 0;
  for (int d = 0; d < kDirections; ++d)
    land |= geometry_.jump(at, d) & empty & (Bitboard{0} - ((geometry_.step(at, d) & prey) != 0));
  if (!land) {
    if (captured) push_unique(out, first, Move::capture(from, at, captured));
    return;
  }
  do {
    const int to = pop_lsb(land);
    const Bitboard over = cell_bit((at + to) / 2);  // the cell between: a jump is 2 or 2N apart
    man_routes(from, to, captured | over, prey ^ over, empty | over, out, first);
  } while (land);
}

inline void Game::king_routes(int from, int at, int count, Bitboard captured, Bitboard prey,
                              Bitboard empty, MoveList& out, int first, int& best) const {
  const Geometry& g = geometry_;
  bool complete = true;
  for (int d = 0; d < kDirections; ++d) {
    const Bitboard hit = g.ray(at, d) & ~empty;
    if (!hit) continue;
    const int victim = Geometry::nearest(hit, d);
    const Bitboard over = cell_bit(victim);
    if (!(over & prey)) continue;
    // The landing cells: beyond the victim, up to the next obstacle.
    for (Bitboard land = slide(victim, d, ~empty); land;) {
      complete = false;
      king_routes(from, pop_lsb(land), count + 1, captured | over, prey ^ over, empty | over, out,
                  first, best);
    }
  }
  if (!complete || count == 0 || count < best) return;
  if (count > best) {
    out.truncate(first);
    best = count;
  }
  push_unique(out, first, Move::capture(from, at, captured));
}

inline void Game::add_captures(const Position& p, Player who, MoveList& out) const {
  const Geometry& g = geometry_;
  const Bitboard targets = prey(p, who), empty = empty_cells(p);
  // Men with a jump in some direction: a target next to them with an empty cell behind it.
  Bitboard jumpers = 0;
  for (int d = 0; d < kDirections; ++d) {
    const int back = d ^ 2;
    jumpers |= g.shift(targets & g.shift(empty, back), back);
  }
  for (Bitboard men = p.men[who] & jumpers; men;) {
    const int from = pop_lsb(men);
    man_routes(from, from, 0, targets, empty | cell_bit(from), out, out.size());
  }
  for (Bitboard kings = p.kings[who]; kings;) {
    const int from = pop_lsb(kings);
    int best = 0;
    king_routes(from, from, 0, 0, targets, empty | cell_bit(from), out, out.size(), best);
  }
}

inline void Game::generate(const Position& p, MoveList& out) const {
  out.clear();
  if (is_terminal(p)) return;
  const Player us = p.to_move;
  add_captures(p, us, out);
  if (!out.empty()) return;
  const Geometry& g = geometry_;
  const Bitboard empty = empty_cells(p), occupied = p.occupied();
  for (Direction d : forward_directions(us)) {
    const int back = d ^ 2;
    for (Bitboard to = g.shift(p.men[us], d) & empty; to;) {
      const int cell = pop_lsb(to);
      out.push(Move::step(lsb(g.step(cell, back)), cell));
    }
  }
  for (Bitboard kings = p.kings[us]; kings;) {
    const int from = pop_lsb(kings);
    for (int d = 0; d < kDirections; ++d)
      for (Bitboard to = slide(from, d, occupied); to;) out.push(Move::step(from, pop_lsb(to)));
  }
}

inline std::uint64_t Game::count_moves(const Position& p) const {
  if (is_terminal(p)) return 0;
  const Player us = p.to_move;
  {
    MoveList captures;
    add_captures(p, us, captures);
    if (!captures.empty()) return std::uint64_t(captures.size());
  }
  const Geometry& g = geometry_;
  const Bitboard empty = empty_cells(p), occupied = p.occupied();
  std::uint64_t n = 0;
  for (Direction d : forward_directions(us)) n += popcount(g.shift(p.men[us], d) & empty);
  for (Bitboard kings = p.kings[us]; kings;) {
    const int from = pop_lsb(kings);
    for (int d = 0; d < kDirections; ++d) n += popcount(slide(from, d, occupied));
  }
  return n;
}

inline void Game::give_turn(Position& p, Player player) const {
  for (;;) {
    const PlayerSet left = p.players_left();
    if (is_finished(left)) {
      while (left && !(left & player_bit(player))) player = next_player(player);
      p.to_move = player;
      return;
    }
    if (left & player_bit(player)) {
      if (has_move(p, player)) {
        p.to_move = player;
        return;
      }
      p.men[player] = p.kings[player] = 0;  // blocked: it leaves, its checkers taken off
    }
    player = next_player(player);
  }
}

inline Undo Game::make(Position& p, Move m) const {
  const Undo before = p;
  const Player us = p.to_move;
  const Bitboard from = cell_bit(m.from()), to = cell_bit(m.to()), captured = m.captured();
  // Captured checkers first: a route may end on a cell it emptied, or on its start cell.
  if (captured)
    for (Player q : kAllPlayers) {
      p.men[q] &= ~captured;
      p.kings[q] &= ~captured;
    }
  if (p.kings[us] & from) {
    p.kings[us] = (p.kings[us] & ~from) | to;
  } else {
    p.men[us] &= ~from;
    (m.to() == geometry_.goal(us) ? p.kings : p.men)[us] |= to;
  }
  give_turn(p, next_player(us));
  return before;
}

}  // namespace nevsky
