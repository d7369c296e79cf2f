// Which rook race (shared/games/ROOK-RACE.md): an NxN board, N even from 2 to 8 (the blocks stay
// 2x2, so an even side tiles the board with whole blocks), and P pawns in each side's reserve.
//   "rookrace"          the game itself: 8x8, 8 pawns a side
//   "rookrace:NxN:P"    e.g. "rookrace:4x4:2", "rookrace:6x6:0"
// P is at most 127: a reserve takes 7 bits of the 128-bit key (key.h); no board here holds more
// than 16 pawns of a side, so a bigger reserve would only lengthen play.
#pragma once

#include <string>
#include <string_view>

namespace rookrace {

inline constexpr std::string_view kVariantName = "rookrace";
inline constexpr int kMaxPawns = 127;

struct Variant {
  int size = 8;   // files = ranks
  int pawns = 8;  // in each side's reserve at the start

  // "rookrace" for the default game, else "rookrace:NxN:P": what parse_variant reads back.
  std::string name() const;
  bool operator==(const Variant&) const = default;
};

// True when the text names a rook race at all ("rookrace" or "rookrace:..."), well formed or not.
bool names_rookrace(std::string_view text);
// Throws ParseError naming the fault: not "rookrace" or "rookrace:NxN:P", an odd side or one
// outside 2..8, a board that is not square, P outside 0..127.
Variant parse_variant(std::string_view text);

}  // namespace rookrace
