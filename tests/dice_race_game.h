// A toy dice race for the expectimax tests and bench: the smallest game with the shape of
// backgammon's bear-off (chance.h). Two players each have a counter, both starting at `start`,
// to bring to exactly 0. A turn is a roll of one die (a chance position) and then a choice: take
// the roll from one's counter if that does not pass 0, or take 1 and end the turn, or, once a
// turn and with more than 1 left, take 1 and roll again. A small roll is worth trading for a
// second roll, a large one is not, so the choice matters both ways, and the mover keeps the turn
// across a move. The first to reach 0 wins 1 point, or 2 (a "gammon") if the loser's counter is
// still at `gammon_at` or above; the loser loses as much. The die's faces and their weights are
// the game's, so a loaded die tests weights that are not all equal. Every move lowers a counter,
// so the game is acyclic.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rules/common/move_list.h"
#include "solver/chance.h"
#include "tests/small_key.h"

namespace test_support {

struct DieFace {
  int face;
  std::uint32_t weight;
};

class DiceRaceGame {
 public:
  struct Position {
    std::array<int, 2> counter;
    int mover;
    int roll;       // 0 before the mover has rolled: a chance position
    bool rerolled;  // the mover has rolled again this turn
  };
  struct Move {
    int take;
    bool again;  // and roll again
  };
  struct Undo {
    int roll;
    bool rerolled;
  };
  using ChanceOutcome = int;  // the face rolled
  struct ChanceUndo {};
  using Points = std::array<int, 2>;
  using Key = SmallKey;
  using MoveList = common::FixedMoveList<Move, 3>;
  static constexpr int kMaxFaces = 6;
  using ChanceList = common::FixedMoveList<solver::Weighted<ChanceOutcome>, kMaxFaces>;

  DiceRaceGame(int start, int gammon_at, std::vector<DieFace> die)
      : start_(start), gammon_at_(gammon_at), die_(std::move(die)) {
    if (die_.empty() || int(die_.size()) > kMaxFaces) throw std::invalid_argument("die size");
  }
  static std::vector<DieFace> fair_die() {
    return {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}};
  }

  int start_counter() const { return start_; }
  int gammon_at() const { return gammon_at_; }
  const std::vector<DieFace>& die() const { return die_; }
  Position start() const { return {{start_, start_}, 0, 0, false}; }

  int players() const { return 2; }
  int player_to_move(const Position& p) const { return p.mover; }

  bool is_terminal(const Position& p) const { return p.counter[0] == 0 || p.counter[1] == 0; }
  Points terminal_value(const Position& p) const {
    const int winner = p.counter[0] == 0 ? 0 : 1;
    const int points = p.counter[1 - winner] >= gammon_at_ ? 2 : 1;
    Points v;
    v[winner] = points;
    v[1 - winner] = -points;
    return v;
  }

  bool is_chance(const Position& p) const { return p.roll == 0; }
  void chances(const Position&, ChanceList& out) const {
    out.clear();
    for (const DieFace& f : die_) out.push({f.face, f.weight});
  }
  ChanceUndo make_chance(Position& p, ChanceOutcome face) const {
    p.roll = face;
    return {};
  }
  void unmake_chance(Position& p, ChanceOutcome, ChanceUndo) const { p.roll = 0; }

  void generate(const Position& p, MoveList& out) const {
    out.clear();
    const int left = p.counter[p.mover];
    if (p.roll <= left) out.push({p.roll, false});
    if (p.roll != 1) out.push({1, false});
    if (!p.rerolled && left > 1) out.push({1, true});
  }
  std::uint64_t count_moves(const Position& p) const {
    MoveList list;
    generate(p, list);
    return list.size();
  }
  Undo make(Position& p, Move m) const {
    const Undo u{p.roll, p.rerolled};
    p.counter[p.mover] -= m.take;
    p.roll = 0;
    p.rerolled = m.again;
    if (!m.again) p.mover = 1 - p.mover;
    return u;
  }
  void unmake(Position& p, Move m, Undo u) const {
    if (!m.again) p.mover = 1 - p.mover;
    p.counter[p.mover] += m.take;
    p.roll = u.roll;
    p.rerolled = u.rerolled;
  }

  bool keys_fit() const { return start_ < (1 << 20); }
  // The mover's counter, the other's, the roll and the reroll: positions that differ by which
  // player is which share one key, so the solver's rotation of values is exercised.
  Key canonical_key(const Position& p) const {
    return {pack(p.counter[p.mover], p.counter[1 - p.mover], p.roll), 4u | p.rerolled};
  }
  Key raw_key(const Position& p) const {
    return {pack(p.counter[0], p.counter[1], p.roll), std::uint64_t(p.mover) << 1 | p.rerolled};
  }
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  Position from_key(Key k) const {
    if (k.hi > 3) throw std::invalid_argument("from_key: not a raw key");
    return {{int(k.lo >> 40), int(k.lo >> 20 & 0xFFFFF)},
            int(k.hi >> 1),
            int(k.lo & 0xFFFFF),
            bool(k.hi & 1)};
  }

 private:
  static std::uint64_t pack(int a, int b, int roll) {
    return std::uint64_t(a) << 40 | std::uint64_t(b) << 20 | std::uint64_t(roll);
  }

  int start_;
  int gammon_at_;
  std::vector<DieFace> die_;
};

}  // namespace test_support
