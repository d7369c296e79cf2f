// A Royal Nardy position (shared/games/ROYAL-NARDY.md): where each side's plain and royal checkers
// stand, the bar, the borne-off and eaten counts, who moves and whether the dice are rolled.
//
// Each side's checkers are kept in that side's own numbering: index i is its point i + 1, its
// home is points 1..6 and it moves towards point 1 (then off). The two sides number the board in
// opposite directions, so a side's point q is its opponent's point (points + 1 - q). This keeps
// move generation one code path for both sides. The board has 24 points, or 12..24 for the
// shortened boards of small endgames (both homes, fewer outer points); the Game says how many.
// A Position is plain data: every field a byte, so equality and order compare the bytes.
#pragma once

#include <array>
#include <compare>
#include <cstdint>

namespace nardy {

inline constexpr int kMaxPoints = 24;
inline constexpr int kMinPoints = 12;  // both homes and nothing else
inline constexpr int kHomePoints = 6;
inline constexpr int kCheckers = 15;  // per side in the real game
inline constexpr int kPlain = 8;
inline constexpr int kRoyal = 7;

enum Side : std::uint8_t { kWhite = 0, kBlack = 1 };
inline constexpr Side opponent(Side s) {
  return Side(s ^ 1);
}

// Two dice; {0, 0} while not rolled, else high >= low, both 1..6.
struct Roll {
  std::uint8_t high = 0, low = 0;
  bool rolled() const { return high != 0; }
  bool is_double() const { return high == low; }
  friend auto operator<=>(const Roll&, const Roll&) = default;
};

struct Position {
  // [side][q - 1]: that side's checkers on its own point q.
  std::array<std::array<std::uint8_t, kMaxPoints>, 2> plain{}, royal{};
  std::array<std::uint8_t, 2> bar{};    // plain checkers waiting to enter (royal ones are eaten)
  std::array<std::uint8_t, 2> off{};    // borne off, of either kind
  std::array<std::uint8_t, 2> eaten{};  // royal checkers the side has lost for good
  Side side_to_move = kWhite;
  Roll dice;

  int on_point(Side s, int q) const { return plain[s][q - 1] + royal[s][q - 1]; }
  // Checkers still to bear off: on the board or on the bar.
  int in_play(Side s, int points) const {
    int n = bar[s];
    for (int q = 1; q <= points; ++q) n += on_point(s, q);
    return n;
  }
  // Royal checkers the side still has (on the board or borne off): rA and rB of the rules.
  int royals(Side s) const { return kRoyal - eaten[s]; }

  friend auto operator<=>(const Position&, const Position&) = default;
};

}  // namespace nardy
