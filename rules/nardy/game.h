// The rules of Royal Nardy (shared/games/ROYAL-NARDY.md) as one object: what solvers in solver/
// see. It is a dice game in the shape chance.h describes: a position with the dice not rolled is a
// chance position whose outcomes are the 21 rolls; with the dice rolled, the moves are the whole
// plays the roll allows (a forced pass being one), and a play hands the turn over. Points
// (game_value.h) are the seed's score: oin 1, mars 2, home mars and koks 3, shekh 4, the highest
// that applies, and the royal multipliers of rules 6 and 7.
//
// Plays. generate lists every distinct resulting position once: entering from the bar before
// anything else, hitting (a plain checker to the bar, a royal one eaten), royal checkers only onto
// points without a checker of their own, points of two or more checkers of one side closed to
// the other whatever their kinds, bearing off once all of a side's checkers are home (a die above
// the farthest checker bears that one off), doubles played four times, and the maximum use of the
// dice: all of them if any order allows it, else as many as possible, and with one die of two the
// larger if it can be played.
#pragma once

#include <array>
#include <cstdint>

#include "rules/common/game_types.h"
#include "rules/common/key128.h"
#include "rules/nardy/dice.h"
#include "rules/nardy/move.h"
#include "rules/nardy/position.h"

namespace nardy {

class Game : public common::GameTypes<nardy::Position, nardy::Move, nardy::MoveList, nardy::Undo,
                                      common::Key> {
 public:
  using Points = std::array<int, 2>;  // [side], zero-sum
  using ChanceOutcome = Roll;
  struct ChanceUndo {};
  // An outcome and its weight out of kRollsTotalWeight, the shape solver/chance.h asks for.
  struct WeightedOutcome {
    Roll outcome;
    std::uint32_t weight;
  };
  class ChanceList {
   public:
    void clear() { size_ = 0; }
    void push(WeightedOutcome w) { items_[size_++] = w; }
    int size() const { return size_; }
    const WeightedOutcome& operator[](int i) const { return items_[i]; }

   private:
    std::array<WeightedOutcome, kDistinctRolls> items_{};
    int size_ = 0;
  };

  // A board of `points` points, 12..24 (24: the real game); throws ParseError otherwise.
  explicit Game(int points = kMaxPoints);
  int points() const { return points_; }

  int players() const { return 2; }
  int player_to_move(const Position& p) const { return p.side_to_move; }

  // --- chance: the roll ---
  bool is_chance(const Position& p) const { return !p.dice.rolled() && !is_terminal(p); }
  void chances(const Position& p, ChanceList& out) const;
  ChanceUndo make_chance(Position& p, Roll r) const {
    p.dice = r;
    return {};
  }
  void unmake_chance(Position& p, Roll, ChanceUndo) const { p.dice = {}; }

  // --- plays (the dice must be rolled; nothing at a terminal position) ---
  void generate(const Position& p, MoveList& out) const;
  std::uint64_t count_moves(const Position& p) const;
  Undo make(Position& p, const Move& m) const;
  void unmake(Position& p, const Move&, const Undo& u) const { p = u; }

  // --- the end ---
  // A side has no checker left to bear off, or neither side can ever move again.
  bool is_terminal(const Position& p) const;
  // Neither side has a legal step with any die: no roll changes the position any more.
  bool is_locked(const Position& p) const;
  Points terminal_value(const Position& p) const;
  // The short-nardy figure of a win over `loser` (1 oin, 2 mars, 3 home mars or koks, 4 shekh).
  int win_figure(const Position& p, Side loser) const;

  // --- single steps, the unit plays are made of ---
  // Where a checker of s on `from` (own point, or kFromBar) lands with `die`: an own point,
  // kToOff, or -1 if that step is not allowed now. Entering first is the caller's business.
  int target(const Position& p, Side s, int from, bool royal, int die) const;
  // Plays the step for s (whose legality target() checked) and records whether it hit.
  void apply(Position& p, Side s, Step& step) const;
  bool all_home(const Position& p, Side s) const;
  // s's own point of its farthest checker on the board, 0 if none.
  int farthest(const Position& p, Side s) const;
  // Whether s has any legal first step with this die.
  bool can_step(const Position& p, Side s, int die) const;

  // --- keys: valid only when keys_fit(), boards of up to 12 points ---
  // 8 bits a point (owner, royal count, plain count), the bars, borne-off and eaten counts, the
  // side to move and the roll.
  int key_bits() const { return 8 * points_ + 28; }
  bool keys_fit() const { return key_bits() <= 128; }
  Key raw_key(const Position& p) const;
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  // The sides swapped when Black is to move: the rules are the same for both.
  Key canonical_key(const Position& p) const;
  Position from_key(Key k) const;
  // The same position seen with the colours swapped (White's checkers become Black's).
  static Position swapped(const Position& p);

 private:
  int points_;
};

}  // namespace nardy
