// Which Teeko (shared/games/TEEKO.md): the board's side and whether the advanced patterns count.
//   "teeko"                the game itself: 5x5, four pieces a side, 44 patterns
//   "teeko:advanced"       GamesmanOne's variant 1: also the four corners of every square of
//                          side 3 or more (14 more patterns on 5x5)
//   "teeko:NxN", "teeko:NxN:advanced"   the same rules on an NxN board, N from 4 to 7: small
//                          rows that a second solver can check whole (4x4), and larger ones
// Four pieces a side on every board: the patterns are of four squares. N is at most 7 so that both
// sides' squares and the side to move fit a 128-bit key (key.h).
#pragma once

#include <string>
#include <string_view>

namespace teeko {

inline constexpr std::string_view kVariantName = "teeko";
inline constexpr int kMinSize = 4, kMaxSize = 7;

struct Variant {
  int size = 5;  // files = ranks
  bool advanced = false;

  // "teeko", "teeko:advanced", "teeko:4x4", "teeko:6x6:advanced": what parse_variant reads back.
  std::string name() const;
  bool operator==(const Variant&) const = default;
};

// True when the text names Teeko at all ("teeko" or "teeko:..."), well formed or not.
bool names_teeko(std::string_view text);
// Throws ParseError naming the fault: not teeko[:NxN][:advanced], a board that is not square or
// whose side is outside 4..7, anything after "advanced".
Variant parse_variant(std::string_view text);

}  // namespace teeko
