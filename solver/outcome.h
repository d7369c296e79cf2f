// Values of win/loss games without draws (RULES.md): a position is a win or a loss for the side to
// move, with a distance to end (DTE) in plies, the winner hurrying and the loser delaying. The
// winner moves last, so a win always has an odd DTE and a loss an even one: the DTE alone carries
// the value, which lets tables keep one small number per position.
#pragma once

#include <algorithm>
#include <climits>

namespace solver {

inline constexpr bool is_win(int dte) {
  return dte & 1;
}

// A position's DTE from its children's: win in 1 + the quickest losing child if there is one,
// else loss in 1 + the slowest (winning) child; no child at all is a loss with DTE 0.
class DteFold {
 public:
  void add(int child_dte) {
    if (is_win(child_dte))
      slowest_win_ = std::max(slowest_win_, child_dte);
    else
      quickest_loss_ = std::min(quickest_loss_, child_dte);
  }
  int dte() const {
    const int child = deciding_child();
    return child < 0 ? 0 : 1 + child;
  }
  // The DTE of the child that decides: the quickest losing one, else the slowest winning one; -1
  // without children. Adding it alone to a fold gives what adding all the children so far gives,
  // so a position's children can be folded in several sweeps with one number kept in between.
  int deciding_child() const { return quickest_loss_ != INT_MAX ? quickest_loss_ : slowest_win_; }

 private:
  int quickest_loss_ = INT_MAX;
  int slowest_win_ = -1;
};

// DteFold's deciding child as one number carried between children: the deciding child after
// `deciding` (-1: none yet) and one more child, in any order of the children.
inline constexpr int deciding_after(int deciding, int child_dte) {
  if (deciding < 0) return child_dte;
  if (is_win(child_dte)) return is_win(deciding) ? std::max(deciding, child_dte) : deciding;
  return is_win(deciding) ? child_dte : std::min(deciding, child_dte);
}

// What a move gives the side that plays it, from the DTE of the position it leads to: the child's
// loss is the mover's win, and the game then ends 1 + child_dte plies from the parent.
struct MoveOutcome {
  bool win;
  int dte;
};
inline constexpr MoveOutcome move_outcome(int child_dte) {
  return {!is_win(child_dte), 1 + child_dte};
}

}  // namespace solver
