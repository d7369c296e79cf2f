// A play: the whole turn a roll allows, as the single-checker steps that make it (up to four, a
// double; none, a forced pass). Plays are told apart by the position they lead to: two step
// sequences that end in the same position are the same play, and the generator lists each
// resulting position once (with the first sequence that reached it).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "rules/nardy/position.h"

namespace nardy {

// Points in the mover's own numbering: from 1..points or kFromBar, to 1..points or kToOff.
inline constexpr std::int8_t kFromBar = 25;
inline constexpr std::int8_t kToOff = 0;

struct Step {
  std::int8_t from = 0, to = 0;
  bool royal = false;  // the checker moved is royal
  bool hit = false;    // it lands on an opposing blot
  friend bool operator==(const Step&, const Step&) = default;
};

struct Move {
  std::array<Step, 4> steps{};
  std::uint8_t count = 0;  // 0: a pass
  friend bool operator==(const Move&, const Move&) = default;
};

// A double's plays from a loose position run to a few hundred; a vector keeps no fixed cap.
class MoveList {
 public:
  void clear() { moves_.clear(); }
  void push(const Move& m) { moves_.push_back(m); }
  int size() const { return int(moves_.size()); }
  bool empty() const { return moves_.empty(); }
  const Move& operator[](int i) const { return moves_[i]; }
  auto begin() const { return moves_.begin(); }
  auto end() const { return moves_.end(); }

 private:
  std::vector<Move> moves_;
};

// make() saves the whole position: a play changes up to eight points, the bars and the counts.
using Undo = Position;

}  // namespace nardy
