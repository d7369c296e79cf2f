// Which Nevsky checkers (shared/games/NEVSKY.md, "Variants"): an N x N grid, 3 <= N <= 8; each
// player's M men on the cells within grid distance k of its corner (M = 1, 3, 6 or 10 for
// k = 0..3); K of them kings "placed from the corner"; free-for-all or pair play.
//   "nevsky"                 the game itself: 6x6, 6 men each, no kings, free-for-all
//   "nevsky:NxN:M"           e.g. "nevsky:4x4:3"
//   "nevsky:NxN:M+K"         K = 0..3 of each player's checkers kings, e.g. "nevsky:6x6:6+2"
//   any of them + ":pairs"   pair play, e.g. "nevsky:6x6:3:pairs", "nevsky:pairs"
// The four groups must not overlap (2k < N - 1), and K is at most M: with 1 man a player, 0 or 1
// king. K kings are the corner checker (K >= 1), the next cell clockwise along the board's edge
// (K >= 2: White 16 and 26 on 6x6) and the other neighbour of the corner (K = 3: White 15).
#pragma once

#include <string>
#include <string_view>

namespace nevsky {

inline constexpr std::string_view kVariantName = "nevsky";
inline constexpr int kMinSize = 3, kMaxSize = 8, kMaxKings = 3;

struct Variant {
  int size = 6;        // N: the grid is N x N
  int men = 6;         // M: checkers each player starts with, kings included
  int kings = 0;       // K: how many of them are kings
  bool pairs = false;  // pair play: White and Green against Red and Black

  // The start group's radius k: the cells within grid distance k of the corner are M cells.
  int radius() const;
  // "nevsky" for the game itself, else "nevsky:NxN:M[+K][:pairs]" (no "+0"): what parse_variant
  // reads back.
  std::string name() const;
  bool operator==(const Variant&) const = default;
};

// True when the text names a Nevsky variant at all ("nevsky" or "nevsky:..."), well formed or not.
bool names_nevsky(std::string_view text);
// Throws ParseError with one line naming the fault and what is accepted.
Variant parse_variant(std::string_view text);
// Throws ParseError when v is not a variant (size, men, kings, overlapping groups).
void check_variant(const Variant& v);

}  // namespace nevsky
