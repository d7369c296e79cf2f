// Values of games with draws: win, draw or loss for the side to move, with a distance to the end
// in plies for wins and losses (the winner hurrying, the loser delaying). Games without draws carry
// their value in the parity of a DTE (outcome.h); once draws exist the value needs its own field,
// and this type is what solvers, commands and tables of such games share. The names are the ones
// JSON output uses.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string_view>

namespace solver {

// Ordered from the side to move's point of view: a greater value is a better one.
enum class Wdl : std::uint8_t { loss, draw, win };

inline constexpr std::string_view wdl_name(Wdl v) {
  switch (v) {
    case Wdl::loss:
      return "loss";
    case Wdl::draw:
      return "draw";
    case Wdl::win:
      return "win";
  }
  return "?";
}

struct WdlValue {
  Wdl wdl = Wdl::draw;
  int distance = 0;  // plies to the end with best play; 0 for a draw (the game never ends)
  friend bool operator==(const WdlValue&, const WdlValue&) = default;
};

// What a move gives the side that plays it, from the value of the position it leads to (whose side
// to move is the opponent): the child's loss in d is the mover's win in 1 + d, and so on.
inline constexpr WdlValue mover_value(WdlValue child) {
  switch (child.wdl) {
    case Wdl::loss:
      return {Wdl::win, 1 + child.distance};
    case Wdl::win:
      return {Wdl::loss, 1 + child.distance};
    case Wdl::draw:
      break;
  }
  return {Wdl::draw, 0};
}

// A position's value from its children's, the retrograde equation of cyclic_retrograde.h one ply
// deep: a win in 1 + the least distance of its losing children if it has one; else a draw if
// some child is drawn; else a loss in 1 + the greatest distance of its children, which all win
// (none at all: a loss in 0). Children's values are their own, for their side to move.
class WdlFold {
 public:
  void add(WdlValue child) {
    if (child.wdl == Wdl::loss)
      quickest_loss_ = std::min(quickest_loss_, child.distance);
    else if (child.wdl == Wdl::draw)
      drawn_ = true;
    else
      slowest_win_ = std::max(slowest_win_, child.distance);
  }
  WdlValue value() const {
    if (quickest_loss_ != INT_MAX) return {Wdl::win, 1 + quickest_loss_};
    if (drawn_) return {Wdl::draw, 0};
    return {Wdl::loss, 1 + slowest_win_};
  }

 private:
  int quickest_loss_ = INT_MAX;
  bool drawn_ = false;
  int slowest_win_ = -1;
};

}  // namespace solver
